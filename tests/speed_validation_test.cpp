// SPDX-License-Identifier: MIT
// Generation speed against published measurements: the rows of data/validation/speed.json (the
// shared set's speed rows, the SGLang tables of the Qwen3 speed benchmark, the AutoAWQ README
// benchmark) and the speeds printed beside the memory rows of inference.json (Qwen transformers
// tables, litgpt), each mapped by validate.cpp's speed_rows to an estimate with hardware and compared
// with the rate its source defines. Prints every row's error; the gates: median absolute
// error at most 15%, 90th percentile at most 40%.
#include <cstdio>

#include <catch2/catch.hpp>

#include "llmsizer/validate.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace speed_validation_test {

using namespace llmsizer;

TEST_CASE("Speed rows: median generation-speed error at most 15 percent, p90 at most 40 percent", "[throughput][validation][measured]") {
  const ValidationReport report = run_validation("speed");
  std::printf("\n%-60s %9s %9s %8s  (tokens/s = output tokens / generate wall time)\n", "row", "measured", "estimate", "error");
  int excluded = 0;
  for (const auto& row : report.rows) {
    if (!row.used) {
      ++excluded;
      std::printf("%-60s excluded: %s\n", row.id.c_str(), row.excluded_reason.c_str());
      continue;
    }
    std::printf("%-60s %9.2f %9.2f %+7.1f%%%s\n", row.id.c_str(), row.measured, row.estimated, 100.0 * row.error,
                row.approximate ? "  (stand-in format)" : "");
  }
  REQUIRE(report.summaries.size() == 1);
  const ValidationSummary& s = report.summaries[0];
  std::printf("speed: %d rows, %d compared, %d excluded; median |error| %.1f%%, p90 %.1f%%, bias %+.1f%%\n", s.rows, s.used, excluded,
              100.0 * s.median_abs_error, 100.0 * s.p90_abs_error, 100.0 * s.median_signed_error);
  CHECK(s.used >= 450);
  CHECK(s.median_abs_error <= 0.15);
  CHECK(s.p90_abs_error <= 0.40);
}

}  // namespace speed_validation_test
