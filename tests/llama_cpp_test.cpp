// SPDX-License-Identifier: MIT
// llama.cpp's memory rules (core/src/llama_cpp.cpp), each against numbers worked out by hand from
// the llama.cpp v0.5.0 source it follows; the whole model against a real llama.cpp is
// tests/llama_cpp_validation_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "llmsizer/error.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace llama_cpp_test {

using namespace llmsizer;

namespace {

LlamaCppMemory run(const std::string& preset, const LlamaCppSettings& s, const char* weights = "gguf-f16") {
  const ModelSpec m = test_support::preset(preset);
  return llama_cpp_memory(m, llama_cpp_tensors(m, *find_weight_format(weights)), s);
}

LlamaCppSettings ctx(std::int64_t n_ctx, int n_seq = 1, std::int64_t n_ubatch = 512) {
  LlamaCppSettings s;
  s.n_ctx = n_ctx;
  s.n_seq = n_seq;
  s.n_ubatch = n_ubatch;
  s.flash_attn = LlamaCppFlashAttn::on;
  return s;
}

/// A made-up model file: the shapes and types the placement rules look at. Bytes per ggml block:
/// Q4_0 18 per 32, Q4_K 144 per 256, Q8_0 34 per 32, F32 4 (ggml-common.h).
std::vector<GgufTensor> toy_tensors(bool with_output) {
  std::vector<GgufTensor> t = {
      {"token_embd.weight", {64, 1000}, "Q4_0", 64 / 32 * 18 * 1000},             // 36000, GET_ROWS
      {"blk.0.attn_q.weight", {64, 64}, "Q4_0", 64 / 32 * 18 * 64},               // 2304, rows % 8 == 0
      {"blk.0.attn_norm.weight", {64}, "F32", 64 * 4},                            // 256
      {"blk.0.ffn_up_exps.weight", {256, 64, 4}, "Q4_K", 256 / 256 * 144 * 64 * 4},  // 36864, MUL_MAT_ID
      {"blk.0.ffn_down.weight", {64, 36}, "Q8_0", 64 / 32 * 34 * 36},             // 2448, rows % 4 == 0 only
      {"blk.0.attn_k_b.weight", {32, 64, 2}, "Q4_0", 32 / 32 * 18 * 64 * 2},       // 2304, a 3-D MUL_MAT operand
  };
  if (with_output) t.push_back({"output.weight", {64, 1002}, "Q4_0", 64 / 32 * 18 * 1002});  // 36072, rows % 4 != 0
  return t;
}

}  // namespace

TEST_CASE("llama.cpp pads the context to 256 and splits it over per-sequence streams", "[llama_cpp]") {
  // llama-context.cpp: n_ctx = GGML_PAD(n_ctx, 256); not unified: n_ctx_seq = GGML_PAD(n_ctx /
  // n_seq_max, 256), n_ctx = n_ctx_seq × n_seq_max. 4000 → 4096; 4096 / 3 = 1365 → 1536; × 3 = 4608.
  LlamaCppMemory r = run("qwen2.5-0.5b-instruct", ctx(4000, 3));
  CHECK(r.n_ctx == 4608);
  CHECK(r.n_ctx_seq == 1536);
  CHECK(r.n_stream == 3);
  CHECK(r.cells_full == 1536);
  // Unified (-kvu, llama-server's default): one stream of the whole padded context.
  LlamaCppSettings s = ctx(4000, 3);
  s.kv_unified = true;
  r = run("qwen2.5-0.5b-instruct", s);
  CHECK(r.n_ctx == 4096);
  CHECK(r.n_ctx_seq == 4096);
  CHECK(r.n_stream == 1);
  // "with causal attention, the batch size is limited by the context size" (before the padding):
  // n_batch = min(300, 2048) = 300, n_ubatch = min(300, 512) = 300; n_ctx 300 → 512.
  s = ctx(300);
  r = run("qwen2.5-0.5b-instruct", s);
  CHECK(r.n_batch == 300);
  CHECK(r.n_ubatch == 300);
  CHECK(r.n_ctx == 512);
}

TEST_CASE("llama.cpp's KV cache is K and V rows of each layer for every cell of every stream", "[llama_cpp][kv]") {
  // Qwen2.5-0.5B: 24 layers, 2 KV heads × 64. f16: 24 × 2 × 128 × 2 B × 4096 cells = 50,331,648
  // (llama.cpp logs 48.00 MiB: data/validation/llama_cpp.json).
  CHECK(run("qwen2.5-0.5b-instruct", ctx(4096)).kv_host == 50'331'648);
  // q8_0 rows of 128: 4 blocks × 34 B = 136 B. 24 × 2 × 136 × 4096 = 26,738,688.
  LlamaCppSettings s = ctx(4096);
  s.type_k = s.type_v = "q8_0";
  CHECK(run("qwen2.5-0.5b-instruct", s).kv_host == 26'738'688);
  // 4 sequences of a 32768-token context: 8192 cells in each of 4 streams, the same bytes as one
  // stream of 32768: 24 × 2 × 128 × 2 × 8192 × 4 = 402,653,184.
  const LlamaCppMemory r = run("qwen2.5-0.5b-instruct", ctx(32768, 4));
  CHECK(r.cells_full == 8192);
  CHECK(r.layers.front().streams == 4);
  CHECK(r.kv_host == 402'653'184);
}

TEST_CASE("llama.cpp caches sliding layers for the window plus one micro-batch, padded to 256", "[llama_cpp][kv][swa]") {
  // Gemma 3 1B: 26 layers, every 6th full (layers 5, 11, 17, 23), 1 KV head of 256, window 512.
  // llama-kv-cache-iswa.cpp: size_swa = GGML_PAD(min(n_ctx_seq, n_swa × (unified ? n_seq : 1) + n_ubatch), 256).
  LlamaCppMemory r = run("gemma-3-1b-it", ctx(32768));
  CHECK(r.cells_full == 32768);
  CHECK(r.cells_sliding == 1024);  // 512 + 512
  // 4 full × 2 × 256 × 2 B × 32768 + 22 sliding × 2 × 256 × 2 B × 1024
  CHECK(r.kv_host == 4LL * 2 * 256 * 2 * 32768 + 22LL * 2 * 256 * 2 * 1024);
  CHECK(run("gemma-3-1b-it", ctx(32768, 1, 2048)).cells_sliding == 2560);  // 512 + 2048
  CHECK(run("gemma-3-1b-it", ctx(768)).cells_sliding == 768);              // min(768, 1024) → the context
  LlamaCppSettings s = ctx(32768, 4);
  CHECK(run("gemma-3-1b-it", s).cells_sliding == 1024);  // per stream: min(8192, 1024)
  s.kv_unified = true;
  CHECK(run("gemma-3-1b-it", s).cells_sliding == 2560);  // one stream for 4 windows: 4 × 512 + 512
  s.swa_full = true;
  CHECK(run("gemma-3-1b-it", s).cells_sliding == 32768);
}

TEST_CASE("llama.cpp switches Phi-3's window off and caches every layer in full", "[llama_cpp][kv][swa]") {
  // src/models/phi3.cpp: "Phi SWA is currently disabled" (swa_type NONE) though the config has a
  // 2047-token window. Phi-3-mini: 32 layers, 32 KV heads × 96: 32 × 2 × 3072 × 2 B × 4096.
  const LlamaCppMemory r = run("phi-3-mini-4k-instruct", ctx(4096));
  CHECK(r.cells_sliding == 0);
  CHECK(r.kv_host == 32LL * 2 * 3072 * 2 * 4096);
}

TEST_CASE("llama.cpp caches DeepSeek's MLA latent and rope key without V", "[llama_cpp][kv][mla]") {
  // conversion/deepseek.py stores MLA as MQA: key_length = kv_lora_rank + rope = 576, and the cache
  // has no V tensor (llama-kv-cache.cpp has_v = !is_mla). 61 layers × 576 × 2 B × 4096.
  const LlamaCppMemory r = run("deepseek-v3", ctx(4096), "q4_k_m");
  CHECK(r.kv_host == 61LL * 576 * 2 * 4096);
  CHECK(r.layers.front().kind == LlamaCppLayerCache::mla);
  CHECK(r.layers.front().v_bytes == 0);
}

TEST_CASE("llama.cpp refuses a quantized V cache without flash attention and mixed types for MLA", "[llama_cpp][kv]") {
  LlamaCppSettings s = ctx(4096);
  s.flash_attn = LlamaCppFlashAttn::off;
  s.type_k = "q8_0";  // a quantized K alone is fine
  CHECK_NOTHROW(run("qwen2.5-0.5b-instruct", s));
  s.type_v = "q4_0";
  CHECK_THROWS_AS(run("qwen2.5-0.5b-instruct", s), InputError);
  s = ctx(4096);
  s.type_k = "q8_0";
  CHECK_THROWS_AS(run("deepseek-v3", s, "q4_k_m"), InputError);  // llama_init_from_model: K and V types must match
  s.type_v = "q8_0";
  CHECK_NOTHROW(run("deepseek-v3", s, "q4_k_m"));
  s = ctx(4096, 257);
  CHECK_THROWS_AS(run("qwen2.5-0.5b-instruct", s), InputError);  // LLAMA_MAX_SEQ is 256
  s = ctx(4096);
  s.type_k = "q3_k";
  try {
    run("qwen2.5-0.5b-instruct", s);
    FAIL("q3_k is not a cache type");
  } catch (const InputError& e) {
    CHECK(e.field() == "kv_cache");
  }
}

TEST_CASE("llama.cpp's output buffer holds one row of logits per sequence", "[llama_cpp]") {
  // llama-context.cpp output_reserve(n_seq_max): n_vocab × n_seq_max floats. 151936 × 4 × 4 B.
  CHECK(run("qwen2.5-0.5b-instruct", ctx(4096, 4)).output == 2'430'976);
}

TEST_CASE("llama.cpp repacks the matrix weights each CPU family has kernels for", "[llama_cpp][weights]") {
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  // GGUF offsets (aligned to 32): token_embd 0, attn_q 36000, attn_norm 38304, ffn_up_exps 38560,
  // ffn_down 75424, attn_k_b 77888, output 80192..116264.
  LlamaCppSettings s = ctx(512);
  s.cpu = LlamaCppCpu::x86_avx2;  // Q4_0 and Q4_K with rows % 8 == 0
  LlamaCppMemory r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_repack == 2304 + 36864);
  CHECK(r.weights_mapped == 116'264);  // CPU_Mapped spans the file from token_embd to output
  CHECK(r.weights_mapped_repacked == 2304 + 36864);
  s.cpu = LlamaCppCpu::arm_dotprod;  // also Q8_0 with rows % 4 == 0 (ffn_down: 2448 → 2464 aligned)
  r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_repack == 2304 + 36864 + 2464);
  s.cpu = LlamaCppCpu::none;
  r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_repack == 0);
  CHECK(r.weights_mapped == 116'264);
  // --no-mmap: the CPU tensors are read into one buffer, each aligned to 32:
  // 36000 + 256 + 2464 + 2304 + 36096.
  s.cpu = LlamaCppCpu::x86_avx2;
  s.mmap = false;
  r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_mapped == 0);
  CHECK(r.weights_cpu == 36000 + 256 + 2464 + 2304 + 36096);
  // Tied embeddings: the output layer duplicates token_embd; as a MUL_MAT operand of 1000 rows
  // it goes to CPU_REPACK, a second copy (TENSOR_DUPLICATED lands in another buffer type).
  s.mmap = true;
  r = llama_cpp_memory(m, toy_tensors(false), s);
  CHECK(r.weights_repack == 2304 + 36864 + 36000);
}

TEST_CASE("llama.cpp offloads the output layer first, then the last layers", "[llama_cpp][gpu]") {
  // llama-model.cpp: i_gpu_start = max(n_layer + 1 - n_gpu_layers, 0); the output layer has index
  // n_layer, the input layer (token_embd) always stays on the CPU.
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");  // 24 layers
  LlamaCppSettings s = ctx(4096);
  s.gpu = true;
  s.n_gpu_layers = 1;
  LlamaCppMemory r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_device == 36096);  // output.weight, aligned to 128 for CUDA
  CHECK(r.kv_device == 0);
  s.n_gpu_layers = -1;
  r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_mapped == 36000);  // only token_embd stays mapped
  CHECK(r.weights_repack == 0);
  CHECK(r.kv_host == 0);
  CHECK(r.kv_device == 50'331'648);
  // -ot "ffn_.*_exps=CPU": the experts stay on the CPU, where they are repacked
  s.cpu_tensor_patterns = {"ffn_.*_exps"};
  r = llama_cpp_memory(m, toy_tensors(true), s);
  CHECK(r.weights_repack == 36864);
  s.cpu_tensor_patterns = {"(["};
  CHECK_THROWS_AS(llama_cpp_memory(m, toy_tensors(true), s), InputError);
}

TEST_CASE("llama.cpp's compute buffer for Qwen2.5-0.5B is the one llama.cpp allocates", "[llama_cpp][compute]") {
  // Measured (data/validation/llama_cpp.json, row llama_cpp-qwen2.5-0.5b-gguf-f16-alloc-c4096-s1-fa-
  // ub512-f16-f16): ~llama_context logs "CPU compute buffer size is 300.2520 MiB" = 314,837,041 B
  // ± 53 B of rounding; the logits of 512 tokens (512 × 151936 × 4 B = 311,148,544) dominate.
  const std::int64_t compute = run("qwen2.5-0.5b-instruct", ctx(4096)).compute_host;
  CHECK(compute >= 314'837'041 - 53);
  CHECK(compute <= 314'837'041 + 53);
  LlamaCppSettings s = ctx(4096, 1, 2048);
  s.n_batch = 2048;
  const std::int64_t fa = run("qwen2.5-0.5b-instruct", s).compute_host;
  s.flash_attn = LlamaCppFlashAttn::off;
  const std::int64_t no_fa = run("qwen2.5-0.5b-instruct", s).compute_host;
  CHECK(no_fa > fa);  // the attention scores, n_kv × n_ubatch × heads × 4 B, join the peak
}

TEST_CASE("The llama.cpp tensor list is the GGUF layout of each family", "[llama_cpp][weights]") {
  auto names = [](const std::vector<TensorInfo>& list) {
    std::vector<std::string> out;
    for (const auto& t : list) out.push_back(t.name);
    return out;
  };
  auto has = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  // Phi-3: fused qkv (3072 + 2 × 3072 rows) and one up projection of 2 × 8192 rows.
  const ModelSpec phi = test_support::preset("phi-3-mini-4k-instruct");
  const auto phi_tensors = llama_cpp_tensor_infos(phi);
  CHECK(has(names(phi_tensors), "blk.0.attn_qkv.weight"));
  CHECK_FALSE(has(names(phi_tensors), "blk.0.ffn_gate.weight"));
  for (const auto& t : phi_tensors) {
    if (t.name == "blk.0.attn_qkv.weight") CHECK(t.shape == std::vector<std::int64_t>{3072, 9216});
    if (t.name == "blk.0.ffn_up.weight") CHECK(t.shape == std::vector<std::int64_t>{3072, 16384});
  }
  // DeepSeek-V3: kv_b split per head; the score correction bias is exp_probs_b.
  const auto ds = names(llama_cpp_tensor_infos(test_support::preset("deepseek-v3")));
  CHECK(has(ds, "blk.0.attn_k_b.weight"));
  CHECK(has(ds, "blk.0.attn_v_b.weight"));
  CHECK_FALSE(has(ds, "blk.0.attn_kv_b.weight"));
  CHECK(has(ds, "blk.3.exp_probs_b.bias"));
  // gpt-oss: a sink per head and layer; the expert pre-norm is post_attention_norm.
  const auto oss = names(llama_cpp_tensor_infos(test_support::preset("gpt-oss-20b")));
  CHECK(has(oss, "blk.0.attn_sinks.weight"));
  CHECK(has(oss, "blk.0.post_attention_norm.weight"));
  // The elements are the model's parameters either way, less a vision tower (its own mmproj GGUF).
  for (const char* id : {"phi-3-mini-4k-instruct", "deepseek-v3", "gpt-oss-20b", "gemma-2-2b-it", "qwen3-30b-a3b", "gemma-3-12b-it"}) {
    CAPTURE(id);
    const ModelSpec m = test_support::preset(id);
    std::int64_t n = 0;
    for (const auto& t : llama_cpp_tensor_infos(m)) n += t.elements();
    CHECK(n == count_params(m).total - m.extra_params);
  }
}

TEST_CASE("llama.cpp's --override-tensor patterns are regular expressions searched in tensor names", "[llama_cpp][gpu]") {
  // llama-model-loader.cpp create_tensor: std::regex_search(tensor_name, pattern) for each -ot.
  // All layers on the GPU (-ngl -1); the tensors a pattern matches stay on the CPU, where x86 AVX2
  // repacks Q4_0/Q4_K (toy file: token_embd 0..36000, attn_q 36000, ffn_up_exps 38560..75424,
  // ffn_down 75424..77872, attn_k_b 77888..80192, output ..116264).
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  LlamaCppSettings s = ctx(512);
  s.gpu = true;
  s.n_gpu_layers = -1;
  struct Case {
    const char* pattern;
    std::int64_t mapped;
    std::int64_t repack;
  };
  for (const Case& c : {Case{"exps$", 36000, 0},                         // names end in ".weight"
                        Case{"ffn_(up|down)", 77872, 36864},            // ffn_down stays mapped (Q8_0)
                        Case{"^blk\\.0\\.attn_[qk]", 80192, 2304},       // attn_q repacked, attn_k_b mapped
                        Case{"blk\\.\\d+\\.ffn_up_exps", 36000, 36864},
                        Case{"\\.weight$", 116264, 2304 + 36864},       // everything: as with no GPU
                        Case{"blk\\.(1[0-9]|2[0-3])\\.", 36000, 0}}) {  // layers 10-23: none in the toy file
    CAPTURE(c.pattern);
    s.cpu_tensor_patterns = {c.pattern};
    const LlamaCppMemory r = llama_cpp_memory(m, toy_tensors(true), s);
    CHECK(r.weights_mapped == c.mapped);
    CHECK(r.weights_repack == c.repack);
  }
  for (const char* bad : {"(", "[a-", "x{2,1}", "*x", "a\\"}) {
    CAPTURE(bad);
    s.cpu_tensor_patterns = {bad};
    CHECK_THROWS_AS(llama_cpp_memory(m, toy_tensors(true), s), InputError);
  }
}

TEST_CASE("The llama-server command line reproduces the settings", "[llama_cpp]") {
  // common/arg.cpp (v0.5.0): -c, -np, -kvu, -b, -ub, -fa on|off|auto, -ctk/-ctv, -ngl N|all,
  // -nkvo, --swa-full, --load-mode none, -ot PATTERN=TYPE[,...].
  LlamaCppSettings s;
  s.n_ctx = 8192;
  s.flash_attn = LlamaCppFlashAttn::on;
  CHECK(llama_cpp_command_line(s) == "llama-server -m MODEL.gguf -c 8192 -np 1 -b 2048 -ub 512 -fa on -ctk f16 -ctv f16 -ngl 0");
  s.n_seq = 4;
  s.kv_unified = true;
  s.n_ubatch = 2048;
  s.type_k = s.type_v = "Q8_0";
  s.gpu = true;
  s.n_gpu_layers = -1;
  s.mmap = false;
  s.cpu_tensor_patterns = {"ffn_.*_exps", "blk\\.0\\."};
  CHECK(llama_cpp_command_line(s, "qwen3.gguf") ==
        "llama-server -m qwen3.gguf -c 8192 -np 4 -kvu -b 2048 -ub 2048 -fa on -ctk q8_0 -ctv q8_0 -ngl all --load-mode none "
        "-ot \"ffn_.*_exps=CPU,blk\\.0\\.=CPU\"");
  s.n_gpu_layers = 20;
  s.flash_attn = LlamaCppFlashAttn::automatic;
  s.offload_kqv = false;
  s.swa_full = true;
  s.mmap = true;
  s.cpu_tensor_patterns.clear();
  s.kv_unified = false;
  CHECK(llama_cpp_command_line(s) == "llama-server -m MODEL.gguf -c 8192 -np 4 -b 2048 -ub 2048 -fa auto -ctk q8_0 -ctv q8_0 -ngl 20 -nkvo --swa-full");
}

TEST_CASE("Each llama.cpp and Ollama request field rejects a bad value naming the field and its range", "[llama_cpp][api][errors]") {
  using nlohmann::json;
  const json base = {{"model", "qwen2.5-7b-instruct"}, {"engine", "llama.cpp"}};
  struct Bad {
    const char* field;     // the request key
    json value;
    const char* expected;  // the error's field
    const char* range;     // what the message must say
  };
  // Ranges: ubatch 1-65536, n_batch 1-1,000,000, parallel 1-256 (LLAMA_MAX_SEQ, llama-cparams.h);
  // Qwen2.5-7B has 28 layers, so -ngl counts 0-29 with the output layer.
  const Bad bad[] = {{"ubatch", 0, "ubatch", "from 1 to 65536"},
                     {"n_batch", 2'000'000, "n_batch", "from 1 to 1000000"},
                     {"parallel", 257, "parallel", "from 1 to 256"},
                     {"kv_unified", "yes", "kv_unified", "true or false"},
                     {"mmap", 1, "mmap", "true or false"},
                     {"n_gpu_layers", 30, "n_gpu_layers", "from 0 to 29"},
                     {"cpu_family", "z80", "cpu_family", "x86_avx2"},
                     {"override_tensor", "ffn", "override_tensor", "at most 64"},
                     {"override_tensor", json::array({"ffn_(up"}), "override_tensor[0]", "ffn_(up"}};
  for (const auto& b : bad) {
    CAPTURE(b.field, b.value.dump());
    json request = base;
    request[b.field] = b.value;
    const json r = test_support::estimate(request);
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"] == b.expected);
    CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains(b.range));
  }
  const Bad bad_ollama[] = {{"num_parallel", 0, "ollama.num_parallel", "from 1 to 256"},
                            {"num_batch", 0, "ollama.num_batch", "from 1 to 65536"},
                            {"num_gpu", 99, "ollama.num_gpu", "from 0 to 29"},
                            {"kv_cache_type", "q5_1", "ollama.kv_cache_type", "f16, q8_0, q4_0"}};
  for (const auto& b : bad_ollama) {
    CAPTURE(b.field, b.value.dump());
    const json r = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", "ollama"}, {"ollama", {{b.field, b.value}}}});
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"] == b.expected);
    CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Contains(b.range));
  }
}

TEST_CASE("The llama.cpp request fields reach llama.cpp's buffers and its command line", "[llama_cpp][api]") {
  using nlohmann::json;
  // Qwen2.5-7B Q4_K_M, 4,096 tokens per sequence, 2 sequences on one GPU.
  const json request = {{"model", "qwen2.5-7b-instruct"}, {"engine", "llama.cpp"}, {"weights", "q4_k_m"}, {"input_tokens", 4000},
                        {"output_tokens", 96}, {"batch", 2}, {"parallel", 2}, {"ubatch", 2048}, {"kv_unified", true},
                        {"n_gpu_layers", 20}, {"mmap", false}};
  const json r = test_support::estimate(request);
  REQUIRE_FALSE(r.contains("error"));
  const json& l = r["llama_cpp"];
  // -c is the context of all slots: 2 × 4,096; one unified stream of 8,192 cells.
  CHECK(l["n_ctx"] == 8192);
  CHECK(l["n_ubatch"] == 2048);
  CHECK(l["n_stream"] == 1);
  CHECK(l["n_gpu_layers"] == 20);
  CHECK(l["command_line"] == "llama-server -m MODEL.gguf -c 8192 -np 2 -kvu -b 2048 -ub 2048 -fa on -ctk f16 -ctv f16 -ngl 20 --load-mode none");
  // --load-mode none (--no-mmap): the CPU's layers are read into a CPU buffer, nothing is mapped.
  CHECK(l["buffers"]["weights_mapped"] == 0);
  CHECK(l["buffers"]["weights_cpu"].get<std::int64_t>() > 0);
  CHECK(l["buffers"]["weights_device"].get<std::int64_t>() > 0);
  // Per-sequence streams (kv_unified false) pad each sequence's 4,096 cells on their own: the same
  // cells here (4,096 is a multiple of 256), so the KV cache is equal either way.
  json split = request;
  split["kv_unified"] = false;
  const json s = test_support::estimate(split);
  CHECK(s["llama_cpp"]["n_stream"] == 2);
  CHECK(s["llama_cpp"]["buffers"]["kv_device"] == l["buffers"]["kv_device"]);
}

}  // namespace llama_cpp_test
