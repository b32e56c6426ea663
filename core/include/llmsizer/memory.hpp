// SPDX-License-Identifier: MIT
#pragma once
/// Inference memory: weights + KV cache + activations (peak temporaries) + runtime overhead, per
/// engine, on one device or in host RAM. The parts and their formulas are kept for the explanation.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/message.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/ollama.hpp"
#include "llmsizer/precision.hpp"

namespace llmsizer {

struct WeightsLayout;
struct EstimateCache;  // estimate_cache.hpp

/// The runtime whose real behaviour is modelled.
enum class Engine {
  generic,       ///< the textbook formula: weights + KV cache + one layer's peak temporaries + CUDA context
  transformers,  ///< Hugging Face `generate` (transformers ≥ 4.45: only the last position's logits)
  vllm,          ///< vLLM: paged KV cache in 16-token blocks, profile-run activations, CUDA graphs
  llama_cpp,     ///< llama.cpp: KV cache for the whole context, compute buffer per micro-batch
  sglang,        ///< SGLang: token-granular paged (radix) KV cache, CUDA graphs, FlashInfer attention
  autoawq,       ///< AutoAWQ with fused modules (fuse_layers=True): static KV cache, fused attention and MLP
  litgpt,        ///< Lightning litgpt generate: its own eager model, KV cache sized to prompt + new tokens
  ollama,        ///< Ollama: llama.cpp's llama-server under Ollama's flags (ollama.hpp)
};

const char* engine_id(Engine engine);
/// Engines that spread a model over several GPUs by whole layers with accelerate's device_map
/// (device_map.hpp) instead of tensor parallelism: transformers (`device_map="auto"`) and AutoAWQ
/// (`from_quantized(device_map="balanced")`).
inline bool splits_layers(Engine engine) { return engine == Engine::transformers || engine == Engine::autoawq; }
/// Every engine, in the order requests and menus list them.
inline constexpr Engine kEngines[] = {Engine::generic, Engine::transformers, Engine::vllm, Engine::llama_cpp, Engine::sglang, Engine::autoawq, Engine::litgpt, Engine::ollama};

/** The weight formats a person running `engine` downloads or loads, most precise first: the ones
 *  a precision table leads with (the rest stay one click away).
 *  - llama.cpp, Ollama: Ollama's library tags each model's default as Q4_K_M, with Q8_0 beside it
 *    (ollama.com/library, e.g. llama3.1 "latest" = 8b-instruct-q4_K_M); GGUF publishers' cards mark
 *    Q6_K, Q5_K_M and Q4_K_M recommended and Q3_K_M the smallest usable (bartowski's model cards).
 *  - vLLM, SGLang: the checkpoints they serve: BF16, FP8 (compressed-tensors / ModelOpt), AWQ and
 *    GPTQ INT4 (vLLM docs, "Supported Hardware" for quantization kernels).
 *  - transformers: BF16, bitsandbytes LLM.int8() and NF4 (load_in_8bit / load_in_4bit), GPTQ, AWQ.
 *  - AutoAWQ: its AWQ INT4 only; litgpt: BF16 and its bnb.int8 / bnb.nf4 (litgpt generate --quantize).
 *  - generic: the article's plain formats. */
std::vector<std::string_view> suggested_weight_formats(Engine engine);

/** The engines that load a model file of `ecosystem`, the usual one first: a GGUF file is
 *  llama.cpp's format, which Ollama runs too (ollama.com/docs/import: "Importing a GGUF based model");
 *  a safetensors checkpoint is loaded by several engines alike (none is implied: empty). */
std::vector<Engine> engines_for_file(Ecosystem ecosystem);

struct InferenceSettings {
  const WeightFormat* weights = nullptr;   ///< required
  const KvCacheFormat* kv_cache = nullptr; ///< required
  Engine engine = Engine::generic;
  std::int64_t input_tokens = 1;           ///< prompt length
  std::int64_t output_tokens = 0;          ///< generated tokens
  std::int64_t batch = 1;                  ///< sequences served at once
  int gpus = 1;                            ///< 0: CPU only (everything in host RAM); >1: tensor parallel
  bool flash_attention = true;             ///< attention without materialised scores (SDPA/FA2, llama.cpp -fa)
  int group_size = 0;                      ///< GPTQ/AWQ/MLX group (0: the format's default; -1: GPTQ per column)
  /// Version of the engine whose behaviour is modelled, in the engine's own numbering: major × 100
  /// + minor (transformers "4.38" → 438, vLLM "0.6.0" → 6), a llama.cpp build its number ("b6918"
  /// → 6918); 0: current. Only `transformers` reads it: before 4.45 `generate` computed
  /// (and upcast to fp32) the logits of the whole prompt, before 4.42 it kept the previous step's
  /// KV cache alive while the model built the next, and before 4.45 Qwen2/Mistral-family layers
  /// each held a rotary cos/sin table of max_position_embeddings rows.
  int engine_version = 0;
  /// The weights laid out tensor by tensor in `weights` (quantization.hpp: weights_layout), when the
  /// caller has prepared it once for many estimates of one request (fit searches, recommendations);
  /// nullptr: computed here. It must be the layout of this model, format and group size.
  const WeightsLayout* weights_layout = nullptr;
  /// The model's layer sums (model.hpp: count_model), when the caller has counted them once for
  /// many estimates of one request, as `weights_layout`; nullptr: counted here. They must be this
  /// model's.
  const ModelCounts* model_counts = nullptr;
  /// What this model's estimates share (estimate_cache.hpp), where the caller keeps it for many
  /// estimates of one request beside `weights_layout`; nullptr: nothing kept. It never changes a figure.
  EstimateCache* cache = nullptr;
  LlamaCppOptions llama_cpp;  ///< engine llama.cpp: its llama-server settings (llama_cpp.hpp)
  OllamaOptions ollama;       ///< engine ollama: Ollama's settings (ollama.hpp)
};

/// transformers versions at which `generate`'s memory behaviour changed (major × 100 + minor).
constexpr int kTransformersLastLogitsOnly = 445;  ///< `num_logits_to_keep`: only the last position's logits
constexpr int kTransformersCacheObject = 442;     ///< `generate` hands the model a DynamicCache, not a tuple
constexpr int kTransformersRopeAtModel = 445;     ///< Qwen2/Mistral: one rotary module computing cos/sin per call

/// Memory by part, bytes. A part that does not apply is 0.
struct MemoryParts {
  std::int64_t weights = 0;
  std::int64_t kv_cache = 0;
  std::int64_t activations = 0;
  std::int64_t overhead = 0;
  std::int64_t gradients = 0;
  std::int64_t optimizer = 0;
  std::int64_t master_weights = 0;
  std::int64_t adapters = 0;
  /// Training: what the optimizer step allocates on top of the states when that step is the peak
  /// (torch AdamW foreach sqrt(v), DeepSpeed ZeRO's fp32 gradient partition).
  std::int64_t step_temporary = 0;
  std::int64_t sum() const {
    return weights + kv_cache + activations + overhead + gradients + optimizer + master_weights + adapters + step_temporary;
  }
};

/// One part of an estimate, as the article would write it: formula with the numbers put in.
struct ExplainLine {
  std::string part;  ///< "weights", "kv_cache", ...
  Message formula;   ///< "params × bytes per parameter"
  Message values;    ///< "7.62e9 × 2 B = 15.23 GB"
  std::int64_t bytes = 0;
};

/// What engine llama.cpp (or the llama-server Ollama starts) allocates for a request, and how it is run.
struct LlamaCppRun {
  LlamaCppSettings settings;     ///< llama-server's flags
  LlamaCppMemory memory;         ///< its buffers
  std::string command_line;      ///< llama_cpp_command_line(settings)
  std::optional<OllamaMemory> ollama;  ///< engine ollama: its resolved settings and `ollama ps` (ollama.memory is `memory`)
  std::string ollama_command_line;     ///< engine ollama: ollama_command_line
};

struct MemoryEstimate {
  MemoryParts parts;                 ///< per device when gpus > 1, plus whatever sits in host RAM
  std::int64_t device_bytes = 0;     ///< peak on one accelerator as nvidia-smi shows it
  std::int64_t tensor_peak_bytes = 0;///< framework tensor peak (torch.cuda.max_memory_allocated)
  std::int64_t host_bytes = 0;       ///< CPU RAM
  std::vector<ExplainLine> explain;
  std::vector<Message> warnings;
  std::optional<LlamaCppRun> llama_cpp;  ///< engines llama.cpp and ollama (with a model architecture)
  /// The device these bytes are for, under a layer split (device_map.hpp): its CUDA index, its decoder
  /// layers (-1: all of them) and whether it makes the logits.
  int device_index = 0;
  int device_layers = -1;
  bool device_output_head = true;
  /// transformers: buffers that live through the whole call (rotary tables, ExLlama's temp_dq),
  /// counted in parts.activations.
  std::int64_t buffer_bytes = 0;
};

/** KV cache bytes for `batch` sequences of `context_tokens`:
 *  2 × layers × KV heads × head_dim × tokens × batch × element bytes (sliding layers stop at the
 *  window; MLA caches kv_lora_rank + qk_rope_head_dim per token and layer). */
std::int64_t kv_cache_bytes(const ModelSpec& model, const KvCacheFormat& format, std::int64_t context_tokens,
                            std::int64_t batch);

/** CUDA context of a PyTorch process with lazy module loading (CUDA ≥ 11.7, the PyTorch default):
 *  426 MiB measured with PyTorch 2.10 + CUDA 13.0 on an RTX 6000 Ada (unslothai/unsloth-zoo PR #1053,
 *  2026); ~400 MB per PyTorch maintainers (pytorch/pytorch#109888); 287 MB at PyTorch 1.13
 *  (pytorch/pytorch#86509). A probe file measures it per device. */
constexpr std::int64_t kCudaContextBytes = 426LL * 1024 * 1024;

/** The estimate on a GPU that has no CUDA context (Apple's Metal in unified memory): the same
 *  tensors and buffers, without the context's bytes and its line. */
MemoryEstimate without_cuda_context(MemoryEstimate estimate);

/// How much of an estimate to build.
enum class EstimateDetail {
  full,        ///< everything: the parts, the totals, the explanation, the warnings, the llama.cpp run
  bytes_only,  ///< the parts and the totals only (no explanation, warnings or llama.cpp run): for the
               ///< searches and checks that compare totals, which make dozens of estimates per request
               ///< and say none of their sentences (building them was most of their time)
};

/// The request's memory. bytes_only gives the same parts and totals as full.
/** For the searches (largest_fitting.hpp), a hint: the most input tokens, from `input` on, that the
 *  engine gives the same cache as `input`. llama.cpp and Ollama pad n_ctx (the context times the
 *  sequences) to 256 cells, so their memory steps there; other engines: `input`. */
std::int64_t last_input_of_same_cache(const InferenceSettings& settings, std::int64_t input);

/** For the batch search: the batch from which no larger batch changes the request's memory, or 0
 *  where every batch counts. llama.cpp and Ollama run min(batch, LLAMA_MAX_SEQ) sequences, or the
 *  `parallel` (num_parallel) asked for whatever the batch (llama_cpp_sequences), and the batch
 *  reaches their memory through those sequences alone; other engines (and a model without its
 *  architecture, which they estimate as the textbook formula does) grow with every batch. */
std::int64_t batch_where_memory_stops_growing(const ModelSpec& model, const InferenceSettings& settings);

MemoryEstimate estimate_inference_memory(const ModelSpec& model, const InferenceSettings& settings,
                                         EstimateDetail detail = EstimateDetail::full);

/** transformers' prompt pass (prefill) replayed tensor by tensor through PyTorch's CUDA caching
 *  allocator (caching_allocator.hpp) on the device `estimate` is for: its decoder layers one after
 *  another as modeling_llama.py runs them with eager attention (RMSNorm's fp32 copies, q/k/v, the
 *  rotary temporaries, K and V kept in the cache, repeat_kv's copies, the scores, softmax's fp32
 *  copy and output, the cast back, the MLP, the residual adds), then the logits where the output
 *  head is. What it adds to the tensors' peak: the segments the allocator holds (reserved), and
 *  whether a request fails although the bytes would fit, because K and V kept between layers split
 *  the segments cached for the attention scores. Checked against the DeepSeek-LLM README table
 *  (scripts/research/caching_allocator_sim.mjs: 7B within 5% on 20 of 21 rows as reserved memory;
 *  every out-of-memory cell fails, every measured cell runs). */
struct AllocatorReplay {
  bool out_of_memory = false;           ///< a request failed (the replay stops there)
  std::int64_t peak_reserved_bytes = 0; ///< segments held at the peak (torch.cuda.max_memory_reserved)
  std::int64_t peak_allocated_bytes = 0;///< the tensors' peak as the allocator books them
};
/// Whether the replay models the request: transformers with eager attention (flash_attention false),
/// plain (unquantized) weights, a dense model shaped as Llama (llama, mistral, qwen2), on GPUs.
bool allocator_replay_applies(const ModelSpec& model, const InferenceSettings& settings);
/// The replay with `allocator_capacity_bytes` for the allocator (CachingAllocator::kUnbounded: none).
AllocatorReplay replay_transformers_prefill(const ModelSpec& model, const InferenceSettings& settings,
                                            const MemoryEstimate& estimate, std::int64_t allocator_capacity_bytes);
/// What the allocator can hand out on a device of `usable_device_bytes`: less the CUDA context, the
/// weights and the buffers that `estimate` counts there.
std::int64_t allocator_capacity_bytes(const MemoryEstimate& estimate, std::int64_t usable_device_bytes);

}  // namespace llmsizer
