// SPDX-License-Identifier: MIT
#pragma once
/// The one bisection every "largest that fits" search uses (longest context, largest batch, the
/// fixes' shorter context and smaller batch, training's longest sequence and micro-batch).
#include <cstdint>

namespace llmsizer {

/// The largest value in [lo, hi] for which `holds` is true, given holds(lo) and that `holds` is
/// monotone (true up to some value, false above it: more tokens or a larger batch never need less
/// memory). hi itself is tried first; then O(log(hi - lo)) calls.
template <typename Holds>
std::int64_t largest_holding(std::int64_t lo, std::int64_t hi, Holds&& holds) {
  if (holds(hi)) return hi;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/// The largest value in [1, upper] for which `fits(value)` holds; 0 when even 1 does not fit.
template <typename Fits>
std::int64_t largest_fitting(std::int64_t upper, Fits&& fits) {
  if (upper < 1 || !fits(1)) return 0;
  return largest_holding(1, upper, fits);
}

}  // namespace llmsizer
