// SPDX-License-Identifier: MIT
#pragma once
/// Speed: decode tokens/s (a roofline: bytes read per step over effective bandwidth, or FLOPs over
/// effective compute, whichever is slower, plus launch and engine overheads and tensor-parallel
/// communication), prefill tokens/s and time to first token, for GPUs, Apple unified memory,
/// CPUs and GPU + CPU partial offload. Pure functions over plain structs.
#include <cstdint>
#include <string>

#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/// Achievable fraction of peak DRAM bandwidth on a GPU for the weight-streaming GEMVs of decode.
/// hardware-sources.md §1: "Sustained bandwidth is usually 70-90% of this on GPUs"; 0.8 is the middle.
constexpr double kGpuBandwidthEfficiency = 0.8;
/// The same on CPUs and Apple unified memory: "60-85% on CPUs" (hardware-sources.md §1, STREAM-type
/// sustained bandwidth); 0.7.
constexpr double kCpuBandwidthEfficiency = 0.7;
/// Achievable fraction of dense tensor peak for prefill GEMMs: large BF16 GEMMs reach 60-70% of
/// peak in cuBLAS and model FLOPs utilisation of whole prefill passes is lower; 0.6.
constexpr double kGpuMatmulEfficiency = 0.6;
/// Weight-only quantized formats (int8/int4, GPTQ, AWQ, NF4, GGUF k-quants) dequantize inside the
/// GEMV: batch-1 kernels other than Marlin reach well below the ideal 2×/4× speed-up over FP16
/// (Frantar et al. 2024, "MARLIN: Mixed-Precision Auto-Regressive Parallel Inference on Large
/// Language Models", Fig. 1 and §2: exllamav2/AWQ kernels fall short of the memory-bound ideal).
/// Their effective bandwidth is taken as 0.7 of the FP16 kernels' (assumption within that gap).
constexpr double kDequantBandwidthFactor = 0.7;
/// CPU GEMM efficiency in llama.cpp/oneDNN prefill: 0.5 of the SIMD/AMX peak (assumption).
constexpr double kCpuMatmulEfficiency = 0.5;
/// Host time of one kernel launch without CUDA graphs: ~5 µs (cudaLaunchKernel; NVIDIA developer
/// blog "Getting Started with CUDA Graphs", 2019, measures a few µs of launch overhead per kernel).
constexpr double kKernelLaunchS = 5e-6;
/// Host time of one PyTorch eager operator (Python + dispatcher + launch): 19 µs. Derived from the
/// Qwen2 speed benchmark (QwenLM/Qwen2.5 docs/source/benchmark/speed_benchmark.rst, transformers
/// table, A100 80GB): Qwen2-0.5B-Instruct BF16 at input 1 decodes 49.94 tokens/s = 20.0 ms per
/// token for 24 layers, while its 1 GB of weights stream in 0.6 ms: ~0.83 ms of host time per
/// layer, ~45 operators per Qwen2 decoder layer in eager transformers → ~19 µs per operator.
constexpr double kEagerOpS = 19e-6;
/// vLLM (before v0.6) host time per decode step outside the model (scheduler, input preparation,
/// sampling): 3.8 ms. The vLLM v0.6.0 performance blog (blog.vllm.ai/2024/09/05/perf-update.html)
/// profiles Llama 3 8B on one H100 at 38% GPU execution and 29% scheduling and input preparation;
/// with GPU execution of ~5 ms per step (vLLM V1 blog, 2025-01-24) that is 5 × 29/38 = 3.8 ms.
constexpr double kVllmStepOverheadS = 3.8e-3;
/// vLLM captures CUDA graphs only up to max_seq_len_to_capture = 8192 tokens (vLLM 0.4-0.6 engine
/// argument default); longer sequences run eagerly.
constexpr std::int64_t kVllmGraphMaxContext = 8192;
/// Latency of one small all-reduce (a decode step's hidden state): ~10 µs over NVLink, ~25 µs over
/// PCIe (NCCL small-message latencies; vLLM's custom all-reduce exists because NCCL's ~20+ µs
/// dominated small decode all-reduces). Assumption within that range.
constexpr double kAllReduceLatencyNvlinkS = 10e-6;
constexpr double kAllReduceLatencyPcieS = 25e-6;
/// Tokens a person reads per second: 238 words per minute for silent reading of non-fiction
/// (Brysbaert 2019, "How many words do we read per minute?", J. Memory and Language 109) at
/// ~1.3 tokens per English word (OpenAI tokenizer rule of thumb: 1 token ≈ 0.75 words) → 5.2.
constexpr double kReadingTokensPerS = 5.2;

/// Engine options that change speed but not memory.
struct SpeedOptions {
  bool enforce_eager = false;  ///< vLLM --enforce-eager: no CUDA graphs
};

/// Where the layers run (from the fit).
struct SpeedPlacement {
  int gpus = 1;          ///< 0: CPU only; >1: tensor parallel (vLLM) or layers split (transformers)
  int gpu_layers = -1;   ///< partial offload: decoder layers on the GPU (-1: all)
};

/// Time of one decode step, by cause, seconds.
struct StepTime {
  double memory_s = 0;         ///< bytes read / effective bandwidth (GPU part)
  double compute_s = 0;        ///< FLOPs / effective compute
  double host_launch_s = 0;    ///< host time to launch the step's kernels (overlaps the GPU)
  double offload_s = 0;        ///< CPU layers of a partial offload: bytes / host bandwidth
  double communication_s = 0;  ///< tensor-parallel all-reduces
  double fixed_s = 0;          ///< engine work per step outside the model
  double total_s = 0;
  std::string bound;           ///< what limits it, a term id: "bound.memory_bandwidth", "bound.compute", ...
};

struct Throughput {
  bool known = false;                   ///< false when the hardware's bandwidth is unknown
  double decode_tokens_per_s = 0;       ///< one sequence, at the middle of the generation
  double decode_tokens_per_s_total = 0; ///< all `batch` sequences together
  double prefill_tokens_per_s = 0;      ///< prompt tokens per second (0 when compute is unknown)
  double time_to_first_token_s = 0;     ///< prefill of the whole batch + one decode step
  double generation_tokens_per_s = 0;   ///< output tokens / (time to first token + all decode steps), one sequence
  std::int64_t bytes_per_step = 0;      ///< read from memory per decode step, per device
  double flops_per_step = 0;            ///< all devices
  StepTime step;                        ///< at the middle of the generation
};

/// Effective bandwidth and compute of the device that runs the layers (measured values first).
double effective_bandwidth_gb_per_s(const HardwareSpec& hw, bool cpu);
double effective_tflops(const HardwareSpec& hw, bool cpu);

/** Parameters read from memory per decode step for `batch` sequences: dense weights once, the
 *  token embedding table not at all (one row is gathered), and for MoE only the experts the
 *  batch touches: E × (1 − (1 − k/E)^batch) of the E routed experts per layer. */
double params_read_per_step(const ModelSpec& model, std::int64_t batch);

/** Decode step at `context` tokens of KV cache per sequence. */
StepTime decode_step(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
                     const SpeedPlacement& where, std::int64_t context, const SpeedOptions& options = {});

/** Prefill of the batch's prompts: 2 × active params × tokens plus causal attention
 *  (2 × layers × q width × tokens² per sequence, halved for causality twice counted: QKᵀ and AV),
 *  over effective compute; not faster than reading the weights once. Seconds. */
double prefill_seconds(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
                       const SpeedPlacement& where);

/** Decode, prefill and end-to-end speed of the request on `hw` placed as `where`. */
Throughput estimate_throughput(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
                               const SpeedPlacement& where, const SpeedOptions& options = {});

/// CPU or GPU for this request (the article's point: small models and batches may not need a GPU).
struct CpuVsGpu {
  double cpu_tokens_per_s = 0;     ///< one sequence on the CPU, in RAM
  double gpu_tokens_per_s = 0;     ///< one sequence on the GPU
  std::int64_t crossover_batch = 0;///< smallest batch where the GPU's total tokens/s beat the CPU's (0: never up to 1024)
  bool cpu_is_enough = false;      ///< CPU decode ≥ reading speed (kReadingTokensPerS)
  Message note;
};
CpuVsGpu compare_cpu_gpu(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& cpu,
                         const HardwareSpec& gpu, const SpeedPlacement& gpu_where);


}  // namespace llmsizer
