// SPDX-License-Identifier: MIT
#pragma once
/// LoRA adapters: which weight matrices a target list names, and how many parameters the adapters
/// add. LoRA (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", §4.1) replaces
/// W (d_out × d_in) by W + B·A with A (r × d_in) and B (d_out × r): r × (d_in + d_out) trainable
/// parameters per targeted matrix. DoRA (Liu et al. 2024) adds a magnitude vector of d_out.
#include <cstdint>
#include <string>
#include <optional>
#include <utility>
#include <vector>

#include "llmsizer/message.hpp"

#include "llmsizer/model.hpp"

namespace llmsizer {

/** The matrices of the model that one PEFT target module name matches, all of one shape. */
struct LoraTargetMatrices {
  std::string module;        ///< PEFT module name ("q_proj", "c_attn", "down_proj", ...)
  std::int64_t d_in = 0;     ///< input features of one matrix
  std::int64_t d_out = 0;    ///< output features of one matrix
  std::int64_t count = 0;    ///< matrices of this shape in the whole model (layers × experts)
  bool routed_expert = false;///< a routed MoE expert's matrix: a token passes through top-k of them
};

/** Expands presets: "attention" = q_proj, k_proj, v_proj, o_proj; "all-linear" = every linear
 *  layer of the decoder (PEFT's `target_modules="all-linear"`: all nn.Linear except the output
 *  layer), i.e. q, k, v, o, gate, up, down (and the MoE router). Unknown names are left out
 *  (lora_targets_problem names them). */
std::vector<std::string> resolve_lora_targets(const std::vector<std::string>& targets);

/// The preset names ("attention", "all-linear") with the module names each stands for.
std::vector<std::pair<std::string, std::vector<std::string>>> lora_target_presets();
/// Every module name a target list may hold (PEFT target_modules this core sizes).
const std::vector<std::string>& lora_target_modules();

/** The matrices each target name matches in `model` (PEFT matches a name by suffix, so Qwen-1's
 *  "c_proj" matches both attn.c_proj and mlp.c_proj). MoE expert projections count once per
 *  expert. On DeepSeek MLA models q_proj/k_proj/v_proj stand for the query (q_a + q_b),
 *  kv_a_proj_with_mqa and kv_b_proj projections (also nameable directly). A name the model has no
 *  matrix for (gate_proj on a non-gated MLP) adds nothing; a bare parameter count has none. */
std::vector<LoraTargetMatrices> lora_target_matrices(const ModelSpec& model, const std::vector<std::string>& targets);

/** The first problem with a target list for `model`, in reading order: an unknown name, no name at
 *  all, a bare parameter count (no architecture to attach adapters to), a name the model does not
 *  have (MLA projections on other models, gate projections on a non-gated MLP); none when the list
 *  is usable. The edge raises it as an error of `training.lora_targets`. */
std::optional<Message> lora_targets_problem(const ModelSpec& model, const std::vector<std::string>& targets);

/** Adapter parameters: Σ count × rank × (d_in + d_out), plus Σ count × d_out with DoRA. */
std::int64_t lora_adapter_params(const std::vector<LoraTargetMatrices>& matrices, std::int64_t rank, bool dora);

/** Input features summed over the targeted matrices of one layer (each adapter keeps its own
 *  copy of its input for backward); MoE experts counted by the experts a token is routed to. */
std::int64_t lora_inputs_per_layer(const ModelSpec& model, const std::vector<LoraTargetMatrices>& matrices);

}  // namespace llmsizer
