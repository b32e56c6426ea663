// SPDX-License-Identifier: MIT
#pragma once
/// One measured quantity with its raw samples, and the statistics kept with it. Plain C++ (no JSON) so
/// that the CUDA translation unit can fill it too; report.cpp turns it into the file format.
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace llmsizer_probe {

struct Measurement {
  std::string name;    ///< dotted, e.g. "cpu.stream.triad", "cuda.gemm.bf16"
  std::string device;  ///< id of an entry in "devices", e.g. "cpu0", "cuda0"
  std::string unit;    ///< "GB/s" (1e9 bytes/s), "GFLOP/s", "TFLOP/s", "us", "ms"
  std::map<std::string, double> numeric_inputs;
  std::map<std::string, std::string> text_inputs;
  std::vector<double> samples;  ///< after warm-up, in `unit`
};

/// A measurement that could not be made, and why (no device, library without the routine, ...).
struct Skip {
  std::string name;
  std::string reason;
};

struct Summary {
  double median = 0;
  double mean = 0;
  double stddev = 0;  ///< sample standard deviation (n - 1); 0 for one sample
  double min = 0;
  double max = 0;
};

/** Median, mean, sample standard deviation, min and max of `samples` (must not be empty). */
Summary summarize(const std::vector<double>& samples);

/** Runs `once` `warmup` times discarding the value, then `count` times keeping what it returns. */
template <class F>
std::vector<double> collect_samples(int warmup, int count, F&& once) {
  for (int i = 0; i < warmup; ++i) once();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) samples.push_back(once());
  return samples;
}

/// Seconds elapsed while `work()` runs, by the steady clock.
template <class F>
double seconds_of(F&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(stop - start).count();
}

}  // namespace llmsizer_probe
