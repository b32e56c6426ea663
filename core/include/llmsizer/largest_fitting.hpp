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

/// largest_holding for `cheap(v) && costly(v)`, both monotone, with holds(lo) for both: the cheap
/// predicate alone bisects first, the costly one is tried at that value, and only where it fails does
/// it bisect below, over lo + k × `step` (a PyTorch caching-allocator replay behind a byte count: one
/// replay where the bytes decide, as they usually do; a coarser step, fewer replays where they do not).
template <typename Cheap, typename Costly>
std::int64_t largest_holding_both(std::int64_t lo, std::int64_t hi, Cheap&& cheap, Costly&& costly, std::int64_t step = 1) {
  const std::int64_t by_cheap = largest_holding(lo, hi, cheap);
  if (by_cheap <= lo || costly(by_cheap)) return by_cheap;
  const std::int64_t steps = (by_cheap - 1 - lo) / step;
  return lo + step * largest_holding(0, steps, [&](std::int64_t k) { return costly(lo + k * step); });
}

/// The largest value in [1, upper] for which `fits(value)` holds; 0 when even 1 does not fit.
template <typename Fits>
std::int64_t largest_fitting(std::int64_t upper, Fits&& fits) {
  if (upper < 1 || !fits(1)) return 0;
  return largest_holding(1, upper, fits);
}

}  // namespace llmsizer
