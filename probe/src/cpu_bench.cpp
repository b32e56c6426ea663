// SPDX-License-Identifier: MIT
#include "cpu_bench.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>

#ifdef LLMSIZER_PROBE_CBLAS
#include <cblas.h>
#endif

namespace llmsizer_probe {
namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

/// Splits [0, n) into `threads` contiguous chunks and runs body(begin, end) on each, the first on the
/// calling thread. Contiguous chunks keep each thread's pages on its own NUMA node (first touch).
template <class F>
void parallel_for(int threads, std::size_t n, F body) {
  const std::size_t t = static_cast<std::size_t>(std::max(threads, 1));
  const std::size_t chunk = (n + t - 1) / t;
  std::vector<std::thread> pool;
  for (std::size_t i = 1; i < t; ++i) {
    const std::size_t begin = std::min(n, i * chunk);
    const std::size_t end = std::min(n, begin + chunk);
    pool.emplace_back([=] { body(begin, end); });
  }
  body(0, std::min(n, chunk));
  for (auto& th : pool) th.join();
}

/// STREAM's four kernels (McCalpin, https://www.cs.virginia.edu/stream/ref.html) on doubles, counting
/// bytes the way STREAM does: copy and scale move 2 arrays, add and triad 3 (write-allocate not counted).
void stream_benchmarks(const CpuBenchOptions& options, CpuBenchResult& out) {
  const std::size_t n = static_cast<std::size_t>(options.stream_total_bytes / 3 / 8);
  std::unique_ptr<double[]> a_owner(new double[n]);
  std::unique_ptr<double[]> b_owner(new double[n]);
  std::unique_ptr<double[]> c_owner(new double[n]);
  double* const a = a_owner.get();
  double* const b = b_owner.get();
  double* const c = c_owner.get();
  const int threads = options.threads;
  parallel_for(threads, n, [=](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      a[i] = 1.0;
      b[i] = 2.0;
      c[i] = 0.0;
    }
  });
  const double scalar = 3.0;
  const int warmup = 1;
  const int count = options.quick ? 4 : 10;
  const double array_bytes = static_cast<double>(n) * 8.0;
  std::vector<double> copy, scale, add, triad;
  // Interleaved like STREAM itself: each round runs copy, scale, add, triad once.
  for (int round = 0; round < warmup + count; ++round) {
    const double t_copy = seconds_of([&] {
      parallel_for(threads, n, [=](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) c[i] = a[i];
      });
    });
    const double t_scale = seconds_of([&] {
      parallel_for(threads, n, [=](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) b[i] = scalar * c[i];
      });
    });
    const double t_add = seconds_of([&] {
      parallel_for(threads, n, [=](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) c[i] = a[i] + b[i];
      });
    });
    const double t_triad = seconds_of([&] {
      parallel_for(threads, n, [=](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) a[i] = b[i] + scalar * c[i];
      });
    });
    if (round < warmup) continue;
    copy.push_back(2 * array_bytes / t_copy / 1e9);
    scale.push_back(2 * array_bytes / t_scale / 1e9);
    add.push_back(3 * array_bytes / t_add / 1e9);
    triad.push_back(3 * array_bytes / t_triad / 1e9);
  }
  // STREAM's check: replay the scalar recurrence and compare, so the loops cannot have been elided.
  double ea = 1.0, eb = 2.0, ec = 0.0;
  for (int round = 0; round < warmup + count; ++round) {
    ec = ea;
    eb = scalar * ec;
    ec = ea + eb;
    ea = eb + scalar * ec;
  }
  for (std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
    if (std::abs(a[i] - ea) > 1e-9 * ea || std::abs(b[i] - eb) > 1e-9 * eb || std::abs(c[i] - ec) > 1e-9 * ec) {
      throw std::runtime_error("STREAM validation failed: the kernels did not compute what they should");
    }
  }
  const struct {
    const char* name;
    std::vector<double>* samples;
    double arrays;
  } kernels[] = {{"copy", &copy, 2}, {"scale", &scale, 2}, {"add", &add, 3}, {"triad", &triad, 3}};
  for (const auto& k : kernels) {
    Measurement m;
    m.name = std::string("cpu.stream.") + k.name;
    m.device = "cpu0";
    m.unit = "GB/s";
    m.numeric_inputs = {{"array_bytes", array_bytes},
                        {"arrays_counted", k.arrays},
                        {"threads", double(threads)},
                        {"warmup_runs", double(warmup)}};
    m.text_inputs = {{"element", "fp64"}, {"bytes_counted", "STREAM convention, write-allocate not counted"}};
    m.samples = *k.samples;
    out.measurements.push_back(std::move(m));
  }
}

/// Deterministic, small, non-zero values (zeros could take fast paths in some kernels).
void fill_pattern(std::vector<float>& v) {
  std::uint32_t x = 2463534242u;
  for (auto& e : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    e = static_cast<float>(x % 2001) / 1000.0f - 1.0f;
  }
}

#ifdef LLMSIZER_PROBE_CBLAS
double sgemm_once(int n, const float* a, const float* b, float* c) {
  return seconds_of([&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  });
}

// bfloat16 GEMM exists only in OpenBLAS builds with BUILD_BFLOAT16; look it up at run time so the probe
// links against any CBLAS. Signature from OpenBLAS cblas.h (bfloat16 is a 16-bit unsigned integer).
using SbgemmFn = void (*)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int, int, float,
                          const std::uint16_t*, int, const std::uint16_t*, int, float, float*, int);

std::uint16_t to_bf16(float f) {
  std::uint32_t bits = 0;
  static_assert(sizeof bits == sizeof f, "float is 32 bits");
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<std::uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);  // round to nearest even
}

Measurement gemm_measurement(const char* name, int n, int threads, int warmup, std::vector<double> samples) {
  Measurement m;
  m.name = name;
  m.device = "cpu0";
  m.unit = "GFLOP/s";
  m.numeric_inputs = {{"m", double(n)}, {"n", double(n)}, {"k", double(n)}, {"threads", double(threads)},
                      {"warmup_runs", double(warmup)}};
  m.text_inputs = {{"blas", blas_description()}, {"flops_counted", "2*m*n*k"}};
  m.samples = std::move(samples);
  return m;
}

void gemm_benchmarks(const HostInfo& host, const CpuBenchOptions& options, CpuBenchResult& out) {
  const int n = options.quick ? 1024 : (options.threads <= 8 ? 2048 : 4096);
  const int warmup = 1;
  const int count = options.quick ? 3 : 7;
  const double flops = 2.0 * n * n * n;
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  std::vector<float> a(elems), b(elems), c(elems);
  fill_pattern(a);
  fill_pattern(b);
  out.measurements.push_back(gemm_measurement("cpu.gemm.fp32", n, options.threads, warmup,
                                              collect_samples(warmup, count, [&] {
                                                return flops / sgemm_once(n, a.data(), b.data(), c.data()) / 1e9;
                                              })));

  auto sbgemm = reinterpret_cast<SbgemmFn>(dlsym(RTLD_DEFAULT, "cblas_sbgemm"));
  if (!sbgemm) {
    std::string cpu_support;
    for (const char* f : {"avx512_bf16", "amx_bf16", "bf16"}) {
      if (host.has_flag(f)) cpu_support += cpu_support.empty() ? f : std::string(", ") + f;
    }
    out.skipped.push_back(
        {"cpu.gemm.bf16", "the linked BLAS (" + blas_description() +
                              ") does not export cblas_sbgemm (OpenBLAS built without BUILD_BFLOAT16); CPU bf16 "
                              "support: " + (cpu_support.empty() ? std::string("none") : cpu_support)});
  } else {
    std::vector<std::uint16_t> a16(elems), b16(elems);
    std::transform(a.begin(), a.end(), a16.begin(), to_bf16);
    std::transform(b.begin(), b.end(), b16.begin(), to_bf16);
    out.measurements.push_back(gemm_measurement(
        "cpu.gemm.bf16", n, options.threads, warmup, collect_samples(warmup, count, [&] {
          return flops / seconds_of([&] {
                   sbgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a16.data(), n, b16.data(), n,
                          0.0f, c.data(), n);
                 }) / 1e9;
        })));
  }
}

/// Matrix-vector product over a matrix as large as the STREAM arrays: the memory-bound shape of decode,
/// where every weight is read once per token. Reported as bytes of matrix read per second.
void gemv_benchmark(const CpuBenchOptions& options, CpuBenchResult& out) {
  const int cols = 4096;
  const int rows = static_cast<int>(std::max<std::int64_t>(options.stream_total_bytes / 4 / cols, cols));
  std::vector<float> matrix(static_cast<std::size_t>(rows) * cols), x(cols), y(rows);
  fill_pattern(matrix);
  fill_pattern(x);
  const int warmup = 1;
  const int count = options.quick ? 4 : 10;
  const double matrix_bytes = static_cast<double>(matrix.size()) * 4.0;
  Measurement m;
  m.name = "cpu.gemv.fp32";
  m.device = "cpu0";
  m.unit = "GB/s";
  m.numeric_inputs = {{"rows", double(rows)},          {"cols", double(cols)},
                      {"matrix_bytes", matrix_bytes},    {"flops_per_byte", 0.5},
                      {"threads", double(options.threads)}, {"warmup_runs", double(warmup)}};
  m.text_inputs = {{"blas", blas_description()}, {"bytes_counted", "matrix bytes read once per product"}};
  m.samples = collect_samples(warmup, count, [&] {
    return matrix_bytes / seconds_of([&] {
             cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, cols, 1.0f, matrix.data(), cols, x.data(), 1, 0.0f,
                         y.data(), 1);
           }) / 1e9;
  });
  out.measurements.push_back(std::move(m));
}
#endif  // LLMSIZER_PROBE_CBLAS

}  // namespace

std::int64_t default_stream_total_bytes(const HostInfo& host) {
  std::int64_t total = std::max<std::int64_t>(4 * host.last_level_cache_bytes(), 256 * kMiB);
  if (host.ram_available_bytes > 0) total = std::min(total, host.ram_available_bytes / 4);
  return std::max<std::int64_t>(total, 24 * kMiB);
}

std::string blas_description() {
#if defined(LLMSIZER_PROBE_OPENBLAS)
  return std::string(openblas_get_config()) + " (" + openblas_get_corename() + ")";
#elif defined(LLMSIZER_PROBE_CBLAS)
  return "CBLAS (vendor unknown)";
#else
  return "none";
#endif
}

CpuBenchResult run_cpu_benchmarks(const HostInfo& host, const CpuBenchOptions& options) {
  CpuBenchResult out;
  stream_benchmarks(options, out);
#ifdef LLMSIZER_PROBE_CBLAS
#ifdef LLMSIZER_PROBE_OPENBLAS
  openblas_set_num_threads(options.threads);
#endif
  gemm_benchmarks(host, options, out);
  gemv_benchmark(options, out);
#else
  (void)host;
  for (const char* name : {"cpu.gemm.fp32", "cpu.gemm.bf16", "cpu.gemv.fp32"}) {
    out.skipped.push_back({name, "built without a CBLAS library"});
  }
#endif
  return out;
}

std::vector<double> cpu_sgemm_samples_s(int n) {
#ifdef LLMSIZER_PROBE_CBLAS
  const std::size_t elems = static_cast<std::size_t>(n) * n;
  std::vector<float> a(elems), b(elems), c(elems);
  fill_pattern(a);
  fill_pattern(b);
  return collect_samples(1, 3, [&] { return sgemm_once(n, a.data(), b.data(), c.data()); });
#else
  (void)n;
  return {};
#endif
}

}  // namespace llmsizer_probe
