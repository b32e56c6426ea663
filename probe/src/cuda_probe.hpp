// SPDX-License-Identifier: MIT
#pragma once
/// CUDA measurements. The interface is plain C++ so that nvcc never sees the JSON library; without a
/// CUDA compiler cuda_probe_stub.cpp provides it and reports "built without CUDA".
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "measurement.hpp"

namespace llmsizer_probe {

struct CudaDevice {
  std::string id;  ///< "cuda0", "cuda1", ...
  std::string name;
  std::string pci_bus_id;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int sm_count = 0;
  int memory_bus_width_bits = 0;
  std::int64_t l2_cache_bytes = 0;
  std::int64_t memory_total_bytes = 0;
  /// Free right after the CUDA context was created, before the probe allocated anything.
  std::int64_t memory_free_bytes = 0;
  /// Device memory in use right after context creation (total - free): the context itself, as
  /// nvidia-smi shows it, on an otherwise idle device. Other processes' memory would count too.
  std::int64_t context_bytes = 0;
  /// Extra device memory taken by creating the cuBLASLt handle and running a first small GEMM (loaded
  /// kernels, library state), beyond context_bytes; -1 when not measured.
  std::int64_t cublas_init_bytes = -1;
  bool measured = false;  ///< the benchmarks ran on this device (only the first one is measured)
};

struct CudaProbeOptions {
  bool quick = false;
  int cpu_threads = 1;
  /// Seconds of n x n x n fp32 GEMMs on the CPU (samples), for the crossover; empty if unavailable.
  std::function<std::vector<double>(int)> cpu_sgemm_samples_s;
};

struct CudaProbeResult {
  std::string skip_reason;  ///< empty when a device was measured
  int driver_version = 0;   ///< e.g. 13000 for CUDA 13.0
  int runtime_version = 0;
  std::vector<CudaDevice> devices;
  std::vector<Measurement> measurements;
  std::vector<Skip> skipped;
  /// Smallest n at which the GPU, transfers included, beats the CPU on an n^3 fp32 GEMM; 0 when the GPU
  /// never won in the sizes tried or no crossover was measured.
  int crossover_n = 0;
};

/// Whether this binary was built with the CUDA part.
bool cuda_probe_built();

CudaProbeResult run_cuda_probe(const CudaProbeOptions& options);

}  // namespace llmsizer_probe
