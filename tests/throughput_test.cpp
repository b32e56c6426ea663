// SPDX-License-Identifier: MIT
// Speed: decode roofline by hand (bytes over effective bandwidth), compute-bound at large batch, MoE
// reads only the experts a batch touches, prefill FLOPs and time to first token, tensor-parallel
// all-reduces, partial offload and the CPU-or-GPU comparison.
#include <algorithm>

#include <catch2/catch.hpp>

#include "llmsizer/hardware.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/throughput.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace throughput_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;
using Catch::Matchers::WithinAbs;

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
  // of 1 × 4096 × 2 B costs 35 µs (SpeedCalibration::all_reduce_latency_nvlink_s) + 2 × (1/2) × 8,192 B / 450 GB/s;
  // 2 per layer × 32 layers.
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const StepTime t = decode_step(m, test_support::inference("bf16", 1, 2), hw("nvidia-h100-sxm"), SpeedPlacement{2, -1}, 2);
  CHECK_THAT(t.communication_s, WithinRel(64 * (35e-6 + 8'192.0 / 450e9), 1e-9));
  const StepTime one = decode_step(m, test_support::inference("bf16", 1, 2), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(t.memory_s, WithinRel(one.memory_s / 2, 1e-3));
}

TEST_CASE("GPUs without NVLink move NCCL's 0.75 of their PCIe link's datasheet rate", "[throughput][tensor-parallel]") {
  // PCIe 4.0 x16: 64 GB/s both ways → 32 each way; NCCL's topology model: 16 lanes × 12 Gb/s / 8 = 24 GB/s.
  CHECK_THAT(device_link_gb_per_s(hw("nvidia-l40s")), WithinRel(24.0, 1e-12));
  // NVLink is taken at its datasheet rate: H100 SXM 900 GB/s both ways → 450 each way.
  CHECK_THAT(device_link_gb_per_s(hw("nvidia-h100-sxm")), WithinRel(450.0, 1e-12));
  // Nothing known: PCIe 3.0 x16 (16 GB/s each way) at 0.75 = NCCL's PCI_BW of 12 GB/s.
  CHECK_THAT(device_link_gb_per_s(HardwareSpec{}), WithinRel(12.0, 1e-12));
  // A probe's device: its measured pinned host-to-device rate (data/measured) is what the link moves.
  HardwareSpec probed;
  probed.segment = "measured";
  probed.pcie_gb_per_s = 25.0;
  probed.link_gb_per_s = 25.0;
  CHECK_THAT(device_link_gb_per_s(probed), WithinRel(25.0, 1e-12));
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

TEST_CASE("A partial offload's prompt copies the CPU layers' weights at the host link's achievable rate", "[throughput][offload][prefill]") {
  // llama.cpp runs a large prompt batch of the CPU layers on the GPU, copying their weights over PCIe.
  // Llama-3.1-8B Q4_K_M with no layer on the GPU: 8,030,261,248 parameters less the 525,336,576 of
  // the gathered embedding = 7,504,924,672 at 144 B per 256 = 4,221,520,128 B, over the RTX 4090's
  // PCIe 4.0 x16 at 32 GB/s × 0.75 (kPcieLinkEfficiency, as for the logits' copy) = 24 GB/s:
  // 175.9 ms, above the 512-token prompt's 7.7 TFLOPs at 0.6 of 165.2 TFLOPS (78 ms).
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  const InferenceSettings s = test_support::inference("q4_k_m", 512, 256);
  CHECK_THAT(params_read_per_step(m, 1), WithinRel(7'504'924'672.0, 1e-9));
  CHECK_THAT(prefill_seconds(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, 0}), WithinRel(4'221'520'128.0 / 24e9, 1e-6));
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

// ---- Per-engine step model ----------------------------------------------------------------

namespace {
InferenceSettings engine_settings(const char* weights, Engine engine, int version, std::int64_t input, std::int64_t output) {
  InferenceSettings s = test_support::inference(weights, input, output);
  s.engine = engine;
  s.engine_version = version;
  return s;
}
}  // namespace

TEST_CASE("transformers before 4.53 runs every expert of every MoE layer in a synchronizing Python loop", "[throughput][moe][transformers]") {
  // Qwen3-30B-A3B, 48 MoE layers × 128 experts × 80 µs per iteration = 491.52 ms per decode step
  // on top of the dense layers; the Qwen3 table (transformers 4.51.3, H20) measured 529 ms per
  // token at input 1 (1.89 tokens/s).
  const ModelSpec m = test_support::preset("qwen3-30b-a3b");
  const StepTime old = decode_step(m, engine_settings("bf16", Engine::transformers, 451, 1, 2), hw("nvidia-h20"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(old.serial_s, WithinRel(48 * 128 * 80e-6, 1e-9));
  CHECK_THAT(old.total_s, WithinRel(1.0 / 1.89, 0.10));
  CHECK(old.bound == "bound.expert_loop");
  // 4.53 and later loop over the 8 experts the token chose: 48 × 8 × 80 µs.
  const StepTime now = decode_step(m, engine_settings("bf16", Engine::transformers, 453, 1, 2), hw("nvidia-h20"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(now.serial_s, WithinRel(48 * 8 * 80e-6, 1e-9));
}

TEST_CASE("transformers FP8 linears synchronize, so host time and device time add up", "[throughput][transformers][fp8]") {
  // Qwen3-32B FP8 at input 1 on an H20: 64 layers × 0.6 ms + 448 linears × 117 µs of host time,
  // then the weights at 0.22 × 3.2 TB/s; the Qwen3 table measured 135.8 ms per token (7.37 tokens/s).
  const ModelSpec m = test_support::preset("qwen3-32b");
  const StepTime t = decode_step(m, engine_settings("fp8-block", Engine::transformers, 451, 1, 2), hw("nvidia-h20"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(t.host_launch_s, WithinRel(64 * 0.6e-3 + 448 * 117e-6, 1e-9));
  CHECK_THAT(t.total_s, WithinRel(t.host_launch_s + t.memory_s, 1e-9));
  CHECK_THAT(t.total_s, WithinRel(1.0 / 7.37, 0.10));
  CHECK(t.bound == "bound.synchronizing_kernels");
}

TEST_CASE("litgpt's host time is the operators its Block launches, at gpt-fast's eager time per operator", "[throughput][litgpt]") {
  // Llama-2-7B (RMSNorm, MHA, SwiGLU) in lit_gpt/model.py: 2 × 6 norm operators + 18 attention + 5 MLP
  // + 2 residual adds = 37 per layer, × 32 layers, and 23 per token outside them, at 24.6 µs each:
  // 1,207 × 24.6 µs = 29.69 ms, above the 10.8 ms its 13.5 GB of weights take on an A100 40GB.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  const StepTime t = decode_step(m, engine_settings("bf16", Engine::litgpt, 0, 6, 50), hw("nvidia-a100-40gb-sxm"), SpeedPlacement{1, -1}, 31);
  CHECK_THAT(t.host_launch_s, WithinRel((32 * 37 + 23) * 24.6e-6, 1e-9));
  CHECK(t.bound == "bound.kernel_launches");
  // Falcon-40B: LayerNorm (1 operator) and a GELU MLP (3), grouped KV (2 copies): 2 + 18 + 2 + 3 + 2 = 27.
  const ModelSpec falcon = test_support::preset("falcon-40b");
  const StepTime f = decode_step(falcon, engine_settings("bf16", Engine::litgpt, 0, 6, 50), hw("nvidia-a100-80gb-sxm"), SpeedPlacement{1, -1}, 31);
  CHECK_THAT(f.host_launch_s, WithinRel((60 * 27 + 23) * 24.6e-6, 1e-9));
}

TEST_CASE("bitsandbytes double quantization dequantizes the absmax before every 4-bit linear", "[throughput][litgpt][bitsandbytes]") {
  // bitsandbytes 0.41.1 gemv_4bit: the 4-bit wrapper adds 7 calls that launch nothing (3 µs each) per
  // linear; a nested quant_state adds dequantize_blockwise and `absmax += offset` (2 operators at
  // 24.6 µs in litgpt) and 4 more such calls. Llama-2-7B in lit_gpt/model.py: 32 layers × 5 linears
  // (the fused qkv `attn`, `proj`, fc_1, fc_2 and the MLP's proj) + lm_head = 161.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  const auto host = [&](const char* weights) {
    return decode_step(m, engine_settings(weights, Engine::litgpt, 0, 6, 50), hw("nvidia-a100-40gb-sxm"), SpeedPlacement{1, -1}, 31).host_launch_s;
  };
  CHECK_THAT(host("nf4") - host("bf16"), WithinRel(161 * 7 * 3e-6, 1e-9));
  CHECK_THAT(host("nf4-dq") - host("nf4"), WithinRel(161 * (2 * 24.6e-6 + 4 * 3e-6), 1e-9));
}

TEST_CASE("transformers eager attention copies K and V out to every query head, then reads the copies", "[throughput][transformers][attention]") {
  // Qwen3-32B (64 layers, 8 KV heads of 128, 64 query heads: group 8) at 31,744 cached tokens:
  // 64 × 8 × 128 × 2 × 2 B = 262,144 B per token, 8,321,499,136 B of cache. repeat_kv reads it and
  // writes 8 copies, attention reads the copies (1 + 2 × 8 = 17 × the cache), DynamicCache's
  // torch.cat reads and writes it (2 ×): 19 × 8.3215 GB at the H20's 4,000 GB/s × 0.8 = 49.41 ms.
  const ModelSpec m = test_support::preset("qwen3-32b");
  InferenceSettings s = engine_settings("awq-int4", Engine::transformers, 451, 30720, 2048);
  s.flash_attention = false;
  const StepTime t = decode_step(m, s, hw("nvidia-h20"), SpeedPlacement{1, -1}, 31744);
  CHECK_THAT(t.attention_s, WithinRel(19.0 * 8'321'499'136.0 / 3.2e12, 1e-9));
}

TEST_CASE("transformers decode slows as the context grows: every query head reads its K and V", "[throughput][transformers][attention]") {
  // Qwen2-7B at 31,744 cached tokens: 28 layers × 4 KV heads × 128 × 2 × 2 B × 31,744 = 1.82 GB of
  // cache, read once per query head (group 7) at 353 GB/s = 36.1 ms, plus torch.cat's read and write
  // of the cache (3.64 GB at 1.63 TB/s = 2.2 ms).
  const ModelSpec m = test_support::preset("qwen2-7b-instruct");
  const InferenceSettings s = engine_settings("bf16", Engine::transformers, 438, 30720, 2048);
  const StepTime t = decode_step(m, s, hw("nvidia-a100-80gb-sxm"), SpeedPlacement{1, -1}, 31744);
  const double cache = 28.0 * 4 * 128 * 2 * 2 * 31744;
  CHECK_THAT(t.attention_s, WithinRel(cache * 7 / 353e9 + 2 * cache / (2039 * 0.8e9), 1e-9));
  // The Qwen2 table measured 17.49 tokens/s for 2048 new tokens after 30,720 (57 ms per token).
  const Throughput r = estimate_throughput(m, s, hw("nvidia-a100-80gb-sxm"), SpeedPlacement{1, -1});
  CHECK_THAT(r.generation_tokens_per_s, WithinRel(17.49, 0.15));
}

TEST_CASE("device_map over several GPUs runs the layers one GPU after another", "[throughput][transformers][pipeline]") {
  // accelerate's layer split does not add bandwidth: the weights stream through one GPU at a time,
  // unlike tensor parallelism (vLLM), which splits every layer.
  const ModelSpec m = test_support::preset("qwen2-72b-instruct");
  const InferenceSettings s = engine_settings("bf16", Engine::transformers, 438, 1, 2);
  const StepTime two = decode_step(m, s, hw("nvidia-a100-80gb-sxm"), SpeedPlacement{2, -1}, 2);
  const StepTime one = decode_step(m, s, hw("nvidia-a100-80gb-sxm"), SpeedPlacement{1, -1}, 2);
  CHECK_THAT(two.memory_s, WithinRel(one.memory_s, 1e-9));
  CHECK_THAT(two.communication_s, WithinRel(20e-6 + 8192.0 * 2 / 300e9, 1e-9));  // one hand-off over NVLink (600 GB/s both ways)
  InferenceSettings tp = s;
  tp.engine = Engine::vllm;
  CHECK(decode_step(m, tp, hw("nvidia-a100-80gb-sxm"), SpeedPlacement{2, -1}, 2).memory_s < 0.6 * one.memory_s);
}

TEST_CASE("A prompt forward never takes less than the host needs to issue it", "[throughput][prefill]") {
  // TinyLlama-1.1B, 64 prompt tokens in transformers 4.51: 22 layers × 0.6 ms = 13.2 ms of host
  // time, while its FLOPs (2 × 1.0e9 × 64) take 0.3 ms on an RTX 4090.
  const ModelSpec m = test_support::preset("tinyllama-1.1b-chat-v1.0");
  const double t = prefill_seconds(m, engine_settings("bf16", Engine::transformers, 451, 64, 64), hw("nvidia-rtx-4090"), SpeedPlacement{1, -1});
  CHECK_THAT(t, WithinRel(22 * 0.6e-3, 1e-6));
}

TEST_CASE("AutoAWQ's prompt forward adds its eager score traffic and the first-call cost to the GEMMs", "[throughput][prefill][autoawq]") {
  // Mistral-7B (32 layers, 32 query heads, 8 KV heads of 128) AWQ, 2048 prompt tokens on an RTX
  // 4090 (165.2 TFLOPS × 0.6 = 99.12 TFLOPS; 1008 GB/s × 0.8 = 806.4 GB/s):
  //   GEMMs 2 × 7,110,660,096 (parameters less the embedding) × 2048 = 29.125 TFLOP, and the full
  //   square of scores 2 × 4 (queries per KV head) × 134,217,728 (KV elements at 2048) × 2048 =
  //   2.199 TFLOP: 31.324 TFLOP / 99.12 TFLOPS = 316.0 ms;
  //   score traffic 32 layers × 32 heads × 2048² scores × 32 B = 137.4 GB / 806.4 GB/s = 170.4 ms,
  //   after the GEMMs rather than under them;
  //   the first forward's fixed cost, 50 ms.
  const ModelSpec m = test_support::preset("mistral-7b-v0.1");
  const InferenceSettings s = engine_settings("awq-int4", Engine::autoawq, 0, 2048, 2048);
  const double awq = prefill_seconds(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1});
  CHECK_THAT(awq, WithinRel(316.0e-3 + 170.4e-3 + 50e-3, 0.005));
}

TEST_CASE("A speed calibration replaces the constants read from published tables, in decode and in the prompt's forward",
          "[throughput][calibration]") {
  // TinyLlama-1.1B (22 layers) in transformers 4.51: 22 × 0.6 ms of host time per step with the
  // cited constant, 22 × 0.3 ms with 0.3 ms in its place; the weights' time does not change.
  const ModelSpec m = test_support::preset("tinyllama-1.1b-chat-v1.0");
  const InferenceSettings s = engine_settings("bf16", Engine::transformers, 451, 64, 64);
  SpeedCalibration halved_host;
  halved_host.transformers_layer_host_s = 0.3e-3;
  SpeedOptions halved;
  halved.calibration = &halved_host;
  const StepTime cited = decode_step(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}, 64);
  const StepTime replaced = decode_step(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}, 64, halved);
  CHECK_THAT(cited.host_launch_s, WithinRel(22 * 0.6e-3, 1e-9));
  CHECK_THAT(replaced.host_launch_s, WithinRel(22 * 0.3e-3, 1e-9));
  CHECK_THAT(replaced.memory_s, WithinRel(cited.memory_s, 1e-12));
  // AutoAWQ's first-forward cost (50 ms cited) at 30 ms: the first token comes 20 ms sooner; the
  // 64-token forward itself (22 × 83 µs = 1.83 ms of host time) is the same under both.
  SpeedCalibration lower_first_forward;
  lower_first_forward.auto_awq_first_forward_s = 30e-3;
  SpeedOptions lower;
  lower.calibration = &lower_first_forward;
  const InferenceSettings awq = engine_settings("awq-int4", Engine::autoawq, 0, 64, 64);
  const double cited_ttft = estimate_throughput(m, awq, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}).time_to_first_token_s;
  const double lower_ttft = estimate_throughput(m, awq, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}, lower).time_to_first_token_s;
  CHECK_THAT(cited_ttft - lower_ttft, WithinAbs(20e-3, 1e-9));
  CHECK_THAT(lower_ttft, WithinRel(30e-3 + 22 * 83e-6, 0.01));
}

TEST_CASE("SGLang decode is a fixed step cost plus the weights at its kernels' share of the bandwidth", "[throughput][sglang]") {
  // Qwen3-8B BF16 on an H20 at input 1: 1.1 ms + 15.1 GB / (0.42 × 3.2 TB/s) ≈ 12.3 ms; the Qwen3
  // table measured 12.24 ms per token (81.73 tokens/s counting the 1-token prompt).
  const ModelSpec m = test_support::preset("qwen3-8b");
  const StepTime t = decode_step(m, engine_settings("bf16", Engine::sglang, 0, 1, 2048), hw("nvidia-h20"), SpeedPlacement{1, -1}, 1025);
  CHECK_THAT(t.fixed_s, WithinRel(1.1e-3, 1e-9));
  CHECK_THAT(t.total_s, WithinRel(2049.0 / 2048 / 81.73, 0.05));
}

namespace {
/// The additive parts of a step (StepTime), summed as its total is.
double additive_sum(const StepTime& t) { return t.overlapped_s + t.serial_s + t.offload_s + t.communication_s + t.fixed_s; }
}  // namespace

TEST_CASE("A step's additive parts sum to its total: Mixtral's expert loop is one of them", "[throughput][moe][transformers]") {
  // Mixtral-8x7B in transformers 4.45 (before 4.53, kTransformersHitExpertsVersion): the Python
  // loop runs all 8 experts of each of the 32 MoE layers, 32 × 8 × 80 µs = 20.48 ms, serialized
  // after the device and host time; two GPUs hand the hidden state over once.
  const ModelSpec m = test_support::preset("mixtral-8x7b-instruct-v0.1");
  const StepTime t = decode_step(m, engine_settings("bf16", Engine::transformers, 445, 1024, 1024), hw("nvidia-h100-sxm"), SpeedPlacement{2, -1}, 1536);
  CHECK_THAT(t.serial_s, WithinRel(32 * 8 * 80e-6, 1e-9));
  CHECK(t.communication_s > 0);
  CHECK_FALSE(t.host_waits);
  CHECK_THAT(t.overlapped_s, WithinRel(std::max({t.memory_s, t.compute_s, t.host_launch_s}), 1e-12));
  CHECK_THAT(additive_sum(t), WithinRel(t.total_s, 1e-9));
  // Without the loop the parts would fall short of the total by exactly the loop.
  CHECK_THAT(t.total_s - (t.overlapped_s + t.communication_s + t.fixed_s), WithinRel(t.serial_s, 1e-9));
  // 4.53 and later: the 2 chosen experts, 32 × 2 × 80 µs = 5.12 ms; still a part of the sum.
  const StepTime hit = decode_step(m, engine_settings("bf16", Engine::transformers, 453, 1024, 1024), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}, 1536);
  CHECK_THAT(hit.serial_s, WithinRel(32 * 2 * 80e-6, 1e-9));
  CHECK_THAT(additive_sum(hit), WithinRel(hit.total_s, 1e-9));
}

TEST_CASE("A dense step's additive parts sum to its total on every path", "[throughput]") {
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");
  // vLLM on two GPUs: the device or the launches, all-reduces and the engine's fixed time.
  const StepTime vllm = decode_step(m, engine_settings("bf16", Engine::vllm, 0, 1024, 1024), hw("nvidia-h100-sxm"), SpeedPlacement{2, -1}, 1536);
  CHECK(vllm.communication_s > 0);
  CHECK(vllm.fixed_s > 0);
  CHECK_THAT(additive_sum(vllm), WithinRel(vllm.total_s, 1e-9));
  // transformers FP8: synchronizing linears make host and device take turns (their sum).
  const StepTime fp8 = decode_step(m, engine_settings("fp8", Engine::transformers, 0, 1024, 1024), hw("nvidia-h100-sxm"), SpeedPlacement{1, -1}, 1536);
  CHECK(fp8.host_waits);
  CHECK_THAT(fp8.overlapped_s, WithinRel(fp8.host_launch_s + std::max(fp8.memory_s, fp8.compute_s), 1e-12));
  CHECK_THAT(additive_sum(fp8), WithinRel(fp8.total_s, 1e-9));
  // Partial offload and CPU only: the device and the CPU's layers.
  const StepTime offload = decode_step(m, test_support::inference("q4_k_m", 1024, 1024), hw("nvidia-rtx-4090"), SpeedPlacement{1, 16}, 1536);
  CHECK(offload.offload_s > 0);
  CHECK_THAT(additive_sum(offload), WithinRel(offload.total_s, 1e-9));
  const StepTime cpu = decode_step(m, test_support::inference("q4_k_m", 1024, 1024), hw("amd-ryzen-9-7950x"), SpeedPlacement{0, -1}, 1536);
  CHECK_THAT(additive_sum(cpu), WithinRel(cpu.total_s, 1e-9));
}

}  // namespace throughput_test

namespace throughput_test {

TEST_CASE("llama.cpp samples every sequence's row on the host between steps: its logits read back, then passed over", "[throughput][llama_cpp]") {
  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");  // 128,256 tokens
  InferenceSettings s = engine_settings("q4_k_m", Engine::llama_cpp, 0, 1024, 1024);
  // RTX 4090, PCIe 4.0 x16 (32 GB/s per direction × 0.75 = 24 GB/s): 128,256 × 4 B / 24 GB/s =
  // 21.376 µs to read the row back; 128,256 × 0.5 ns = 64.128 µs to sample it.
  const HostSampling row = host_sampling(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1});
  CHECK_THAT(row.copy_s, WithinRel(21.376e-6, 1e-9));
  CHECK_THAT(row.sample_s, WithinRel(64.128e-6, 1e-9));
  // Four sequences: four rows, serialized with the device (fixed_s), the parts still summing to the total.
  s.batch = 4;
  const StepTime step = decode_step(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, -1}, 1536);
  CHECK_THAT(step.fixed_s, WithinRel(4 * (21.376e-6 + 64.128e-6), 1e-9));
  CHECK_THAT(additive_sum(step), WithinRel(step.total_s, 1e-9));
  // Unified memory and the CPU read nothing back; the sampler's pass stays.
  const HostSampling apple = host_sampling(m, s, hw("apple-m4-max"), SpeedPlacement{1, -1});
  CHECK(apple.copy_s == 0.0);
  CHECK_THAT(apple.sample_s, WithinRel(64.128e-6, 1e-9));
  const StepTime cpu = decode_step(m, s, hw("amd-ryzen-9-7950x"), SpeedPlacement{0, -1}, 1536);
  CHECK_THAT(cpu.fixed_s, WithinRel(4 * 64.128e-6, 1e-9));
  CHECK_THAT(additive_sum(cpu), WithinRel(cpu.total_s, 1e-9));
  // Engines that sample on the device (vLLM, SGLang) or count it in their own host time: none here.
  const HostSampling vllm = host_sampling(m, engine_settings("bf16", Engine::vllm, 0, 1024, 1024), hw("nvidia-rtx-4090"), SpeedPlacement{1, -1});
  CHECK(vllm.per_row() == 0.0);
}

TEST_CASE("A llama.cpp build before graph reuse builds each forward's graph on the host: 4.2 µs a layer, the device waiting", "[throughput][llama_cpp]") {
  // The cited figure against its source (throughput.hpp: the RTX 4080 + Ryzen 9 7950X table, tg128
  // without → with the graph cache): Llama-3.1-8B's 32 layers × 4.2 µs = 134.4 µs against 1/123.55 −
  // 1/125.60 s = 132.1 µs; Llama-3.2-1B's 16 × 4.2 = 67.2 µs against 1/519.27 − 1/538.75 s = 69.6 µs.
  CHECK_THAT(32 * kLlamaCppGraphBuildSecondsPerLayer, WithinRel(1 / 123.55 - 1 / 125.60, 0.02));
  CHECK_THAT(16 * kLlamaCppGraphBuildSecondsPerLayer, WithinRel(1 / 519.27 - 1 / 538.75, 0.04));
  // Up to b5943 every decode rebuilds; later builds and an unnamed one (the current llama.cpp) reuse.
  CHECK(llama_cpp_graph_build_s_per_layer(5943) == kLlamaCppGraphBuildSecondsPerLayer);
  CHECK(llama_cpp_graph_build_s_per_layer(5944) == 0.0);
  CHECK(llama_cpp_graph_build_s_per_layer(0) == 0.0);

  const ModelSpec m = test_support::preset("llama-3.1-8b-instruct");  // 32 layers
  InferenceSettings current = engine_settings("q4_k_m", Engine::llama_cpp, 0, 1024, 1024);
  InferenceSettings old = current;
  old.engine_version = 4000;
  InferenceSettings reusing = current;
  reusing.engine_version = 6918;
  const SpeedPlacement gpu{1, -1};
  // On the RTX 4090 the build adds 32 × 4.2 µs = 134.4 µs to the step, serialized with the device.
  const StepTime now = decode_step(m, current, hw("nvidia-rtx-4090"), gpu, 1536);
  const StepTime then = decode_step(m, old, hw("nvidia-rtx-4090"), gpu, 1536);
  CHECK_THAT(then.total_s - now.total_s, WithinRel(134.4e-6, 1e-9));
  CHECK_THAT(then.fixed_s - now.fixed_s, WithinRel(134.4e-6, 1e-9));
  CHECK(then.overlapped_s == now.overlapped_s);
  CHECK_THAT(additive_sum(then), WithinRel(then.total_s, 1e-9));
  CHECK(decode_step(m, reusing, hw("nvidia-rtx-4090"), gpu, 1536).total_s == now.total_s);
  // On the CPU the same graph is built before the forward runs.
  const StepTime cpu_now = decode_step(m, current, hw("amd-ryzen-9-7950x"), SpeedPlacement{0, -1}, 1536);
  const StepTime cpu_then = decode_step(m, old, hw("amd-ryzen-9-7950x"), SpeedPlacement{0, -1}, 1536);
  CHECK_THAT(cpu_then.total_s - cpu_now.total_s, WithinRel(134.4e-6, 1e-9));
  CHECK_THAT(additive_sum(cpu_then), WithinRel(cpu_then.total_s, 1e-9));
  // Ollama's version is its own numbering (0.12 → 12), not a llama.cpp build: nothing added.
  InferenceSettings ollama = engine_settings("q4_k_m", Engine::ollama, 0, 1024, 1024);
  const double ollama_now = decode_step(m, ollama, hw("nvidia-rtx-4090"), gpu, 1536).total_s;
  ollama.engine_version = 12;
  CHECK(decode_step(m, ollama, hw("nvidia-rtx-4090"), gpu, 1536).total_s == ollama_now);
}

TEST_CASE("llama.cpp's small decode kernels each take a fixed GPU time: Llama-2-7B's 420, 5.16 µs each on Metal, 3.17 µs under CUDA", "[throughput][llama_cpp]") {
  // Llama-2-7B's graph at one token, counted by hand from src/models/llama.cpp: each layer
  // rms_norm, mul (attn_norm); the Q, K, V mul_mats; rope on Q and K; set_rows of K and V into the
  // cache; without flash attention the KQ mul_mat, soft_max, KQV mul_mat and cont (with it one
  // flash_attn_ext); the output mul_mat; add; rms_norm, mul (ffn_norm); gate and up mul_mats;
  // swiglu; down mul_mat; add: 22 kernels (19 with flash attention), the reshapes, views and
  // permutes not dispatched. Of them the 7 weight mul_mats and the 2 over the cache (1 flash
  // attention) stream bytes counted at the bandwidth: 13 small kernels a layer (11). Around the
  // layers: get_rows of the last layer's rows and residual, the output rms_norm and mul (4; the
  // lm_head streams its weights, the token embedding's get_rows runs on the CPU).
  // 32 × 13 + 4 = 420; 32 × 11 + 4 = 356.
  // The constants against their sources: 4.30 ms over 832 dispatches; (1/115.84 − 1/118.67) s over 65 kernels.
  CHECK_THAT(kMetalDispatchS, WithinRel(4.30e-3 / 832, 0.002));
  CHECK_THAT(kLlamaCppCudaKernelS, WithinRel((1 / 115.84 - 1 / 118.67) / 65, 0.002));
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  CHECK(llama_cpp_decode_dispatches(m, false) == 420);
  CHECK(llama_cpp_decode_dispatches(m, true) == 356);

  InferenceSettings s = engine_settings("q4_0", Engine::llama_cpp, 0, 512, 128);
  s.flash_attention = false;
  const SpeedPlacement gpu{1, -1};
  // M2 Pro (Metal): 420 × 5.16 µs = 2.1672 ms, inside memory_s, the parts summing to the total.
  const StepTime apple = decode_step(m, s, hw("apple-m2-pro"), gpu, 576);
  CHECK_THAT(apple.dispatch_s, WithinRel(2.1672e-3, 1e-9));
  CHECK(apple.memory_s > apple.dispatch_s + apple.attention_s);
  CHECK_THAT(additive_sum(apple), WithinRel(apple.total_s, 1e-9));
  // RTX 4090 (CUDA graph replayed): 420 × 3.17 µs = 1.3314 ms; with flash attention 356 × 3.17 µs
  // = 1.12852 ms.
  CHECK_THAT(decode_step(m, s, hw("nvidia-rtx-4090"), gpu, 576).dispatch_s, WithinRel(1.3314e-3, 1e-9));
  InferenceSettings fa = s;
  fa.flash_attention = true;
  CHECK_THAT(decode_step(m, fa, hw("nvidia-rtx-4090"), gpu, 576).dispatch_s, WithinRel(1.12852e-3, 1e-9));
  // Half the layers offloaded: half the dispatches on the GPU.
  const StepTime half = decode_step(m, s, hw("nvidia-rtx-4090"), SpeedPlacement{1, 16}, 576);
  CHECK_THAT(half.dispatch_s, WithinRel(1.3314e-3 / 2, 1e-9));
  // Ollama runs llama.cpp's graph; the CPU's kernels are function calls; vLLM is not ggml.
  InferenceSettings ollama = engine_settings("q4_0", Engine::ollama, 0, 512, 128);
  ollama.flash_attention = false;
  CHECK_THAT(decode_step(m, ollama, hw("apple-m2-pro"), gpu, 576).dispatch_s, WithinRel(2.1672e-3, 1e-9));
  CHECK(decode_step(m, s, hw("amd-ryzen-9-7950x"), SpeedPlacement{0, -1}, 576).dispatch_s == 0.0);
  CHECK(decode_step(m, engine_settings("bf16", Engine::vllm, 0, 512, 128), hw("nvidia-rtx-4090"), gpu, 576).dispatch_s == 0.0);
}

}  // namespace throughput_test
