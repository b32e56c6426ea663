// SPDX-License-Identifier: MIT
#pragma once
/// The verdict on a fit, in four levels, and the margin that separates "comfortable" from "tight".
///
///   comfortable  fits with at least the margin to spare
///   tight        fits, with less than the margin to spare (0 ≤ headroom < margin)
///   offload      does not fit the GPU, runs with part of the model in RAM (llama.cpp -ngl,
///                accelerate device_map="auto"); the speed shown is that of the split
///   no_fit       none of the above
///
/// The margin is what an estimate cannot promise: fragmentation of the allocator, memory other
/// programs take, and the estimate's own error. It is the larger of two engines' own defaults:
///  - llama.cpp leaves 1024 MiB free on every device when it fits a model to the free memory
///    (common/common.h: `fit_params_target = 1024 * 1024*1024`, "margin per device in bytes for
///    fitting parameters to free memory");
///  - vLLM takes 90% of the device by default (vllm/engine/arg_utils.py, EngineArgs:
///    `gpu_memory_utilization: float = 0.90`), i.e. 10% of what the device offers stays free.
#include <cstdint>

namespace llmsizer {

enum class Verdict { comfortable, tight, offload, no_fit };
const char* verdict_id(Verdict verdict);

/// llama.cpp's default fit target: 1 GiB per device.
constexpr std::int64_t kFitMarginFloorBytes = 1LL << 30;
/// vLLM's default share left free: 1 − gpu_memory_utilization (0.9).
constexpr double kFitMarginFraction = 0.10;

/// The margin for a device (or budget) of `usable_bytes`: max(1 GiB, 10% of it).
std::int64_t fit_margin_bytes(std::int64_t usable_bytes);

/// comfortable, tight or no_fit from the headroom (usable − required) and the margin.
Verdict memory_verdict(std::int64_t headroom_bytes, std::int64_t margin_bytes);

inline bool verdict_fits(Verdict v) { return v == Verdict::comfortable || v == Verdict::tight; }

}  // namespace llmsizer
