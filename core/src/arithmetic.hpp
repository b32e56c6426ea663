// SPDX-License-Identifier: MIT
#pragma once
/// Arithmetic the estimator's sources share: one definition each, instead of a copy per file (copies
/// in anonymous namespaces also collide when the ASan and fuzz presets compile unity files).
#include <cstdint>

namespace llmsizer::detail {

/// `a / b` rounded up, for a >= 0 and b > 0 (blocks of a quantization format, pages, shards).
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// Prices are per hour, speeds per second.
inline constexpr double kSecondsPerHour = 3600.0;

}  // namespace llmsizer::detail
