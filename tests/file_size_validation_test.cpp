// SPDX-License-Identifier: MIT
// GGUF file sizes against published numbers: every kind=file_size row of the project's validation
// set (copied with its sources into data/validation/file_size.json, compiled in) goes through
// validate.cpp's file_size_row — preset, weight format, disk_bytes through the JSON edge — and each
// row's error is printed. Every used row must be within 2%; the excluded rows and their reasons
// (kFileSizeExcluded in validate.cpp: the rows whose notes flag the number, and two rows left out
// for stated evidence) are printed too. The Llama 2 table's Q2_K rows are checked against the 2023
// Q2_K mix they were made with (kOlderMixes).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "llmsizer/validate.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace file_size_validation_test {

using namespace llmsizer;

TEST_CASE("GGUF disk_bytes matches published file sizes within 2 percent", "[quantization][validation][disk]") {
  const ValidationReport report = run_validation("file_size");
  REQUIRE(report.rows.size() == 73);
  std::printf("\n%-58s %12s %12s %8s  %s\n", "row", "expected", "computed", "error%", "unit");
  int used = 0;
  for (const auto& row : report.rows) {
    CAPTURE(row.id, row.request);
    if (!row.used) continue;
    ++used;
    std::printf("%-58s %12.3f %12.3f %+7.2f%%  %s\n", row.id.c_str(), row.measured, row.estimated, 100.0 * row.error, row.unit.c_str());
    CHECK(std::fabs(row.error) <= 0.02);
  }
  std::printf("excluded:\n");
  for (const auto& row : report.rows) {
    if (row.used) continue;
    std::printf("  %-58s %s\n", row.id.c_str(), row.notes.empty() ? "" : row.notes.back().c_str());
    std::printf("  %-58s   reason: %s\n", "", row.excluded_reason.c_str());
  }
  // 73 rows: 12 old-README rows flagged by their notes, 2 left out for stated evidence.
  CHECK(used == 59);
}

}  // namespace file_size_validation_test
