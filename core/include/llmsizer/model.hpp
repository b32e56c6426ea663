// SPDX-License-Identifier: MIT
#pragma once
/// The architecture of a decoder-only language model, and what follows from it: parameter counts and
/// KV-cache bytes per token. Pure functions over a plain struct.
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/message.hpp"

namespace llmsizer {

/// What mixes tokens in one decoder layer.
enum class MixerKind {
  full_attention,     ///< attends to the whole context: KV cache grows with every token
  sliding_attention,  ///< attends to the last `sliding_window` tokens: KV cache stops at the window
  linear_attention,   ///< linear attention / gated delta net: fixed-size recurrent state, no KV cache
  ssm,                ///< Mamba-style state-space layer: fixed-size conv + SSM state, no KV cache
};

/// Mixture-of-experts MLP. `num_experts == 0` means every MLP is dense.
struct MoeSpec {
  int num_experts = 0;                      ///< routed experts per MoE layer
  int experts_per_token = 0;                ///< top-k routed experts used by each token
  std::int64_t expert_intermediate_size = 0;  ///< hidden width of one routed expert
  int num_shared_experts = 0;               ///< experts every token goes through (DeepSeek, Qwen2-MoE)
  std::int64_t shared_expert_intermediate_size = 0;  ///< width of one shared expert
  bool shared_expert_gate = false;          ///< Qwen2-MoE: a sigmoid gate (hidden → 1) on the shared expert
  int first_dense_layers = 0;               ///< DeepSeek `first_k_dense_replace`: leading layers keep a dense MLP
  /// Layer i (at or after `first_dense_layers`) is MoE when i % moe_layer_period == moe_layer_offset:
  /// Qwen `decoder_sparse_step` s → period s, offset s − 1; DeepSeek `moe_layer_freq` f → period f,
  /// offset 0; Jamba `expert_layer_period` / `expert_layer_offset` as given.
  int moe_layer_period = 1;
  int moe_layer_offset = 0;
  std::vector<int> dense_layers;            ///< Qwen-MoE `mlp_only_layers`: these layers keep a dense MLP
  bool router_bias = false;                 ///< gpt-oss router bias; DeepSeek-V3 `e_score_correction_bias`
  bool expert_bias = false;                 ///< gpt-oss: expert projections have biases
};

/// DeepSeek multi-head latent attention. `kv_lora_rank == 0` means ordinary attention.
struct MlaSpec {
  int q_lora_rank = 0;        ///< 0: queries use a full-rank projection
  int kv_lora_rank = 0;       ///< compressed KV width cached per token and layer
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;   ///< decoupled RoPE key, also cached per token and layer
  int v_head_dim = 0;
};

/// Fixed-size recurrent state of linear-attention / SSM layers (bytes per sequence and layer come
/// from these in model.cpp).
struct RecurrentStateSpec {
  // Linear attention (Qwen3-Next gated delta net): state = heads × key_dim × value_dim per layer.
  int linear_num_key_heads = 0;
  int linear_num_value_heads = 0;
  int linear_key_head_dim = 0;
  int linear_value_head_dim = 0;
  int linear_conv_kernel_dim = 0;
  // Mamba: state = d_inner × d_state (+ conv d_inner × (d_conv − 1)).
  std::int64_t mamba_d_inner = 0;
  int mamba_d_state = 0;
  int mamba_d_conv = 0;
  int mamba_dt_rank = 0;
  bool mamba_conv_bias = true;     ///< Jamba `mamba_conv_bias` (default true)
  bool mamba_proj_bias = false;    ///< Jamba `mamba_proj_bias`: biases on in_proj and out_proj
  bool mamba_inner_norms = false;  ///< Jamba: RMSNorms on dt (dt_rank), B and C (d_state each)
};

/** A decoder-only transformer as its `config.json` describes it. Every size is a count of elements.
 *  Built by `model_from_hf_config` (import) or by hand in tests. */
struct ModelSpec {
  std::string id;                  ///< preset id or "custom"
  std::string name;                ///< human name
  std::string model_type;          ///< Hugging Face `model_type` (qwen2, llama, gemma3_text, ...)
  std::int64_t hidden_size = 0;
  int num_layers = 0;
  int num_attention_heads = 0;
  int num_kv_heads = 0;            ///< GQA groups; == heads for MHA, 1 for MQA
  int head_dim = 0;                ///< explicit `head_dim`, else hidden_size / heads
  std::int64_t intermediate_size = 0;  ///< dense MLP width
  std::int64_t vocab_size = 0;
  bool tie_word_embeddings = false;
  bool qkv_bias = false;           ///< biases on q, k, v projections (Qwen2, Qwen2.5)
  bool o_bias = false;             ///< bias on the output projection
  bool mlp_bias = false;
  bool gated_mlp = true;           ///< SwiGLU/GeGLU: gate + up + down; false: up + down
  bool qk_norm = false;            ///< RMSNorm on q and k (Qwen3, Gemma 3: per head; OLMo 2: full width)
  bool qk_norm_full_width = false; ///< OLMo 2: q_norm over heads × head_dim, k_norm over kv_heads × head_dim
  bool attention_output_gate = false;  ///< Qwen3-Next gated attention: q_proj also emits a per-channel gate
  bool attention_sinks = false;    ///< gpt-oss: one learned sink logit per attention head and layer
  bool embedding_scaled = false;   ///< Gemma: embeddings multiplied by √hidden_size (no parameters)
  bool norm_has_bias = false;      ///< LayerNorm (weight + bias) vs RMSNorm (weight only)
  int norms_per_layer = 2;         ///< Gemma 2/3 use 4 (pre and post, attention and MLP)
  std::int64_t max_position_embeddings = 0;
  int sliding_window = 0;          ///< window of sliding layers, in tokens (0: none)
  /// One entry per layer; empty means every layer is `full_attention` (or `sliding_attention`
  /// for all layers when `sliding_window > 0` and no pattern is given, Mistral v0.1 style).
  std::vector<MixerKind> layer_mixers;
  MoeSpec moe;
  MlaSpec mla;
  RecurrentStateSpec recurrent;
  /// DeepSeek-V3 `num_nextn_predict_layers`: multi-token-prediction layers shipped in the checkpoint
  /// but used only for speculative decoding. Not in `count_params().total` (the published 671B
  /// excludes them); their size is `count_params().mtp`.
  int mtp_layers = 0;
  /// Parameters outside the text decoder (vision tower, audio encoder), counted but not in the
  /// decoder's per-token compute. From the publisher's count or a `vision_config`.
  std::int64_t extra_params = 0;
  int vision_tower_layers = 0;     ///< `extra_params` hold a SigLIP vision tower of this many layers (0: unnamed encoders)
  bool multimodal_projector = false;  ///< ... and a projector into the text model (Gemma 3)
  /// When only a parameter count is known (`{"params": N}`): the count, and no architecture. With
  /// an architecture (`{"config": ..., "params": N}`, e.g. from a weights file's header) it replaces
  /// the computed total: the file's exact count wins over the formula.
  std::int64_t params_override = 0;
  /// `{"params": N, "layers": L, "hidden_size": H}`: the shape is an assumption (multi-head
  /// attention, a 4H MLP, a 32,000-token vocabulary) that sizes the KV cache and activations only;
  /// the weights stay one lump of N.
  bool shape_assumed = false;
  /// Exact bytes of the weights as stored in an imported file (safetensors/GGUF header): used
  /// instead of params × bytes per parameter when the request names no `weights` format. 0: unknown.
  std::int64_t file_weight_bytes = 0;
  std::string file_weights_format;  ///< what the file stores ("BF16", "Q4_K_M", "mixed: Q4_K 62%, Q6_K 21%, ...")

  bool has_architecture() const { return hidden_size > 0 && num_layers > 0; }
  MixerKind mixer(int layer) const;
};

/** Parameter counts, exact for a known architecture. */
struct ParamCounts {
  std::int64_t total = 0;        ///< everything stored (all experts, embeddings, extra towers)
  std::int64_t active = 0;       ///< used per token (top-k experts + shared); == total for dense
  std::int64_t embedding = 0;    ///< input embedding table (vocab × hidden)
  std::int64_t lm_head = 0;      ///< output projection; 0 when tied to the embedding
  std::int64_t per_layer_attention = 0;  ///< summed over all layers
  std::int64_t per_layer_mlp = 0;        ///< summed over all layers, all experts
  std::int64_t norms = 0;
  std::int64_t extra = 0;        ///< vision tower / projector (`ModelSpec::extra_params`)
  std::int64_t mtp = 0;          ///< multi-token-prediction layers, not in `total`
};

/** Counts the parameters of `model` from its architecture (or returns `params_override`).
 *  Qwen2.5-7B-Instruct = 7,615,616,512 (its safetensors index / model card). */
ParamCounts count_params(const ModelSpec& model);

/** KV-cache elements stored per token of context, summed over the layers that keep a growing KV
 *  cache, for `context_tokens` of context (sliding layers stop at their window).
 *  Dense attention: 2 × kv_heads × head_dim per layer; MLA: kv_lora_rank + qk_rope_head_dim. */
std::int64_t kv_cache_elements(const ModelSpec& model, std::int64_t context_tokens);

/** Bytes of fixed-size recurrent state per sequence (linear attention / SSM layers), at
 *  `state_bytes_per_element` (fp32 = 4 in the reference implementations). */
std::int64_t recurrent_state_bytes(const ModelSpec& model, int state_bytes_per_element);

/// True when layer `layer` has a mixture-of-experts MLP.
bool is_moe_layer(const ModelSpec& model, int layer);

/** Short sentences naming the architecture features that change memory or speed, with their
 *  effect ("GQA 28:4 — KV cache 7× smaller than MHA", "40 of 48 layers use a 1024-token window").
 *  Deterministic text: the same natively and in WASM. Empty for a bare parameter count. */
std::vector<Message> describe_features(const ModelSpec& model);

}  // namespace llmsizer
