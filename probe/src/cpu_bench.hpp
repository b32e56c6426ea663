// SPDX-License-Identifier: MIT
#pragma once
/// CPU measurements: STREAM-style memory bandwidth over all threads, and GEMM / GEMV through the
/// system's CBLAS (OpenBLAS on Debian), never a hand-written kernel.
#include <cstdint>
#include <string>
#include <vector>

#include "host_info.hpp"
#include "measurement.hpp"

namespace llmsizer_probe {

struct CpuBenchOptions {
  int threads = 1;                      ///< worker threads for STREAM and the BLAS
  bool quick = false;                   ///< fewer samples and smaller matrices (CI)
  std::int64_t stream_total_bytes = 0;  ///< the three STREAM arrays together
};

struct CpuBenchResult {
  std::vector<Measurement> measurements;
  std::vector<Skip> skipped;
};

/**
 * Bytes for the three STREAM arrays together: at least 4x the last-level cache and at least 256 MiB,
 * capped at a quarter of the available RAM. STREAM's run rules
 * (https://www.cs.virginia.edu/stream/ref.html) ask for 4x the cache per array; sizing the three
 * together keeps the run short on hosts with very large L3s (480 MiB on the CI VM) while every kernel
 * still streams 2.7x to 4x the cache through it.
 */
std::int64_t default_stream_total_bytes(const HostInfo& host);

CpuBenchResult run_cpu_benchmarks(const HostInfo& host, const CpuBenchOptions& options);

/// Seconds of one n x n x n fp32 GEMM on the CPU, three samples after a warm-up (for the GPU
/// crossover); empty without BLAS.
std::vector<double> cpu_sgemm_samples_s(int n);

/// The BLAS in use, e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64 (SapphireRapids)".
std::string blas_description();

}  // namespace llmsizer_probe
