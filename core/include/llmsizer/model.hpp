// SPDX-License-Identifier: MIT
#pragma once
/// The architecture of a decoder-only language model, and what follows from it: parameter counts and
/// KV-cache bytes per token. Pure functions over a plain struct.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llmsizer/architecture.hpp"
#include "llmsizer/message.hpp"

namespace llmsizer {

struct TensorList;  // tensors.hpp

/// One weight tensor as a GGUF file stores it (gguf.md "tensor_info_t"): what llama.cpp's loader
/// places buffer by buffer (llama_cpp.hpp).
struct GgufTensor {
  std::string name;
  std::vector<std::int64_t> shape;  ///< ggml order: shape[0] is the row (ne[0])
  std::string type;                 ///< ggml type name: "F32", "F16", "Q4_K", "MXFP4", ...
  std::int64_t bytes = 0;           ///< ggml_nbytes
};

/// What mixes tokens in one decoder layer.
enum class MixerKind {
  full_attention,     ///< attends to the whole context: KV cache grows with every token
  sliding_attention,  ///< attends to the last `sliding_window` tokens: KV cache stops at the window
  chunked_attention,  ///< Llama 4 local attention: attends within its `attention_chunk_size`-token chunk
  linear_attention,   ///< linear attention / gated delta net: fixed-size recurrent state, no KV cache
  ssm,                ///< Mamba-style state-space layer: fixed-size conv + SSM state, no KV cache
  none,               ///< no token mixer (Nemotron-H MLP-only layers, DeciLM `no_op` attention)
};

/// True for the softmax-attention kinds (full, sliding, chunked): the ones with a KV cache.
bool is_attention(MixerKind kind);

/// What follows the mixer in one decoder layer.
enum class MlpKind {
  automatic,      ///< dense, or MoE where `is_moe_layer` says so (the MoeSpec layer pattern)
  dense,          ///< a dense MLP of the layer's width
  moe,            ///< routed experts (+ shared experts)
  dense_and_moe,  ///< Gemma 4 26B-A4B: a dense MLP and routed experts side by side, summed
  none,           ///< no MLP (Nemotron-H mamba / attention layers, DeciLM `no_op` FFN)
};

/// The attention of one layer where it differs from the model-wide fields (per-layer KV heads
/// and head dims: Gemma 4 global layers, MiMo-V2-Flash sliding layers, DeciLM/Nemotron-NAS).
/// Zero means "the model-wide value".
struct AttentionShape {
  int q_heads = 0;
  int kv_heads = 0;
  int head_dim = 0;        ///< query and key head dim
  int v_head_dim = 0;      ///< value head dim (MiMo-V2-Flash: 128 against 192 for keys)
  bool v_proj = true;      ///< false: values reuse the key projection (Gemma 4 `attention_k_eq_v`)
  bool owns_kv = true;     ///< false: reuses an earlier layer's K and V (Gemma 3n/4 `num_kv_shared_layers`)
  bool sinks = false;      ///< one learned sink logit per query head (MiMo-V2-Flash sliding layers)
  bool linear_replacement = false;  ///< DeciLM `replace_with_linear`: one hidden × hidden matrix
};

/// DeepSeek sparse attention (DSA) lightning indexer: a small attention that picks the `topk`
/// context tokens each query attends to (DeepSeek-V3.2, GLM-5). 0 heads: none.
struct IndexerSpec {
  int num_heads = 0;   ///< `index_n_heads`
  int head_dim = 0;    ///< `index_head_dim`: the indexer key cached per token and layer
  int topk = 0;        ///< `index_topk`: context tokens each query attends to
};

/// A vision encoder (tower and projector into the text model) of a multimodal checkpoint.
struct VisionSpec {
  std::int64_t params = 0;        ///< tower + projector parameters (also in `ModelSpec::extra_params`)
  /// Which encoder (feature.vision.<kind> names it): "siglip", "siglip_projector", "llama4",
  /// "qwen2_5_vl", "qwen3_vl", "pixtral", "gemma4". Empty: no encoder described.
  std::string kind;
  int layers = 0;                 ///< encoder layers (blocks)
  int tokens_per_image = 0;       ///< fixed count (Gemma 3: 256); 0 when it depends on the image size
  int patch_size = 0;             ///< pixels per patch side
  int merge_size = 1;             ///< patches merged per side into one token (Qwen-VL, Pixtral: 2)
  int default_image_size = 0;     ///< the tower's native side in pixels (Llama 4 tile: 336)
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
  bool router_norm = false;                 ///< Gemma 4: the router's RMSNorm scale over hidden
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
  // Mamba-2 (Nemotron-H, Granite 4.0-H): d_inner = heads × head_dim; B and C shared by groups.
  int mamba_version = 1;
  int mamba_num_heads = 0;
  int mamba_head_dim = 0;
  int mamba_n_groups = 1;
  bool mamba_conv_bias = true;     ///< Jamba `mamba_conv_bias` (default true)
  bool mamba_proj_bias = false;    ///< Jamba `mamba_proj_bias`: biases on in_proj and out_proj
  bool mamba_inner_norms = false;  ///< Jamba: RMSNorms on dt (dt_rank), B and C (d_state each)
};

/** A decoder-only transformer as its `config.json` describes it. Every size is a count of elements.
 *  Built by `model_from_hf_config` (import) or by hand in tests. */
struct ModelSpec {
  std::string id;                  ///< preset id or "custom"
  std::string name;                ///< human name
  std::string hf_repo;             ///< a preset's Hugging Face repository (its `hf_repo`), for launch commands; empty otherwise
  Family family = Family::other;   ///< the architecture's row in kFamilies (architecture.hpp)
  std::string model_type_name;     ///< the config's `model_type` as given (qwen2, gemma3_text, ...), for display only
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
  /// The config's RoPE scaling that extends the trained context (context_limit.hpp): its factor
  /// (1: none, or a kind that already counts in max_position_embeddings: llama3, longrope) and,
  /// for YaRN, the length it scales from (`original_max_position_embeddings`; 0: not given).
  double rope_scaling_factor = 1.0;
  std::int64_t rope_scaling_original_tokens = 0;
  int sliding_window = 0;          ///< window of sliding layers, in tokens (0: none)
  int attention_chunk_size = 0;    ///< chunk of Llama 4 local-attention layers, in tokens (0: none)
  /// One entry per layer; empty means every layer is `full_attention` (or `sliding_attention`
  /// for all layers when `sliding_window > 0` and no pattern is given, Mistral v0.1 style).
  std::vector<MixerKind> layer_mixers;
  /// Per-layer overrides, each empty or one entry per layer.
  std::vector<AttentionShape> layer_attention;   ///< heads and head dims where they differ
  std::vector<std::int64_t> layer_intermediate;  ///< dense MLP width per layer (0: intermediate_size)
  std::vector<MlpKind> layer_mlp;                ///< MLP kind per layer (automatic when empty)
  std::vector<int> layer_norms;                  ///< norms per layer (norms_per_layer when empty)
  bool layer_scalar = false;       ///< Gemma 4: one learned scalar per layer
  MoeSpec moe;
  MlaSpec mla;
  IndexerSpec indexer;
  RecurrentStateSpec recurrent;
  /// DeepSeek-V3 `num_nextn_predict_layers`: multi-token-prediction layers shipped in the checkpoint
  /// but used only for speculative decoding. Not in `count_params().total` (the published 671B
  /// excludes them); their size is `count_params().mtp`.
  int mtp_layers = 0;
  /// DeepSeek-V3 stores copies of the embedding and output head inside each MTP layer; GLM-4.5's
  /// and Qwen3-Next's MTP layers share the model's (see mtp_layer_params in model.cpp).
  bool mtp_embedding_copies = false;
  /// Parameters outside the text decoder (vision tower, audio encoder), counted but not in the
  /// decoder's per-token compute. From the publisher's count or a `vision_config`.
  std::int64_t extra_params = 0;
  VisionSpec vision;               ///< the vision encoder, when the config describes one
  /// The weight format the checkpoint stores, from the config's `quantization_config`
  /// ("awq-int4", "gptq-int4", "fp8-block", ...; a `weights` id of precision.hpp). Empty: 16-bit.
  std::string stored_weights;
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
  /// The tensors of an imported GGUF file, in file order, with their ggml types: what llama.cpp and
  /// Ollama load when the request names no `weights` format. Their types decide what the CPU
  /// backend repacks (llama_cpp.hpp LlamaCppCpu); the file's own mix, not the one llama-quant.cpp
  /// would choose today. Null: not known (the file's bytes are then shared over the tensors).
  /// Shared, so that copying a spec does not copy hundreds of tensors.
  std::shared_ptr<const std::vector<GgufTensor>> file_tensors;
  /// The model's tensor list (tensors.hpp: model_tensors) computed once by whoever built the spec
  /// (the embedded catalog does, for each preset), so that a request does not rebuild hundreds of
  /// named tensors: it was 62% of an estimate's time. Used only while the spec still has the shape
  /// it was computed from (TensorList::matches); null: computed when needed.
  std::shared_ptr<const TensorList> tensor_cache;

  bool has_architecture() const { return hidden_size > 0 && num_layers > 0; }
  MixerKind mixer(int layer) const;
  /// The attention shape of `layer`: its override with every zero filled from the model-wide fields.
  AttentionShape attention(int layer) const;
  /// Dense MLP width of `layer`.
  std::int64_t intermediate(int layer) const;
  /// Tokens an attention layer of `kind` keeps in its KV cache at most (0: unbounded).
  int attention_window(MixerKind kind) const;
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

/** KV-cache elements stored for `context_tokens` of context, summed over the layers that keep a
 *  KV cache (sliding layers stop at their window, chunked layers at their chunk).
 *  Per token and layer: kv_heads × (head_dim + v_head_dim) (2 × kv_heads × head_dim when K and V
 *  match); MLA: kv_lora_rank + qk_rope_head_dim; a DSA indexer adds its key, index_head_dim. */
std::int64_t kv_cache_elements(const ModelSpec& model, std::int64_t context_tokens);

/** Bytes of fixed-size recurrent state per sequence (linear attention / SSM layers), at
 *  `state_bytes_per_element` (fp32 = 4 in the reference implementations). */
std::int64_t recurrent_state_bytes(const ModelSpec& model, int state_bytes_per_element);

/** What every estimate of one model needs from count_params, kv_cache_elements and
 *  recurrent_state_bytes, each of which walks every layer: walked once for the many estimates of
 *  one request (a recommendation's whole catalog, a fit's searches for the longest context and the
 *  largest batch). Walking the layers in each estimate was a visible part of a whole-catalog
 *  recommendation and of an estimate on a device. The sums are exact: the same integers the walks
 *  give. */
struct ModelCounts {
  ParamCounts params;                    ///< count_params(model)
  /// KV-cache elements per token of context, summed over the layers that keep every token.
  std::int64_t kv_elements_per_token = 0;
  /// Layers that keep at most `window` tokens (sliding or chunked attention), by window.
  struct WindowedKv {
    int window = 0;
    std::int64_t elements_per_token = 0;  ///< summed over the layers with this window
  };
  std::vector<WindowedKv> windowed_kv;
  std::int64_t recurrent_state_elements = 0;  ///< per sequence (recurrent_state_bytes(model, 1))
  int moe_layers = 0;                         ///< layers with a mixture-of-experts MLP

  /// kv_cache_elements(model, context_tokens).
  std::int64_t kv_cache_elements(std::int64_t context_tokens) const;
  /// recurrent_state_bytes(model, state_bytes_per_element).
  std::int64_t recurrent_state_bytes(int state_bytes_per_element) const { return recurrent_state_elements * state_bytes_per_element; }
};

/// The counts of `model` (ModelCounts), each layer walked once.
ModelCounts count_model(const ModelSpec& model);

/// True when layer `layer` has a mixture-of-experts MLP.
bool is_moe_layer(const ModelSpec& model, int layer);

/// The MLP kind of `layer` with `automatic` resolved (dense or moe).
MlpKind mlp_kind(const ModelSpec& model, int layer);

/** Image tokens one image of `width` × `height` pixels takes in the context: the fixed count of
 *  towers that resize every image (Gemma 3: 256), else (side / patch / merge)² per side rounded
 *  up (Qwen3-VL, Pixtral), and for Llama 4 144 per 336-pixel tile plus a global tile. 0 when the
 *  model has no vision encoder. */
std::int64_t image_tokens(const ModelSpec& model, int width, int height);

/** Short sentences naming the architecture features that change memory or speed, with their
 *  effect ("GQA 28:4 — KV cache 7× smaller than MHA", "40 of 48 layers use a 1024-token window").
 *  Deterministic text: the same natively and in WASM. Empty for a bare parameter count. */
std::vector<Message> describe_features(const ModelSpec& model);

}  // namespace llmsizer
