// SPDX-License-Identifier: MIT
#pragma once
/// Arithmetic the estimator's sources share (one definition, so that they also compile as one unity
/// file: the ASan and fuzz builds, CMakePresets.json).
#include <cstdint>

namespace llmsizer::detail {

/// `a / b` rounded up, for a >= 0 and b > 0 (blocks of a quantization format, pages, shards).
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// Prices are per hour, speeds per second.
inline constexpr double kSecondsPerHour = 3600.0;

}  // namespace llmsizer::detail
