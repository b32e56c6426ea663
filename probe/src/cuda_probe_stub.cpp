// SPDX-License-Identifier: MIT
// The CUDA part when CMake found no CUDA compiler: nothing is measured, and the file says why.
#include "cuda_probe.hpp"

namespace llmsizer_probe {

bool cuda_probe_built() { return false; }

CudaProbeResult run_cuda_probe(const CudaProbeOptions&) {
  CudaProbeResult result;
  result.skip_reason = "built without CUDA";
  return result;
}

}  // namespace llmsizer_probe
