// SPDX-License-Identifier: MIT
#pragma once
/// The one search every "largest that fits" uses (longest context, largest batch, the fixes'
/// shorter context and smaller batch, training's longest sequence and micro-batch).
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace llmsizer {

/// How many calls beyond bisection's (need(lo), need(hi), then ceil(log2(hi - lo))) largest_within makes at worst.
constexpr int kSlack = 2;

/// The largest value in [lo, hi] for which `holds` is true, given holds(lo) and that `holds` is
/// monotone (true up to some value, false above it). hi itself is tried first; then O(log(hi - lo)) calls.
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

/** The largest value v in [lo, hi] whose `need(v)` (bytes) is at most `budget`; lo - 1 when even
 *  need(lo) is more (and need(hi) is too). For a nondecreasing need (more tokens or a larger batch never need less memory)
 *  this is largest_holding over need(v) <= budget, in fewer calls: an estimate's memory is affine in
 *  tokens and batch between a few breakpoints (the KV cache and activations grow linearly; a padding,
 *  a window or a buffer changes at known sizes), so each try is where the line through the bracket's
 *  ends meets the budget. On an affine need that is the boundary, and the next try, its neighbour,
 *  closes the bracket: four calls. need(hi) is asked first: where it fits, that one call answers. Where breakpoints or plateaus make the line a poor guess, the tries
 *  are drawn towards the bracket's middle in time (ITP), so no search makes more than kSlack calls
 *  beyond bisection's. `last_alike(v)`, where the caller knows it, is the last value of v's step (a
 *  padding: llama.cpp's 256 cells): a guess moves there, and where it fits its successor is tried
 *  next, so a guess in the right step closes the bracket too. Only a hint: the bracket alone decides
 *  the answer. Where need is not monotone the answer is, as with bisection, a value that
 *  fits whose successor does not (llama_cpp.hpp: llama.cpp's compute buffer). */
/// The hint of a search that knows nothing of where its need steps: each value alone.
struct EachValue {
  std::int64_t operator()(std::int64_t value) const { return value; }
};

template <typename Need, typename Step = EachValue>
std::int64_t largest_within(std::int64_t lo, std::int64_t hi, std::int64_t budget, Need&& need, Step&& last_alike = Step{}) {
  // hi first: where it fits, so does everything below it (need is nondecreasing), and one call answers.
  std::int64_t fails = hi;
  std::int64_t need_fails = hi > lo ? need(hi) : 0;
  if (hi > lo && need_fails <= budget) return hi;
  std::int64_t fits = lo;
  std::int64_t need_fits = need(lo);
  if (need_fits > budget) return lo - 1;
  if (hi <= lo) return lo;
  // ITP's projection (Oliveira and Takahashi, ACM TOMS 47(1), 2020): the try may stray from the
  // bracket's middle by what the calls left before bisection's count plus kSlack still allow, so a
  // guess that keeps landing near one end (a plateau, a breakpoint) turns into bisection in time.
  int bisections = 0;
  while ((std::int64_t{1} << bisections) < hi - lo) ++bisections;
  const int allowed = bisections + kSlack;
  bool next_to_fits = false;
  for (int j = 0; fails - fits > 1;) {
    if (next_to_fits) {
      // The try moved to the end of its step fits: the boundary is there if the next value fails.
      next_to_fits = false;
      const std::int64_t next_need = need(fits + 1);
      if (next_need > budget) return fits;
      fits += 1;
      need_fits = next_need;
      continue;
    }
    ++j;
    const double width = static_cast<double>(fails - fits);
    const double middle = static_cast<double>(fits) + width / 2;
    // Where the line through the bracket's ends meets the budget.
    double guess = static_cast<double>(fits) +
                   width * static_cast<double>(budget - need_fits) / static_cast<double>(need_fails - need_fits);
    const double radius = std::max(0.0, std::ldexp(1.0, allowed - j) - width / 2);
    const bool projected = guess > middle + radius || guess < middle - radius;
    if (guess > middle + radius) guess = middle + radius;
    if (guess < middle - radius) guess = middle - radius;
    const std::int64_t guessed = std::min(std::max(static_cast<std::int64_t>(std::floor(guess)), fits + 1), fails - 1);
    // A step that reaches the failing end fails with it: the guess itself is tried then.
    const std::int64_t step_end = last_alike(guessed);
    const std::int64_t at = step_end > guessed && step_end < fails ? step_end : guessed;
    const std::int64_t at_need = need(at);
    if (at_need <= budget) {
      fits = at;
      need_fits = at_need;
      next_to_fits = !projected && at != guessed && fails - fits > 1;
    } else {
      fails = at;
      need_fails = at_need;
    }
  }
  return fits;
}

/** largest_within for `need(v) <= budget && costly(v)`, both monotone; lo - 1 where either fails at
 *  lo. The bytes search first; the costly predicate is tried at its answer, and only where it fails
 *  does it bisect below, over lo + k × `step` (a PyTorch caching-allocator replay behind a byte count:
 *  one replay where the bytes decide, as they usually do; a coarser step, fewer replays where they do not). */
template <typename Need, typename Costly, typename Step = EachValue>
std::int64_t largest_within_both(std::int64_t lo, std::int64_t hi, std::int64_t budget, Need&& need, Costly&& costly, std::int64_t step = 1,
                                 Step&& last_alike = Step{}) {
  const std::int64_t by_need = largest_within(lo, hi, budget, need, last_alike);
  if (by_need < lo || !costly(lo)) return lo - 1;
  if (by_need == lo || costly(by_need)) return by_need;
  const std::int64_t steps = (by_need - 1 - lo) / step;
  return lo + step * largest_holding(0, steps, [&](std::int64_t k) { return costly(lo + k * step); });
}

/// The largest value in [1, upper] whose need is at most `budget`; 0 when even 1 needs more.
template <typename Need>
std::int64_t largest_fitting(std::int64_t upper, std::int64_t budget, Need&& need) {
  if (upper < 1) return 0;
  return largest_within(1, upper, budget, need);
}

}  // namespace llmsizer
