// SPDX-License-Identifier: MIT
#pragma once
/// The serving engines as their schedulers run: what each does per step besides the model (host
/// time, CUDA graphs), how it mixes prompt chunks with decode tokens, how much memory it gives its
/// KV cache, and its defaults, by engine and version. One table, each value with its source; the
/// simulation (serving.hpp) and the step model (step_model.hpp) read it, nothing else holds a copy.
///
/// Left out: speculative decoding inside the server, prefix caching across requests (the workloads
/// here have no shared prefixes), disaggregated prefill, LoRA adapters.
#include <cstdint>
#include <string>
#include <string_view>

#include "llmsizer/memory.hpp"

namespace llmsizer {

/// vLLM 0.8.0 made the V1 engine the default (vLLM v0.8.0 release notes: "V1 is now enabled by
/// default"): chunked prefill always on, a persistent batch, the API server and detokenizer in
/// their own process (vLLM blog "vLLM V1: A Major Upgrade to vLLM's Core Architecture", 2025-01-27).
/// Versions are major × 100 + minor (request.hpp): 0.8 → 8.
constexpr int kVllmV1Version = 8;
/// vLLM V1's host time per step, serialized with the GPU (scheduling, input preparation, sampling,
/// with detokenization moved to another process): 1.0 ms. An assumption within the V1 blog's
/// account, not a measurement: V0 spent 3.8 ms of host work per step (throughput.hpp
/// kVllmStepOverheadS); V1 keeps a persistent batch that it updates incrementally and moves output
/// processing out of the loop. Single-stream speed and serving both use it.
constexpr double kVllmV1StepOverheadS = 1.0e-3;

enum class ServeEngine { vllm, sglang, tensorrt_llm, lmdeploy, llama_cpp, ollama };
const char* serve_engine_id(ServeEngine engine);
inline constexpr ServeEngine kServeEngines[] = {ServeEngine::vllm, ServeEngine::sglang, ServeEngine::tensorrt_llm,
                                                ServeEngine::lmdeploy, ServeEngine::llama_cpp, ServeEngine::ollama};
/// The engine whose memory rules (memory.hpp) size the weights, activations and context of a
/// serving engine: TensorRT-LLM and LMDeploy preallocate a KV pool after a profile like vLLM.
Engine memory_engine(ServeEngine engine);

/// How a step is built from waiting prompts and running sequences.
enum class BatchPolicy {
  /// Decode tokens of every running sequence plus prompt chunks up to a token budget, in one step
  /// (vLLM V1 and V0 with chunked prefill, TensorRT-LLM in-flight batching with chunked context,
  /// LMDeploy's split-fuse, llama-server's one llama_decode per loop).
  mixed,
  /// A step is either prompts only (every waiting request that fits the budget) or decode only;
  /// prompts first (vLLM V0 without chunked prefill, SGLang without --enable-mixed-chunk).
  prefill_first,
};

/// What a serving engine does, at one version, with the request's overrides applied.
struct ServeEngineProfile {
  ServeEngine engine = ServeEngine::vllm;
  int version = 0;                     ///< the engine's own encoding (request.hpp engine_version); 0: current
  BatchPolicy policy = BatchPolicy::mixed;
  std::int64_t max_num_seqs = 256;     ///< sequences in one step at most
  std::int64_t max_num_batched_tokens = 8192;  ///< tokens (prompt + decode) in one step at most
  std::int64_t block_tokens = 16;      ///< KV-cache allocation unit (tokens)
  /// Share of memory the engine takes: vLLM gpu_memory_utilization (of the device's total),
  /// SGLang mem_fraction_static (of the total, weights included), TensorRT-LLM
  /// kv_cache_free_gpu_mem_fraction and LMDeploy cache_max_entry_count (of what is free after the
  /// weights and activations).
  double memory_fraction = 0.9;
  enum class MemoryBasis { total_less_weights, free_after_weights } memory_basis = MemoryBasis::total_less_weights;
  /// The pool given as a size, tokens per replica (0: the share above sizes it). vLLM
  /// --num-gpu-blocks-override (vllm/engine/llm_engine.py _initialize_kv_caches: `num_gpu_blocks =
  /// num_gpu_blocks_override`) and LMDeploy TurboMind's cache_max_entry_count of 1 or more (a block
  /// count: src/turbomind/models/llama/BlockManager.cc, `block_count < 1.` is a share, else the count)
  /// replace the share; SGLang --max-total-tokens and TensorRT-LLM max_tokens_in_paged_kv_cache cap
  /// it (SGLang model_runner.py init_memory_pool: `min(self.max_total_num_tokens, max_total_tokens)`;
  /// tensorrtllm_backend docs/model_config.md: "KV cache allocation is the min of
  /// max_tokens_in_paged_kv_cache and value derived from kv_cache_free_gpu_mem_fraction"). Never more
  /// than the memory the weights and activations leave.
  std::int64_t kv_cache_tokens = 0;
  /// Host time per step that the GPU waits for (scheduling, input preparation, sampling), seconds.
  double step_overhead_s = 0;
  /// Decode-only steps up to this many sequences replay a CUDA graph (no per-kernel launch time).
  std::int64_t graph_max_batch = 0;
  /// llama.cpp / Ollama: slots (-np / OLLAMA_NUM_PARALLEL) and the context they share (-c, tokens).
  std::int64_t slots = 0;
  std::int64_t context_tokens = 0;
  /// vLLM V0 --num-scheduler-steps: one scheduling pass for this many decode steps.
  int scheduler_steps = 1;
  /// llama.cpp -ub: a step's tokens run in micro-batches of this many (0: one pass).
  std::int64_t ubatch_tokens = 0;
  /// llama.cpp builds before graph reuse: host time per decoder layer to build each micro-batch's
  /// graph, the GPU waiting (throughput.hpp kLlamaCppGraphBuildSecondsPerLayer); 0 otherwise.
  double graph_build_s_per_layer = 0;
  /// A prompt is admitted only while the cache also holds this share of its answer (SGLang's
  /// new_token_ratio); 0: the prompt's blocks only, preempting when decode runs out.
  double admission_output_share = 0;
  /// Largest prompt chunk of one request in one step (0: the step's token budget).
  std::int64_t chunk_tokens = 0;
  /// Sliding-window layers keep only their window. TensorRT-LLM keeps every token unless
  /// max_attention_window_size is set (docs/source/advanced/gpt-attention.md, "Sliding Window
  /// Attention, Cyclic (Rolling Buffer) KV Cache": the window is what that option says).
  bool sliding_window = true;
  /// The decode attention kernel applies rotary and writes the KV cache as it reads q, k and v, so
  /// a decode token moves no activations for them: TensorRT-LLM's masked MHA / XQA kernels
  /// (docs/source/advanced/gpt-attention.md, "Generation Phase": "apply pre-processing on the Q, K,
  /// and V elements on-the-fly: adds the QKV bias, applies RoPE"; its context phase still runs them
  /// as extra kernels).
  bool decode_rope_in_attention = false;
  /// A served request's time outside the engine on the way to its first token (the server's
  /// tokenizer before the engine sees the prompt, its detokenizer and network hop after), seconds;
  /// added to each request's time to first token and end-to-end time. 0 for offline runs (the
  /// engine as a library over token ids) and where no figure is published.
  double front_end_s = 0;
};

/// The request's `serve` object: each field 0 / negative when not given.
struct ServeEngineOverrides {
  std::int64_t max_num_seqs = 0;
  std::int64_t max_num_batched_tokens = 0;
  double memory_fraction = 0;
  int chunked_prefill = -1;  ///< -1 the engine's default, 0 off, 1 on
  std::int64_t parallel = 0;
  std::int64_t context = 0;
  int scheduler_steps = 0;
  std::int64_t kv_cache_tokens = 0;
};

/** The profile of `engine` at `version` (0: current) on `tp` GPUs, with `overrides` applied.
 *  `offline`: the engine runs as a library over a list of prompts (vLLM's LLM class, the offline
 *  benchmarks), whose defaults differ from its server's. `max_model_len`: prompt + answer.
 *  `device_memory_bytes` and `device_name`: one device's memory and its name, which vLLM V1 picks
 *  its batch defaults by (0 and empty: an unknown device, vLLM's own fallback of the small ones). */
ServeEngineProfile serve_engine_profile(ServeEngine engine, int version, int tp, bool offline, std::int64_t max_model_len,
                                        const ServeEngineOverrides& overrides, std::int64_t device_memory_bytes = 0,
                                        std::string_view device_name = {});

}  // namespace llmsizer
