// SPDX-License-Identifier: MIT
#pragma once
// llama.cpp's compute buffer, worked out the way llama.cpp works it out: the graph of one
// micro-batch is built node by node as llama.cpp builds it (src/llama-graph.cpp and
// src/models/<arch>.cpp, with ggml's shape rules from ggml/src/ggml.c), ordered as
// ggml_build_forward_expand orders it, and laid out by a copy of ggml's graph allocator
// (ggml/src/ggml-alloc.c: in-place reuse of a parent's memory, best-fit free blocks, the end of
// the buffer as the last block). The buffer llama.cpp allocates is that allocator's high-water
// mark. Private to the core: llama_cpp.cpp is its only user.
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/architecture.hpp"

namespace llmsizer::llama_cpp_graph {

/// The model and micro-batch one graph is built for (names as in llama.cpp's llama_hparams and
/// llama_cparams).
struct GraphParams {
  LlamaCppGraph graph = LlamaCppGraph::llama;  ///< the architecture's graph builder (architecture.hpp)
  int n_layer = 0;
  std::int64_t n_embd = 0;
  std::int64_t n_head = 0;
  std::int64_t n_head_kv = 0;
  std::int64_t n_embd_head_k = 0;  ///< per-head key width (MLA: kv_lora_rank + rope)
  std::int64_t n_embd_head_v = 0;  ///< per-head value width (MLA: kv_lora_rank)
  std::int64_t n_ff = 0;
  std::int64_t n_vocab = 0;
  std::vector<bool> is_swa;        ///< per layer: sliding-window layer (its own cache and mask)
  bool qkv_bias = false;
  bool o_bias = false;
  bool qk_norm = false;
  // Mixture of experts.
  std::int64_t n_expert = 0;
  std::int64_t n_expert_used = 0;
  std::int64_t n_ff_exp = 0;
  std::int64_t n_ff_shexp = 0;     ///< all shared experts together (deepseek2)
  int n_layer_dense_lead = 0;
  bool exp_probs_b = false;        ///< deepseek2 V3: expert selection bias
  bool expert_weights_norm = false;
  // DeepSeek MLA.
  std::int64_t kv_lora_rank = 0;
  std::int64_t q_lora_rank = 0;
  std::int64_t n_embd_head_qk_rope = 0;
  std::int64_t n_embd_head_k_mla = 0;  ///< nope + rope
  std::int64_t n_embd_head_v_mla = 0;
  bool final_logit_softcap = false;    ///< gemma2
  bool attn_logit_softcap = false;     ///< gemma2 (attention scores; not with flash attention)

  // The micro-batch and the cache it attends to.
  std::int64_t n_tokens = 0;       ///< tokens of the ubatch (a multiple of n_seqs)
  std::int64_t n_outputs = 0;      ///< rows of logits computed
  std::int64_t n_seqs = 1;         ///< sequences in the ubatch (the mask's streams when not unified)
  std::int64_t n_stream = 1;       ///< KV streams (1 when unified)
  bool kv_unified = false;
  std::int64_t kv_size = 0;        ///< cells of the full-attention cache per stream (n_kv at reserve)
  std::int64_t kv_size_swa = 0;    ///< cells of the sliding-window cache per stream
  bool flash_attn = false;
  int type_k = 1;                  ///< ggml type id of the K cache (1: F16)
  int type_v = 1;                  ///< ggml type id of the V cache
};

/// Bytes ggml's allocator needs for the graph of one micro-batch on one CPU buffer (alignment 32).
std::int64_t compute_buffer_bytes(const GraphParams& params);
/// The same from the graph of every layer (compute_buffer_bytes builds a shorter graph with the
/// same high-water mark; this one is the reference it is checked against).
std::int64_t compute_buffer_bytes_all_layers(const GraphParams& params);

/** Bytes of the graph's inputs (token ids, embeddings, positions, cache indices, masks, output
 *  ids) and of the token-embedding lookup: what the CPU's buffer holds when every layer runs on a
 *  GPU (ggml-backend.cpp ggml_backend_sched_backend_id_from_cur: "graph input" goes to the last
 *  backend, the CPU; token_embd stays on the CPU, so its get_rows runs there). */
std::int64_t input_bytes(const GraphParams& params);
/// The same from the graph of every layer (the reference input_bytes is checked against).
std::int64_t input_bytes_all_layers(const GraphParams& params);

/// compute_buffer_bytes and input_bytes of one graph, from one build of it.
struct GraphBytes {
  std::int64_t compute = 0;
  std::int64_t inputs = 0;
};
GraphBytes graph_bytes(const GraphParams& params);

/** The nodes of the graph a backend dispatches, one kernel each: every node but the layout-only
 *  ones (VIEW, RESHAPE, PERMUTE, TRANSPOSE) and the leaves, as ggml-cuda's graph compute skips them
 *  (ggml/src/ggml-cuda/ggml-cuda.cu evaluate_and_capture_cuda_graph: `if (ggml_is_empty(node) ||
 *  node->op == GGML_OP_RESHAPE || ... || node->op == GGML_OP_NONE) continue;`) and ggml-metal
 *  encodes them as no-ops (ggml-metal-ops.cpp ggml_metal_op_encode_impl: NONE, RESHAPE, VIEW,
 *  TRANSPOSE, PERMUTE "noop"). Counted over every layer, from shortened graphs (two small builds). */
struct DispatchedNodes {
  std::int64_t all = 0;
  /// Of them, the matrix products and flash attention (MUL_MAT, MUL_MAT_ID, FLASH_ATTN_EXT): the
  /// kernels that stream the weights or the cache.
  std::int64_t streaming = 0;
};
DispatchedNodes dispatched_nodes(const GraphParams& params);

/** compute_buffer_bytes where it may exceed `floor`; where the graph's tensors together take at
 *  most `floor` bytes, their sum instead (at most `floor`, at least the buffer): the graph is then
 *  not laid out. For a max() with a buffer already known, as llama.cpp's token-generation graph
 *  beside its prompt graph. `tensors_sum`, where given, gets that sum either way.
 *  The sum never falls as the cache grows (kv_size, kv_size_swa), the rest of the micro-batch the
 *  same: no builder here chooses a node by the cache's size, and a tensor that depends on it (the
 *  KQ mask, the attention scores, a copy of V transposed) has the cells as one of its dimensions,
 *  in a type of one element per block (F32, F16). So a sum known over a larger cache bounds it. */
std::int64_t compute_buffer_bytes_above(const GraphParams& params, std::int64_t floor, std::int64_t* tensors_sum = nullptr);

}  // namespace llmsizer::llama_cpp_graph
