// SPDX-License-Identifier: MIT
// GGUF header reader: the ggml type table, exact tensor bytes and parameter counts of small files
// the tests write themselves (layout per ggml-org/ggml docs/gguf.md, v3 little-endian), and a clean
// error, never a crash, for every truncation and every kind of hostile header.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/gguf.hpp"
#include "model_file_bytes.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace gguf_test {

using namespace llmsizer;
using Catch::Matchers::Contains;

namespace {

using model_file_bytes::GgufBuilder;

constexpr std::uint32_t kQ4_K = 12, kF32 = 0, kF16 = 1;

/** A llama-style header with two tensors:
 *  blk.0.attn_q.weight  4096 × 4096 Q4_K at offset 0:  16,777,216 / 256 × 144 = 9,437,184 bytes
 *  token_embd.weight    4096 × 3 F32 at 9,437,184:     12,288 × 4           =    49,152 bytes */
std::string small_gguf() {
  GgufBuilder b;
  b.header(2, 9)
      .kv_str("general.architecture", "llama")
      .kv_str("general.name", "tiny")
      .kv_u32("llama.context_length", 8192)
      .kv_u32("llama.embedding_length", 4096)
      .kv_u32("llama.block_count", 1)
      .kv_u32("llama.attention.head_count", 32)
      .kv_u32("llama.attention.head_count_kv", 8)
      .kv_u32("general.file_type", 15)
      .kv_str_array("tokenizer.ggml.tokens", {"<s>", "a", "b"});
  b.tensor("blk.0.attn_q.weight", {4096, 4096}, kQ4_K, 0);
  b.tensor("token_embd.weight", {4096, 3}, kF32, 9437184);
  return b.out;
}

enum class Outcome { parsed, truncated, input_error, other };

Outcome classify(const std::string& bytes, std::int64_t file_size) {
  try {
    (void)parse_gguf_header(bytes, file_size);
    return Outcome::parsed;
  } catch (const TruncatedInputError&) {
    return Outcome::truncated;
  } catch (const InputError&) {
    return Outcome::input_error;
  } catch (...) {
    return Outcome::other;
  }
}

/// Header + one kv_count, then `body` (for tests of a single metadata value).
std::string one_kv(const std::string& body) { return GgufBuilder{}.header(0, 1).raw(body).out; }

}  // namespace

TEST_CASE("ggml type table matches ggml's block layouts", "[gguf]") {
  // Block sizes from ggml-common.h static_asserts (see gguf.hpp for the sums).
  const auto* q4k = ggml_type_info(12);
  REQUIRE(q4k != nullptr);
  CHECK(q4k->name == "Q4_K");
  CHECK(q4k->block_elements == 256);
  CHECK(q4k->block_bytes == 144);  // 2·2 + 12 + 256/2
  CHECK(ggml_type_info(8)->block_bytes == 34);     // Q8_0: 2 + 32
  CHECK(ggml_type_info(2)->block_bytes == 18);     // Q4_0: 2 + 16
  CHECK(ggml_type_info(14)->block_bytes == 210);   // Q6_K
  CHECK(ggml_type_info(39)->block_bytes == 17);    // MXFP4: 1 + 16 per 32
  CHECK(ggml_type_info(30)->name == "BF16");
  CHECK(ggml_type_info(4) == nullptr);   // Q4_2, removed
  CHECK(ggml_type_info(31) == nullptr);  // Q4_0_4_4, removed from GGUF files
  CHECK(ggml_type_info(-1) == nullptr);
  CHECK(ggml_type_by_name("q4_k") == q4k);
  CHECK(ggml_type_by_name("IQ4_XS")->id == 23);
  CHECK(ggml_type_by_name("Q4_K_M") == nullptr);  // a file type, not a tensor type

  SECTION("ids and names are unique, every block is non-empty") {
    for (const auto& a : kGgmlTypes) {
      CAPTURE(a.name);
      CHECK(a.block_elements > 0);
      CHECK(a.block_bytes > 0);
      CHECK(ggml_type_info(a.id) == &a);
      CHECK(ggml_type_by_name(a.name) == &a);
    }
  }
  SECTION("bits per weight of the K-quants are the published ones") {
    // ggml-common.h comments: Q2_K 2.625, Q3_K 3.4375, Q4_K 4.5, Q5_K 5.5, Q6_K 6.5625 bpw.
    auto bpw = [](int id) { return 8.0 * ggml_type_info(id)->block_bytes / ggml_type_info(id)->block_elements; };
    CHECK(bpw(10) == 2.625);
    CHECK(bpw(11) == 3.4375);
    CHECK(bpw(12) == 4.5);
    CHECK(bpw(13) == 5.5);
    CHECK(bpw(14) == 6.5625);
  }
  SECTION("tensor bytes need whole blocks per row") {
    const std::int64_t dims[] = {4096, 4096};
    CHECK(ggml_tensor_bytes(*q4k, dims, 2) == 9437184);  // 16,777,216 / 256 × 144
    const std::int64_t ragged[] = {100, 2};
    CHECK_FALSE(ggml_tensor_bytes(*q4k, ragged, 2).has_value());
    const std::int64_t huge[] = {std::int64_t{1} << 40, std::int64_t{1} << 40};
    CHECK_FALSE(ggml_tensor_bytes(*ggml_type_info(0), huge, 2).has_value());
  }
}

TEST_CASE("A small GGUF header gives exact bytes, parameters and architecture", "[gguf]") {
  const std::string bytes = small_gguf();
  const GgufHeader h = parse_gguf_header(bytes);
  CHECK(h.version == 3);
  CHECK(h.tensor_count == 2);
  CHECK(h.metadata_count == 9);
  REQUIRE(h.tensors.size() == 2);
  CHECK(h.tensors[0].name == "blk.0.attn_q.weight");
  CHECK(h.tensors[0].bytes == 9437184);  // 4096·4096 / 256 × 144
  CHECK(h.tensors[1].bytes == 49152);    // 4096·3 × 4
  CHECK(h.weight_bytes == 9437184 + 49152);
  CHECK(h.parameter_count == 16777216 + 12288);
  CHECK(h.alignment == 32);  // gguf.md default
  CHECK(h.header_bytes == static_cast<std::int64_t>(bytes.size()));
  CHECK(h.needed_bytes() == h.header_bytes);
  CHECK(h.data_offset % 32 == 0);
  CHECK(h.data_offset >= h.header_bytes);
  CHECK(h.data_offset - h.header_bytes < 32);
  CHECK(h.data_end == h.data_offset + 9437184 + 49152);
  CHECK(h.name == "tiny");
  CHECK(h.file_type == 15);
  CHECK(llama_file_type_name(h.file_type) == "Q4_K_M");
  const PartialArchitecture& a = h.architecture;
  CHECK(a.architecture == "llama");
  CHECK(a.max_position_embeddings == 8192);
  CHECK(a.hidden_size == 4096);
  CHECK(a.num_layers == 1);
  CHECK(a.num_attention_heads == 32);
  CHECK(a.num_kv_heads == 8);
  CHECK(a.vocab_size == 3);  // tokenizer.ggml.tokens count
  REQUIRE(a.tie_word_embeddings.has_value());
  CHECK(*a.tie_word_embeddings);  // no output.weight

  const GgufValue* tokens = h.find("tokenizer.ggml.tokens");
  REQUIRE(tokens != nullptr);
  CHECK(tokens->array_count == 3);
  CHECK(tokens->array_strings == std::vector<std::string>{"<s>", "a", "b"});

  SECTION("the whole file also parses, and its size is checked against the tensor data") {
    std::string file = bytes;
    file.resize(static_cast<std::size_t>(h.data_end), '\0');
    CHECK(parse_gguf_header(file, static_cast<std::int64_t>(file.size())).weight_bytes == h.weight_bytes);
    CHECK_THROWS_WITH(parse_gguf_header(bytes, h.data_end - 1), Contains("truncated"));
  }
  SECTION("the JSON summary has counts, a dtype histogram and config.json names") {
    const nlohmann::json j = gguf_header_to_json(h);
    CHECK(j["format"] == "gguf");
    CHECK(j["weight_bytes"] == 9486336);
    CHECK(j["parameter_count"] == 16789504);
    CHECK(j["dtypes"]["Q4_K"]["bytes"] == 9437184);
    CHECK(j["dtypes"]["F32"]["elements"] == 12288);
    CHECK(j["file_type"]["name"] == "Q4_K_M");
    CHECK(j["model"]["num_key_value_heads"] == 8);
    CHECK(j["model"]["num_hidden_layers"] == 1);
    CHECK(j["model"]["max_position_embeddings"] == 8192);
    CHECK(j["metadata"]["tokenizer.ggml.tokens"]["count"] == 3);
    CHECK(j["tensors"][0]["shape"] == nlohmann::json::array({4096, 4096}));
    CHECK_NOTHROW(j.dump());
  }
}

TEST_CASE("A GGUF header cut at every byte gives a clean 'need more bytes' error", "[gguf]") {
  const std::string bytes = small_gguf();
  int wrong = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);
    try {
      (void)parse_gguf_header(prefix);
      ++wrong;  // must not parse
    } catch (const TruncatedInputError& e) {
      // The reader says how far it got and needs strictly more than it was given.
      if (e.needed_bytes() <= static_cast<std::int64_t>(n) || e.parsed_bytes() > static_cast<std::int64_t>(n) ||
          e.needed_bytes() > static_cast<std::int64_t>(bytes.size())) {
        ++wrong;
      }
    } catch (...) {
      ++wrong;
    }
    // When that prefix is the whole file, it is a broken file, not a short read.
    if (classify(prefix, static_cast<std::int64_t>(n)) != Outcome::input_error) ++wrong;
  }
  CHECK(wrong == 0);

  SECTION("a caller that follows needed_bytes reaches the end") {
    std::size_t have = 0;
    int rounds = 0;
    for (;; ++rounds) {
      try {
        (void)parse_gguf_header(bytes.substr(0, have));
        break;
      } catch (const TruncatedInputError& e) {
        REQUIRE(static_cast<std::size_t>(e.needed_bytes()) > have);
        have = static_cast<std::size_t>(e.needed_bytes());
      }
    }
    CHECK(have == bytes.size());
    CHECK(rounds > 0);
  }
  SECTION("the error JSON carries needed_bytes") {
    try {
      (void)parse_gguf_header(bytes.substr(0, 30));
      FAIL("expected a truncation");
    } catch (const TruncatedInputError& e) {
      const nlohmann::json j = header_error_to_json(e);
      CHECK(j["error"]["field"] == "file");
      CHECK(j["error"]["needed_bytes"] == e.needed_bytes());
      CHECK(j["error"]["parsed_bytes"] == e.parsed_bytes());
    }
  }
}

TEST_CASE("GGUF files with a wrong magic, byte order or version are rejected clearly", "[gguf]") {
  CHECK_THROWS_WITH(parse_gguf_header("GGML\x03\0\0\0"), Contains("not a GGUF file"));
  CHECK_THROWS_WITH(parse_gguf_header("tjgg\x03\0\0\0"), Contains("older GGML"));
  CHECK_THROWS_WITH(parse_gguf_header(std::string("\x10\0\0\0\0\0\0\0{\"a\":1}", 15)), Contains("safetensors"));
  // Version 3 written big-endian reads as 0x03000000 little-endian.
  CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.raw("GGUF").raw(std::string("\0\0\0\x03", 4)).out),
                    Contains("big-endian"));
  CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.header(0, 0, 1).out), Contains("version 1"));
  CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.header(0, 0, 4).out), Contains("unsupported GGUF version 4"));
  SECTION("version 2 has the same layout and parses") {
    CHECK(parse_gguf_header(GgufBuilder{}.header(0, 0, 2).out).version == 2);
  }
}

TEST_CASE("GGUF counts and lengths beyond what a file can hold are rejected", "[gguf]") {
  constexpr std::uint64_t k2pow63 = std::uint64_t{1} << 63;
  CHECK_THROWS_AS(parse_gguf_header(GgufBuilder{}.header(k2pow63, 0).out), InputError);
  CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.header(k2pow63, 0).out), Contains("tensors; the limit"));
  CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.header(0, k2pow63).out), Contains("metadata entries; the limit"));
  CHECK(classify(GgufBuilder{}.header(k2pow63, k2pow63).out, -1) == Outcome::input_error);

  SECTION("counts under the cap but more than the file size allows") {
    const std::string b = GgufBuilder{}.header(1000, 0).out;
    CHECK_THROWS_WITH(parse_gguf_header(b, static_cast<std::int64_t>(b.size()) + 100), Contains("can hold"));
    // Size unknown: it may be a prefix, so the reader asks for more.
    CHECK(classify(b, -1) == Outcome::truncated);
  }
  SECTION("a key length of 2^63") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.u64(k2pow63).out)), Contains("limit is 65535"));
  }
  SECTION("a string value running past the end of the file") {
    const std::string b = one_kv(GgufBuilder{}.str("general.name").u32(8).u64(1000).raw("abc").out);
    CHECK_THROWS_WITH(parse_gguf_header(b, static_cast<std::int64_t>(b.size())), Contains("past the end of the file"));
    CHECK(classify(b, -1) == Outcome::truncated);
  }
  SECTION("a string value longer than the cap") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.str("k").u32(8).u64(k2pow63).out)), Contains("limit"));
  }
  SECTION("an array of 2^63 elements") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.str("k").u32(9).u32(8).u64(k2pow63).out)),
                      Contains("elements; the limit"));
  }
  SECTION("an array whose count the rest of the file cannot hold") {
    const std::string b = one_kv(GgufBuilder{}.str("k").u32(9).u32(4).u64(1000000).out);
    CHECK_THROWS_WITH(parse_gguf_header(b, static_cast<std::int64_t>(b.size()) + 8), Contains("more than the rest"));
  }
}

TEST_CASE("GGUF metadata values of every type are read, big arrays keep only their count", "[gguf]") {
  GgufBuilder b;
  b.header(0, 9);
  b.str("u8").u32(0).u8(200);
  b.str("i8").u32(1).u8(0xFF);                      // -1
  b.str("i32").u32(5).u32(0xFFFFFFFE);              // -2
  b.str("f32").u32(6).u32(0x3FC00000);              // 1.5f
  b.str("b").u32(7).u8(1);
  b.str("u64").u32(10).u64(~std::uint64_t{0});      // above INT64_MAX
  b.str("f64").u32(12).u64(0x4004000000000000ull);  // 2.5
  b.str("big").u32(9).u32(4).u64(5000);             // 5000 uint32: count only
  for (int i = 0; i < 5000; ++i) b.u32(static_cast<std::uint32_t>(i));
  b.str("nested").u32(9).u32(9).u64(2);             // array of 2 arrays of int32
  b.u32(5).u64(2).u32(1).u32(2);
  b.u32(5).u64(1).u32(3);
  const GgufHeader h = parse_gguf_header(b.out);
  CHECK(h.find("u8")->as_int() == 200);
  CHECK(h.find("i8")->as_int() == -1);
  CHECK(h.find("i32")->as_int() == -2);
  CHECK(h.find("f32")->float_value == 1.5);
  CHECK(h.find("b")->as_int() == 1);
  CHECK(h.find("u64")->uint_value == ~std::uint64_t{0});
  CHECK_FALSE(h.find("u64")->as_int().has_value());
  CHECK(h.find("f64")->float_value == 2.5);
  CHECK(h.find("big")->array_count == 5000);
  CHECK_FALSE(h.find("big")->array_values_kept);
  CHECK(h.find("nested")->array_count == 2);
  CHECK(h.find("missing") == nullptr);
  const nlohmann::json j = gguf_header_to_json(h);
  CHECK(j["metadata"]["u64"] == ~std::uint64_t{0});
  CHECK(j["metadata"]["big"]["count"] == 5000);
  CHECK_FALSE(j["metadata"]["big"].contains("values"));
}

TEST_CASE("Per-layer head counts stored as arrays give the largest value", "[gguf]") {
  // OpenELM-style files store attention.head_count_kv per layer.
  GgufBuilder b;
  b.header(0, 3).kv_str("general.architecture", "openelm").kv_u32("openelm.attention.head_count", 12);
  b.str("openelm.attention.head_count_kv").u32(9).u32(4).u64(3).u32(3).u32(4).u32(5);
  CHECK(parse_gguf_header(b.out).architecture.num_kv_heads == 5);
}

TEST_CASE("Hostile GGUF metadata is rejected with a clear error", "[gguf]") {
  SECTION("a non-UTF-8 key is an error") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.str("gen\xFF\xFE").u32(4).u32(1).out)),
                      Contains("not valid UTF-8"));
  }
  SECTION("a non-UTF-8 string value is kept with U+FFFD so the JSON stays valid") {
    const GgufHeader h = parse_gguf_header(one_kv(GgufBuilder{}.kv_str("general.name", "a\xC3\x28z").out));
    CHECK(h.name == "a\xEF\xBF\xBD(z");
    CHECK_NOTHROW(gguf_header_to_json(h).dump());
  }
  SECTION("an unknown value type") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.str("k").u32(13).u32(0).out)), Contains("13"));
  }
  SECTION("a bool that is neither 0 nor 1") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.str("k").u32(7).u8(2).out)), Contains("0 or 1"));
  }
  SECTION("arrays nested deeper than three levels") {
    // array → array → array → array of int32
    const std::string deep = GgufBuilder{}.str("k").u32(9).u32(9).u64(1).u32(9).u64(1).u32(9).u64(1).u32(5).u64(0).out;
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(deep)), Contains("nested"));
    const std::string three = GgufBuilder{}.str("k").u32(9).u32(9).u64(1).u32(9).u64(1).u32(5).u64(0).out;
    CHECK(parse_gguf_header(one_kv(three)).find("k")->array_count == 1);
  }
  SECTION("a duplicate key") {
    const std::string b = GgufBuilder{}.header(0, 2).kv_u32("a", 1).kv_u32("a", 2).out;
    CHECK_THROWS_WITH(parse_gguf_header(b), Contains("twice"));
  }
  SECTION("an alignment that is not a power of two") {
    CHECK_THROWS_WITH(parse_gguf_header(one_kv(GgufBuilder{}.kv_u32("general.alignment", 48).out)),
                      Contains("power of two"));
  }
}

TEST_CASE("Hostile GGUF tensor infos are rejected with a clear error", "[gguf]") {
  auto one_tensor = [](const std::vector<std::uint64_t>& dims, std::uint32_t type, std::uint64_t offset = 0) {
    return GgufBuilder{}.header(1, 0).tensor("w", dims, type, offset).out;
  };
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({1, 1, 1, 1, 1}, kF32)), Contains("at most 4"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({std::uint64_t{1} << 32, std::uint64_t{1} << 32}, kF32)),
                    Contains("overflows"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({std::uint64_t{1} << 31, std::uint64_t{1} << 30}, kF32)),
                    Contains("overflows"));  // 2^61 elements × 4 bytes
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({~std::uint64_t{0}}, kF32)), Contains("beyond int64"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({32}, 99)), Contains("type id 99"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({32}, 31)), Contains("removed"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({100, 2}, kQ4_K)), Contains("not a whole number of Q4_K blocks"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({32}, kF32, 16)), Contains("not a multiple of the alignment"));
  CHECK_THROWS_WITH(parse_gguf_header(one_tensor({32}, kF32, std::uint64_t{1} << 63)), Contains("beyond any possible"));

  SECTION("overlapping tensor data") {
    const std::string b = GgufBuilder{}.header(2, 0).tensor("a", {64}, kF32, 0).tensor("b", {64}, kF32, 128).out;
    CHECK_THROWS_WITH(parse_gguf_header(b), Contains("overlap"));  // a spans [0, 256)
    const std::string ok = GgufBuilder{}.header(2, 0).tensor("a", {64}, kF32, 0).tensor("b", {64}, kF16, 256).out;
    CHECK(parse_gguf_header(ok).weight_bytes == 256 + 128);
  }
  SECTION("a duplicate tensor name") {
    const std::string b = GgufBuilder{}.header(2, 0).tensor("a", {8}, kF32, 0).tensor("a", {8}, kF32, 32).out;
    CHECK_THROWS_WITH(parse_gguf_header(b), Contains("twice"));
  }
  SECTION("a non-UTF-8 tensor name") {
    CHECK_THROWS_WITH(parse_gguf_header(GgufBuilder{}.header(1, 0).tensor("\xC0\xAF", {8}, kF32, 0).out),
                      Contains("not valid UTF-8"));
  }
  SECTION("a custom alignment moves the data section") {
    const std::string b = GgufBuilder{}.header(1, 1).kv_u32("general.alignment", 64).tensor("a", {8}, kF32, 64).out;
    const GgufHeader h = parse_gguf_header(b);
    CHECK(h.alignment == 64);
    CHECK(h.data_offset % 64 == 0);
    CHECK(h.data_end == h.data_offset + 64 + 32);
  }
}

TEST_CASE("A 150,000-token vocabulary and 100,000 merges are stepped over to the tensors after them", "[gguf]") {
  // Sizing needs the count of tokenizer.ggml.tokens (the vocabulary size when the architecture
  // does not store one), never the strings: the reader walks their lengths only. Tokens "t0" ..
  // "t149999", merges "a b"; one tensor after the arrays shows the walk ends on the right byte.
  constexpr std::size_t kTokens = 150'000, kMerges = 100'000;
  std::vector<std::string> tokens, merges(kMerges, "a b");
  for (std::size_t i = 0; i < kTokens; ++i) tokens.push_back("t" + std::to_string(i));
  GgufBuilder b;
  b.header(1, 3).kv_str("general.architecture", "llama").kv_str_array("tokenizer.ggml.tokens", tokens);
  const std::size_t merges_at = b.out.size();
  b.kv_str_array("tokenizer.ggml.merges", merges);
  const std::size_t tensors_at = b.out.size();
  b.tensor("token_embd.weight", {64, kTokens}, kF32, 0);
  // Bytes by hand: "t" + i has 2 bytes for i < 10, 3 below 100, ... 7 below 150,000 (8 + that each).
  const std::size_t token_bytes = 10 * (8 + 2) + 90 * (8 + 3) + 900 * (8 + 4) + 9'000 * (8 + 5) +
                                  90'000 * (8 + 6) + 50'000 * (8 + 7);
  const std::size_t tokens_kv = 8 + 21 + 4 + 4 + 8 + token_bytes;  // key, type, element type, count, strings
  const std::size_t merges_kv = 8 + 21 + 4 + 4 + 8 + kMerges * (8 + 3);
  REQUIRE(merges_at == 24 + (8 + 20 + 4 + 8 + 5) + tokens_kv);
  REQUIRE(tensors_at == merges_at + merges_kv);

  const GgufHeader h = parse_gguf_header(b.out, -1);
  CHECK(h.architecture.vocab_size == 150'000);
  const GgufValue* t = h.find("tokenizer.ggml.tokens");
  REQUIRE(t != nullptr);
  CHECK(t->array_count == kTokens);
  CHECK_FALSE(t->array_values_kept);
  CHECK(t->array_strings.empty());
  CHECK(h.find("tokenizer.ggml.merges")->array_count == kMerges);
  REQUIRE(h.tensors.size() == 1);
  CHECK(h.tensors[0].name == "token_embd.weight");
  CHECK(h.tensors[0].dims[1] == 150'000);
  CHECK(h.header_bytes == static_cast<std::int64_t>(b.out.size()));
  const nlohmann::json j = gguf_header_to_json(h);
  CHECK(j["metadata"]["tokenizer.ggml.tokens"] == nlohmann::json({{"array", "string"}, {"count", 150'000}}));

  // Merge 50,000 starts at merges_at + 8 + 21 + 4 + 4 + 8 + 50,000 × 11.
  const std::size_t merge_50000 = merges_at + 45 + 50'000 * 11;
  auto with_length = [&](std::uint64_t length) {
    std::string bad = b.out;
    bad.replace(merge_50000, 8, model_file_bytes::le64(length));
    return bad;
  };
  SECTION("a string in the array longer than the 64 MiB cap names the array and the cap") {
    CHECK_THROWS_WITH(parse_gguf_header(with_length(std::uint64_t{1} << 40), -1),
                      Contains("array string of metadata key \"tokenizer.ggml.merges\" is 1099511627776 bytes long; "
                               "the limit is 67108864 bytes"));
  }
  SECTION("a string in the array running past the end of the file") {
    const std::string bad = with_length(50'000'000);  // under the cap, past the end
    const auto size = static_cast<std::int64_t>(bad.size());
    CHECK_THROWS_WITH(parse_gguf_header(bad, size + 1'000),
                      Contains("array string of metadata key \"tokenizer.ggml.merges\" runs past the end of the file "
                               "(it needs the first " + std::to_string(merge_50000 + 8 + 50'000'000) + " bytes"));
  }
  SECTION("a prefix that ends inside the array asks for the bytes of the string it ends in") {
    // Cut 5 bytes into merge 50,000's text: it needs that string's 8 + 3 bytes.
    try {
      (void)parse_gguf_header(std::string_view(b.out).substr(0, merge_50000 + 8 + 2), -1);
      FAIL("expected a truncation");
    } catch (const TruncatedInputError& e) {
      CHECK(e.needed_bytes() == static_cast<std::int64_t>(merge_50000 + 11));
      CHECK(e.parsed_bytes() == static_cast<std::int64_t>(merge_50000 + 8));
    }
  }
}

}  // namespace gguf_test
