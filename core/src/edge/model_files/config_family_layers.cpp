// SPDX-License-Identifier: MIT
// The layer structures of single families, which the generic fields of a Hugging Face config
// cannot express (Llama 4, Gemma 4, MiMo-V2-Flash, Llama-Nemotron NAS, Nemotron-H, Granite 4.0).
#include <algorithm>
#include <cmath>
#include <string>

#include "llmsizer/error.hpp"
#include "model_files/config_read.hpp"

namespace llmsizer::config_read {

void read_family_layers(const json& cfg, const std::string& prefix, ModelSpec& m, std::vector<Message>& warnings) {
  const auto layer_count = static_cast<std::size_t>(m.num_layers);
  if (m.family == Family::llama4) {
    // Llama 4 (modeling_llama4.py): dense layers are intermediate_size_mlp wide; MoE layers route
    // each token to num_experts_per_tok of num_local_experts experts of intermediate_size and
    // always through one shared expert of the same width (no gate). Every
    // interleave_moe_layer_step-th layer is MoE (moe_layers lists them when present).
    m.intermediate_size = read_int(cfg, "intermediate_size_mlp", prefix, false, 1, 100'000'000, m.intermediate_size);
    if (m.moe.num_experts > 0) {
      m.moe.expert_intermediate_size = read_int(cfg, "intermediate_size", prefix, true, 1, 100'000'000);
      m.moe.num_shared_experts = 1;
      m.moe.shared_expert_intermediate_size = m.moe.expert_intermediate_size;
      m.moe.shared_expert_gate = false;
      const int step = static_cast<int>(read_int(cfg, "interleave_moe_layer_step", prefix, false, 1, 10'000, 1));
      m.moe.moe_layer_period = step;
      m.moe.moe_layer_offset = step - 1;
      const auto listed = cfg.find("moe_layers");
      if (listed != cfg.end() && listed->is_array()) {
        m.layer_mlp.assign(layer_count, MlpKind::dense);
        for (const auto& v : *listed) {
          if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= m.num_layers) {
            throw InputError(prefix + ".moe_layers", Message("error.config.mlp_only_layers").integer("last", m.num_layers - 1).text("got", v.dump()));
          }
          m.layer_mlp[static_cast<std::size_t>(v.get<std::int64_t>())] = MlpKind::moe;
        }
      }
    }
    // iRoPE: layers with RoPE attend within attention_chunk_size-token chunks, every
    // no_rope_layer_interval-th layer (no RoPE) attends to everything (Llama4TextAttention:
    // use_chunked_attention = attention_chunk_size and no_rope_layers[i]; default interval 4).
    const std::int64_t chunk = read_int(cfg, "attention_chunk_size", prefix, false, 1, 1'000'000'000, 0);
    if (chunk > 0 && cfg.find("layer_types") == cfg.end()) {
      std::vector<bool> rope(layer_count, true);
      const auto listed = cfg.find("no_rope_layers");
      if (listed != cfg.end() && listed->is_array() && listed->size() == layer_count) {
        for (std::size_t i = 0; i < layer_count; ++i) rope[i] = !((*listed)[i].is_number() && (*listed)[i].get<double>() == 0.0);
      } else {
        const std::int64_t interval = read_int(cfg, "no_rope_layer_interval", prefix, false, 1, 10'000, 4);
        for (std::size_t i = 0; i < layer_count; ++i) rope[i] = (static_cast<std::int64_t>(i) + 1) % interval != 0;
      }
      m.layer_mixers.clear();
      for (std::size_t i = 0; i < layer_count; ++i) m.layer_mixers.push_back(rope[i] ? MixerKind::chunked_attention : MixerKind::full_attention);
    }
    if (chunk > 0) m.attention_chunk_size = static_cast<int>(chunk);
  } else if (m.family == Family::gemma4) {
    // Gemma 4 (modeling_gemma4.py; mlx-lm gemma4_text.py): full-attention layers use
    // global_head_dim and, with attention_k_eq_v, num_global_key_value_heads KV heads whose
    // values reuse the key projection (no v_proj); the last num_kv_shared_layers layers reuse
    // earlier layers' K and V (and, with use_double_wide_mlp, have twice the MLP width). With
    // enable_moe_block each layer runs a dense MLP and routed experts side by side.
    const int global_head_dim = static_cast<int>(read_int(cfg, "global_head_dim", prefix, false, 1, 100'000, m.head_dim));
    const int global_kv = static_cast<int>(read_int(cfg, "num_global_key_value_heads", prefix, false, 1, 100'000, m.num_kv_heads));
    const bool k_eq_v = read_bool(cfg, "attention_k_eq_v", false);
    const int shared = static_cast<int>(read_int(cfg, "num_kv_shared_layers", prefix, false, 0, m.num_layers, 0));
    const bool double_wide = read_bool(cfg, "use_double_wide_mlp", false);
    m.layer_attention.assign(layer_count, AttentionShape{});
    for (int i = 0; i < m.num_layers; ++i) {
      AttentionShape& a = m.layer_attention[static_cast<std::size_t>(i)];
      if (m.mixer(i) == MixerKind::full_attention) {
        a.head_dim = global_head_dim;
        if (k_eq_v) {
          a.kv_heads = global_kv;
          a.v_proj = false;
        }
      }
      if (shared > 0 && i >= m.num_layers - shared) {
        a.owns_kv = false;
        if (double_wide) {
          if (m.layer_intermediate.empty()) m.layer_intermediate.assign(layer_count, 0);
          m.layer_intermediate[static_cast<std::size_t>(i)] = 2 * m.intermediate_size;
        }
      }
    }
    if (read_int(cfg, "hidden_size_per_layer_input", prefix, false, 0, 1'000'000, 0) > 0) {
      warnings.push_back(Message("warning.config.gemma4_per_layer_embeddings"));
    }
    if (read_bool(cfg, "enable_moe_block", false) && m.moe.num_experts > 0) {
      const std::int64_t top_k_experts = read_int(cfg, "top_k_experts", prefix, true, 1, 1'000'000);
      if (top_k_experts > m.moe.num_experts) {
        throw InputError(prefix + ".top_k_experts", Message("error.config.experts_per_token_above_experts").integer("experts", m.moe.num_experts).integer("got", top_k_experts));
      }
      m.moe.experts_per_token = static_cast<int>(top_k_experts);
      m.moe.router_norm = true;  // Gemma4 Router: scale over hidden
      m.moe.router_bias = true;  // ... and per_expert_scale, one value per expert
      m.layer_mlp.assign(layer_count, MlpKind::dense_and_moe);
    }
    m.layer_scalar = true;
  } else if (m.family == Family::mimo_v2_flash) {
    // MiMo-V2-Flash (mlx-lm mimo_v2_flash.py): hybrid_layer_pattern marks sliding layers (1),
    // whose attention has its own head counts and dims (swa_*) and, with
    // add_swa_attention_sink_bias, a sink per head; keys and values have different head dims
    // (head_dim / v_head_dim). moe_layer_freq lists which layers are MoE.
    const auto pattern = cfg.find("hybrid_layer_pattern");
    if (pattern == cfg.end() || !pattern->is_array() || pattern->size() != layer_count) {
      throw InputError(prefix + ".hybrid_layer_pattern", Message("error.config.hybrid_layer_pattern").integer("layers", m.num_layers));
    }
    const std::int64_t swa_window = read_int(cfg, "sliding_window", prefix, false, 1, 1'000'000'000, read_int(cfg, "sliding_window_size", prefix, false, 1, 1'000'000'000, 0));
    if (swa_window <= 0) throw InputError(prefix + ".sliding_window", Message("error.config.sliding_window_required"));
    m.sliding_window = static_cast<int>(swa_window);
    AttentionShape full;
    full.v_head_dim = static_cast<int>(read_int(cfg, "v_head_dim", prefix, false, 1, 100'000, m.head_dim));
    full.sinks = read_bool(cfg, "add_full_attention_sink_bias", false);
    AttentionShape swa;
    swa.q_heads = static_cast<int>(read_int(cfg, "swa_num_attention_heads", prefix, false, 1, 100'000, m.num_attention_heads));
    swa.kv_heads = static_cast<int>(read_int(cfg, "swa_num_key_value_heads", prefix, false, 1, 100'000, m.num_kv_heads));
    swa.head_dim = static_cast<int>(read_int(cfg, "swa_head_dim", prefix, false, 1, 100'000, m.head_dim));
    swa.v_head_dim = static_cast<int>(read_int(cfg, "swa_v_head_dim", prefix, false, 1, 100'000, full.v_head_dim));
    swa.sinks = read_bool(cfg, "add_swa_attention_sink_bias", false);
    m.layer_mixers.clear();
    m.layer_attention.clear();
    for (const auto& v : *pattern) {
      const bool sliding = v.is_number() && v.get<double>() != 0.0;
      m.layer_mixers.push_back(sliding ? MixerKind::sliding_attention : MixerKind::full_attention);
      m.layer_attention.push_back(sliding ? swa : full);
    }
    const auto freq = cfg.find("moe_layer_freq");
    if (freq != cfg.end() && freq->is_array() && freq->size() == layer_count && m.moe.num_experts > 0) {
      m.layer_mlp.clear();
      for (const auto& v : *freq) m.layer_mlp.push_back(v.is_number() && v.get<double>() != 0.0 ? MlpKind::moe : MlpKind::dense);
    }
  } else if (m.family == Family::nemotron_nas) {
    // DeciLM / Llama-Nemotron NAS (modeling_decilm.py): block_configs gives each layer its own
    // attention (KV heads = heads / n_heads_in_group; no_op: none; replace_with_linear: one
    // hidden × hidden matrix) and FFN (width from ffn_mult: int(2 × mult × hidden / 3) rounded up
    // to a multiple of 256; no_op: none); a layer's norm exists only before a block that exists.
    const auto blocks = cfg.find("block_configs");
    if (blocks == cfg.end() || !blocks->is_array() || blocks->size() != layer_count) {
      throw InputError(prefix + ".block_configs", Message("error.config.block_configs_count").integer("layers", m.num_layers));
    }
    m.layer_mixers.clear();
    std::int64_t widest = 0;
    for (std::size_t i = 0; i < layer_count; ++i) {
      const json& block_cfg = (*blocks)[i];
      const std::string bp = prefix + ".block_configs[" + std::to_string(i) + "]";
      const json attention = block_cfg.value("attention", json::object());
      const json ffn = block_cfg.value("ffn", json::object());
      AttentionShape a;
      int norms = 0;
      if (read_bool(attention, "no_op", false)) {
        m.layer_mixers.push_back(MixerKind::none);
      } else {
        m.layer_mixers.push_back(MixerKind::full_attention);
        ++norms;
        if (read_bool(attention, "replace_with_linear", false)) {
          a.linear_replacement = true;
        } else {
          const std::int64_t group = read_int(attention, "n_heads_in_group", bp + ".attention", true, 1, m.num_attention_heads);
          if (m.num_attention_heads % group != 0) throw InputError(bp + ".attention.n_heads_in_group", Message("error.config.n_heads_in_group").integer("heads", m.num_attention_heads).integer("got", group));
          a.kv_heads = static_cast<int>(m.num_attention_heads / group);
        }
      }
      m.layer_attention.push_back(a);
      if (read_bool(ffn, "no_op", false)) {
        m.layer_mlp.push_back(MlpKind::none);
        m.layer_intermediate.push_back(0);
      } else {
        ++norms;
        m.layer_mlp.push_back(MlpKind::dense);
        const auto mult = ffn.find("ffn_mult");
        if (mult == ffn.end() || !mult->is_number() || !(mult->get<double>() > 0.0 && mult->get<double>() < 1000.0)) {
          throw InputError(bp + ".ffn.ffn_mult", Message("error.config.ffn_mult"));
        }
        std::int64_t width = static_cast<std::int64_t>(2.0 * mult->get<double>() * static_cast<double>(m.hidden_size) / 3.0);
        if (width % 256 != 0) width += 256 - width % 256;
        if (read_bool(ffn, "replace_with_linear", false)) {
          warnings.push_back(Message("warning.config.ffn_linear").text("block", bp));
          width = std::max<std::int64_t>(1, m.hidden_size / 3);
        }
        m.layer_intermediate.push_back(width);
        widest = std::max(widest, width);
      }
      m.layer_norms.push_back(norms);
    }
    m.intermediate_size = widest;
  } else if (m.family == Family::nemotron_h) {
    // Nemotron-H (modeling_nemotron_h.py): each layer is one block behind one RMSNorm, spelled
    // by hybrid_override_pattern: M = Mamba-2, * = attention, - = MLP (squared ReLU, up and
    // down only), E = MoE (non-gated experts, one shared expert, noaux_tc router with bias).
    std::string pattern = read_string(cfg, "hybrid_override_pattern");
    const auto types = cfg.find("layers_block_type");
    if (pattern.empty() && types != cfg.end() && types->is_array()) {
      for (const auto& t : *types) {
        const std::string name = t.is_string() ? t.get<std::string>() : "";
        pattern += name == "mamba" ? 'M' : name == "attention" ? '*' : name == "moe" ? 'E' : '-';
      }
    }
    if (pattern.size() != layer_count) {
      throw InputError(prefix + ".hybrid_override_pattern", Message("error.config.hybrid_pattern_count").integer("layers", m.num_layers).integer("got", static_cast<std::int64_t>(pattern.size())));
    }
    m.layer_mixers.clear();
    m.layer_mlp.clear();
    for (const char c : pattern) {
      switch (c) {
        case 'M': m.layer_mixers.push_back(MixerKind::ssm); m.layer_mlp.push_back(MlpKind::none); break;
        case '*': m.layer_mixers.push_back(MixerKind::full_attention); m.layer_mlp.push_back(MlpKind::none); break;
        case 'E': m.layer_mixers.push_back(MixerKind::none); m.layer_mlp.push_back(MlpKind::moe); break;
        case '-': m.layer_mixers.push_back(MixerKind::none); m.layer_mlp.push_back(MlpKind::dense); break;
        default: throw InputError(prefix + ".hybrid_override_pattern", Message("error.config.hybrid_pattern_char").text("got", std::string(1, c)));
      }
    }
    m.head_dim = static_cast<int>(read_int(cfg, "head_dim", prefix, false, 1, 100'000, read_int(cfg, "attention_head_dim", prefix, false, 1, 100'000, m.head_dim)));
    auto& r = m.recurrent;
    r.mamba_version = 2;
    r.mamba_num_heads = static_cast<int>(read_int(cfg, "mamba_num_heads", prefix, true, 1, 100'000));
    r.mamba_head_dim = static_cast<int>(read_int(cfg, "mamba_head_dim", prefix, true, 1, 100'000));
    r.mamba_n_groups = static_cast<int>(read_int(cfg, "n_groups", prefix, false, 1, 100'000, 1));
    r.mamba_d_state = static_cast<int>(read_int(cfg, "ssm_state_size", prefix, true, 1, 100'000));
    r.mamba_d_conv = static_cast<int>(read_int(cfg, "conv_kernel", prefix, false, 1, 1'000, 4));
    r.mamba_conv_bias = read_bool(cfg, "use_conv_bias", true);
    r.mamba_proj_bias = read_bool(cfg, "mamba_proj_bias", false);
    if (m.moe.num_experts > 0) {
      m.moe.shared_expert_intermediate_size = read_int(cfg, "moe_shared_expert_intermediate_size", prefix, false, 1, 100'000'000, m.moe.expert_intermediate_size);
      if (read_int(cfg, "moe_latent_size", prefix, false, 0, 100'000'000, 0) > 0) {
        warnings.push_back(Message("warning.config.latent_moe"));
      }
    }
  } else if (m.family == Family::granite_moe_hybrid) {
    // Granite 4.0 (modeling_granitemoehybrid.py): layer_types mixes Mamba-2 and attention; every
    // layer has a shared gated MLP of shared_intermediate_size (input_linear h → 2 × width,
    // output_linear), plus routed experts of intermediate_size when num_local_experts > 0.
    auto& r = m.recurrent;
    r.mamba_version = 2;
    r.mamba_num_heads = static_cast<int>(read_int(cfg, "mamba_n_heads", prefix, false, 1, 100'000, 1));
    r.mamba_head_dim = static_cast<int>(read_int(cfg, "mamba_d_head", prefix, false, 1, 100'000, 64));
    r.mamba_n_groups = static_cast<int>(read_int(cfg, "mamba_n_groups", prefix, false, 1, 100'000, 1));
    r.mamba_d_state = static_cast<int>(read_int(cfg, "mamba_d_state", prefix, false, 1, 100'000, 128));
    r.mamba_d_conv = static_cast<int>(read_int(cfg, "mamba_d_conv", prefix, false, 1, 1'000, 4));
    r.mamba_conv_bias = read_bool(cfg, "mamba_conv_bias", true);
    r.mamba_proj_bias = read_bool(cfg, "mamba_proj_bias", false);
    const std::int64_t shared = read_int(cfg, "shared_intermediate_size", prefix, false, 0, 100'000'000, 0);
    if (m.moe.num_experts > 0) {
      m.moe.num_shared_experts = shared > 0 ? 1 : 0;
      m.moe.shared_expert_intermediate_size = shared;
      m.moe.shared_expert_gate = false;
    } else if (shared > 0) {
      m.intermediate_size = shared;
    }
  }
}

}  // namespace llmsizer::config_read
