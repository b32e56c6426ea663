// SPDX-License-Identifier: MIT
#pragma once
/// What makes a request fit that does not (or fits only tightly, or only with offload): each fix
/// is one change to the request, re-estimated by the core, with the verdict it gives. Fixes are
/// ranked by what they cost the person, cheapest first:
///   1. setting       a switch that changes nothing they get (gradient checkpointing, micro-batch 1
///                    with gradient accumulation: the same update, more time)
///   2. near_lossless 8 bits where there are 16 today: the KV cache (llama.cpp q8_0, vLLM fp8),
///                    8-bit weights (LLM.int8() reports no degradation at inference, Dettmers et al.
///                    2022, arXiv:2208.07339), an 8-bit optimizer (Dettmers et al. 2021,
///                    arXiv:2110.02861: the performance of 32-bit optimizer states)
///   3. less          less of what they asked for: a shorter context or sequence, a smaller batch
///   4. lossy         4-bit weights, LoRA instead of full training, a 4-bit base (QLoRA)
///   5. money         more GPUs
/// Within a rank, the one leaving more headroom first.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmsizer/hardware.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/training.hpp"

namespace llmsizer {

enum class FixCost { setting, near_lossless, less, lossy, money };
const char* fix_cost_id(FixCost cost);

/// One field of the request the fix sets, as the request writes it ("weights": "q4_k_m",
/// "training.seq_len": 2048, "training.gradient_checkpointing": true).
struct FixChange {
  enum class Type { text, integer, boolean };
  std::string field;
  Type type = Type::text;
  std::string text;
  std::int64_t integer = 0;
  bool boolean = false;
  static FixChange of_text(std::string field, std::string value);
  static FixChange of_integer(std::string field, std::int64_t value);
  static FixChange of_boolean(std::string field, bool value);
};

struct Fix {
  FixCost cost = FixCost::setting;
  std::vector<FixChange> changes;
  Verdict verdict = Verdict::no_fit;     ///< after the change: comfortable or tight
  std::int64_t headroom_bytes = 0;       ///< after the change
  Message message;                       ///< "GGUF Q4_K_M weights: fits with 3.1 GB to spare"
};

/// Where a request must fit: a device (`hardware`, with the fit options of the answer) or a
/// budget the person typed (`budget_bytes`, compared with the device peak, or RAM on the CPU).
struct FitTarget {
  int gpus = 1;                   ///< devices the request runs on (0: the CPU, in RAM)
  std::int64_t usable_bytes = 0;  ///< per device (or RAM, or the budget)
  /// Unified memory: Metal has no CUDA context, so the estimate's runtime overhead is not counted
  /// against the GPU's share (as fit_request does).
  bool unified = false;
  /// CUDA GPUs, where PyTorch's caching allocator must not run out either (hardware.hpp:
  /// allocator_runs_out); false for unified memory, the CPU and a memory budget.
  bool cuda_device = false;
  int max_gpus = 0;               ///< most devices a fix may ask for (0 or 1: no "more GPUs" fix)
  /// Unified memory: the hardware, whose larger configurations (memory_options_bytes above
  /// `memory_option_bytes`) a fix may suggest; nullptr otherwise.
  const HardwareSpec* hardware = nullptr;
  std::int64_t memory_option_bytes = 0;
};
/// The target of an answer's fit on a device.
FitTarget fit_target(const HardwareSpec& hw, const FitResult& fit);

/** Fixes for an inference request that is not comfortable on `target`: 8-bit KV cache, smaller
 *  weight formats of its ecosystem, the longest context and largest batch that fit comfortably,
 *  and more GPUs where the hardware can take them. At most one fix per kind, ranked. */
std::vector<Fix> inference_fixes(const ModelSpec& model, const InferenceSettings& settings, const FitTarget& target);

/** The request within the model's trained context (`trained_tokens`, context_limit.hpp): the input
 *  cut so that input + output is that long, re-estimated on `target`; none when even that does not
 *  fit or leaves no input. */
std::optional<Fix> trained_context_fix(const ModelSpec& model, const InferenceSettings& settings, const FitTarget& target,
                                       std::int64_t trained_tokens);

/** Fixes for a training request on devices of `capacity_bytes` each: gradient checkpointing,
 *  micro-batch 1, an 8-bit optimizer, the longest sequence that fits comfortably, LoRA, QLoRA,
 *  and ZeRO-3 over more GPUs (up to `max_gpus`). */
std::vector<Fix> training_fixes(const ModelSpec& model, const TrainingSettings& settings, std::int64_t capacity_bytes, int max_gpus);

/// The verdict of a training peak (memory.device_bytes) on a device of `capacity_bytes`.
Verdict training_verdict(std::int64_t device_bytes, std::int64_t capacity_bytes);

}  // namespace llmsizer
