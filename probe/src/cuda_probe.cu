// SPDX-License-Identifier: MIT
// The CUDA part of the probe: device facts, the memory the CUDA context itself takes, device memory
// bandwidth, cuBLASLt GEMM throughput per dtype, host<->device copies, launch latency, and the matrix
// size from which the GPU (transfers included) beats the CPU. Without a device it records why and
// returns; every benchmark that fails is recorded as skipped with the error, and the rest still run.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#ifndef LLMSIZER_PROBE_NO_CUBLAS
#include <cublasLt.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_probe.hpp"

namespace llmsizer_probe {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}
#define LLMSIZER_CUDA(expr) check((expr), #expr)

cudaError_t device_alloc(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
cudaError_t pinned_alloc(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }

/// Memory from `Alloc`, released by `Release` when it goes out of scope.
template <cudaError_t (*Alloc)(void**, std::size_t), cudaError_t (*Release)(void*)>
class CudaMemory {
 public:
  explicit CudaMemory(std::size_t bytes) { LLMSIZER_CUDA(Alloc(&ptr_, bytes)); }
  ~CudaMemory() { Release(ptr_); }
  CudaMemory(const CudaMemory&) = delete;
  CudaMemory& operator=(const CudaMemory&) = delete;
  void* get() const { return ptr_; }
  template <class T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};
using DeviceBuffer = CudaMemory<device_alloc, cudaFree>;
using PinnedBuffer = CudaMemory<pinned_alloc, cudaFreeHost>;

class Stream {
 public:
  Stream() { LLMSIZER_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Seconds the GPU spends on what `work` enqueues on `stream`, by CUDA events.
template <class F>
double gpu_seconds(cudaStream_t stream, F&& work) {
  struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
  } ev;
  LLMSIZER_CUDA(cudaEventCreate(&ev.start));
  LLMSIZER_CUDA(cudaEventCreate(&ev.stop));
  LLMSIZER_CUDA(cudaEventRecord(ev.start, stream));
  work();
  LLMSIZER_CUDA(cudaEventRecord(ev.stop, stream));
  LLMSIZER_CUDA(cudaEventSynchronize(ev.stop));
  float ms = 0;
  LLMSIZER_CUDA(cudaEventElapsedTime(&ms, ev.start, ev.stop));
  return static_cast<double>(ms) / 1e3;
}

__global__ void empty_kernel() {}

/// Small deterministic values in [-0.5, 0.5): zeros would let the hardware idle (less power, higher
/// clocks) and overstate throughput.
template <class T>
__global__ void fill_kernel(T* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const unsigned h = static_cast<unsigned>(i) * 2654435761u;
    p[i] = T(static_cast<float>(h >> 24) / 256.0f - 0.5f);
  }
}

__global__ void copy_kernel(const float4* __restrict__ src, float4* __restrict__ dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    dst[i] = src[i];
  }
}

/// Reads every element once; the store behind an (in practice never true) test keeps the loads alive.
__global__ void read_kernel(const float4* __restrict__ src, std::size_t n, float* out) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float4 v = src[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234567.0f) out[0] = acc;
}

struct Launch {
  int blocks;
  int threads;
};

Launch grid_for(int sm_count) { return {std::max(sm_count, 1) * 32, 256}; }

Measurement make_measurement(const std::string& name, const std::string& device, const std::string& unit,
                             std::vector<double> samples) {
  Measurement m;
  m.name = name;
  m.device = device;
  m.unit = unit;
  m.samples = std::move(samples);
  return m;
}

CudaDevice describe_device(int index) {
  CudaDevice d;
  d.id = "cuda" + std::to_string(index);
  cudaDeviceProp prop{};
  LLMSIZER_CUDA(cudaGetDeviceProperties(&prop, index));
  d.name = prop.name;
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) d.pci_bus_id = bus;
  LLMSIZER_CUDA(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, index));
  LLMSIZER_CUDA(cudaDeviceGetAttribute(&d.compute_capability_major, cudaDevAttrComputeCapabilityMajor, index));
  LLMSIZER_CUDA(cudaDeviceGetAttribute(&d.compute_capability_minor, cudaDevAttrComputeCapabilityMinor, index));
  LLMSIZER_CUDA(cudaDeviceGetAttribute(&d.memory_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  int l2 = 0;
  LLMSIZER_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, index));
  d.l2_cache_bytes = l2;
  // The context: cudaFree(0) creates the primary context; with nothing allocated yet, what is in use
  // is the context (plus other processes' memory, if the device is shared; run on an idle device).
  LLMSIZER_CUDA(cudaSetDevice(index));
  LLMSIZER_CUDA(cudaFree(nullptr));
  std::size_t free_bytes = 0, total_bytes = 0;
  LLMSIZER_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  d.memory_total_bytes = static_cast<std::int64_t>(total_bytes);
  d.memory_free_bytes = static_cast<std::int64_t>(free_bytes);
  d.context_bytes = static_cast<std::int64_t>(total_bytes - free_bytes);
  return d;
}

std::int64_t free_device_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  LLMSIZER_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  return static_cast<std::int64_t>(free_bytes);
}

#ifndef LLMSIZER_PROBE_NO_CUBLAS
void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(status)));
  }
}
#define LLMSIZER_CUBLAS(expr) check_cublas((expr), #expr)

struct GemmType {
  const char* name;
  cudaDataType_t ab;  ///< A and B
  cudaDataType_t cd;  ///< C and D (output)
  cublasComputeType_t compute;
  int min_cc;  ///< compute capability * 10 needed
  std::size_t ab_bytes;
  std::size_t cd_bytes;
};

// fp8 (e4m3) inputs need sm_89+ and an fp16/bf16/fp32 output; cuBLASLt documents the TN layout for it
// (https://docs.nvidia.com/cuda/cublas/#cublasltmatmul), which every type here uses.
const GemmType kGemmTypes[] = {
    {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 0, 4, 4},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 80, 4, 4},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 70, 2, 2},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 80, 2, 2},
    {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 89, 1, 2},
};

void fill(void* p, std::size_t n, cudaDataType_t type, cudaStream_t stream) {
  const int blocks = 1024, threads = 256;
  switch (type) {
    case CUDA_R_32F: fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<float*>(p), n); break;
    case CUDA_R_16F: fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<__half*>(p), n); break;
    case CUDA_R_16BF: fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<__nv_bfloat16*>(p), n); break;
    case CUDA_R_8F_E4M3: fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(p), n); break;
    default: throw std::runtime_error("fill: unsupported data type");
  }
  LLMSIZER_CUDA(cudaGetLastError());
}

/// One cuBLASLt matmul D = A^T B (m x k by k x n, column-major) with the best heuristic algorithm.
class LtMatmul {
 public:
  LtMatmul(cublasLtHandle_t lt, int n, const GemmType& type, std::size_t workspace_bytes) : lt_(lt), n_(n) {
    LLMSIZER_CUBLAS(cublasLtMatmulDescCreate(&op_, type.compute, CUDA_R_32F));
    const cublasOperation_t trans_a = CUBLAS_OP_T, trans_b = CUBLAS_OP_N;
    LLMSIZER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof trans_a));
    LLMSIZER_CUBLAS(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof trans_b));
    LLMSIZER_CUBLAS(cublasLtMatrixLayoutCreate(&a_, type.ab, n, n, n));
    LLMSIZER_CUBLAS(cublasLtMatrixLayoutCreate(&b_, type.ab, n, n, n));
    LLMSIZER_CUBLAS(cublasLtMatrixLayoutCreate(&d_, type.cd, n, n, n));
    LLMSIZER_CUBLAS(cublasLtMatmulPreferenceCreate(&pref_));
    LLMSIZER_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                         &workspace_bytes, sizeof workspace_bytes));
    int found = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(lt_, op_, a_, b_, d_, d_, pref_, 1, &heuristic_, &found);
    found_ = status == CUBLAS_STATUS_SUCCESS && found > 0;
  }
  ~LtMatmul() {
    if (pref_) cublasLtMatmulPreferenceDestroy(pref_);
    if (d_) cublasLtMatrixLayoutDestroy(d_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (op_) cublasLtMatmulDescDestroy(op_);
  }
  LtMatmul(const LtMatmul&) = delete;
  LtMatmul& operator=(const LtMatmul&) = delete;

  bool found() const { return found_; }
  double flops() const { return 2.0 * n_ * n_ * n_; }

  void run(const void* a, const void* b, void* d, void* workspace, std::size_t workspace_bytes,
           cudaStream_t stream) const {
    const float alpha = 1.0f, beta = 0.0f;
    LLMSIZER_CUBLAS(cublasLtMatmul(lt_, op_, &alpha, a, a_, b, b_, &beta, d, d_, d, d_, &heuristic_.algo, workspace,
                                   workspace_bytes, stream));
  }

 private:
  cublasLtHandle_t lt_;
  int n_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
  cublasLtMatmulPreference_t pref_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  bool found_ = false;
};

class LtHandle {
 public:
  LtHandle() { LLMSIZER_CUBLAS(cublasLtCreate(&handle_)); }
  ~LtHandle() { cublasLtDestroy(handle_); }
  LtHandle(const LtHandle&) = delete;
  LtHandle& operator=(const LtHandle&) = delete;
  cublasLtHandle_t get() const { return handle_; }

 private:
  cublasLtHandle_t handle_ = nullptr;
};

constexpr std::size_t kWorkspaceBytes = 32 * kMiB;

/// Device memory the cuBLASLt handle and its first (small) GEMM add: loaded kernels and library state.
/// `free_before` is the free memory read before the handle was created.
std::int64_t measure_cublas_init_bytes(const LtHandle& lt, cudaStream_t stream, std::int64_t free_before) {
  {
    const int n = 256;
    DeviceBuffer a(n * n * 4), b(n * n * 4), d(n * n * 4), ws(kWorkspaceBytes);
    LtMatmul mm(lt.get(), n, kGemmTypes[0], kWorkspaceBytes);
    if (mm.found()) mm.run(a.get(), b.get(), d.get(), ws.get(), kWorkspaceBytes, stream);
    LLMSIZER_CUDA(cudaStreamSynchronize(stream));
  }
  return std::max<std::int64_t>(0, free_before - free_device_bytes());
}

void gemm_benchmarks(const CudaDevice& dev, const LtHandle& lt, cudaStream_t stream, bool quick,
                     CudaProbeResult& out) {
  const int n = quick ? 4096 : 8192;
  const int warmup = 2;
  const int count = quick ? 3 : 7;
  const double target_s = quick ? 0.02 : 0.05;  // each sample repeats the GEMM for about this long
  const int cc = dev.compute_capability_major * 10 + dev.compute_capability_minor;
  DeviceBuffer workspace(kWorkspaceBytes);
  for (const GemmType& type : kGemmTypes) {
    const std::string name = std::string("cuda.gemm.") + type.name;
    if (cc < type.min_cc) {
      out.skipped.push_back({name, "needs compute capability " + std::to_string(type.min_cc / 10) + "." +
                                       std::to_string(type.min_cc % 10) + " or newer; " + dev.id + " has " +
                                       std::to_string(cc / 10) + "." + std::to_string(cc % 10)});
      continue;
    }
    try {
      const std::size_t elems = static_cast<std::size_t>(n) * n;
      DeviceBuffer a(elems * type.ab_bytes), b(elems * type.ab_bytes), d(elems * type.cd_bytes);
      fill(a.get(), elems, type.ab, stream);
      fill(b.get(), elems, type.ab, stream);
      LtMatmul mm(lt.get(), n, type, kWorkspaceBytes);
      if (!mm.found()) {
        out.skipped.push_back({name, "cuBLASLt offers no algorithm for this type on " + dev.name});
        continue;
      }
      auto run_once = [&] { mm.run(a.get(), b.get(), d.get(), workspace.get(), kWorkspaceBytes, stream); };
      const double one = gpu_seconds(stream, run_once);
      const int repeats = std::clamp(static_cast<int>(std::ceil(target_s / std::max(one, 1e-6))), 1, 1000);
      Measurement m = make_measurement(name, dev.id, "TFLOP/s", collect_samples(warmup, count, [&] {
                                         const double s = gpu_seconds(stream, [&] {
                                           for (int i = 0; i < repeats; ++i) run_once();
                                         });
                                         return mm.flops() * repeats / s / 1e12;
                                       }));
      m.numeric_inputs = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"repeats_per_sample", double(repeats)},
                          {"warmup_runs", double(warmup)}, {"workspace_bytes", double(kWorkspaceBytes)}};
      m.text_inputs = {{"library", "cuBLASLt"}, {"layout", "TN"}, {"flops_counted", "2*m*n*k"},
                       {"output_type", type.cd == CUDA_R_32F ? "fp32" : (type.cd == CUDA_R_16F ? "fp16" : "bf16")},
                       {"accumulate", "fp32"}};
      out.measurements.push_back(std::move(m));
    } catch (const std::exception& e) {
      out.skipped.push_back({name, e.what()});
    }
  }
}

/// Smallest n from which the GPU (copy A and B in, GEMM, copy C out, from pageable memory as a program
/// holding its data in ordinary vectors would) is faster than the CPU's BLAS for every larger n tried.
void crossover_benchmark(const CudaDevice& dev, const LtHandle& lt, cudaStream_t stream,
                         const CudaProbeOptions& options, CudaProbeResult& out) {
  if (!options.cpu_sgemm_samples_s || options.cpu_sgemm_samples_s(64).empty()) {
    out.skipped.push_back({"crossover", "no CPU BLAS to compare against"});
    return;
  }
  std::vector<int> sizes = {64, 128, 256, 512, 1024, 2048};
  if (!options.quick) sizes.push_back(4096);
  DeviceBuffer workspace(kWorkspaceBytes);
  std::vector<std::pair<int, bool>> gpu_wins;
  for (int n : sizes) {
    std::vector<double> cpu_s = options.cpu_sgemm_samples_s(n);
    const std::size_t elems = static_cast<std::size_t>(n) * n;
    std::vector<float> host_a(elems, 0.5f), host_b(elems, 0.25f), host_c(elems);
    DeviceBuffer a(elems * 4), b(elems * 4), c(elems * 4);
    LtMatmul mm(lt.get(), n, kGemmTypes[0], kWorkspaceBytes);
    if (!mm.found()) throw std::runtime_error("cuBLASLt offers no fp32 algorithm");
    std::vector<double> gpu_s = collect_samples(1, 3, [&] {
      return seconds_of([&] {
        // All on one stream: a pageable copy may return before its DMA ends, so order by the stream.
        LLMSIZER_CUDA(cudaMemcpyAsync(a.get(), host_a.data(), elems * 4, cudaMemcpyHostToDevice, stream));
        LLMSIZER_CUDA(cudaMemcpyAsync(b.get(), host_b.data(), elems * 4, cudaMemcpyHostToDevice, stream));
        mm.run(a.get(), b.get(), c.get(), workspace.get(), kWorkspaceBytes, stream);
        LLMSIZER_CUDA(cudaMemcpyAsync(host_c.data(), c.get(), elems * 4, cudaMemcpyDeviceToHost, stream));
        LLMSIZER_CUDA(cudaStreamSynchronize(stream));
      });
    });
    for (double& s : cpu_s) s *= 1e3;
    for (double& s : gpu_s) s *= 1e3;
    Measurement cpu = make_measurement("crossover.cpu.sgemm", "cpu0", "ms", cpu_s);
    cpu.numeric_inputs = {{"n", double(n)}, {"threads", double(options.cpu_threads)}};
    cpu.text_inputs = {{"includes", "GEMM only (data already in RAM)"}};
    Measurement gpu = make_measurement("crossover.cuda.sgemm_with_transfers", dev.id, "ms", gpu_s);
    gpu.numeric_inputs = {{"n", double(n)}};
    gpu.text_inputs = {{"includes", "pageable host->device copy of A and B, cuBLASLt fp32 GEMM, device->host copy of C"}};
    gpu_wins.emplace_back(n, summarize(gpu_s).median < summarize(cpu_s).median);
    out.measurements.push_back(std::move(cpu));
    out.measurements.push_back(std::move(gpu));
  }
  out.crossover_n = 0;
  for (auto it = gpu_wins.rbegin(); it != gpu_wins.rend() && it->second; ++it) out.crossover_n = it->first;
}
#endif  // LLMSIZER_PROBE_NO_CUBLAS

void bandwidth_benchmarks(const CudaDevice& dev, cudaStream_t stream, bool quick, CudaProbeResult& out) {
  std::size_t bytes = (quick ? 256 : 1024) * kMiB;
  bytes = std::min<std::size_t>(bytes, static_cast<std::size_t>(free_device_bytes() / 4) / kMiB * kMiB);
  const std::size_t n4 = bytes / sizeof(float4);
  DeviceBuffer src(bytes), dst(bytes), sink(sizeof(float));
  const Launch launch = grid_for(dev.sm_count);
  fill_kernel<<<launch.blocks, launch.threads, 0, stream>>>(src.as<float>(), bytes / 4);
  LLMSIZER_CUDA(cudaGetLastError());
  const int warmup = 2, count = quick ? 5 : 10, repeats = 10;
  struct Test {
    const char* name;
    double bytes_moved;
    const char* counted;
  };
  const Test tests[] = {{"cuda.memcpy.d2d", 2.0 * bytes, "read + write"},
                        {"cuda.copy_kernel", 2.0 * bytes, "read + write"},
                        {"cuda.read_kernel", 1.0 * bytes, "read"}};
  for (const Test& t : tests) {
    try {
      auto once = [&] {
        const std::string name = t.name;
        if (name == "cuda.memcpy.d2d") {
          LLMSIZER_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
        } else if (name == "cuda.copy_kernel") {
          copy_kernel<<<launch.blocks, launch.threads, 0, stream>>>(src.as<float4>(), dst.as<float4>(), n4);
        } else {
          read_kernel<<<launch.blocks, launch.threads, 0, stream>>>(src.as<float4>(), n4, sink.as<float>());
        }
        LLMSIZER_CUDA(cudaGetLastError());
      };
      Measurement m = make_measurement(t.name, dev.id, "GB/s", collect_samples(warmup, count, [&] {
                                         const double s = gpu_seconds(stream, [&] {
                                           for (int i = 0; i < repeats; ++i) once();
                                         });
                                         return t.bytes_moved * repeats / s / 1e9;
                                       }));
      m.numeric_inputs = {{"buffer_bytes", double(bytes)}, {"repeats_per_sample", double(repeats)},
                          {"warmup_runs", double(warmup)}};
      m.text_inputs = {{"bytes_counted", t.counted}};
      out.measurements.push_back(std::move(m));
    } catch (const std::exception& e) {
      out.skipped.push_back({t.name, e.what()});
    }
  }
}

void transfer_benchmarks(const CudaDevice& dev, cudaStream_t stream, bool quick, CudaProbeResult& out) {
  const std::size_t bytes = (quick ? 64 : 256) * kMiB;
  const int warmup = 1, count = quick ? 3 : 7;
  DeviceBuffer device(bytes);
  try {
    PinnedBuffer pinned(bytes);
    std::memset(pinned.get(), 1, bytes);
    for (const bool to_device : {true, false}) {
      Measurement m = make_measurement(to_device ? "cuda.h2d.pinned" : "cuda.d2h.pinned", dev.id, "GB/s",
                                       collect_samples(warmup, count, [&] {
                                         const double s = gpu_seconds(stream, [&] {
                                           LLMSIZER_CUDA(cudaMemcpyAsync(
                                               to_device ? device.get() : pinned.get(),
                                               to_device ? pinned.get() : device.get(), bytes,
                                               to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
                                         });
                                         return static_cast<double>(bytes) / s / 1e9;
                                       }));
      m.numeric_inputs = {{"bytes", double(bytes)}, {"warmup_runs", double(warmup)}};
      m.text_inputs = {{"host_memory", "pinned (cudaMallocHost)"}};
      out.measurements.push_back(std::move(m));
    }
  } catch (const std::exception& e) {
    out.skipped.push_back({"cuda.h2d.pinned", e.what()});
  }
  std::vector<char> pageable(bytes, 1);
  for (const bool to_device : {true, false}) {
    const char* name = to_device ? "cuda.h2d.pageable" : "cuda.d2h.pageable";
    try {
      Measurement m = make_measurement(name, dev.id, "GB/s", collect_samples(warmup, count, [&] {
                                         const double s = seconds_of([&] {
                                           LLMSIZER_CUDA(cudaMemcpy(
                                               to_device ? device.get() : static_cast<void*>(pageable.data()),
                                               to_device ? static_cast<const void*>(pageable.data()) : device.get(),
                                               bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
                                           LLMSIZER_CUDA(cudaDeviceSynchronize());
                                         });
                                         return static_cast<double>(bytes) / s / 1e9;
                                       }));
      m.numeric_inputs = {{"bytes", double(bytes)}, {"warmup_runs", double(warmup)}};
      m.text_inputs = {{"host_memory", "pageable (std::vector)"}};
      out.measurements.push_back(std::move(m));
    } catch (const std::exception& e) {
      out.skipped.push_back({name, e.what()});
    }
  }
}

void launch_benchmarks(const CudaDevice& dev, cudaStream_t stream, bool quick, CudaProbeResult& out) {
  const int warmup = 1, count = quick ? 3 : 7;
  struct Pattern {
    const char* name;
    int launches;
    bool wait_each;  ///< synchronize after every launch
    const char* description;
  };
  // Back to back: the cost of one more kernel in a stream (what a decode step of many small kernels
  // pays). Launch and wait: the round trip a host that needs each result pays.
  const Pattern patterns[] = {{"cuda.launch.async", 1000, false, "launches queued back to back"},
                              {"cuda.launch.sync", 200, true, "launch then cudaStreamSynchronize"}};
  for (const Pattern& p : patterns) {
    try {
      Measurement m = make_measurement(p.name, dev.id, "us", collect_samples(warmup, count, [&] {
                                         return seconds_of([&] {
                                                  for (int i = 0; i < p.launches; ++i) {
                                                    empty_kernel<<<1, 1, 0, stream>>>();
                                                    if (p.wait_each) LLMSIZER_CUDA(cudaStreamSynchronize(stream));
                                                  }
                                                  LLMSIZER_CUDA(cudaStreamSynchronize(stream));
                                                }) / p.launches * 1e6;
                                       }));
      LLMSIZER_CUDA(cudaGetLastError());
      m.numeric_inputs = {{"launches_per_sample", double(p.launches)}, {"warmup_runs", double(warmup)}};
      m.text_inputs = {{"kernel", "empty, 1 block of 1 thread"}, {"pattern", p.description}};
      out.measurements.push_back(std::move(m));
    } catch (const std::exception& e) {
      out.skipped.push_back({p.name, e.what()});
    }
  }
}

}  // namespace

bool cuda_probe_built() { return true; }

CudaProbeResult run_cuda_probe(const CudaProbeOptions& options) {
  CudaProbeResult out;
  cudaDriverGetVersion(&out.driver_version);
  cudaRuntimeGetVersion(&out.runtime_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    out.skip_reason = std::string("no CUDA device: ") + cudaGetErrorString(err);
    return out;
  }
  if (count == 0) {
    out.skip_reason = "no CUDA device: cudaGetDeviceCount found none";
    return out;
  }
  try {
    // Describe every device (each gets a context, then loses it again), then measure the first one.
    for (int i = 0; i < count; ++i) {
      out.devices.push_back(describe_device(i));
      if (i > 0) LLMSIZER_CUDA(cudaDeviceReset());
    }
    LLMSIZER_CUDA(cudaSetDevice(0));
    CudaDevice& dev = out.devices.front();
    dev.measured = true;
    Stream stream;
#ifndef LLMSIZER_PROBE_NO_CUBLAS
    {
      const std::int64_t free_before = free_device_bytes();
      LtHandle lt;
      dev.cublas_init_bytes = measure_cublas_init_bytes(lt, stream.get(), free_before);
      gemm_benchmarks(dev, lt, stream.get(), options.quick, out);
      try {
        crossover_benchmark(dev, lt, stream.get(), options, out);
      } catch (const std::exception& e) {
        out.skipped.push_back({"crossover", e.what()});
      }
    }
#else
    out.skipped.push_back({"cuda.gemm", "built without cuBLASLt"});
    out.skipped.push_back({"crossover", "built without cuBLASLt"});
#endif
    bandwidth_benchmarks(dev, stream.get(), options.quick, out);
    transfer_benchmarks(dev, stream.get(), options.quick, out);
    launch_benchmarks(dev, stream.get(), options.quick, out);
  } catch (const std::exception& e) {
    if (out.measurements.empty()) out.skip_reason = std::string("CUDA probe failed: ") + e.what();
    else out.skipped.push_back({"cuda", e.what()});
  }
  return out;
}

}  // namespace llmsizer_probe
