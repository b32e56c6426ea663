// SPDX-License-Identifier: MIT
// The bisections behind every "largest that fits" search (core/include/llmsizer/largest_fitting.hpp).
#include <catch2/catch.hpp>

#include <cstdint>

#include "llmsizer/largest_fitting.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace largest_fitting_test {

using llmsizer::largest_holding;
using llmsizer::largest_holding_both;

TEST_CASE("The largest value a monotone predicate holds for is found exactly", "[largest_fitting]") {
  int calls = 0;
  const auto up_to_700 = [&](std::int64_t v) {
    ++calls;
    return v <= 700;
  };
  CHECK(largest_holding(1, 1000, up_to_700) == 700);
  CHECK(calls <= 11);  // hi first, then ceil(log2(999)) = 10 bisections
  CHECK(largest_holding(1, 500, up_to_700) == 500);
}

TEST_CASE("Two predicates: the costly one runs once where the cheap one decides, in steps where it does not", "[largest_fitting]") {
  int costly_calls = 0;
  const auto cheap = [](std::int64_t v) { return v <= 4000; };
  const auto costly_above = [&](std::int64_t limit) {
    return [&costly_calls, limit](std::int64_t v) {
      ++costly_calls;
      return v <= limit;
    };
  };
  // The cheap predicate decides (4000 holds for the costly one too): one costly call.
  CHECK(largest_holding_both(1, 10000, cheap, costly_above(5000)) == 4000);
  CHECK(costly_calls == 1);
  // The costly one decides at 3000: with step 1, exactly 3000.
  costly_calls = 0;
  CHECK(largest_holding_both(1, 10000, cheap, costly_above(3000)) == 3000);
  // With step 256 the answer is the largest 1 + k × 256 that holds: 1 + 11 × 256 = 2817, in fewer calls.
  const int exact_calls = costly_calls;
  costly_calls = 0;
  CHECK(largest_holding_both(1, 10000, cheap, costly_above(3000), 256) == 2817);
  CHECK(costly_calls < exact_calls);
}

}  // namespace largest_fitting_test
