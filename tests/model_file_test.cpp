// SPDX-License-Identifier: MIT
// inspect_model_file: the request model from the first bytes of a GGUF, safetensors, index or
// config.json file, and the estimate it gives. The files are small ones the tests write themselves
// (model_file_fixtures.hpp, model_file_bytes.hpp; the header readers' own cases are in gguf_test.cpp
// and safetensors_test.cpp).
#include <catch2/catch.hpp>

#include <cstring>

#include "llmsizer/llama_cpp.hpp"
#include "model_file_fixtures.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace model_file_test {

using nlohmann::json;

namespace {

/** A 2-layer llama GGUF: hidden 64, 4 heads, 2 KV heads (head_dim 16), MLP 128, vocab 100.
 *  Tensors (ne0 = row): token_embd [64, 100] F16 (type 1), output [64, 100] Q8_0 (type 8: 34 bytes
 *  per 32 values), blk.0/1.attn_q [64, 64] F16. Elements: 6400 + 6400 + 2 × 4096 = 20,992.
 *  Bytes: 12,800 + 100 rows × 2 blocks × 34 = 6,800 + 2 × 8,192 = 35,984. The data section
 *  (tensor offsets 32-aligned: 0, 12,800, 19,616, 27,808) follows the header; the test passes only
 *  what is asked for. */
std::string tiny_gguf() {
  const model_file_fixtures::Fixture f = model_file_fixtures::gguf(
      "tiny", "llama",
      {{"llama.embedding_length", 64}, {"llama.block_count", 2}, {"llama.attention.head_count", 4},
       {"llama.attention.head_count_kv", 2}, {"llama.feed_forward_length", 128}},
      {{"token_embd.weight", {64, 100}, "F16"}, {"output.weight", {64, 100}, "Q8_0"}, {"blk.0.attn_q.weight", {64, 64}, "F16"},
       {"blk.1.attn_q.weight", {64, 64}, "F16"}});
  return f.bytes + std::string(static_cast<std::size_t>(f.file_size) - f.bytes.size(), '\0');
}

json inspect(const std::string& bytes, std::int64_t size) {
  return json::parse(llmsizer::inspect_model_file(bytes, static_cast<double>(size)));
}

/// The prefix length a truncated read asks for, or 0 when the answer is not a truncation.
std::int64_t needed(const json& r) {
  return r.contains("error") ? r["error"].value("needed_bytes", std::int64_t{0}) : 0;
}

/// Reads a file the way the page and the CLI do: a prefix, then what the core asks for.
json inspect_progressively(const std::string& file, std::int64_t first, std::int64_t& bytes_read) {
  std::int64_t want = first;
  for (int round = 0; round < 20; ++round) {
    bytes_read = std::min<std::int64_t>(want, static_cast<std::int64_t>(file.size()));
    const json r = inspect(file.substr(0, static_cast<std::size_t>(bytes_read)), static_cast<std::int64_t>(file.size()));
    if (needed(r) == 0) return r;
    REQUIRE(needed(r) > bytes_read);
    want = std::max(needed(r), 2 * bytes_read);  // as file_header.hpp advises for long GGUF headers
  }
  FAIL("no answer after 20 reads");
  return {};
}

}  // namespace

TEST_CASE("A GGUF header gives the architecture and the exact parameters and bytes", "[model_file][gguf]") {
  const std::string file = tiny_gguf();
  std::int64_t read = 0;
  const json r = inspect_progressively(file, 16, read);
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["format"] == "gguf");
  CHECK(read < static_cast<std::int64_t>(file.size()));  // the tensor data was never needed
  CHECK(r["header_bytes"].get<std::int64_t>() <= read);
  const json& model = r["request_model"];
  CHECK(model["params"] == 20'992);
  CHECK(model["weight_bytes"] == 35'984);
  CHECK(model["config"]["model_type"] == "llama");
  CHECK(model["config"]["num_key_value_heads"] == 2);
  CHECK(model["config"]["tie_word_embeddings"] == false);  // output.weight is present
  CHECK(r["resolved_model"]["params"] == 20'992);
  CHECK(r["resolved_model"]["file_weight_bytes"] == 35'984);
}

TEST_CASE("An estimate from a GGUF header uses the file's bytes and its KV shape", "[model_file][gguf]") {
  std::int64_t read = 0;
  const json model = inspect_progressively(tiny_gguf(), 1 << 20, read)["request_model"];
  const json r = test_support::estimate({{"model", model}, {"input_tokens", 100}, {"output_tokens", 28}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["memory"]["parts"]["weights"] == 35'984);
  CHECK(r["disk_bytes"] == 35'984);
  CHECK(r["settings"]["weights"] == "file");
  // KV: 2 × 2 layers × 2 KV heads × 16 head_dim × 128 tokens × 2 B = 32,768.
  CHECK(r["memory"]["parts"]["kv_cache"] == 32'768);
  // Naming a format recomputes the weights from the parameter count: 20,992 × 2 B.
  const json bf16 = test_support::estimate({{"model", model}, {"weights", "bf16"}});
  CHECK(bf16["memory"]["parts"]["weights"] == 41'984);
}

namespace {

/** A llama GGUF: its metadata (`kv` key/values, 32-bit whole numbers but the architecture), then
 *  `tensors` at 32-aligned offsets, then zero data. `file_size`: the whole file's bytes; the data
 *  is written only when `with_data`. */
std::string llama_gguf(const std::vector<std::pair<std::string, std::uint32_t>>& kv, const std::vector<llmsizer::GgufTensor>& tensors,
                       bool with_data, std::int64_t& file_size) {
  model_file_bytes::GgufBuilder b;
  b.header(tensors.size(), kv.size() + 1).kv_str("general.architecture", "llama");
  for (const auto& [key, value] : kv) b.kv_u32(key, value);
  const std::uint64_t data = b.tensors(tensors);
  file_size = static_cast<std::int64_t>(b.out.size() + data);
  if (with_data) b.out += std::string(data, '\0');
  return b.out;
}

/** A 2-layer llama GGUF quantized like a Q4_0 file: hidden 64, 4 heads, 2 KV heads, MLP 128,
 *  vocab 100, tensors (ne0 = row; Q4_0: 18 bytes per 32 values, Q8_0: 34 bytes per 32 values):
 *    token_embd [64, 100] Q4_0: 100 rows × 2 blocks × 18 = 3,600 B
 *    output     [64, 100] Q4_0: 3,600 B
 *    per layer  attn_q [64, 64] Q4_0 2,304 B; attn_k [64, 32] Q4_0 1,152 B;
 *               attn_v [64, 32] Q8_0 32 × 2 × 34 = 2,176 B; ffn_down [128, 64] Q4_0 64 × 4 × 18 = 4,608 B
 *  Weights: 7,200 + 2 × 10,240 = 27,680 B. */
std::string q4_0_gguf() {
  std::vector<llmsizer::GgufTensor> tensors = {{"token_embd.weight", {64, 100}, "Q4_0", 3'600}, {"output.weight", {64, 100}, "Q4_0", 3'600}};
  for (const char* blk : {"blk.0.", "blk.1."}) {
    const std::string layer = blk;
    tensors.push_back({layer + "attn_q.weight", {64, 64}, "Q4_0", 2'304});
    tensors.push_back({layer + "attn_k.weight", {64, 32}, "Q4_0", 1'152});
    tensors.push_back({layer + "attn_v.weight", {64, 32}, "Q8_0", 2'176});
    tensors.push_back({layer + "ffn_down.weight", {128, 64}, "Q4_0", 4'608});
  }
  std::int64_t size = 0;
  return llama_gguf({{"llama.embedding_length", 64}, {"llama.block_count", 2}, {"llama.attention.head_count", 4},
                     {"llama.attention.head_count_kv", 2}, {"llama.feed_forward_length", 128}}, tensors, true, size);
}

}  // namespace

TEST_CASE("A GGUF file keeps its tensor types into the estimate, so llama.cpp's CPU repack is counted", "[model_file][gguf][llama_cpp]") {
  std::int64_t read = 0;
  const json inspected = inspect_progressively(q4_0_gguf(), 1 << 20, read);
  REQUIRE_FALSE(inspected.contains("error"));
  const json& model = inspected["request_model"];
  CHECK(model["weight_bytes"] == 27'680);
  // 10 tensors, the layers' four as runs over layers 0 to 1 (gguf_tensor_list.hpp).
  REQUIRE(model["tensors"].size() == 6);
  CHECK(model["tensors"][0] == json::array({"token_embd.weight", "Q4_0", {64, 100}}));
  CHECK(model["tensors"][2] == json::array({"blk.0.attn_q.weight", "Q4_0", {64, 64}, 1}));
  // On a CPU, llama.cpp copies a matrix into CPU_REPACK when its type and row count suit the CPU's
  // kernels (ggml/src/ggml-cpu/repack.cpp ggml_repack_get_optimal_repack_type; the rule as
  // core/src/llama_cpp.cpp `repacked` implements it). For AVX2: Q4_0 with ne[1] a multiple of 8,
  // and only matrices llama.cpp multiplies (not token_embd, read with GET_ROWS):
  //   attn_q 2,304 + attn_k 1,152 + ffn_down 4,608 = 8,064 B per layer, × 2 layers = 16,128 B,
  // each a multiple of the 32-byte TENSOR_ALIGNMENT. Not repacked: output (100 rows, not a
  // multiple of 8), attn_v (Q8_0 has no AVX2 repack), token_embd.
  const json r = test_support::estimate({{"model", model}, {"engine", "llama.cpp"}, {"gpus", 0}, {"cpu_family", "x86_avx2"},
                                         {"input_tokens", 100}, {"output_tokens", 28}});
  REQUIRE_FALSE(r.contains("error"));
  const json& buffers = r["llama_cpp"]["buffers"];
  CHECK(buffers["weights_repack"] == 16'128);
  // The mapped range runs from token_embd to the last tensor that stays mapped, blk.1.attn_v; the
  // repacked matrices inside it (all but blk.1.ffn_down, which comes after) are read once.
  CHECK(buffers["weights_mapped_repacked"] == 2'304 + 1'152 + 4'608 + 2'304 + 1'152);
  // Naming a format drops the file's tensors: the weights are then the format's mix.
  const json q8 = test_support::estimate({{"model", model}, {"weights", "q8_0"}, {"engine", "llama.cpp"}, {"gpus", 0}, {"cpu_family", "x86_avx2"}});
  REQUIRE_FALSE(q8.contains("error"));
  CHECK(q8["llama_cpp"]["buffers"]["weights_repack"] == 0);
}

TEST_CASE("A dropped Llama-3.1-8B Q4_0 GGUF repacks on the CPU as llama.cpp does", "[model_file][gguf][llama_cpp]") {
  // The file's header as llama.cpp's Q4_0 quantization writes it: the tensors of the preset in that
  // file type (llama_cpp_tensors, llama-quant.cpp's mix), real names and shapes, no tensor data.
  const llmsizer::ModelSpec preset = test_support::preset("llama-3.1-8b");
  const std::vector<llmsizer::GgufTensor> plan = llmsizer::llama_cpp_tensors(preset, *llmsizer::find_weight_format("q4_0"));
  // llama.h LLAMA_FTYPE_MOSTLY_Q4_0 = 2; the shape of meta-llama/Llama-3.1-8B's config.json.
  std::int64_t file_size = 0;
  const std::string header = llama_gguf({{"general.file_type", 2}, {"llama.embedding_length", 4096}, {"llama.block_count", 32},
                                         {"llama.attention.head_count", 32}, {"llama.attention.head_count_kv", 8},
                                         {"llama.feed_forward_length", 14336}, {"llama.context_length", 131072}},
                                        plan, false, file_size);
  const json inspected = inspect(header, file_size);
  REQUIRE_FALSE(inspected.contains("error"));
  CHECK(inspected["request_model"]["weights_format"] == "Q4_0");
  // 291 tensors: token_embd, 32 layers of 9 (two norms, q, k, v, o, gate, up, down), output_norm
  // and output; each layer tensor is the same type and shape in every layer, so 12 entries.
  CHECK(plan.size() == 291);
  CHECK(inspected["request_model"]["tensors"].size() == 12);
  const json r = test_support::estimate({{"model", inspected["request_model"]}, {"engine", "llama.cpp"}, {"gpus", 0},
                                         {"cpu_family", "x86_avx2"}, {"input_tokens", 512}, {"output_tokens", 512}});
  REQUIRE_FALSE(r.contains("error"));
  // Repacked for AVX2: every Q4_0 matrix of the 32 layers (attn_q 4096 × 4096, attn_k and attn_v
  // 4096 × 1024, attn_output 4096 × 4096, ffn_gate, ffn_up and ffn_down 4096 × 14336: 218,103,808
  // elements a layer), 18 bytes per 32 values: 32 × 218,103,808 × 18 / 32 = 3,925,868,544 B, what a
  // real llama.cpp logs as CPU_REPACK for this file. Not repacked: token_embd (GET_ROWS) and
  // output (Q6_K in a Q4_0 file).
  CHECK(r["llama_cpp"]["buffers"]["weights_repack"] == 3'925'868'544LL);
}

TEST_CASE("A request model's GGUF tensors are checked, naming the tensor", "[model_file][gguf][errors]") {
  std::int64_t read = 0;
  json model = inspect_progressively(q4_0_gguf(), 1 << 20, read)["request_model"];
  json bad_type = model;
  bad_type["tensors"][3][1] = "Q4_9";
  const json r1 = test_support::estimate({{"model", bad_type}});
  REQUIRE(r1.contains("error"));
  CHECK(r1["error"]["field"] == "model.tensors[3]");
  json short_bytes = model;
  short_bytes["tensors"].erase(short_bytes["tensors"].size() - 1);  // drops ffn_down of both layers: 2 × 4,608 B
  const json r2 = test_support::estimate({{"model", short_bytes}});
  REQUIRE(r2.contains("error"));
  CHECK(r2["error"]["field"] == "model.tensors");
  CHECK(r2["error"]["message_data"]["args"]["tensors_bytes"] == 27'680 - 2 * 4'608);
  json backwards = model;
  backwards["tensors"][2][3] = 0;  // a run that ends before the layer it starts at
  const json r3 = test_support::estimate({{"model", backwards}});
  REQUIRE(r3.contains("error"));
  CHECK(r3["error"]["field"] == "model.tensors[2]");
}

TEST_CASE("A safetensors header is read with exactly 8 + N bytes", "[model_file][safetensors]") {
  // A Qwen3-style 2-layer BF16 model (model_file_fixtures.hpp): embed [100, 64]; per layer q_proj
  // [64, 64], k_proj [32, 64], q_norm [16], gate_proj and up_proj [128, 64], down_proj [64, 128]; no
  // lm_head (tied).
  const model_file_fixtures::Fixture file = model_file_fixtures::qwen3_safetensors(true);
  const json first = inspect(file.bytes.substr(0, 8), file.file_size);
  std::uint64_t n = 0;
  std::memcpy(&n, file.bytes.data(), 8);  // little-endian host (x86, WASM)
  CHECK(needed(first) == static_cast<std::int64_t>(8 + n));
  CHECK(file.bytes.size() == 8 + n);
  const json r = inspect(file.bytes, file.file_size);
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["format"] == "safetensors");
  // Elements: 6400 + 2 × (4096 + 2048 + 16 + 3 × 8192) = 67,872; BF16 → 135,744 bytes.
  CHECK(r["request_model"]["params"] == 67'872);
  CHECK(r["request_model"]["weight_bytes"] == 135'744);
  CHECK(r["request_model"]["weights_format"] == "BF16");
  // q_norm [16] gives head_dim 16: 4 heads, 2 KV heads.
  CHECK(r["request_model"]["config"]["num_attention_heads"] == 4);
  CHECK(r["request_model"]["config"]["num_key_value_heads"] == 2);
}

TEST_CASE("A header without the attention shape falls back to a parameter count and says what to add", "[model_file][safetensors]") {
  // The same model without q_norm: the heads are no longer visible in the header.
  const json r = inspect(model_file_fixtures::qwen3_safetensors(false).bytes, -1);
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["request_model"]["params"] == 67'872 - 2 * 16);
  CHECK(r["request_model"]["layers"] == 2);
  CHECK_FALSE(r["request_model"].contains("config"));
  bool named = false;
  for (const auto& w : r["warnings"]) named = named || w.get<std::string>().find("num_attention_heads") != std::string::npos;
  CHECK(named);
}

TEST_CASE("A config.json and an index are recognised as JSON model files", "[model_file]") {
  const json config = {{"model_type", "qwen2"}, {"hidden_size", 896}, {"num_hidden_layers", 24}, {"num_attention_heads", 14},
                       {"num_key_value_heads", 2}, {"intermediate_size", 4864}, {"vocab_size", 151936}, {"tie_word_embeddings", true}};
  const json r = inspect(config.dump(), -1);
  CHECK(r["format"] == "config.json");
  CHECK(r["resolved_model"]["params"] == 494'032'768);  // Qwen2.5-0.5B
  CHECK(r["request_model"]["config"] == config);
  const json index = {{"metadata", {{"total_size", 988'065'536}}}, {"weight_map", {{"lm_head.weight", "model-00001-of-00002.safetensors"}}}};
  const json i = inspect(index.dump(), -1);
  CHECK(i["format"] == "safetensors-index");
  CHECK(i["total_size"] == 988'065'536);
  CHECK(i["request_model"].is_null());
  // A JSON file given in part asks for the whole file.
  const std::string text = config.dump();
  CHECK(needed(inspect(text.substr(0, 10), static_cast<std::int64_t>(text.size()))) == static_cast<std::int64_t>(text.size()));
}

TEST_CASE("Files that are not model files get an error naming the file", "[model_file][errors]") {
  const std::string junk[] = {std::string("hello world, not a model"), std::string("GGUF\x01", 5) + std::string(40, '\xff'),
                              std::string("{\"hidden_size\": ")};
  for (const auto& bytes : junk) {
    CAPTURE(bytes.size());
    const json r = inspect(bytes, static_cast<std::int64_t>(bytes.size()));
    REQUIRE(r.contains("error"));
    CHECK(needed(r) == 0);
    CHECK_FALSE(r["error"]["field"].get<std::string>().empty());
  }
  // A header larger than the cap is refused instead of read: safetensors length 2^40.
  std::string huge(8, '\0');
  huge[5] = 1;
  CHECK(inspect(huge, -1).contains("error"));
}

TEST_CASE("The reader's warm-up header is a GGUF file the reader answers", "[model_file][gguf]") {
  // warm_up_model_file_reader reads its built-in 28-layer Q4_K qwen2 header (api.hpp) once per round,
  // each time a quarter of it first: an error answer for the whole header, or a short prefix answered
  // without asking for more bytes, would mean the page warms a path a real file does not take.
  CHECK(llmsizer::warm_up_model_file_reader(llmsizer::kModelFileReaderWarmUpRounds));
}

}  // namespace model_file_test
