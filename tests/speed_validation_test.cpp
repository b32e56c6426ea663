// SPDX-License-Identifier: MIT
// Generation speed against published measurements: the kind=speed rows of data/validation/speed.json
// (copied verbatim with their sources from ../shared/validation), mapped by validate.cpp's speed_row to
// an estimate with hardware. Prints every row's error and requires the median absolute error of the
// compared rows to be at most 25% (issue 6).
#include <cstdio>

#include <catch2/catch.hpp>

#include "llmsizer/validate.hpp"

using namespace llmsizer;

TEST_CASE("Speed rows: median generation-speed error at most 25 percent", "[throughput][validation][measured]") {
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
  CHECK(s.used >= 90);
  CHECK(s.median_abs_error <= 0.25);
}
