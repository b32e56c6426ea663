// SPDX-License-Identifier: MIT
#pragma once
/// The speed model's constants that were read from published speed tables (the Qwen2/Qwen1.5/Qwen3
/// speed benchmarks, the AutoAWQ README) rather than counted from an engine's source or a
/// datasheet: one plain struct whose defaults are the cited values (kCitedSpeedCalibration).
/// throughput.cpp reads them through SpeedOptions::calibration, which no request field sets;
/// `llmsizer validate` replaces those a source's rows gave with values derived without that source
/// (data/validation/speed_loso.json) to measure the speed model on rows nothing was read from.

namespace llmsizer {

struct SpeedCalibration {
  /// Host time of one PyTorch eager operator (Python + dispatcher + launch): 19 µs. Derived from the
  /// Qwen2 speed benchmark (QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst, transformers
  /// table, A100 80GB): Qwen2-0.5B-Instruct BF16 at input 1 decodes 49.94 tokens/s = 20.0 ms per
  /// token for 24 layers, while its 1 GB of weights stream in 0.6 ms: ~0.83 ms of host time per
  /// layer, ~45 operators per Qwen2 decoder layer in eager transformers → ~19 µs per operator.
  double eager_op_s = 19e-6;
  /// Time of one small all-reduce (a decode step's hidden state) as a tensor-parallel step pays it,
  /// kernel and rank synchronization included: 35 µs over NVLink (kAllReduceLatencyPcieS: 50 µs over
  /// PCIe). The published tensor-parallel steps exceed weights + engine overhead by that much per
  /// all-reduce (2 per layer): Qwen2-72B in vLLM 0.5 on 2 and 4 A100s (Qwen2 vLLM table) 6-8 ms over
  /// 160 all-reduces, Qwen3-235B-A22B in SGLang on 8 H20s (Qwen3 table) 5.5 ms over 188. nccl-tests
  /// put NCCL's small-message all-reduce at 20-30 µs on 8 NVLink GPUs; vLLM's custom all-reduce exists
  /// because that dominated decode.
  double all_reduce_latency_nvlink_s = 35e-6;
  /// Shortest GPU time of one quantized GEMM call (Marlin/AWQ kernels: a workspace reduction and
  /// a launch per call): 7 µs. Qwen2 vLLM table (A100, input 1): GPTQ-Int4 takes 0.47 ms more per
  /// step than BF16 for Qwen2-0.5B (96 GEMM calls) and 0.9 ms more than its weights explain for
  /// Qwen2-1.5B (112 calls).
  double quant_gemm_floor_s = 7e-6;

  // --- transformers (eager PyTorch generate) -------------------------------------------------
  /// Host time per decoder layer and forward of eager transformers, 4.45 and later (the default):
  /// 0.60 ms. Qwen3 speed table (QwenLM/Qwen2.5 docs/source/getting_started/speed_benchmark.md,
  /// transformers 4.51.3, torch 2.6, H20, batch 1, input 1, host-bound): Qwen3-0.6B/1.7B (28 layers)
  /// 17.1/16.7 ms per token, 4B/8B (36) 21.8/22.1 ms, 14B (40) 24.6 ms, 32B (64) 38.1 ms: 0.595 to
  /// 0.61 ms per layer over six models whose weights differ 50-fold.
  double transformers_layer_host_s = 0.60e-3;
  /// The same before 4.45: 0.83 ms. Qwen2 speed table (QwenLM/Qwen2.5 docs/source/benchmark/
  /// speed_benchmark.rst, transformers 4.38.2, torch 2.1.2, A100): Qwen2-0.5B (24 layers) 20.0 ms,
  /// 1.5B (28) 24.5 ms; Qwen1.5 table (hf_infer.rst, torch 2.1.2): 0.5B/1.8B (24) 17.1/19.3 ms, 4B
  /// (40) 33.0 ms, 7B (32) 27.0 ms: 0.71 to 0.88 ms per layer, median 0.83.
  double transformers_layer_host_old_s = 0.83e-3;
  /// Decode attention in transformers (flash_attn on one query token after unpadding) reads every
  /// query head's K and V on its own, at a fixed rate rather than the device's bandwidth: 353 GB/s
  /// (512 B of K+V per head and token at head_dim 128 in 1.45 ns). The growth of the step with the
  /// context in the Qwen tables: Qwen2-7B +31 ms at 30,720 prompt tokens (28 layers × 28 heads:
  /// 1.3 ns per head-token), Qwen1.5-7B/14B (MHA) 1.8/1.75 ns, Qwen3-4B/8B/14B/32B 1.5/1.5/1.6/1.5
  /// ns; the A100 and the H20 (twice its bandwidth) give the same.
  double transformers_decode_attention_bytes_per_s = 353e9;
  /// One iteration of the MoE blocks' Python loop over experts (throughput.hpp:
  /// kTransformersHitExpertsVersion): torch.where on the expert mask synchronizes with the device,
  /// then ~12 eager ops of the expert MLP: 80 µs. Qwen1.5-MoE-A2.7B (24 layers × 60 experts) 118 ms
  /// per token, Qwen2-57B-A14B GPTQ-Int4 (28 × 64) 180 ms (Qwen1.5/Qwen2 tables, A100), Qwen3-30B-A3B
  /// (48 × 128) 529 ms (Qwen3 table, H20): 68, 87 and 81 µs per iteration after the dense part.
  double moe_loop_iteration_s = 80e-6;
  /// transformers fine-grained FP8 (integrations/finegrained_fp8.py FP8Linear.forward): two Triton
  /// launches (act_quant, w8a8_block_fp8_matmul) and torch.cuda.synchronize() per linear. Qwen3
  /// table, FP8 vs BF16 per token: 0.6B +23.6 ms over 196 linears, 1.7B +25.3/196, 4B +35.9/252,
  /// 8B +42.6/252, 14B +52.2/280, 32B +97.6/448: 117 µs of host time per linear plus the weights
  /// at 690 GB/s (17% of the H20's 4 TB/s, 0.22 of its effective bandwidth).
  double transformers_fp8_linear_host_s = 117e-6;
  double transformers_fp8_bandwidth_share = 0.22;
  /// GPTQ 8-bit linears (AutoGPTQ 0.7.1 CUDA kernels, Qwen2 table, A100): +7.5 ms per token for
  /// Qwen2-0.5B (168 linears), +7.2 ms for 1.5B (196), +6.1 ms for 7B (196) over BF16: 38 µs each.
  double auto_gptq_int8_linear_host_s = 38e-6;
  /// GPTQModel 2.2 8-bit linears (Qwen3 table, H20): 0.6B +20.6 ms, 1.7B +19.0 ms over 196 linears: 100 µs.
  double gptq_model_int8_linear_host_s = 100e-6;
  /// AutoGPTQ's 4-bit ExLlama kernel (transformers GPTQConfig exllama_config version 1) at batch 1:
  /// Qwen1.5-72B and Qwen2-72B GPTQ-Int4 on one A100 take 107 and 110 ms per token for ~41 GB of
  /// weights: 0.37 TB/s, 0.23 of the effective 1.63 TB/s.
  double exllama_bandwidth_share = 0.23;
  /// AutoAWQ GEMM linears through transformers (do_fuse=False): +5.8 ms per token for Qwen2-0.5B
  /// (168 linears), +5.2 ms for 1.5B (196), +5.1 ms for Qwen1.5-0.5B (168): 32 µs each; Qwen2-72B-AWQ
  /// on one A100 takes 100 ms per token for ~41 GB: 0.41 TB/s, 0.25 of the effective bandwidth.
  double awq_gemm_linear_host_s = 32e-6;
  double awq_gemm_bandwidth_share = 0.25;

  // --- AutoAWQ -------------------------------------------------------------------------------
  /// AutoAWQ fused modules (from_quantized(fuse_layers=True)): fused QKV, one attention op writing a
  /// static cache, fused MLP: 83 µs of host time per layer. AutoAWQ README benchmark (AutoAWQ 0.1.6,
  /// RTX 4090 with a Ryzen 9 7950X): TinyLlama-1.1B (22 layers) decodes 549 tokens/s = 1.82 ms per
  /// step while its 0.6 GB of weights take 0.75 ms.
  double auto_awq_fused_layer_host_s = 83e-6;
  /// Its decode attention (FasterTransformer-style masked multi-head attention over the static
  /// cache) reads per query head at the device's effective bandwidth: README 2048/2048 rows of
  /// TinyLlama (431 tokens/s) and Vicuna-7B (133 tokens/s) against their 64/64 rows.
  double auto_awq_decode_attention_bytes_per_s = 1e15;  // i.e. capped at the effective bandwidth
  /// examples/benchmark.py loads the model again for every round and times its first forward as
  /// the prefill (after a warm-up of one fp32 matmul only): that forward pays a fixed first-call cost
  /// of 50 ms on top of its FLOPs, score traffic and weights, whatever the model's size. README 64-
  /// token rows less the forward as the core times it (GEMMs at the 4090's 99 TFLOPS, the eager
  /// prompt attention of throughput.hpp kAutoAwqPromptScoreBytes): Mistral-7B GEMM 58.5 - 9.4 = 49.2
  /// ms, Llama-2-13B 78.0 - 16.9 = 61.1 ms, Falcon-7B 56.1 - 9.3 = 46.8 ms, CodeLlama-34B 93.9 - 43.8
  /// = 50.1 ms, Mistral-7B batch 8 121.9 - 75.0 = 47.0 ms, Llama-2-13B batch 3 120.5 - 50.7 = 69.8
  /// ms: median 49.7 ms.
  double auto_awq_first_forward_s = 50e-3;
  /// AutoAWQ GEMM kernel at batch 1 (the default checkpoint "version"): Mistral-7B GEMM decodes 156
  /// tokens/s vs 188 with the GEMV kernel on the same card (README): 0.83 of GEMV, which streams at
  /// the effective bandwidth.
  double auto_awq_gemm_bandwidth_share = 0.83;

  // --- SGLang and vLLM -----------------------------------------------------------------------
  /// SGLang 0.4.6 decode (Qwen3 table, H20, batch 1, CUDA graphs): the step time of the six dense
  /// Qwen3 models at input 1 is a fixed 1.1 ms plus the weights at 1.36 TB/s for BF16 (0.6B-32B:
  /// 2.41, 4.39, 7.51, 12.24, 21.2, 48.3 ms), at 1.64 TB/s for FP8 block kernels and 0.94 TB/s for
  /// awq_marlin: 0.42, 0.51 and 0.29 of the H20's effective 3.2 TB/s. The same table's transformers
  /// rows stream BF16 at ≥ 1.72 TB/s on that GPU, so these are SGLang's kernels, not the card.
  double sglang_step_overhead_s = 1.1e-3;
  double sglang_bf16_bandwidth_share = 0.42;
  double sglang_fp8_bandwidth_share = 0.51;
  double sglang_awq_bandwidth_share = 0.29;
  /// GPTQ-Marlin MoE in SGLang 0.4.6 launches both GEMMs of every expert of a layer (vLLM 0.7's
  /// fused_marlin_moe: csrc/moe/marlin_moe_ops.cu marlin_mm_moe loops over every expert on the host,
  /// an expert with no rows returning early on the device), each at least ~2.5 µs: Qwen3-30B-A3B
  /// GPTQ-Int4 takes 32 ms per step (48 layers × 128 experts) against 7.3 ms in BF16,
  /// Qwen3-235B-A22B GPTQ-Int4 on 4 GPUs 68 ms (94 × 128) (Qwen3 table).
  double marlin_moe_expert_gemm_s = 2.5e-6;
  /// vLLM's AWQ GEMM kernel at batch 1 (before awq_marlin): Qwen2-7B-AWQ 96.7 vs GPTQ-Int4 143.4
  /// tokens/s in the Qwen2 vLLM table: half the bandwidth of Marlin.
  double vllm_awq_bandwidth_share = 0.5;
  /// vLLM 0.5 fused_moe Triton kernel at batch 1 with its default config (no tuned config for
  /// Qwen2-57B-A14B's 64 experts on A100): Qwen2 vLLM table, Qwen2-57B-A14B-Instruct on 2 GPUs
  /// 31.4 tokens/s at input 1 = 31.8 ms per step, of which ~23 ms read 6.2 GB of touched experts
  /// per GPU: 0.27 TB/s, 0.17 of the effective bandwidth. SGLang 0.4.6's fused_moe reads
  /// Qwen3-30B-A3B's experts at ~0.75 of its dense share (7.3 ms per step).
  double vllm_fused_moe_bandwidth_share = 0.17;
  double sglang_fused_moe_share_of_dense = 0.75;
};

/// The cited values, what every estimate uses unless `llmsizer validate` passes others.
inline constexpr SpeedCalibration kCitedSpeedCalibration{};

}  // namespace llmsizer
