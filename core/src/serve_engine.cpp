// SPDX-License-Identifier: MIT
#include "llmsizer/serve_engine.hpp"

#include <algorithm>
#include <string>

#include "llmsizer/ascii.hpp"
#include "llmsizer/speed_calibration.hpp"
#include "llmsizer/throughput.hpp"

namespace llmsizer {
namespace {

// Versions are major × 100 + minor (request.hpp); llama.cpp's are build numbers.

/// vLLM V0 engine arguments (vllm/engine/arg_utils.py, v0.5-v0.7): max_num_seqs 256; without
/// chunked prefill max_num_batched_tokens = max(max_model_len, 2048); CUDA graphs captured for
/// batch sizes up to 256 (_BATCH_SIZES_TO_CAPTURE).
constexpr std::int64_t kVllmMaxNumSeqs = 256;
constexpr std::int64_t kVllmV0MinBatchedTokens = 2048;
/// V0 with --enable-chunked-prefill and no max_num_batched_tokens: 512 (arg_utils.py, v0.5-v0.7).
constexpr std::int64_t kVllmV0ChunkedBatchedTokens = 512;
constexpr std::int64_t kVllmV0GraphMaxBatch = 256;
/// vLLM V1's defaults by device (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults, earlier
/// _set_default_args_v1): "if device_memory >= 70 * GiB_bytes and \"a100\" not in device_name: # For
/// GPUs like H100 and MI300x, use larger default values": max_num_batched_tokens 8192 for the OpenAI
/// server and 16384 for the LLM class (offline), max_num_seqs 1024 for both; other GPUs 2048 and
/// 8192 tokens, max_num_seqs 256. The memory rule came with vllm-project/vllm PR 17073 (v0.8.5; H100
/// and H200 by name before, PR 12369 and PR 16158), the A100 exclusion with PR 17885 (v0.9.0); versions
/// here carry no patch number, so every V1 version is given the v0.9 rule. CUDA graphs up to batch
/// 512 (cuda_graph_sizes default).
constexpr std::int64_t kVllmV1LargeDeviceBytes = std::int64_t{70} << 30;
constexpr std::int64_t kVllmV1LargeServerBatchedTokens = 8192;
constexpr std::int64_t kVllmV1LargeOfflineBatchedTokens = 16384;
constexpr std::int64_t kVllmV1LargeMaxNumSeqs = 1024;
constexpr std::int64_t kVllmV1ServerBatchedTokens = 2048;
constexpr std::int64_t kVllmV1OfflineBatchedTokens = 8192;
constexpr std::int64_t kVllmV1GraphMaxBatch = 512;

/// vLLM's large-device test: total memory of one device of at least 70 GiB, its name without "a100".
bool vllm_large_device(std::int64_t device_memory_bytes, std::string_view device_name) {
  return device_memory_bytes >= kVllmV1LargeDeviceBytes && ascii_lower(device_name).find("a100") == std::string::npos;
}
/// vLLM gpu_memory_utilization default 0.9 (verdict.hpp).
constexpr double kVllmGpuMemoryUtilization = 0.9;

/// SGLang server_args.py (v0.3-v0.4) mem_fraction_static by tensor-parallel size: 0.88 (1), 0.87 (2),
/// 0.85 (4), 0.81 (8), 0.79 (16 and more): the share of the GPU for weights and the KV pool.
double sglang_mem_fraction(int tp) {
  if (tp >= 16) return 0.79;
  if (tp >= 8) return 0.81;
  if (tp >= 4) return 0.85;
  if (tp >= 2) return 0.87;
  return 0.88;
}
/// SGLang chunked_prefill_size 8192 and max_prefill_tokens 16384 (server_args.py); cuda_graph_max_bs
/// 160; a new request is admitted only while the pool also holds new_token_ratio of the answers of
/// the running ones (schedule_policy.py, SGLANG_INIT_NEW_TOKEN_RATIO 0.7).
constexpr std::int64_t kSglangChunkedPrefill = 8192;
constexpr std::int64_t kSglangMaxPrefillTokens = 16384;
constexpr std::int64_t kSglangGraphMaxBatch = 160;
constexpr double kSglangNewTokenRatio = 0.7;
/// SGLang sets no fixed cap on running requests (max_running_requests unset): the pool and the
/// admission reserve bound them; this stands for "no cap" without letting a step grow unbounded.
constexpr std::int64_t kSglangUncappedRequests = 4096;

/// TensorRT-LLM: trtllm-build max_batch_size 2048 and max_num_tokens 8192 (BuildConfig defaults);
/// KvCacheConfig free_gpu_memory_fraction 0.9 of the memory free after the engine's weights and
/// activations. The executor is C++ (batch manager): host time per step 0.2 ms, an assumption
/// for a loop with no Python in it.
constexpr std::int64_t kTrtllmMaxBatchSize = 2048;
constexpr std::int64_t kTrtllmMaxNumTokens = 8192;
constexpr double kTrtllmFreeGpuMemoryFraction = 0.9;
/// A server's executor schedules by GUARANTEED_NO_EVICT (cpp/include/tensorrt_llm/executor/
/// executor.h, SchedulerConfig: `capacitySchedulerPolicy = CapacitySchedulerPolicy::
/// kGUARANTEED_NO_EVICT`; the LLM API's SchedulerConfig in tensorrt_llm/llmapi/llm_args.py the same):
/// a request is scheduled only while the cache holds its whole length beside what every running one
/// has yet to take, so nothing is ever evicted. Here: the admission reserve of the whole remaining
/// length (ServeEngineProfile::admission_output_share 1). trtllm-bench, the offline benchmark, sets
/// MAX_UTILIZATION instead (tensorrt_llm/bench/dataclasses/configuration.py, ExecutorSettingsConfig:
/// `scheduler_policy ... default=CapacitySchedulerPolicy.MAX_UTILIZATION`), which admits greedily and
/// pauses requests when the cache runs out: the prompt-blocks admission with preemption.
constexpr double kTrtllmNoEvictOutputShare = 1.0;
/// Its paged KV cache's block: tokens_per_block 64 (KvCacheConfig / the engine's build default).
constexpr std::int64_t kTrtllmTokensPerBlock = 64;
constexpr double kCppEngineStepOverheadS = 0.2e-3;
/// TensorRT-LLM served through Triton's ensemble (tensorrtllm_backend all_models/inflight_batcher_llm:
/// a preprocessing model that tokenizes in Python, the tensorrt_llm model, a postprocessing model
/// that detokenizes each streamed token): the backend's own measurement, genai-perf against the
/// ensemble, streaming, concurrency 1, 200 prompt tokens, T5-small on an A100-80GB with TRT-LLM v0.12
/// (tensorrtllm_backend docs/encoder_decoder.md, "Benchmark" table): time to first token 4.69 ms on
/// average, inter-token latency 0.63 ms. A T5-small step is at most that 0.63 ms, so the rest,
/// 4.06 ms, is the request's way through the ensemble (the 60M-parameter encoder pass is left in).
constexpr double kTritonEnsembleFirstTokenS = 4.69e-3 - 0.63e-3;
/// TensorRT-LLM's engines launch fused plugin kernels and, from 0.17 with trtllm-bench, capture
/// decode steps in CUDA graphs (cuda_graph_mode): up to its max_batch_size.

/// LMDeploy TurboMind (lmdeploy/messages.py TurbomindEngineConfig): max_batch_size 128,
/// cache_max_entry_count 0.8 of the free memory, max_prefill_token_num 8192, block of 64 tokens
/// (cache_block_seq_len); the engine loop is C++.
constexpr std::int64_t kLmdeployMaxBatchSize = 128;
constexpr double kLmdeployCacheMaxEntryCount = 0.8;
constexpr std::int64_t kLmdeployPrefillTokens = 8192;
constexpr std::int64_t kLmdeployBlockTokens = 64;
/// Before chunked prefill (InternLM/lmdeploy PR #2201, max_prefill_token_num, released in v0.5)
/// TurboMind computed every newly admitted prompt whole in the iteration that admitted it, then
/// one decode token for every active sequence (src/turbomind/models/llama/LlamaBatch.cc).
constexpr int kLmdeployChunkedPrefillVersion = 5;

/// llama-server (tools/server, common/arg.cpp): -c 4096 tokens of context shared by -np slots,
/// -b 2048 tokens per llama_decode, -ub 512 per micro-batch; from build 6000 (2025) -np defaults
/// to 4 slots over a unified KV cache, before to 1. ggml-cuda replays a CUDA graph for single-token
/// decode only (batch 1). Host time per step: 0.1 ms, an assumption for a C++ loop.
constexpr std::int64_t kLlamaServerContext = 4096;
constexpr std::int64_t kLlamaServerBatch = 2048;
constexpr std::int64_t kLlamaServerUbatch = 512;
constexpr int kLlamaServerAutoSlotsBuild = 6000;
constexpr double kLlamaServerStepOverheadS = 0.1e-3;
/// Ollama (docs/faq.md): OLLAMA_NUM_PARALLEL 1 by default, each slot num_ctx 4096 tokens.
constexpr std::int64_t kOllamaContext = 4096;

}  // namespace

const char* serve_engine_id(ServeEngine engine) {
  switch (engine) {
    case ServeEngine::vllm: return "vllm";
    case ServeEngine::sglang: return "sglang";
    case ServeEngine::tensorrt_llm: return "tensorrt-llm";
    case ServeEngine::lmdeploy: return "lmdeploy";
    case ServeEngine::llama_cpp: return "llama.cpp";
    case ServeEngine::ollama: return "ollama";
  }
  return "vllm";
}

Engine memory_engine(ServeEngine engine) {
  switch (engine) {
    case ServeEngine::sglang: return Engine::sglang;
    case ServeEngine::llama_cpp: return Engine::llama_cpp;
    case ServeEngine::ollama: return Engine::ollama;
    case ServeEngine::vllm:
    case ServeEngine::tensorrt_llm:
    case ServeEngine::lmdeploy: return Engine::vllm;
  }
  return Engine::vllm;
}

ServeEngineProfile serve_engine_profile(ServeEngine engine, int version, int tp, bool offline, std::int64_t max_model_len,
                                        const ServeEngineOverrides& o, std::int64_t device_memory_bytes, std::string_view device_name) {
  ServeEngineProfile p;
  p.engine = engine;
  p.version = version;
  bool chunked = true;
  switch (engine) {
    case ServeEngine::vllm: {
      const bool v0 = version > 0 && version < kVllmV1Version;
      p.max_num_seqs = kVllmMaxNumSeqs;
      p.memory_fraction = kVllmGpuMemoryUtilization;
      if (v0) {
        chunked = o.chunked_prefill == 1;
        p.max_num_batched_tokens = chunked ? kVllmV0ChunkedBatchedTokens : std::max(max_model_len, kVllmV0MinBatchedTokens);
        p.graph_max_batch = kVllmV0GraphMaxBatch;
        p.step_overhead_s = kVllmStepOverheadS;
      } else {
        const bool large = vllm_large_device(device_memory_bytes, device_name);
        if (large) p.max_num_seqs = kVllmV1LargeMaxNumSeqs;
        p.max_num_batched_tokens = large ? (offline ? kVllmV1LargeOfflineBatchedTokens : kVllmV1LargeServerBatchedTokens)
                                         : (offline ? kVllmV1OfflineBatchedTokens : kVllmV1ServerBatchedTokens);
        p.graph_max_batch = kVllmV1GraphMaxBatch;
        p.step_overhead_s = kVllmV1StepOverheadS;
      }
      break;
    }
    case ServeEngine::sglang:
      chunked = o.chunked_prefill == 1;  // --enable-mixed-chunk
      p.max_num_seqs = kSglangUncappedRequests;
      p.max_num_batched_tokens = kSglangMaxPrefillTokens;
      p.chunk_tokens = kSglangChunkedPrefill;
      p.block_tokens = 1;  // token-granular pool
      p.memory_fraction = sglang_mem_fraction(tp);
      p.graph_max_batch = kSglangGraphMaxBatch;
      p.step_overhead_s = kCitedSpeedCalibration.sglang_step_overhead_s;
      p.admission_output_share = kSglangNewTokenRatio;
      break;
    case ServeEngine::tensorrt_llm:
      p.max_num_seqs = kTrtllmMaxBatchSize;
      p.max_num_batched_tokens = kTrtllmMaxNumTokens;
      p.block_tokens = kTrtllmTokensPerBlock;
      p.memory_fraction = kTrtllmFreeGpuMemoryFraction;
      p.memory_basis = ServeEngineProfile::MemoryBasis::free_after_weights;
      p.graph_max_batch = kTrtllmMaxBatchSize;
      p.sliding_window = false;
      p.decode_rope_in_attention = true;
      p.step_overhead_s = kCppEngineStepOverheadS;
      if (!offline) p.admission_output_share = kTrtllmNoEvictOutputShare;
      if (!offline) p.front_end_s = kTritonEnsembleFirstTokenS;
      break;
    case ServeEngine::lmdeploy:
      p.max_num_seqs = kLmdeployMaxBatchSize;
      p.max_num_batched_tokens = version > 0 && version < kLmdeployChunkedPrefillVersion
                                     ? p.max_num_seqs * std::max<std::int64_t>(1, max_model_len)
                                     : kLmdeployPrefillTokens;
      p.block_tokens = kLmdeployBlockTokens;
      p.memory_fraction = kLmdeployCacheMaxEntryCount;
      p.memory_basis = ServeEngineProfile::MemoryBasis::free_after_weights;
      p.step_overhead_s = kCppEngineStepOverheadS;
      break;
    case ServeEngine::llama_cpp:
    case ServeEngine::ollama:
      // Ollama runs llama.cpp's server under its own defaults.
      p.slots = engine == ServeEngine::ollama ? 1 : version > 0 && version < kLlamaServerAutoSlotsBuild ? 1 : 4;
      p.context_tokens = engine == ServeEngine::ollama ? kOllamaContext : kLlamaServerContext;
      p.max_num_batched_tokens = kLlamaServerBatch;
      p.ubatch_tokens = kLlamaServerUbatch;
      p.block_tokens = 1;
      p.graph_max_batch = 1;
      p.step_overhead_s = kLlamaServerStepOverheadS;
      // Ollama's version is its own numbering, no llama.cpp build: taken as the current llama.cpp.
      if (engine == ServeEngine::llama_cpp) p.graph_build_s_per_layer = llama_cpp_graph_build_s_per_layer(version);
      break;
  }
  if (o.parallel > 0) p.slots = o.parallel;
  if (o.context > 0) p.context_tokens = o.context;
  if (engine == ServeEngine::ollama && o.context <= 0) p.context_tokens = kOllamaContext * std::max<std::int64_t>(1, p.slots);
  if (p.slots > 0) p.max_num_seqs = p.slots;
  if (o.max_num_seqs > 0) p.max_num_seqs = o.max_num_seqs;
  if (o.max_num_batched_tokens > 0) p.max_num_batched_tokens = o.max_num_batched_tokens;
  if (o.memory_fraction > 0) p.memory_fraction = o.memory_fraction;
  if (o.scheduler_steps > 0) p.scheduler_steps = o.scheduler_steps;
  if (o.kv_cache_tokens > 0 && p.slots == 0) p.kv_cache_tokens = o.kv_cache_tokens;  // llama-server's is its -c
  p.policy = chunked ? BatchPolicy::mixed : BatchPolicy::prefill_first;
  return p;
}

}  // namespace llmsizer
