// SPDX-License-Identifier: MIT
#pragma once
/// Ollama's memory: Ollama (v0.33, ollama/ollama at fb30760) serves GGUF models with llama.cpp's own
/// llama-server, started with flags from its defaults and environment; `ollama ps` shows the sum of
/// the buffers llama-server logs. So an Ollama estimate is llama_cpp_memory (llama_cpp.hpp) under
/// Ollama's settings, summed as Ollama sums them.
#include <cstdint>
#include <string>
#include <vector>

#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/model.hpp"

namespace llmsizer {

/** What decides Ollama's llama-server flags (the environment variable or option in brackets). */
struct OllamaSettings {
  std::int64_t num_ctx = 0;         ///< [num_ctx / OLLAMA_CONTEXT_LENGTH] per request; 0: Ollama's default by VRAM
  int num_parallel = 1;             ///< [OLLAMA_NUM_PARALLEL] default 1 (envconfig/config.go)
  std::int64_t num_batch = 512;     ///< [num_batch] default 512 (api/types.go DefaultOptions); passed as -b and -ub
  std::string kv_cache_type;        ///< [OLLAMA_KV_CACHE_TYPE] "" (llama-server's f16), "q8_0", "q4_0", ...
  int flash_attention = -1;         ///< [OLLAMA_FLASH_ATTENTION] -1 unset (auto where supported), 0 off, 1 on
  bool gpu_supports_flash_attention = true;  ///< false for CUDA GPUs below compute 6.0 or 7.2 (ml/device.go)
  std::int64_t total_vram = 0;      ///< bytes of all GPUs less OLLAMA_GPU_OVERHEAD: picks the default context
  bool gpu = false;                 ///< a GPU runs the layers
  int num_gpu = -1;                 ///< [num_gpu] layers on the GPU; -1: llama-server decides (all, when they fit)
  bool use_mmap = true;             ///< [use_mmap] false: --load-mode none
  bool embedding = false;           ///< an embedding model: one sequence (server/sched.go)
  LlamaCppCpu cpu = LlamaCppCpu::x86_avx2;
};

/** Ollama's resolved flags, llama.cpp's buffers under them, and what `ollama ps` shows. */
struct OllamaMemory {
  std::int64_t num_ctx = 0;         ///< per sequence, after the default and the model's trained-context clamp
  int num_parallel = 1;
  LlamaCppSettings llama;           ///< the llama-server flags Ollama passes (-c, -np, -b, -ub, -ctk/-ctv, -fa, -ngl)
  LlamaCppMemory memory;
  std::int64_t ps_size = 0;         ///< `ollama ps` SIZE: llm/llama_server.go MemorySize() total
  std::int64_t ps_vram = 0;         ///< of it on GPUs (the PROCESSOR split)
};

/** The request's Ollama settings (request object `ollama`, contract). Ollama's KV cache type and
 *  flash attention are the request's `kv_cache` and `flash_attention` (or `ollama.kv_cache_type` /
 *  `ollama.flash_attention`, which set them). */
struct OllamaOptions {
  int num_parallel = 0;             ///< [OLLAMA_NUM_PARALLEL] 0: the request's batch (at most 256)
  std::int64_t num_batch = 512;     ///< [num_batch]
  int num_gpu = -1;                 ///< [num_gpu] -1: llama-server decides (all layers, when they fit)
  bool use_mmap = true;             ///< [use_mmap]
  int flash_attention = -1;         ///< [OLLAMA_FLASH_ATTENTION] -1 unset (auto), 0 off, 1 on
};

/** The commands that start Ollama with `settings` and load the model with its options:
 *  "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_NUM_PARALLEL=1 ollama serve", then, when an option differs
 *  from Ollama's default, the API call that sets it (num_batch, num_gpu, use_mmap have no
 *  environment variable: api/types.go Options). */
std::string ollama_command_line(const OllamaSettings& settings, const std::string& model = "MODEL");

/// Ollama's default context by the GPUs' memory (server/routes.go): 262144 from 47 GiB, 32768 from
/// 23 GiB, else 4096.
std::int64_t ollama_default_context(std::int64_t total_vram_bytes);

/// `cache`: as llama_cpp_memory's.
OllamaMemory ollama_memory(const ModelSpec& model, const std::vector<GgufTensor>& tensors, const OllamaSettings& settings,
                           EstimateCache* cache = nullptr);

}  // namespace llmsizer
