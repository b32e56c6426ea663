// SPDX-License-Identifier: MIT
#pragma once
/// Model families: one row per architecture, with its names in Hugging Face transformers, in GGUF
/// files and in llama.cpp, and the rules its config class leaves unsaid (defaults the config does
/// not spell out, which linears carry biases, how q and k are normalised, norms per layer). The
/// config reader (config_import.cpp) reads fields; what a family implies comes from here. Pure data.
#include <array>
#include <cstdint>
#include <string_view>

namespace llmsizer {

/// A model architecture, as one row of kFamilies. `other`: a model_type this table does not know
/// (read from its config fields alone).
enum class Family {
  other,
  llama, mistral, mixtral, llama4,
  qwen2, qwen2_moe, qwen2_vl, qwen2_5_vl, qwen3, qwen3_moe, qwen3_next, qwen3_vl, qwen3_5,
  gemma, gemma2, gemma3, gemma3n, gemma4,
  phi3, olmo2, olmo3,
  deepseek_v2, deepseek_v3, deepseek_v32, kimi_k2, glm4_moe, glm_moe_dsa,
  gpt_oss, minimax_m2, mimo_v2_flash, exaone4, cohere, cohere2, falcon,
  jamba, nemotron_h, nemotron_nas, granite_moe_hybrid,
  internlm2, smollm3, ministral3,
};

/// The llama.cpp graph builder whose compute graph llama_cpp_graph.cpp builds for a family
/// (llama.cpp v0.5.0 src/models/<file>.cpp). `none`: no graph of its own here (llama_cpp.cpp
/// takes the nearest: deepseek2's for MLA, else llama's).
enum class LlamaCppGraph {
  none,
  llama,       ///< src/models/llama.cpp, qwen2.cpp, qwen3.cpp, qwen3moe.cpp: one shape of graph
  gemma,       ///< src/models/gemma2-iswa.cpp, gemma3-iswa.cpp: pre and post norms, sliding cache
  phi3,        ///< src/models/phi3.cpp: fused qkv and gate-up
  deepseek2,   ///< src/models/deepseek2.cpp: MLA with the latent cache
  openai_moe,  ///< src/models/openai-moe.cpp (gpt-oss): sinks, alternating sliding layers
};

/// Which linears of the attention carry biases.
enum class AttentionBias {
  from_config,      ///< `attention_bias` (or Falcon's `bias`) puts biases on q, k, v and o
  qkv,              ///< always on q, k and v, never on o (Qwen2: modeling_qwen2.py q_proj bias=True)
  qkv_from_config,  ///< `attention_bias` on q, k and v only (GLM-4.5: modeling_glm4_moe.py)
};

/// Normalisation of queries and keys before attention.
enum class QkNorm {
  from_config,             ///< `use_qk_norm` / `qk_layernorm`: an RMSNorm per head
  from_config_full_width,  ///< the same flags, over heads × head_dim
  per_head,                ///< always, RMSNorm(head_dim)
  full_width,              ///< always, RMSNorm(heads × head_dim)
  weightless,              ///< Llama 4: an L2 norm with no weights, whatever `use_qk_norm` says
};

/// Whether the layer norms carry a bias (LayerNorm) or not (RMSNorm).
enum class NormBias {
  none,
  from_config,  ///< `layer_norm_bias` (Cohere2Config)
  always,       ///< LayerNorm with weight and bias (Falcon)
};

/// Which layers slide when the config gives a `sliding_window` and no `layer_types`.
enum class WindowLayers {
  every_layer,             ///< all of them (Mistral v0.1, Phi-3)
  alternating,             ///< layer i slides when i is even (Gemma 2)
  pattern,                 ///< layer i slides unless (i + 1) % sliding_window_pattern == 0 (Gemma 3, Cohere2)
  from_max_window_layers,  ///< only with `use_sliding_window`, from layer max_window_layers on (Qwen)
};

/// The vision towers whose parameters the file reader counts (each one's rule and its source:
/// core/src/edge/model_files/config_vision.cpp).
enum class VisionTower { none, siglip, llama4, qwen2_5_vl, qwen3_vl, pixtral, gemma4 };

/// The `model_type`s a `vision_config` names for one tower. Unused slots are empty.
struct VisionTowerRow {
  VisionTower tower;
  std::array<std::string_view, 5> model_types;
};

/** Every tower the reader counts, by the `model_type` of its `vision_config`: transformers
 *  models/<family>/configuration_<family>.py, the vision config class's `model_type`. */
inline constexpr VisionTowerRow kVisionTowers[] = {
    // SiglipVisionConfig (models/siglip): Gemma 3's tower.
    {VisionTower::siglip, {"siglip_vision_model"}},
    // Llama4VisionConfig (models/llama4).
    {VisionTower::llama4, {"llama4_vision_model"}},
    // Qwen2_5_VLVisionConfig (models/qwen2_5_vl) names itself "qwen2_5_vl".
    {VisionTower::qwen2_5_vl, {"qwen2_5_vl"}},
    // Qwen3VLVisionConfig, Qwen3VLMoeVisionConfig (models/qwen3_vl, qwen3_vl_moe) and the Qwen3.5
    // configs' vision_config names (Qwen3.5 and Qwen3.5-MoE config.json on Hugging Face).
    {VisionTower::qwen3_vl, {"qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_vision", "qwen3_5_moe"}},
    // PixtralVisionConfig (models/pixtral): Mistral 3's tower.
    {VisionTower::pixtral, {"pixtral"}},
    // Gemma4VisionConfig (models/gemma4).
    {VisionTower::gemma4, {"gemma4_vision"}},
};

/// One config value a family's config class has by default (an integer or a boolean).
struct ClassDefault {
  std::string_view key;
  std::int64_t value;
  bool boolean;
};

/** transformers' Gemma3TextConfig defaults (models/gemma3/configuration_gemma3.py, transformers
 *  4.50): published Gemma 3 configs list in `text_config` only the values that differ. */
inline constexpr ClassDefault kGemma3TextDefaults[] = {
    {"vocab_size", 262208, false},          {"hidden_size", 2304, false},
    {"intermediate_size", 9216, false},     {"num_hidden_layers", 26, false},
    {"num_attention_heads", 8, false},      {"num_key_value_heads", 4, false},
    {"head_dim", 256, false},               {"max_position_embeddings", 131072, false},
    {"sliding_window", 4096, false},        {"sliding_window_pattern", 6, false},
    {"tie_word_embeddings", 1, true},
};

/** FalconConfig defaults (transformers models/falcon/configuration_falcon.py):
 *  max_position_embeddings 2048, ffn_hidden_size None = 4 × hidden_size (FalconMLP). The first
 *  Falcon-40B config (remote-code RWConfig, model_type "RefinedWeb") implies the new decoder
 *  architecture (NeMo convert_falcon_hf_to_nemo.py load_falcon_config). */
struct FalconDefaults {
  static constexpr std::int64_t max_position_embeddings = 2048;
  static constexpr std::int64_t mlp_width_per_hidden = 4;
  static constexpr std::string_view new_decoder_model_type = "RefinedWeb";
};

/** One family. Built row by row with the `with_...` setters so that each row names only what
 *  differs from a Llama-style decoder (untied, RMSNorm, two norms a layer, gated MLP). */
struct FamilyTraits {
  Family family = Family::other;
  /// Hugging Face `model_type`s (configuration_*.py `model_type = ...`); the first is the one a
  /// GGUF file of this family is read as. Unused slots are empty.
  std::array<std::string_view, 4> model_types{};
  std::string_view gguf_architecture;  ///< llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES; empty: not known here
  bool read_from_gguf = false;         ///< a GGUF file of gguf_architecture is read as this family
  bool one_name = false;               ///< every model_type is reported as the first (Falcon's RefinedWeb names)
  LlamaCppGraph llama_cpp_graph = LlamaCppGraph::none;
  bool llama_cpp_sliding_cache = false;  ///< llama.cpp caches sliding layers apart (swa_type STANDARD)
  bool tie_word_embeddings = false;      ///< the config class's default
  bool embedding_scaled = false;         ///< embeddings × √hidden_size (no parameters)
  AttentionBias attention_bias = AttentionBias::from_config;
  QkNorm qk_norm = QkNorm::from_config;
  bool attention_output_gate = false;    ///< q_proj also emits a per-channel gate
  bool attention_sinks = false;          ///< one learned sink logit per head and layer
  bool gated_mlp = true;
  int norms_per_layer = 2;
  NormBias norm_bias = NormBias::none;
  WindowLayers window_layers = WindowLayers::every_layer;
  std::int64_t window_pattern = 0;       ///< WindowLayers::pattern: its default period
  bool moe_router_bias = false;          ///< the router has a bias (noaux_tc's e_score_correction_bias, gpt-oss)
  bool moe_expert_bias = false;          ///< experts' linears carry biases
  bool mtp_embedding_copies = false;     ///< each MTP layer holds its own embedding and head
  /// The tower of a `vision_config` that names no model_type of its own (the first Qwen2.5-VL configs).
  VisionTower unnamed_vision_tower = VisionTower::none;
  bool siglip_projector = false;         ///< a SigLIP tower feeds Gemma3MultiModalProjector
  const ClassDefault* class_defaults = nullptr;  ///< filled in where the config leaves them out
  std::size_t class_default_count = 0;

  constexpr FamilyTraits named(Family f, std::array<std::string_view, 4> types) const { auto r = *this; r.family = f; r.model_types = types; return r; }
  constexpr FamilyTraits with_gguf(std::string_view arch, bool read_back, LlamaCppGraph graph = LlamaCppGraph::none) const {
    auto r = *this; r.gguf_architecture = arch; r.read_from_gguf = read_back; r.llama_cpp_graph = graph; return r;
  }
  constexpr FamilyTraits with_one_name() const { auto r = *this; r.one_name = true; return r; }
  constexpr FamilyTraits with_sliding_cache() const { auto r = *this; r.llama_cpp_sliding_cache = true; return r; }
  constexpr FamilyTraits with_tied_embeddings() const { auto r = *this; r.tie_word_embeddings = true; return r; }
  constexpr FamilyTraits with_scaled_embedding() const { auto r = *this; r.embedding_scaled = true; return r; }
  constexpr FamilyTraits with_attention_bias(AttentionBias b) const { auto r = *this; r.attention_bias = b; return r; }
  constexpr FamilyTraits with_qk_norm(QkNorm n) const { auto r = *this; r.qk_norm = n; return r; }
  constexpr FamilyTraits with_output_gate() const { auto r = *this; r.attention_output_gate = true; return r; }
  constexpr FamilyTraits with_sinks() const { auto r = *this; r.attention_sinks = true; return r; }
  constexpr FamilyTraits with_plain_mlp() const { auto r = *this; r.gated_mlp = false; return r; }
  constexpr FamilyTraits with_norms(int per_layer, NormBias bias = NormBias::none) const {
    auto r = *this; r.norms_per_layer = per_layer; r.norm_bias = bias; return r;
  }
  constexpr FamilyTraits with_windows(WindowLayers w, std::int64_t pattern = 0) const { auto r = *this; r.window_layers = w; r.window_pattern = pattern; return r; }
  constexpr FamilyTraits with_router_bias() const { auto r = *this; r.moe_router_bias = true; return r; }
  constexpr FamilyTraits with_expert_bias() const { auto r = *this; r.moe_expert_bias = true; return r; }
  constexpr FamilyTraits with_mtp_embedding_copies() const { auto r = *this; r.mtp_embedding_copies = true; return r; }
  constexpr FamilyTraits with_unnamed_vision_tower(VisionTower t) const { auto r = *this; r.unnamed_vision_tower = t; return r; }
  constexpr FamilyTraits with_siglip_projector() const { auto r = *this; r.siglip_projector = true; return r; }
  template <std::size_t N>
  constexpr FamilyTraits with_class_defaults(const ClassDefault (&defaults)[N]) const {
    auto r = *this; r.class_defaults = defaults; r.class_default_count = N; return r;
  }
};

namespace family_rows {
using T = FamilyTraits;
using G = LlamaCppGraph;
// A Llama-style decoder: LlamaConfig, MistralConfig, Qwen2Config, Phi3Config, DeepseekV3Config,
// GptOssConfig and JambaConfig default to tie_word_embeddings=False; RMSNorm before attention and
// before the MLP (modeling_llama.py LlamaDecoderLayer); a gated MLP of gate, up and down.
inline constexpr T kDecoder{};
// Qwen: q, k, v biases in Qwen1.5/2/2.5 (modeling_qwen2.py q_proj bias=True, o_proj bias=False);
// `sliding_window` is used only with `use_sliding_window`, from layer max_window_layers on
// (configuration_qwen2.py layer_types). Qwen3 and its MoE, Next, VL and 3.5 variants normalise
// each head's q and k (modeling_qwen3.py q_norm = RMSNorm(head_dim)).
inline constexpr T kQwen = kDecoder.with_windows(WindowLayers::from_max_window_layers);
inline constexpr T kQwen2 = kQwen.with_attention_bias(AttentionBias::qkv);
inline constexpr T kQwen3 = kQwen.with_qk_norm(QkNorm::per_head);
// Gemma: GemmaConfig, Gemma2Config, Gemma3TextConfig tie_word_embeddings=True; GemmaModel scales
// the embeddings by √hidden_size. Gemma 2 to 4 put norms before and after attention and MLP
// (modeling_gemma2.py: input, post_attention, pre_feedforward, post_feedforward layernorms).
inline constexpr T kGemma = kDecoder.with_tied_embeddings().with_scaled_embedding();
inline constexpr T kGemma2On = kGemma.with_norms(4);
// DeepSeek-V3's noaux_tc router: gate.e_score_correction_bias (modeling_deepseek.py, V3 only; the
// same router in Kimi K2, DeepSeek-V3.2, GLM-4.5/5, MiniMax-M2, MiMo-V2-Flash, Nemotron-H MoE).
inline constexpr T kNoauxRouter = kDecoder.with_router_bias();
}  // namespace family_rows

/** Every family. Names: transformers models/<family>/configuration_<family>.py `model_type`;
 *  llama.cpp (v0.5.0) src/llama-arch.cpp LLM_ARCH_NAMES and the convert_hf_to_gguf.py class that
 *  writes it (Mistral and Mixtral are written as "llama", DeepSeek-V2/V3 and Kimi K2 as
 *  "deepseek2"); graphs: src/models/<file>.cpp. The GGUF names of families whose GGUF this project
 *  does not model (Qwen2-VL's qwen2vl, ...) are left empty. Rules: each row's comment. */
inline constexpr FamilyTraits kFamilies[] = {
    family_rows::kDecoder,  // Family::other
    // LlamaConfig, MistralConfig, MixtralConfig: untied; attention_bias / mlp_bias from the config.
    family_rows::kDecoder.named(Family::llama, {"llama"}).with_gguf("llama", true, LlamaCppGraph::llama),
    family_rows::kDecoder.named(Family::mistral, {"mistral"}).with_gguf("llama", false, LlamaCppGraph::llama),
    family_rows::kDecoder.named(Family::mixtral, {"mixtral"}).with_gguf("llama", false, LlamaCppGraph::llama),
    // Llama 4's use_qk_norm is an L2 norm without weights (modeling_llama4.py Llama4TextL2Norm).
    family_rows::kDecoder.named(Family::llama4, {"llama4_text"}).with_qk_norm(QkNorm::weightless),
    family_rows::kQwen2.named(Family::qwen2, {"qwen2"}).with_gguf("qwen2", true, LlamaCppGraph::llama),
    family_rows::kQwen2.named(Family::qwen2_moe, {"qwen2_moe"}).with_gguf("qwen2moe", true),
    family_rows::kQwen2.named(Family::qwen2_vl, {"qwen2_vl"}),
    // The first Qwen2.5-VL configs give the vision_config no model_type of its own (Qwen2.5-VL-7B's
    // first config.json on Hugging Face).
    family_rows::kQwen2.named(Family::qwen2_5_vl, {"qwen2_5_vl", "qwen2_5_vl_text"}).with_unnamed_vision_tower(VisionTower::qwen2_5_vl),
    family_rows::kQwen3.named(Family::qwen3, {"qwen3"}).with_gguf("qwen3", true, LlamaCppGraph::llama),
    family_rows::kQwen3.named(Family::qwen3_moe, {"qwen3_moe"}).with_gguf("qwen3moe", true, LlamaCppGraph::llama),
    // Qwen3-Next gated attention: q_proj also emits a per-channel gate (modeling_qwen3_next.py).
    family_rows::kQwen3.named(Family::qwen3_next, {"qwen3_next"}).with_gguf("qwen3next", false).with_output_gate(),
    family_rows::kQwen3.named(Family::qwen3_vl, {"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text"}),
    family_rows::kQwen3.named(Family::qwen3_5, {"qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text"}),
    family_rows::kGemma.named(Family::gemma, {"gemma"}).with_gguf("gemma", true),
    family_rows::kGemma2On.named(Family::gemma2, {"gemma2"}).with_gguf("gemma2", true, LlamaCppGraph::gemma).with_sliding_cache()
        .with_windows(WindowLayers::alternating),
    // Gemma 3: q_norm and k_norm per head; 5 local layers then 1 global (configuration_gemma3.py:
    // layer i slides when (i + 1) % sliding_window_pattern != 0); Gemma3TextConfig's defaults; its
    // SigLIP tower feeds Gemma3MultiModalProjector (modeling_gemma3.py).
    family_rows::kGemma2On.named(Family::gemma3, {"gemma3_text", "gemma3"}).with_gguf("gemma3", true, LlamaCppGraph::gemma).with_sliding_cache()
        .with_qk_norm(QkNorm::per_head).with_windows(WindowLayers::pattern, 6).with_class_defaults(kGemma3TextDefaults)
        .with_siglip_projector(),
    // Gemma 3n (modeling_gemma3n.py Gemma3nTextAttention: q_norm, k_norm per head; the four Gemma
    // norms; Gemma3nTextConfig tie_word_embeddings=True); its layer_types give the sliding layers.
    family_rows::kGemma2On.named(Family::gemma3n, {"gemma3n_text", "gemma3n"}).with_qk_norm(QkNorm::per_head)
        .with_windows(WindowLayers::pattern, 6),
    family_rows::kGemma2On.named(Family::gemma4, {"gemma4_text", "gemma4"}).with_qk_norm(QkNorm::per_head),
    family_rows::kDecoder.named(Family::phi3, {"phi3"}).with_gguf("phi3", true, LlamaCppGraph::phi3),
    // OLMo 2 and 3 normalise the whole projection (modeling_olmo2.py: RMSNorm(heads × head_dim)).
    family_rows::kDecoder.named(Family::olmo2, {"olmo2"}).with_gguf("olmo2", true).with_qk_norm(QkNorm::full_width),
    family_rows::kDecoder.named(Family::olmo3, {"olmo3"}).with_qk_norm(QkNorm::full_width),
    family_rows::kDecoder.named(Family::deepseek_v2, {"deepseek_v2"}).with_gguf("deepseek2", false, LlamaCppGraph::deepseek2),
    // DeepSeek-V3 and V3.2 checkpoints copy the embedding and head into each MTP layer (DeepSeek-V3.2's
    // Hugging Face total 685,355,329,792 counts them; GLM-5's 753,864,139,008 has none).
    family_rows::kNoauxRouter.named(Family::deepseek_v3, {"deepseek_v3"}).with_gguf("deepseek2", true, LlamaCppGraph::deepseek2)
        .with_mtp_embedding_copies(),
    family_rows::kNoauxRouter.named(Family::deepseek_v32, {"deepseek_v32"}).with_mtp_embedding_copies(),
    // Kimi-K2's config.json names DeepseekV3ForCausalLM, which convert_hf_to_gguf writes as deepseek2.
    family_rows::kNoauxRouter.named(Family::kimi_k2, {"kimi_k2"}).with_gguf("deepseek2", false, LlamaCppGraph::deepseek2),
    family_rows::kNoauxRouter.named(Family::glm4_moe, {"glm4_moe"}).with_attention_bias(AttentionBias::qkv_from_config),
    family_rows::kNoauxRouter.named(Family::glm_moe_dsa, {"glm_moe_dsa"}),
    // GptOssTopKRouter: weight + bias; GptOssExperts: gate_up_proj and down_proj with biases; a sink
    // per head (modeling_gpt_oss.py); llama.cpp caches its sliding layers apart (openai-moe.cpp).
    family_rows::kDecoder.named(Family::gpt_oss, {"gpt_oss"}).with_gguf("gpt-oss", true, LlamaCppGraph::openai_moe).with_sliding_cache()
        .with_sinks().with_router_bias().with_expert_bias(),
    // MiniMax-M2: qk_norm_type "per_layer", over heads × head_dim.
    family_rows::kNoauxRouter.named(Family::minimax_m2, {"minimax_m2"}).with_qk_norm(QkNorm::from_config_full_width),
    family_rows::kNoauxRouter.named(Family::mimo_v2_flash, {"mimo_v2_flash"}),
    // EXAONE 4: q_norm, k_norm per head (modeling_exaone4.py).
    family_rows::kDecoder.named(Family::exaone4, {"exaone4"}).with_qk_norm(QkNorm::per_head),
    // Cohere and Cohere2 (CohereConfig, Cohere2Config: tie_word_embeddings=True) run attention and MLP
    // in parallel off one LayerNorm; Command R+ normalises q and k over heads × head_dim; Cohere2's
    // layer i slides unless (i + 1) % sliding_window_pattern == 0 (default 4, modeling_cohere2.py).
    family_rows::kDecoder.named(Family::cohere, {"cohere"}).with_tied_embeddings().with_norms(1).with_qk_norm(QkNorm::from_config_full_width),
    family_rows::kDecoder.named(Family::cohere2, {"cohere2"}).with_tied_embeddings().with_norms(1, NormBias::from_config)
        .with_windows(WindowLayers::pattern, 4),
    // Falcon (modeling_falcon.py): FalconConfig leaves tie_word_embeddings to PretrainedConfig (True)
    // and FalconForCausalLM ties lm_head; LayerNorms with bias; a GELU MLP of dense_h_to_4h and
    // dense_4h_to_h. RefinedWeb (40B) and RefinedWebModel (7B) are the first configs' names.
    family_rows::kDecoder.named(Family::falcon, {"falcon", "RefinedWeb", "RefinedWebModel"}).with_one_name().with_tied_embeddings()
        .with_plain_mlp().with_norms(2, NormBias::always),
    family_rows::kDecoder.named(Family::jamba, {"jamba"}),
    // Nemotron-H (modeling_nemotron_h.py): one mixer behind one RMSNorm a layer; squared-ReLU MLPs
    // of up and down only.
    family_rows::kNoauxRouter.named(Family::nemotron_h, {"nemotron_h"}).with_norms(1).with_plain_mlp(),
    family_rows::kDecoder.named(Family::nemotron_nas, {"nemotron-nas"}),
    family_rows::kDecoder.named(Family::granite_moe_hybrid, {"granitemoehybrid"}),
    family_rows::kDecoder.named(Family::internlm2, {"internlm2"}),
    family_rows::kDecoder.named(Family::smollm3, {"smollm3"}),
    family_rows::kDecoder.named(Family::ministral3, {"ministral3"}),
};

/// The row of `family` (every Family has one).
const FamilyTraits& family_traits(Family family);
/// The family a Hugging Face `model_type` names; Family::other for a name not in the table.
Family family_for_model_type(std::string_view model_type);
/// The family a GGUF file's `general.architecture` is read as; Family::other when none is.
Family family_for_gguf_architecture(std::string_view architecture);
/// The tower a `vision_config` of `model_type` is, in a config of `family`; VisionTower::none
/// for a tower not in kVisionTowers.
VisionTower vision_tower_for(std::string_view model_type, Family family);

}  // namespace llmsizer
