// SPDX-License-Identifier: MIT
// Ollama's memory (core/src/ollama.cpp): Ollama v0.33's defaults and flags (ollama/ollama fb30760)
// over llama.cpp's buffers, and `ollama ps`'s sum of them.
#include <catch2/catch.hpp>

#include "llmsizer/ollama.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace ollama_test {

using namespace llmsizer;

namespace {

constexpr std::int64_t kGiB = 1LL << 30;

OllamaMemory run(const std::string& preset, const OllamaSettings& s) {
  const ModelSpec m = test_support::preset(preset);
  return ollama_memory(m, llama_cpp_tensors(m, *find_weight_format("q4_k_m")), s);
}

}  // namespace

TEST_CASE("Ollama's default context follows the GPUs' memory and the model's trained context", "[ollama]") {
  // server/routes.go: 262144 from 47 GiB, 32768 from 23 GiB, else 4096.
  CHECK(ollama_default_context(0) == 4096);
  CHECK(ollama_default_context(22 * kGiB) == 4096);
  CHECK(ollama_default_context(23 * kGiB) == 32768);
  CHECK(ollama_default_context(47 * kGiB) == 262144);
  OllamaSettings s;
  s.gpu = true;
  s.total_vram = 24 * kGiB;
  CHECK(run("qwen3-8b", s).num_ctx == 32768);
  // llm/server.go: "requested context size too large for model" → the trained 4096 of Phi-3-mini-4k
  CHECK(run("phi-3-mini-4k-instruct", s).num_ctx == 4096);
  s.num_ctx = 8192;  // num_ctx / OLLAMA_CONTEXT_LENGTH wins over the tier
  CHECK(run("qwen3-8b", s).num_ctx == 8192);
}

TEST_CASE("Ollama starts llama-server with one KV stream per parallel request", "[ollama]") {
  // llm/llama_server.go: -c num_ctx × parallel, -np parallel, -b/-ub num_batch (512); llama-server
  // then outputs one logit row per slot (n_outputs_max = parallel).
  OllamaSettings s;
  s.num_ctx = 8192;
  s.num_parallel = 4;
  OllamaMemory o = run("qwen3-8b", s);
  CHECK(o.llama.n_ctx == 32768);
  CHECK(o.llama.n_seq == 4);
  CHECK_FALSE(o.llama.kv_unified);
  CHECK(o.llama.n_batch == 512);
  CHECK(o.llama.n_ubatch == 512);
  CHECK(o.llama.n_outputs_max == 4);
  CHECK(o.memory.n_ctx_seq == 8192);
  // Qwen3-8B: 36 layers × 2 × 8 KV heads × 128 × 2 B × 8192 cells × 4 streams
  CHECK(o.memory.kv_host == 36LL * 2 * 8 * 128 * 2 * 8192 * 4);
  // server/sched.go: Qwen3-Next runs one sequence whatever OLLAMA_NUM_PARALLEL says
  CHECK(run("qwen3-next-80b-a3b-instruct", s).num_parallel == 1);
  s.embedding = true;
  CHECK(run("qwen3-8b", s).num_parallel == 1);
}

TEST_CASE("Ollama's flash attention and KV cache type come from its environment", "[ollama]") {
  OllamaSettings s;
  s.num_ctx = 4096;
  CHECK(run("qwen3-8b", s).llama.flash_attn == LlamaCppFlashAttn::automatic);  // unset: auto
  CHECK(run("qwen3-8b", s).memory.flash_attn);
  s.gpu = true;
  s.gpu_supports_flash_attention = false;  // ml/device.go: CUDA below compute 6.0 (or 7.2)
  CHECK(run("qwen3-8b", s).llama.flash_attn == LlamaCppFlashAttn::off);
  s.flash_attention = 1;
  CHECK(run("qwen3-8b", s).llama.flash_attn == LlamaCppFlashAttn::on);
  s.kv_cache_type = "q8_0";  // OLLAMA_KV_CACHE_TYPE: both K and V
  const OllamaMemory o = run("qwen3-8b", s);
  CHECK(o.llama.type_k == "q8_0");
  CHECK(o.llama.type_v == "q8_0");
  // 36 layers × 2 × (1024 / 32 × 34 B) × 4096 cells
  CHECK(o.memory.kv_device == 36LL * 2 * (1024 / 32 * 34) * 4096);
}

TEST_CASE("ollama ps sums llama-server's buffers as Ollama does", "[ollama]") {
  // llm/llama_server.go MemorySize(): every buffer line; all layers on GPUs: the GPU buffers only.
  OllamaSettings s;
  s.num_ctx = 4096;
  OllamaMemory o = run("qwen2.5-0.5b-instruct", s);  // CPU only
  CHECK(o.ps_vram == 0);
  CHECK(o.ps_size == o.memory.host_bytes);
  s.gpu = true;
  o = run("qwen2.5-0.5b-instruct", s);
  CHECK(o.ps_size == o.memory.device_bytes);
  CHECK(o.ps_size < o.memory.device_bytes + o.memory.host_bytes);  // CPU_Mapped token_embd, output, host compute left out
  // 10 of 25 layers (24 + the output layer): the mapped span reaches from token_embd to layer 14
  // and the GPU copies layers 15-23 and the tied output; together they exceed the file by the
  // duplicated embedding, which Ollama takes off the mapped part.
  s.num_gpu = 10;
  o = run("qwen2.5-0.5b-instruct", s);
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  std::int64_t file = 0, token_embd = 0;
  for (const auto& t : llama_cpp_tensors(m, *find_weight_format("q4_k_m"))) {
    file += t.bytes;
    if (t.name == "token_embd.weight") token_embd = t.bytes;
  }
  const std::int64_t overlap = o.memory.weights_mapped + o.memory.weights_device - file;
  CHECK(overlap >= token_embd);
  CHECK(overlap < token_embd + 32768);  // plus alignment: 128 B per GPU tensor, 32 B per file tensor
  CHECK(o.ps_size == o.memory.host_bytes + o.memory.device_bytes - overlap);
}

}  // namespace ollama_test
