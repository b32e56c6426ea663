// SPDX-License-Identifier: MIT
// Ollama v0.33 (ollama/ollama fb30760): the sources of each rule are named where it is applied.
#include "llmsizer/ollama.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "llama_cpp_weights.hpp"
#include "llmsizer/ascii.hpp"

namespace llmsizer {

std::int64_t ollama_default_context(std::int64_t total_vram_bytes) {
  // server/routes.go: "Use slightly lower thresholds (47/23 GiB vs. 48/24 GiB)".
  constexpr std::int64_t kGiB = 1LL << 30;
  if (total_vram_bytes >= 47 * kGiB) return 262144;
  if (total_vram_bytes >= 23 * kGiB) return 32768;
  return 4096;
}

namespace {

/// server/sched.go load(): architectures Ollama runs with one sequence whatever OLLAMA_NUM_PARALLEL
/// says (GGUF architecture names).
bool single_sequence_architecture(const std::string& arch) {
  static constexpr std::string_view kArch[] = {"mllama", "qwen3vl", "qwen3vlmoe", "qwen35", "qwen35moe", "qwen3next",
                                               "lfm2", "lfm2moe", "nemotron_h", "nemotron_h_moe", "nemotron_h_omni"};
  return std::find(std::begin(kArch), std::end(kArch), arch) != std::end(kArch);
}

}  // namespace

OllamaMemory ollama_memory(const ModelSpec& m, const std::vector<GgufTensor>& tensors, const OllamaSettings& s, EstimateCache* cache) {
  return ollama_memory(m, LlamaCppWeightList::of_file(tensors), s, cache);
}

OllamaMemory ollama_memory(const ModelSpec& m, const LlamaCppWeightList& tensors, const OllamaSettings& s, EstimateCache* cache) {
  OllamaMemory o;
  // server/sched.go: embedding models and some architectures run one sequence.
  o.num_parallel = (s.embedding || single_sequence_architecture(llama_cpp_architecture(m))) ? 1 : std::max(1, s.num_parallel);
  // server/routes.go: num_ctx, else OLLAMA_CONTEXT_LENGTH, else the VRAM tier; llm/server.go
  // NewLlamaServer lowers it to the model's trained context.
  std::int64_t ctx = s.num_ctx > 0 ? s.num_ctx : ollama_default_context(s.gpu ? s.total_vram : 0);
  if (m.max_position_embeddings > 0) ctx = std::min<std::int64_t>(ctx, m.max_position_embeddings);
  o.num_ctx = ctx;

  // llm/llama_server.go startLlamaServer: -c num_ctx × parallel, -np parallel (so llama-server keeps
  // one KV stream per slot), -b and -ub num_batch, --cache-type-k/-v OLLAMA_KV_CACHE_TYPE, -fa from
  // OLLAMA_FLASH_ATTENTION (unset: auto where ml.FlashAttentionSupported, else off), -ngl only when
  // num_gpu is set, --load-mode none without mmap.
  LlamaCppSettings& l = o.llama;
  l.n_ctx = ctx * o.num_parallel;
  l.n_seq = o.num_parallel;
  l.kv_unified = false;
  l.n_batch = s.num_batch;
  l.n_ubatch = s.num_batch;
  // llama-server (tools/server/server-context.cpp server_output_limits): one logit row per slot
  l.n_outputs_max = std::min<std::int64_t>(s.num_batch, o.num_parallel);
  l.type_k = l.type_v = s.kv_cache_type.empty() ? std::string("F16") : s.kv_cache_type;
  if (s.flash_attention == 1) {
    l.flash_attn = LlamaCppFlashAttn::on;
  } else if (s.flash_attention == 0 || (s.gpu && !s.gpu_supports_flash_attention)) {
    l.flash_attn = LlamaCppFlashAttn::off;
  } else {
    l.flash_attn = LlamaCppFlashAttn::automatic;
  }
  l.gpu = s.gpu;
  l.n_gpu_layers = s.num_gpu;
  l.mmap = s.use_mmap;
  l.cpu = s.cpu;
  o.memory = llama_cpp_memory(m, tensors, l, cache);

  // llm/llama_server.go MemorySize(): the sum of every "buffer size" line llama-server logs
  // (model, KV, compute, output); all layers on GPUs: the GPU buffers alone; otherwise the
  // CPU_Mapped span less what it overlaps of the weights copied to GPUs (mapped + device model
  // buffers beyond the file size).
  const LlamaCppMemory& r = o.memory;
  o.ps_vram = r.device_bytes;
  const bool all_on_gpu = s.gpu && (s.num_gpu < 0 || s.num_gpu >= m.num_layers + 1);
  if (all_on_gpu) {
    o.ps_size = o.ps_vram;
  } else {
    std::int64_t file = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) file += tensors[i].bytes;
    const std::int64_t file_backed = r.weights_mapped + r.weights_device;
    const std::int64_t overlap = file_backed > file ? std::min(r.weights_mapped, file_backed - file) : 0;
    o.ps_size = r.host_bytes + r.device_bytes - overlap;
  }
  return o;
}

std::string ollama_command_line(const OllamaSettings& s, const std::string& model) {
  // envconfig/config.go: OLLAMA_CONTEXT_LENGTH (the default num_ctx), OLLAMA_NUM_PARALLEL,
  // OLLAMA_FLASH_ATTENTION, OLLAMA_KV_CACHE_TYPE; unset ones keep Ollama's defaults.
  std::string cmd;
  if (s.num_ctx > 0) cmd += "OLLAMA_CONTEXT_LENGTH=" + std::to_string(s.num_ctx) + " ";
  cmd += "OLLAMA_NUM_PARALLEL=" + std::to_string(std::max(1, s.num_parallel)) + " ";
  if (s.flash_attention >= 0) cmd += "OLLAMA_FLASH_ATTENTION=" + std::to_string(s.flash_attention) + " ";
  const std::string kv = ascii_lower(s.kv_cache_type);
  if (!kv.empty() && kv != "f16") cmd += "OLLAMA_KV_CACHE_TYPE=" + kv + " ";
  cmd += "ollama serve";
  // api/types.go Options: num_batch, num_gpu and use_mmap are per-request options only.
  std::string options;
  if (s.num_batch != 512) options += ",\"num_batch\":" + std::to_string(s.num_batch);
  if (s.num_gpu >= 0) options += ",\"num_gpu\":" + std::to_string(s.num_gpu);
  if (!s.use_mmap) options += ",\"use_mmap\":false";
  if (!options.empty()) {
    cmd += "\ncurl http://localhost:11434/api/generate -d '{\"model\":\"" + model + "\",\"options\":{" + options.substr(1) + "}}'";
  }
  return cmd;
}

}  // namespace llmsizer
