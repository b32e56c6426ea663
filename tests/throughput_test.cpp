// SPDX-License-Identifier: MIT
// Speed: decode roofline by hand (bytes over effective bandwidth), compute-bound at large batch, MoE
// reads only the experts a batch touches, prefill FLOPs and time to first token, tensor-parallel
// all-reduces, partial offload and the CPU-or-GPU comparison.
#include <catch2/catch.hpp>

#include "llmsizer/hardware.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/throughput.hpp"
#include "test_support.hpp"

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {
const HardwareSpec& hw(const char* id) { return *find_hardware(id); }
}  // namespace

TEST_CASE("Decode of Llama-3.1-8B bf16 on an RTX 4090 is weight bytes over effective bandwidth", "[throughput][decode]") {
  // Bytes per token: (8,030,261,248 params − 525,336,576 embedding params) × 2 B = 15,009,849,344 B
  // of weights plus the KV cache at 2 tokens, 2 × 32 × 8 × 128 × 2 × 2 B = 262,144 B.
  // Effective bandwidth 1008 GB/s × 0.8 = 806.4 GB/s → 18.6138 ms per token; launches
  // (12 × 32 × 5 µs = 1.92 ms) overlap it; compute (2 × 7.5e9 FLOPs / 99 TFLOPS) is 0.15 ms.
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const InferenceSettings s = test_support::inference("bf16", 1, 2);
  const StepTime t = decode_step(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}, 2);
  const double expected_s = (15'009'849'344.0 + 262'144.0) / 806.4e9;
  CHECK_THAT(t.memory_s, WithinRel(expected_s, 1e-9));
  CHECK_THAT(t.total_s, WithinRel(expected_s, 1e-9));
  CHECK(t.bound == "bound.memory_bandwidth");
  CHECK_THAT(t.host_launch_s, WithinRel(12 * 32 * 5e-6, 1e-9));
}

TEST_CASE("Large batches turn decode compute-bound and raise total tokens per second", "[throughput][roofline]") {
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  double previous = 0;
  for (std::int64_t batch : {1, 8, 64, 512}) {
    CAPTURE(batch);
    const Throughput t = estimate_throughput(m, test_support::inference("bf16", 128, 128, batch), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1});
    CHECK(t.decode_tokens_per_s_total > previous);
    previous = t.decode_tokens_per_s_total;
  }
  // At batch 2048 the FLOPs (2 × 7.5e9 × 2048 = 3.1e13 per step) take 52 ms at 593 TFLOPS while
  // the weights stream in 5.6 ms: compute-bound.
  const StepTime big = decode_step(m, test_support::inference("bf16", 128, 128, 2048), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}, 192);
  CHECK(big.bound == "bound.compute");
}

TEST_CASE("MoE decode reads only the active experts at batch 1 and nearly all at large batch", "[throughput][moe]") {
  const ModelSpec m = test_support::preset("qwen3-30b-a3b");
  const ParamCounts c = count_params(m);
  const double untied_embedding = static_cast<double>(c.lm_head > 0 ? c.embedding : 0);
  CHECK_THAT(params_read_per_step(m, 1), WithinRel(static_cast<double>(c.active) - untied_embedding, 1e-12));
  // 128 experts, 8 per token: a batch of 1024 touches 1 − (1 − 8/128)^1024 ≈ 100% of them.
  CHECK_THAT(params_read_per_step(m, 1024), WithinRel(static_cast<double>(c.total) - untied_embedding, 1e-6));
}

TEST_CASE("Prefill time is FLOPs over effective tensor throughput", "[throughput][prefill]") {
  // Llama-3.1-8B, 1,000 prompt tokens on an H100 SXM: 2 × 7,504,924,672 × 1,000 = 1.5009849344e13
  // FLOPs for the weights, plus causal attention ½ × 2 × 4 (query heads per KV head) × 65,536,000
  // KV elements × 1,000 tokens = 2.62144e11 → 1.5271993344e13 FLOPs at 989 × 0.6 = 593.4 TFLOPS
  // = 25.736 ms (streaming the weights once takes only 5.6 ms).
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const InferenceSettings s = test_support::inference("bf16", 1'000, 100);
  const double expected = 1.5271993344e13 / 593.4e12;
  CHECK_THAT(prefill_seconds(m, s, hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}), WithinRel(expected, 1e-9));
  const Throughput t = estimate_throughput(m, s, hw("nvidia-h100-sxm"), SpeedPlacement{1, -1});
  CHECK_THAT(t.time_to_first_token_s, WithinRel(expected, 1e-9));  // generic engine: no per-step extras
  CHECK_THAT(t.prefill_tokens_per_s, WithinRel(1'000 / expected, 1e-9));
}

TEST_CASE("Tensor parallelism adds two all-reduces per layer", "[throughput][tensor-parallel]") {
  // Llama-3.1-8B on 2 H100 SXM (NVLink 900 GB/s both ways → 450 GB/s each way): each all-reduce
  // of 1 × 4096 × 2 B costs 10 µs + 2 × (1/2) × 8,192 B / 450 GB/s; 2 per layer × 32 layers.
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const StepTime t = decode_step(m, test_support::inference("bf16", 1, 2), hw("nvidia-h100-sxm"), SpeedPlacement{2, -1}, 2);
  CHECK_THAT(t.communication_s, WithinRel(64 * (10e-6 + 8'192.0 / 450e9), 1e-9));
  const StepTime one = decode_step(m, test_support::inference("bf16", 1, 2), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(t.memory_s, WithinRel(one.memory_s / 2, 1e-3));
}

TEST_CASE("Partial offload is slower than the GPU and faster than the CPU alone", "[throughput][offload]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  const InferenceSettings s = test_support::inference("bf16", 1'024, 256);
  const HardwareSpec& card = hw("nvidia-rtx-4060");
  const double gpu = estimate_throughput(m, s, card, SpeedPlacement{1, -1}).decode_tokens_per_s;
  const double split = estimate_throughput(m, s, card, SpeedPlacement{1, 10}).decode_tokens_per_s;
  const double cpu = estimate_throughput(m, s, card, SpeedPlacement{0, -1}).decode_tokens_per_s;
  CHECK(split < gpu);
  CHECK(split > cpu);
}

TEST_CASE("A small quantized model runs fast enough on a CPU and a 70B bf16 does not", "[throughput][cpu-vs-gpu]") {
  const HardwareSpec& cpu = hw("amd-ryzen-9-7950x");
  const HardwareSpec& gpu = hw("nvidia-rtx-4090");
  // Qwen2.5-1.5B int4: ~0.9 GB per token at 83.2 × 0.7 = 58 GB/s → ~60 tokens/s, far above 5.2.
  const CpuVsGpu small = compare_cpu_gpu(test_support::preset("qwen2.5-1.5b-instruct"), test_support::inference("int4", 512, 256), cpu, gpu, SpeedPlacement{1, -1});
  CHECK(small.cpu_is_enough);
  CHECK(small.gpu_tokens_per_s > small.cpu_tokens_per_s);
  CHECK(small.crossover_batch == 1);
  // Llama-3.1-70B bf16: ~140 GB per token at 58 GB/s → 0.4 tokens/s, below reading speed.
  const CpuVsGpu big = compare_cpu_gpu(test_support::preset("llama-3.1-70b-instruct"), test_support::inference("bf16", 512, 256), cpu, gpu, SpeedPlacement{1, -1});
  CHECK_FALSE(big.cpu_is_enough);
  CHECK(big.cpu_tokens_per_s < kReadingTokensPerS);
}
