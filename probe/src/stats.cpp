// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "measurement.hpp"

namespace llmsizer_probe {

Summary summarize(const std::vector<double>& samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  Summary s;
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double sum_sq = 0;
    for (double x : sorted) sum_sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sum_sq / static_cast<double>(n - 1));
  }
  return s;
}

}  // namespace llmsizer_probe
