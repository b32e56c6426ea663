// SPDX-License-Identifier: MIT
#pragma once
/// llama.cpp's memory as llama.cpp computes it: the weights per buffer (mapped file, CPU repack
/// copies, GPU), the KV cache per layer kind and stream, the compute buffer of one micro-batch and
/// the output buffer. Every rule cites the llama.cpp source it follows; the version modelled is the
/// one node-llama-cpp 3.22.1 bundles (llama.cpp tag v0.5.0, see data/validation/llama_cpp.json).
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/tensors.hpp"

namespace llmsizer {

struct EstimateCache;  // estimate_cache.hpp

/** The model's tensors as llama.cpp's converter writes them into a GGUF file and its loader
 *  expects them (llama.cpp src/models/<arch>.cpp load_arch_tensors): model_tensors() with the
 *  family layouts that differ from Hugging Face's —
 *  - phi3: q, k, v fused into `attn_qkv` and gate + up into one `ffn_up` of 2 × n_ff rows
 *    (src/models/phi3.cpp: `ffn_up {n_embd, 2 * n_ff}`, no ffn_gate);
 *  - deepseek2 (MLA): `attn_kv_b` split into `attn_k_b {nope, kv_lora_rank, heads}` and
 *    `attn_v_b {kv_lora_rank, v_head, heads}` (src/models/deepseek2.cpp, is_mla), the V3 score
 *    correction bias named `exp_probs_b.bias`;
 *  - gpt-oss: one `attn_sinks.weight {heads}` per layer (src/models/openai-moe.cpp).
 *  Tensors whose names model_tensors() only lumps (sinks) are spelled out, so that the list is
 *  exactly what llama.cpp loads for these families; a vision tower is left out (GGUF keeps it in
 *  a separate mmproj file). */
std::vector<TensorInfo> llama_cpp_tensor_infos(const ModelSpec& model);

/** llama.cpp's `general.architecture` for the model's family (architecture.hpp, from
 *  src/llama-arch.cpp LLM_ARCH_NAMES): "llama", "qwen2", "qwen3", "qwen3moe", "gemma2", "gemma3",
 *  "phi3", "deepseek2", "gpt-oss", ...; empty when not known here. */
std::string llama_cpp_architecture(const ModelSpec& model);

/** llama_cpp_tensor_infos() with the storage type each tensor gets in `format` (for GGUF file
 *  types the llama-quant.cpp mix of quantization.hpp; fp16/bf16/fp32 are the GGUF F16/BF16/F32
 *  file types; other formats keep their own byte counts). */
std::vector<GgufTensor> llama_cpp_tensors(const ModelSpec& model, const WeightFormat& format);

/** Which weight types the CPU backend copies into a CPU_REPACK buffer with interleaved rows for its
 *  matrix kernels (ggml/src/ggml-cpu/repack.cpp ggml_repack_get_optimal_repack_type): */
enum class LlamaCppCpu {
  none,         ///< no repacking (GGML_CPU_REPACK off, or a CPU with none of the features below)
  x86_avx2,     ///< AVX2 (incl. AVX-512 CPUs): Q4_0, Q4_K, IQ4_NL, MXFP4 with rows % 8 == 0
  x86_avx512,   ///< AVX-512: the AVX2 set and Q2_K (rows % 8 == 0)
  arm_dotprod,  ///< NEON + dotprod: Q4_0, IQ4_NL, MXFP4, Q8_0 (rows % 4), Q4_K, Q5_K, Q6_K (rows % 8)
  arm_i8mm,     ///< NEON + i8mm: the dotprod set (8x8 / 4x8 layouts)
};
/// The request's name of a CPU family ("none", "x86_avx2", "x86_avx512", "arm_dotprod", "arm_i8mm").
const char* llama_cpp_cpu_id(LlamaCppCpu cpu);
/// Every CPU family, in the order requests and menus list them.
inline constexpr LlamaCppCpu kLlamaCppCpus[] = {LlamaCppCpu::none, LlamaCppCpu::x86_avx2, LlamaCppCpu::x86_avx512,
                                                LlamaCppCpu::arm_dotprod, LlamaCppCpu::arm_i8mm};
// Not modelled: ggml built with AMX (x86 Sapphire Rapids and later) first offers an AMX buffer for
// Q4_0, Q4_1, Q8_0, Q4_K, Q5_K, Q6_K and IQ4_XS (ggml-cpu/amx/common.h qtype_has_amx_kernels).

/// Flash attention: llama.cpp's -fa on|off|auto (auto: on where the backend supports it).
enum class LlamaCppFlashAttn { automatic, on, off };

/** The settings of a llama.cpp run (llama-server / llama-cli flags in brackets). */
struct LlamaCppSettings {
  std::int64_t n_ctx = 4096;       ///< [-c] context of all sequences together; 0: the model's trained context
  std::int64_t n_batch = 2048;     ///< [-b] logical batch (common/common.h default 2048)
  std::int64_t n_ubatch = 512;     ///< [-ub] micro-batch: the compute buffer's size (common/common.h default 512)
  int n_seq = 1;                   ///< [-np] parallel sequences (slots), llama_context_params.n_seq_max
  /// Logit rows one micro-batch may output (llama_context_params.n_outputs_max; 0: n_batch, the
  /// library's and llama-cli's default). llama-server sets it to its slot count
  /// (tools/server/server-context.cpp server_output_limits), which shrinks the compute buffer.
  std::int64_t n_outputs_max = 0;
  bool kv_unified = false;         ///< [-kvu] one KV stream shared by all sequences (llama-server's default)
  LlamaCppFlashAttn flash_attn = LlamaCppFlashAttn::automatic;  ///< [-fa]
  std::string type_k = "F16";      ///< [-ctk] ggml type name of the K cache: F16, BF16, F32, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, IQ4_NL
  std::string type_v = "F16";      ///< [-ctv] V cache type; a quantized V needs flash attention
  bool swa_full = false;           ///< [--swa-full] sliding-window layers cache the whole context
  bool mmap = true;                ///< [--no-mmap] false: weights are read into allocated memory
  int n_gpu_layers = 0;            ///< [-ngl] layers on the GPU, counting the output layer; -1: all
  bool gpu = false;                ///< a GPU backend (CUDA, Metal, Vulkan) is in use
  bool offload_kqv = true;         ///< [--no-kv-offload] false: KV cache and attention stay on the CPU
  LlamaCppCpu cpu = LlamaCppCpu::x86_avx2;  ///< which weights the CPU backend repacks
  std::vector<std::string> cpu_tensor_patterns;  ///< [-ot PATTERN=CPU] regular expressions searched in tensor names, as llama.cpp does
};

/// How a layer keeps its context (llama-model.cpp create_memory).
enum class LlamaCppLayerCache {
  full,        ///< llama_kv_cache over the whole context per stream
  sliding,     ///< llama_kv_cache_iswa's SWA cache: pad256(min(n_ctx_seq, window + n_ubatch)) cells
  mla,         ///< DeepSeek MLA: K only, kv_lora_rank + rope per token (no V)
  recurrent,   ///< llama_memory_recurrent: a fixed state per sequence
  none,        ///< no cache (a layer that reuses another's)
};

/// The cache of one layer.
struct LlamaCppLayerKv {
  int layer = 0;
  LlamaCppLayerCache kind = LlamaCppLayerCache::full;
  std::int64_t cells = 0;     ///< cells per stream
  std::int64_t streams = 1;   ///< KV streams: n_seq unless unified
  std::int64_t k_bytes = 0;
  std::int64_t v_bytes = 0;
  bool on_device = false;
};

/** llama.cpp's buffers for a run, in bytes, named as llama.cpp logs them. Host memory is RAM;
 *  device memory is on the GPU (0 without one). */
struct LlamaCppMemory {
  // The parameters as llama.cpp resolves them (llama-context.cpp constructor).
  std::int64_t n_ctx = 0;          ///< padded to 256, a multiple of n_seq when streams are per sequence
  std::int64_t n_ctx_seq = 0;      ///< context of one sequence
  std::int64_t n_batch = 0;
  std::int64_t n_ubatch = 0;
  std::int64_t n_stream = 1;
  bool flash_attn = false;         ///< as resolved (auto: on for the CPU and the GPU backends modelled)
  std::int64_t cells_full = 0;     ///< per stream
  std::int64_t cells_sliding = 0;  ///< per stream (0: no sliding layers)

  // Weights ("load_tensors: <buffer> model buffer size").
  std::int64_t weights_mapped = 0;   ///< CPU_Mapped: the file range the CPU tensors span (mmap)
  std::int64_t weights_cpu = 0;      ///< CPU: weights read into RAM (--no-mmap)
  std::int64_t weights_repack = 0;   ///< CPU_REPACK: repacked copies of the CPU matrices
  std::int64_t weights_device = 0;   ///< GPU
  std::int64_t weights_mapped_repacked = 0;  ///< bytes of the mapped range whose tensors were repacked (read once; the kernel may drop them)

  // Context buffers.
  std::int64_t kv_host = 0;          ///< "llama_kv_cache: CPU KV buffer size" (all caches)
  std::int64_t recurrent_state = 0;  ///< of kv_host: llama_memory_recurrent's states (F32, one per sequence)
  std::int64_t kv_device = 0;
  std::int64_t compute_host = 0;     ///< "sched_reserve: CPU compute buffer size" (CUDA_Host with a GPU)
  std::int64_t compute_device = 0;
  std::int64_t output = 0;           ///< "output buffer size": logits of n_seq rows (host)

  std::int64_t host_bytes = 0;       ///< all of the above in RAM
  std::int64_t device_bytes = 0;     ///< all of the above on the GPU

  // What the weights' buffers hold (for the explanation).
  int n_gpu_layers = 0;              ///< as resolved: layers on the GPU, counting the output layer
  std::int64_t tensors_device = 0;   ///< tensors in the GPU model buffer (a duplicated tied output counted)
  std::int64_t tensors_mapped = 0;   ///< tensors in the CPU_Mapped range that are not repacked
  std::int64_t tensors_cpu = 0;      ///< tensors read into the CPU buffer (--no-mmap)
  std::int64_t tensors_repack = 0;   ///< matrices in CPU_REPACK

  std::vector<LlamaCppLayerKv> layers;
  std::vector<Message> notes;        ///< rules that applied, one message each ("Phi-3's window is off in llama.cpp: ...")
};

/** The request's llama.cpp settings (contract: the llama.cpp request fields), defaults as
 *  llama-server's. The estimate turns them and the request's context, batch, cache type and flash
 *  attention into LlamaCppSettings. */
struct LlamaCppOptions {
  std::int64_t ubatch = 512;       ///< [-ub] common/common.h n_ubatch
  std::int64_t n_batch = 2048;     ///< [-b] common/common.h n_batch
  int parallel = 0;                ///< [-np] sequences served at once; 0: the request's batch (at most 256)
  /// Logit rows one micro-batch may output (LlamaCppSettings::n_outputs_max; 0: n_batch). Not a
  /// request field: set for the contexts llama-server creates beside the model's own (its draft's).
  std::int64_t n_outputs_max = 0;
  bool kv_unified = false;         ///< [-kvu]
  bool mmap = true;                ///< [--no-mmap / --load-mode none] when false
  int n_gpu_layers = -1;           ///< [-ngl] -1: all; counts the output layer (layers + 1 = all)
  std::vector<std::string> override_tensor;  ///< [-ot PATTERN=CPU] tensors kept on the CPU
  LlamaCppCpu cpu_family = LlamaCppCpu::x86_avx2;  ///< which weights the CPU backend repacks
  bool swa_full = false;           ///< [--swa-full]
  bool offload_kqv = true;         ///< [--no-kv-offload] when false
};
/// Request limits (contract): ubatch 1-65536, n_batch 1-1,000,000, parallel 1-256 (LLAMA_MAX_SEQ),
/// at most 64 override patterns.
constexpr std::int64_t kLlamaCppMaxUbatch = 65536;
constexpr std::int64_t kLlamaCppMaxBatch = 1'000'000;
constexpr int kLlamaCppMaxSequences = 256;
constexpr int kLlamaCppMaxPatterns = 64;
/// llama.cpp's sequences (llama-server's slots, -np; Ollama's num_parallel) for a request:
/// `parallel` when given, else the request's batch, at most LLAMA_MAX_SEQ (llama-cparams.h).
constexpr std::int64_t llama_cpp_sequences_for(std::int64_t parallel, std::int64_t batch) {
  return parallel > 0 ? parallel : (batch < 1 ? 1 : batch > kLlamaCppMaxSequences ? kLlamaCppMaxSequences : batch);
}
/// llama-context.cpp: n_ctx = GGML_PAD(n_ctx, 256).
constexpr std::int64_t kLlamaCppContextPad = 256;

/** Throws InputError(field, ...) when `pattern` is not a regular expression llama.cpp's -ot takes
 *  (the syntax regex_lite reads: ECMAScript without back-references and look-arounds). */
void check_override_pattern(const std::string& pattern, const std::string& field);

/** The llama-server command line that runs with `settings` (llama.cpp v0.5.0 flags, common/arg.cpp):
 *  "llama-server -m MODEL.gguf -c 8192 -np 1 -b 2048 -ub 512 -fa on -ctk f16 -ctv f16 -ngl all",
 *  with -kvu, --swa-full, -nkvo, --load-mode none (older builds: --no-mmap) and
 *  -ot "PATTERN=CPU,..." where they apply. Explicit -c and -ngl also keep llama-server's --fit
 *  (on by default) from changing them. */
std::string llama_cpp_command_line(const LlamaCppSettings& settings, const std::string& model_file = "MODEL.gguf");

/** The -ctk/-ctv name llama.cpp has for a KV cache format: "F16" for fp16, "BF16", "F32", "Q8_0",
 *  "Q4_0", ...; fp8 (a vLLM type llama.cpp does not have) maps to "Q8_0", the same bytes. */
std::string llama_cpp_cache_type(const KvCacheFormat& format);

/** The small kernels llama.cpp's GPU backend dispatches for one decode step (one token per
 *  sequence): the dispatched nodes of its graph over every layer (llama_cpp_graph.hpp
 *  dispatched_nodes) but the matrix products and flash attention, which stream the weights or the
 *  cache; with flash attention or without (the attention's softmax and copy). 0 for a model
 *  without its architecture. `cache`, where given and this model's: counted once. */
std::int64_t llama_cpp_decode_dispatches(const ModelSpec& model, bool flash_attn, EstimateCache* cache = nullptr);

/** llama.cpp's memory for `model` stored as `tensors` (llama_cpp_tensors(), or a GGUF file's tensor
 *  list) under `settings`. Throws InputError (field named as the request's) for settings llama.cpp
 *  rejects: a quantized V cache without flash attention, an unknown cache type, a bad pattern.
 *  `cache`, where given: the compute buffers of graphs already built for this model (estimate_cache.hpp). */
LlamaCppMemory llama_cpp_memory(const ModelSpec& model, const std::vector<GgufTensor>& tensors, const LlamaCppSettings& settings,
                                EstimateCache* cache = nullptr);

}  // namespace llmsizer
