// SPDX-License-Identifier: MIT
#pragma once
/// Speed: decode tokens/s (a roofline: bytes read per step over effective bandwidth, or FLOPs over
/// effective compute, whichever is slower, plus launch and engine overheads and tensor-parallel
/// communication), prefill tokens/s and time to first token, for GPUs, Apple unified memory,
/// CPUs and GPU + CPU partial offload. Pure functions over plain structs.
#include <cstdint>
#include <string>
#include <string_view>

#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/speed_calibration.hpp"

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
/// vLLM host time per decode step outside the model (gathering the last step's outputs,
/// scheduling, input preparation): 3.8 ms, measured on vLLM before 0.6. The vLLM v0.6.0
/// performance blog (blog.vllm.ai/2024/09/05/perf-update.html) profiles v0.5.3 with Llama 3 8B on
/// one H100 at 38% GPU execution, 29% scheduling (those three) and 33% the HTTP API server (a
/// process of its own since 0.6, not in this figure); with GPU execution of ~5 ms per step (vLLM V1
/// blog, 2025-01-24) that is 5 × 29/38 = 3.8 ms, and 5 / 0.38 = 13 ms per token, the blog's own
/// "1 token every 13 ms" for Llama3 8B.
/// From 0.6 (kVllmAsyncOutputVersion) output processing overlaps the next step (asynchronous
/// output processing) and scheduling can cover several steps (multi-step scheduling, opt-in with
/// --num-scheduler-steps, default 1); the blog gives no per-step split of the 29% and no profile of
/// 0.6 at batch 1, so the v0.5.3 figure is kept for every version: for 0.6 and later an upper
/// bound, said in a warning when the request names such a version.
constexpr double kVllmStepOverheadS = 3.8e-3;
/// vLLM release (major × 100 + minor: 0.6 → 6) from which output processing is asynchronous.
constexpr int kVllmAsyncOutputVersion = 6;
/// vLLM captures CUDA graphs only up to max_seq_len_to_capture = 8192 tokens (vLLM 0.4-0.6 engine
/// argument default); longer sequences run eagerly.
constexpr std::int64_t kVllmGraphMaxContext = 8192;
/// Time of one small all-reduce over PCIe as a tensor-parallel step pays it: 50 µs, beside 35 µs over
/// NVLink (SpeedCalibration::all_reduce_latency_nvlink_s, whose comment cites the published steps and
/// nccl-tests).
constexpr double kAllReduceLatencyPcieS = 50e-6;
/// Share of a PCIe link's datasheet rate (per direction) that NCCL moves between GPUs: NCCL's
/// topology model gives a link width × 12 Gb/s per lane at 16 GT/s (src/graph/topo.cc kvDictPciGen
/// "16.0 GT/s PCIe" → 120 × 100 Mb/s, bw = width × speed / 80: 24 GB/s for Gen4 x16, 48 for Gen5,
/// 12 for Gen3 — topo.h PCI_BW "PCI Gen3 x16"), against 32, 64 and 16 GB/s on the datasheets:
/// 0.75 for every generation (128b/130b encoding, TLP headers and flow control). NVLink's
/// datasheet rate is used as it is.
constexpr double kPcieLinkEfficiency = 0.75;
/// Shortest time a small eager kernel (a norm, a rotary op, an add on one token) keeps the GPU
/// busy, launch gap included: 2 µs.
constexpr double kKernelFloorS = 2e-6;
/** GPU time one Metal compute dispatch adds to a decode on Apple silicon whatever its work: ferrox
 *  injected 32 inert rms_norm dispatches per layer into Gemma-2-2B's decode on an M2 Pro (832 per
 *  token) and the command buffers' GPU time (GPUEndTime - GPUStartTime) rose by 4.30 ms per token,
 *  5.16 µs a dispatch (https://github.com/antonellof/ferrox/issues/149, antonellof's comment
 *  "Measured: the host cost is NOT per-dispatch"). ggml-metal encodes the graph the same way: one
 *  dispatch per node, each waiting on the nodes it reads (a memory barrier between them). */
constexpr double kMetalDispatchS = 5.16e-6;
/** GPU time one kernel of llama.cpp's replayed CUDA graph adds to a decode whatever its work: fusing
 *  each rms_norm with the mul by its weight (one kernel fewer for each of LLaMA-7B's 65 norms, the
 *  fused kernel doing the same work) took tg128 of LLaMA 7B Q5_K_M on an RTX 3090 from 115.84 to
 *  118.67 tokens/s (https://github.com/ggml-org/llama.cpp/pull/14800, its description's table):
 *  (1/115.84 − 1/118.67) s / 65 = 3.17 µs a kernel. */
constexpr double kLlamaCppCudaKernelS = 3.17e-6;

// --- transformers (eager PyTorch generate) ---------------------------------------------------
/// transformers version from which SpeedCalibration::transformers_layer_host_s applies (major × 100 + minor); the
/// published tables bracket the change between 4.38 and 4.51.
constexpr int kTransformersFastHostVersion = 445;
/// From transformers 4.53 the MoE blocks loop only over the experts the tokens chose
/// (huggingface/transformers PR #32429 for Mixtral/Qwen2-MoE, merged 2025-04; PR #38133 for
/// Qwen3-MoE, merged 2025-06); before, over every expert (`for expert_idx in range(num_experts)`).
constexpr int kTransformersHitExpertsVersion = 453;
/// Host time of a PyTorch call that dispatches without launching a kernel (a view, a cast to the
/// dtype the tensor already has, an empty allocation, a device query): 3 µs. PyTorch's
/// operator_benchmark puts torch.split of CUDA tensors (views only) at 3.3-3.5 µs forward, 2.3 µs
/// after pytorch/pytorch PR #32194 ("reimplement __torch_function__ overrides for torch.functional").
constexpr double kDispatchOnlyOpS = 3e-6;
/// bitsandbytes 0.41.1 4-bit linear at batch 1 (Linear4bit.forward → matmul_4bit → functional.gemv_4bit):
/// one kernel launched through ctypes in place of F.linear's, and around it calls into PyTorch
/// that launch nothing: x.to and out.to at the compute dtype, Params4bit.t() in forward and again
/// in matmul_4bit (a Parameter subclass: through __torch_function__), torch.empty for the output,
/// torch.cuda.current_device and set_device in pre_call, set_device in post_call: 7 (21 µs). The
/// bitsandbytes maintainers' layer benchmark (bitsandbytes-foundation/bitsandbytes issue #605, RTX
/// 4090, batch 1) puts Linear4bit 13.4 µs above nn.Linear, on a desktop CPU.
constexpr int kBnb4bitDispatchOnlyCalls = 7;
/// With double quantization (QLoRA's nested quant_state) gemv_4bit first dequantizes the absmax:
/// dequantize_blockwise (a ctypes kernel) and `absmax += offset`, two operators that launch, and the
/// former's own torch.empty, code.to, pre_call and post_call: 4 calls that launch nothing.
constexpr int kBnbNestedLaunchingOps = 2;
constexpr int kBnbNestedDispatchOnlyCalls = 4;
/// bitsandbytes 0.41.1 LLM.int8 linear at inference (MatMul8bitLt.forward, has_fp16_weights False):
/// the input cast to fp16, double_quant (row/column statistics and the int8 quantization), the
/// transform to col32, igemmlt, mm_dequant and the cast back: 8 operators that launch, the outlier
/// columns' matmul (threshold 6.0, only when a column exceeds it) not counted.
constexpr int kBnbInt8LaunchingOps = 8;

// --- other engines ---------------------------------------------------------------------------
/// Host time of one PyTorch operator in a plain eager GPT decode loop (module code issuing each op
/// from Python, no framework around it): 24.6 µs. The PyTorch team's gpt-fast starting point
/// ("Accelerating Generative AI with PyTorch II: GPT, Fast", pytorch.org blog, 2023-11-30: eager
/// Llama-2-7B at 25.5 tokens/s on an A100-80GB, "heavily CPU overhead bound") takes 39.2 ms per
/// token for operators counted in pytorch-labs/gpt-fast model.py and generate.py (3bcaaaf): per
/// TransformerBlock two RMSNorms of 8 (x.float(), x * x, mean, + eps, rsqrt, *, type_as, * weight),
/// wqkv, apply_rotary_emb on q and k 9 each (x.float(), four *, −, +, stack, type_as), the two
/// KV-cache index_puts, two repeat_interleaves, scaled_dot_product_attention, contiguous, wo, the
/// SwiGLU MLP 5 and two residual adds: 49, × 32 layers; per token outside them 25 (the mask and
/// freqs_cis lookups, the embedding, the final RMSNorm, the output layer; sampling's division,
/// topk, lt, where, softmax, empty_like, exponential_, division, argmax, cast; input_pos += 1 and two
/// clones): 39.2 ms / 1,593 operators. Views launch nothing and are not counted; the kernels
/// launched inside an operator (the math attention gpt-fast forces at decode) are in its share.
constexpr double kEagerGptOpS = 24.6e-6;
/// litgpt generate (its own eager GPT module, lit_gpt/model.py of Lightning-AI/litgpt e51aaef):
/// a decoder layer's host time is the operators its Block.forward launches at decode, counted the
/// same way, each at kEagerGptOpS. RMSNorm (lit_gpt/rmsnorm.py: x * x, mean, + eps, rsqrt, x *,
/// weight *) 6 each, LayerNorm 1; attention 18: the fused qkv linear, apply_rope on q and on k
/// (neg, cat, x * cos, rotated * sin, add; its .to is a no-op, the bf16-true model's cos and sin
/// being bf16) 10, the cat of the roped and unroped parts of q and k 2, KVCache.index_copy_ of k
/// and v 2, scaled_dot_product_attention 1, the reshape of its transposed output (a copy) 1, the
/// output projection 1; with grouped queries the reshape of the expanded k and v, a copy each, 2
/// more; the MLP 5 gated (fc_1, fc_2, silu, *, proj) or 3 (fc, gelu, proj); two residual adds.
constexpr int kLitgptRmsNormOps = 6;
constexpr int kLitgptLayerNormOps = 1;
constexpr int kLitgptAttentionOps = 18;
constexpr int kLitgptGroupedKvCopyOps = 2;
constexpr int kLitgptGatedMlpOps = 5;
constexpr int kLitgptMlpOps = 3;
constexpr int kLitgptResidualOps = 2;
/// Operators per generated token outside the layers: GPT.forward's index_select of cos, sin and
/// the mask, the embedding, the final RMSNorm and lm_head (11); generate's loop (generate/base.py):
/// index_select of the input, the division by the temperature, topk, the pivot's index, lt, where,
/// softmax, multinomial, the cast, input_pos + 1, index_copy and the `idx_next == eos_id` test (12).
constexpr int kLitgptStepOps = 23;
/// AutoAWQ's fused attention over a prompt (https://github.com/casper-hansen/AutoAWQ/blob/
/// 027758d473e3e85356d2deb952a5279c0d85c396/awq/modules/fused/attn.py lines 166-210, the
/// `seqlen > 1` branch) is eager PyTorch that materializes every query head's full
/// seqlen x seqlen score matrix (no causal skipping, the mask is added) and passes it through six
/// element-wise steps, each reading and writing it in memory: torch.matmul(xq, keys^T) writes fp16
/// scores (2 B), `/ math.sqrt(head_dim)` reads and writes them (4), `+ attention_mask` (4),
/// `.float()` (2 + 4), F.softmax in fp32 (4 + 4), `.type_as(xq)` (4 + 2), and torch.matmul(scores,
/// values) reads them (2): 32 bytes of memory traffic per score.
constexpr double kAutoAwqPromptScoreBytes = 32;
/// accelerate device_map: one device-to-device copy of the hidden state per GPU boundary.
constexpr double kDeviceCopyLatencyS = 20e-6;
/// accelerate AlignDevicesHook pre/post-forward per decoder layer when the model spans GPUs.
constexpr double kAccelerateHookLayerS = 0;

/// Query heads per KV head (MLA: every head reads the shared latent).
double query_group(const ModelSpec& model);

/// Tokens a person reads per second: 238 words per minute for silent reading of non-fiction
/// (Brysbaert 2019, "How many words do we read per minute?", J. Memory and Language 109) at
/// ~1.3 tokens per English word (OpenAI tokenizer rule of thumb: 1 token ≈ 0.75 words) → 5.2.
constexpr double kReadingTokensPerS = 5.2;

/// Engine options that change speed but not memory.
struct SpeedOptions {
  bool enforce_eager = false;  ///< vLLM --enforce-eager: no CUDA graphs
  /// The constants read from published speed tables (speed_calibration.hpp): the cited values unless
  /// `llmsizer validate` passes others.
  const SpeedCalibration* calibration = &kCitedSpeedCalibration;
};

/// Where the layers run (from the fit).
struct SpeedPlacement {
  int gpus = 1;          ///< 0: CPU only; >1: tensor parallel (vLLM) or layers split (transformers)
  int gpu_layers = -1;   ///< partial offload: decoder layers on the GPU (-1: all)
};

/** Time of one decode step (or one prefill forward), by cause, seconds. The additive parts sum to
 *  the total: total_s = overlapped_s + serial_s + offload_s + communication_s + fixed_s, where
 *  overlapped_s = max(device, host_launch_s), or device + host_launch_s when a kernel synchronizes
 *  (host_waits), and device = max(memory_s, compute_s). memory_s, compute_s and host_launch_s are
 *  inside overlapped_s, attention_s inside memory_s. */
struct StepTime {
  double memory_s = 0;         ///< bytes read / effective bandwidth at each kernel's share of it (GPU part), attention included
  double compute_s = 0;        ///< FLOPs / effective compute
  double host_launch_s = 0;    ///< host time to issue the step's kernels (Python, dispatcher, launches; overlaps the GPU)
  double offload_s = 0;        ///< CPU layers of a partial offload: bytes / host bandwidth
  double communication_s = 0;  ///< tensor-parallel all-reduces, pipeline hand-offs
  double fixed_s = 0;          ///< engine work per step outside the model (scheduler), not overlapped
  double attention_s = 0;      ///< part of memory_s: attention over the cache (and cache copies)
  double dispatch_s = 0;       ///< part of memory_s: llama.cpp's small kernels (norms, rope, adds) at their floor each
  double serial_s = 0;         ///< host-synchronous work: a per-expert Python loop, synchronizing kernels
  double overlapped_s = 0;     ///< the device and the host's launches together: max of the two, or their sum when host_waits
  bool host_waits = false;     ///< a synchronizing kernel makes host and device take turns (overlapped_s is their sum)
  double total_s = 0;
  /// What limits it, a term id ("bound.memory_bandwidth", "bound.compute", ...): static text, not a
  /// string of its own (a recommendation makes thousands of steps; in WASM each id was an allocation).
  std::string_view bound;
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

/** The device-to-device rate tensor-parallel all-reduces and device copies move at, GB/s per direction: NVLink's
 *  datasheet rate, else the PCIe link's at kPcieLinkEfficiency (PCIe 3.0 x16 when neither is known;
 *  a probe's measured pinned copy rate as it is). */
double device_link_gb_per_s(const HardwareSpec& hw);
/** The host link's rate, GB/s per direction: the PCIe link's at kPcieLinkEfficiency (PCIe 3.0 x16
 *  when unknown), a probe's measured pinned copy rate as it is. */
double host_link_gb_per_s(const HardwareSpec& hw);
/** The fixed time of one small tensor-parallel all-reduce: over NVLink when the device has it
 *  (SpeedCalibration::all_reduce_latency_nvlink_s), else over PCIe (kAllReduceLatencyPcieS). */
double all_reduce_latency_s(const HardwareSpec& hw, const SpeedCalibration& calibration);

/// Effective bandwidth and compute of the device that runs the layers (measured values first).
double effective_bandwidth_gb_per_s(const HardwareSpec& hw, bool cpu);

/** Where the speed's figures come from, said beside it: my machine's base or typical device
 *  (HardwareSpec::speed_basis), a probe's measurement, else the device's datasheet bandwidth (of
 *  its RAM when the model runs on the `cpu`). Empty id: no figure to name. */
Message speed_basis(const HardwareSpec& hw, bool cpu);
double effective_tflops(const HardwareSpec& hw, bool cpu);

/** Parameters read from memory per decode step for `batch` sequences: dense weights once, the
 *  token embedding table not at all (one row is gathered), and for MoE only the experts the
 *  batch touches: E × (1 − (1 − k/E)^batch) of the E routed experts per layer. */
double params_read_per_step(const ModelSpec& model, std::int64_t batch);

/** llama.cpp's host time per candidate logit of one sampled token: 0.5 ns. Every sampled token
 *  builds an n_vocab candidate array on the host from the row's logits (common/sampling.cpp
 *  common_sampler::set_logits: "cur[token_id] = llama_token_data{token_id, logits[token_id], 0.0f};")
 *  and runs the sampler chain over it, whose first truncating sampler (top-k, greedy) passes over
 *  all of it; the rest of the chain runs on the few candidates left. llama.cpp's own sampler timings
 *  with the vocabulary known: Llama-3.2-1B (128,256 tokens) on an Intel Core i5-13400F 8.69 ms /
 *  137 runs, 0.49 ns per logit (ggml-org/llama.cpp issue 34, comment by drosanda); Llama-3.1-8B
 *  through llama-cpp-python 0.2.90 2.79 ms / 33 runs, 0.66 ns (abetlen/llama-cpp-python issue 1830);
 *  Llama-2-7B's target in the speculative example (32,000 tokens) 4.02 ms / 259 runs, 0.49 ns
 *  (ggml-org/llama.cpp issue 3649): the median, rounded. */
constexpr double kLlamaCppSamplerSecondsPerLogit = 0.5e-9;
/// Bytes per vocabulary entry of one output row llama.cpp reads back from the device: FP32 logits
/// (src/llama-context.cpp decode: "ggml_backend_tensor_get_async(backend_res, t_logits, logits_out,
/// 0, n_outputs*n_vocab*sizeof(float));", into the context's pinned host output buffer).
constexpr double kLogitBytes = 4.0;

/** llama.cpp's host time per decoder layer to build one forward's compute graph: 4.2 µs. Until
 *  graph reuse, every llama_decode micro-batch rebuilt its ggml graph on the host (llama_build_graph,
 *  then ggml_backend_sched_split_graph and the allocation), between the previous token's sample and
 *  the device's work on the next: serialized with the device, whatever the backend (ggml-org/llama.cpp
 *  issue 7456, "GGML Graph Preparation"). The published figure that isolates it: agray3's graph
 *  caching (ggml-org/llama.cpp pull request 8366, skipping that rebuild) measured on an RTX 4080 with
 *  a Ryzen 9 7950X, tg128 without → with the cache (ikawrakow/ik_llama.cpp pull request 94, CUDA
 *  table): llama 8B Q4_0 123.55 → 125.60 t/s, 3B 237.40 → 244.19, 1B 519.27 → 538.75 (Llama-3.1-8B,
 *  -3.2-3B and -3.2-1B by their 8.03 B, 3.61 B and 1.50 B parameters: 32, 28 and 16 layers). The
 *  time per token they save, 0.132, 0.117 and 0.070 ms, is 4.13, 4.18 and 4.35 µs per layer: the
 *  mean, rounded. A fast desktop CPU: a slower host takes longer. */
constexpr double kLlamaCppGraphBuildSecondsPerLayer = 4.2e-6;
/** The last llama.cpp build known to rebuild the graph for every decode by default: b5943, released
 *  before pull request 14959 was opened (data/validation/README.md has the dates). Graph reuse
 *  (ggml-org/llama.cpp pull request 14482, "llama : reuse compute graphs") needed LLAMA_SET_ROWS=1
 *  until pull request 14959 ("llama : enable LLAMA_SET_ROWS=1 by default"); a build after it whose
 *  single-token graph keeps its shape reuses it and builds nothing. The builds between b5943 and that
 *  merge are taken as reusing, for want of its build number. */
constexpr int kLlamaCppLastGraphRebuildBuild = 5943;
/** llama.cpp's host time per decoder layer to build each forward's graph at `build` (its number, 0
 *  when not named: the current llama.cpp): kLlamaCppGraphBuildSecondsPerLayer up to
 *  kLlamaCppLastGraphRebuildBuild, none after. */
double llama_cpp_graph_build_s_per_layer(int build);

/// llama.cpp's host work per output row of a decode step: the row's logits read back over the host
/// link (none on the CPU or unified memory) and, for a row that is sampled, the sampler over them.
struct HostSampling {
  double copy_s = 0;    ///< n_vocab × 4 bytes over the host link
  double sample_s = 0;  ///< n_vocab × kLlamaCppSamplerSecondsPerLogit
  double per_row() const { return copy_s + sample_s; }
};
/** The host sampling of one row for `settings`' engine: llama.cpp and Ollama (llama.cpp's sampler)
 *  sample on the host between steps, the device idle meanwhile; other engines sample on the device
 *  or count it in their own host time (zero here). Zero when the vocabulary is unknown. The link:
 *  the device's PCIe at kPcieLinkEfficiency (PCIe 3.0 x16 when unknown), a probe's measured rate as it is. */
HostSampling host_sampling(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
                           const SpeedPlacement& where);

/** Decode step at `context` tokens of KV cache per sequence. llama.cpp and Ollama: with every
 *  sequence's row read back and sampled (host_sampling, in fixed_s). */
StepTime decode_step(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
                     const SpeedPlacement& where, std::int64_t context, const SpeedOptions& options = {});
/** The same step on the device(s) alone, without the host's sampling of its rows: decode_step less
 *  host_sampling for every sequence. For loops that read back and sample rows on their own count
 *  (speculative.cpp: a verify step samples only the positions its target keeps). */
StepTime device_decode_step(const ModelSpec& model, const InferenceSettings& settings, const HardwareSpec& hw,
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
