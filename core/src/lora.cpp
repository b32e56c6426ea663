// SPDX-License-Identifier: MIT
#include "llmsizer/lora.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>


namespace llmsizer {
namespace {

// Constant arrays, so that a program linking this file builds no vectors of strings when it starts.
constexpr std::string_view kAttentionPreset[] = {"q_proj", "k_proj", "v_proj", "o_proj"};
constexpr std::string_view kAllLinearPreset[] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "router"};
/// Llama/Qwen2/Mistral names, Qwen-1 names (c_attn = fused qkv, c_proj = attention output and MLP
/// down projection, w1/w2 = the two MLP input branches), Phi-3 fused qkv_proj / gate_up_proj,
/// BLOOM/Falcon query_key_value, and the output layer / embedding.
constexpr std::string_view kKnownModules[] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
                                              "router", "c_attn", "c_proj", "w1", "w2", "qkv_proj", "query_key_value",
                                              "gate_up_proj", "lm_head", "embed_tokens", "q_a_proj", "q_b_proj",
                                              "kv_a_proj_with_mqa", "kv_b_proj"};

/// kKnownModules, index for index.
enum class Module {
  q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, router, c_attn, c_proj, w1, w2, qkv_proj, query_key_value,
  gate_up_proj, lm_head, embed_tokens, q_a_proj, q_b_proj, kv_a_proj_with_mqa, kv_b_proj, unknown
};
static_assert(static_cast<std::size_t>(Module::unknown) == std::size(kKnownModules), "Module follows kKnownModules");

Module module_of(std::string_view name) {
  const auto known = std::find(std::begin(kKnownModules), std::end(kKnownModules), name);
  return static_cast<Module>(known - std::begin(kKnownModules));
}

template <std::size_t N>
std::vector<std::string> strings(const std::string_view (&names)[N]) {
  return {std::begin(names), std::end(names)};
}

struct LayerCounts {
  std::int64_t attention = 0;   ///< softmax-attention layers
  std::int64_t dense_mlp = 0;   ///< layers with a dense MLP
  std::int64_t moe = 0;         ///< layers with an MoE MLP
};

LayerCounts layer_counts(const ModelSpec& m) {
  LayerCounts c;
  for (int layer = 0; layer < m.num_layers; ++layer) {
    if (is_attention(m.mixer(layer))) ++c.attention;
    const MlpKind kind = mlp_kind(m, layer);
    if (kind == MlpKind::moe || kind == MlpKind::dense_and_moe) ++c.moe;
    if (kind == MlpKind::dense || kind == MlpKind::dense_and_moe) ++c.dense_mlp;
  }
  return c;
}

}  // namespace

namespace {

/// Sets `*problem` to `message` unless an earlier problem was found (or nobody asked).
void report(std::optional<Message>* problem, Message message) {
  if (problem != nullptr && !*problem) *problem = std::move(message);
}

std::vector<std::string> resolve(const std::vector<std::string>& targets, std::optional<Message>* problem) {
  std::vector<std::string> out;
  auto add = [&out](std::string_view name) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
  };
  for (const auto& t : targets) {
    if (t == "attention") {
      for (const auto& n : kAttentionPreset) add(n);
    } else if (t == "all-linear") {
      for (const auto& n : kAllLinearPreset) add(n);
    } else if (std::find(std::begin(kKnownModules), std::end(kKnownModules), t) != std::end(kKnownModules)) {
      add(t);
    } else {
      std::string known;
      for (const std::string_view n : kKnownModules) (known += known.empty() ? "" : ", ") += n;
      report(problem, Message("error.lora_targets.unknown").text("target", t).text("known", known));
    }
  }
  if (out.empty()) report(problem, Message("error.lora_targets.empty"));
  return out;
}

std::vector<LoraTargetMatrices> matrices_of(const ModelSpec& m, const std::vector<std::string>& targets, std::optional<Message>* problem) {
  if (!m.has_architecture()) {
    report(problem, Message("error.lora_targets.needs_architecture"));
    return {};
  }
  const LayerCounts layers = layer_counts(m);
  const std::int64_t h = m.hidden_size;
  const std::int64_t q = static_cast<std::int64_t>(m.num_attention_heads) * m.head_dim;
  const std::int64_t kv = static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim;
  const std::int64_t f = m.intermediate_size;
  const std::int64_t fe = m.moe.expert_intermediate_size;
  const std::int64_t experts = m.moe.num_experts;
  const std::int64_t fs = m.moe.shared_expert_intermediate_size;
  const std::int64_t shared = m.moe.num_shared_experts;
  const bool mla = m.mla.kv_lora_rank > 0;

  std::vector<LoraTargetMatrices> out;
  out.reserve(3 * targets.size());  // at most three shapes a name (dense, routed and shared MLPs)
  auto add = [&out](const std::string& name, std::int64_t d_in, std::int64_t d_out, std::int64_t count, bool routed = false) {
    if (count > 0 && d_in > 0 && d_out > 0) out.push_back({name, d_in, d_out, count, routed});
  };
  // DeepSeek MLA (modeling_deepseek.py DeepseekV3Attention): q_a_proj (h → q_lora_rank) and
  // q_b_proj (q_lora_rank → heads × (nope + rope)), or one q_proj; kv_a_proj_with_mqa
  // (h → kv_lora_rank + rope); kv_b_proj (kv_lora_rank → heads × (nope + v)); o_proj.
  const std::int64_t heads = m.num_attention_heads;
  const std::int64_t q_head = static_cast<std::int64_t>(m.mla.qk_nope_head_dim) + m.mla.qk_rope_head_dim;
  auto add_mla_q = [&](const std::string& name, bool a, bool b) {
    if (m.mla.q_lora_rank > 0) {
      if (a) add(name, h, m.mla.q_lora_rank, layers.attention);
      if (b) add(name, m.mla.q_lora_rank, heads * q_head, layers.attention);
    } else {
      add(name, h, heads * q_head, layers.attention);
    }
  };
  auto add_mla_kv_a = [&](const std::string& name) { add(name, h, static_cast<std::int64_t>(m.mla.kv_lora_rank) + m.mla.qk_rope_head_dim, layers.attention); };
  auto add_mla_kv_b = [&](const std::string& name) {
    add(name, m.mla.kv_lora_rank, heads * (static_cast<std::int64_t>(m.mla.qk_nope_head_dim) + m.mla.v_head_dim), layers.attention);
  };
  // A name the model does not have is reported and adds nothing.
  auto need_mla = [&](const std::string& name) {
    if (!mla) report(problem, Message("error.lora_targets.mla_only").text("target", name));
    return mla;
  };
  auto need_gated = [&](const std::string& name) {
    if (!m.gated_mlp) report(problem, Message("error.lora_targets.not_gated").text("target", name));
    return m.gated_mlp;
  };
  // One MLP input branch (gate or up): dense layers, routed experts, shared experts.
  auto add_mlp_in = [&](const std::string& name, std::int64_t branches) {
    add(name, h, branches * f, layers.dense_mlp);
    add(name, h, branches * fe, layers.moe * experts, true);
    add(name, h, branches * fs, layers.moe * shared);
  };
  auto add_mlp_out = [&](const std::string& name) {
    add(name, f, h, layers.dense_mlp);
    add(name, fe, h, layers.moe * experts, true);
    add(name, fs, h, layers.moe * shared);
  };
  const bool non_gated_all_linear = !m.gated_mlp;
  const bool has_up_proj = std::find(targets.begin(), targets.end(), "up_proj") != targets.end();
  for (const auto& t : targets) {
    // One lookup per target, then a switch: a chain of string comparisons per target was most of
    // an adapter estimate, and the searches ask for it at every step.
    switch (module_of(t)) {
      case Module::q_proj:
        // On MLA models the presets' q/k/v stand for MLA's query, joint-KV and KV up-projections.
        if (mla) add_mla_q(t, true, true);
        else add(t, h, q, layers.attention);
        break;
      case Module::k_proj:
        if (mla) add_mla_kv_a(t);
        else add(t, h, kv, layers.attention);
        break;
      case Module::v_proj:
        if (mla) add_mla_kv_b(t);
        else add(t, h, kv, layers.attention);
        break;
      case Module::q_a_proj:
        if (need_mla(t)) add_mla_q(t, true, false);
        break;
      case Module::q_b_proj:
        if (need_mla(t)) add_mla_q(t, false, true);
        break;
      case Module::kv_a_proj_with_mqa:
        if (need_mla(t)) add_mla_kv_a(t);
        break;
      case Module::kv_b_proj:
        if (need_mla(t)) add_mla_kv_b(t);
        break;
      case Module::o_proj:
        add(t, mla ? static_cast<std::int64_t>(m.num_attention_heads) * m.mla.v_head_dim : q, h, layers.attention);
        break;
      case Module::c_attn:
      case Module::qkv_proj:
      case Module::query_key_value:
        add(t, h, q + 2 * kv, layers.attention);
        break;
      case Module::c_proj:
        add(t, mla ? heads * m.mla.v_head_dim : q, h, layers.attention);
        add_mlp_out(t);
        break;
      case Module::gate_proj:
        // "all-linear" on a non-gated MLP simply has no gate projection.
        if (non_gated_all_linear && has_up_proj) continue;
        if (need_gated(t)) add_mlp_in(t, 1);
        break;
      case Module::up_proj:
        add_mlp_in(t, 1);
        break;
      case Module::w1:
      case Module::w2:
        if (need_gated(t)) add_mlp_in(t, 1);
        break;
      case Module::gate_up_proj:
        if (need_gated(t)) add_mlp_in(t, 2);
        break;
      case Module::down_proj:
        add_mlp_out(t);
        break;
      case Module::router:
        add(t, h, experts, layers.moe);  // no-op for dense models
        break;
      case Module::lm_head:
        add(t, h, m.vocab_size, 1);
        break;
      case Module::embed_tokens:
        // LoRA on an embedding: lora_embedding_A (r × vocab) and lora_embedding_B (hidden × r).
        add(t, m.vocab_size, h, 1);
        break;
      case Module::unknown:
        break;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> resolve_lora_targets(const std::vector<std::string>& targets) { return resolve(targets, nullptr); }

std::vector<std::pair<std::string, std::vector<std::string>>> lora_target_presets() {
  return {{"attention", strings(kAttentionPreset)}, {"all-linear", strings(kAllLinearPreset)}};
}

const std::vector<std::string>& lora_target_modules() {
  static const std::vector<std::string> modules = strings(kKnownModules);
  return modules;
}

std::vector<LoraTargetMatrices> lora_target_matrices(const ModelSpec& model, const std::vector<std::string>& targets) {
  return matrices_of(model, targets, nullptr);
}

std::optional<Message> lora_targets_problem(const ModelSpec& model, const std::vector<std::string>& targets) {
  std::optional<Message> problem;
  const std::vector<std::string> names = resolve(targets, &problem);
  if (!problem) matrices_of(model, names, &problem);
  return problem;
}

std::int64_t lora_adapter_params(const std::vector<LoraTargetMatrices>& matrices, std::int64_t rank, bool dora) {
  std::int64_t params = 0;
  for (const auto& mat : matrices) {
    params += mat.count * rank * (mat.d_in + mat.d_out);
    if (dora) params += mat.count * mat.d_out;
  }
  return params;
}

std::int64_t lora_inputs_per_layer(const ModelSpec& m, const std::vector<LoraTargetMatrices>& matrices) {
  if (!m.has_architecture()) return 0;
  std::int64_t inputs = 0;
  for (const auto& mat : matrices) {
    if (mat.module == "lm_head" || mat.module == "embed_tokens" || mat.module == "router") continue;
    // Per layer: the count spread over the layers; a token passes through top-k routed experts.
    double per_layer = static_cast<double>(mat.count) / m.num_layers;
    if (mat.routed_expert) per_layer = per_layer * m.moe.experts_per_token / m.moe.num_experts;
    inputs += static_cast<std::int64_t>(per_layer * static_cast<double>(mat.d_in) + 0.5);
  }
  return inputs;
}

}  // namespace llmsizer
