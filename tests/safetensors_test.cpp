// SPDX-License-Identifier: MIT
// safetensors header and index readers: exact parameter counts and bytes of small files the tests
// write themselves (8-byte little-endian length + JSON, per huggingface/safetensors README), and a
// clean error, never a crash, for every truncation and every kind of hostile header.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "llmsizer/message_text.hpp"
#include "llmsizer/edge/safetensors.hpp"
#include "model_file_bytes.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace safetensors_test {

using namespace llmsizer;
using Catch::Matchers::Contains;

namespace {

using model_file_bytes::le64;
using model_file_bytes::safetensors_header;  // the first bytes of a safetensors file: length + JSON header, no tensor data

/// A whole file: header + `data_bytes` zero bytes of tensor data.
std::string whole_file(const std::string& json, std::size_t data_bytes) {
  return safetensors_header(json) + std::string(data_bytes, '\0');
}

/** Qwen2.5-0.5B-like first tensors (shapes from its config.json: vocab 151936, hidden 896, 14 query
 *  heads and 2 KV heads of 64; Qwen3-style q_norm added to expose head_dim):
 *  embed_tokens BF16 [151936, 896]: 136,134,656 elements × 2 = 272,269,312 bytes
 *  q_proj       BF16 [896, 896]:        802,816 elements × 2 =   1,605,632 bytes
 *  k_proj       BF16 [128, 896]:        114,688 elements × 2 =     229,376 bytes
 *  q_norm       BF16 [64]:                   64 elements × 2 =         128 bytes
 *  Offsets follow each other: 0, 272,269,312, 273,874,944, 274,104,320, 274,104,448. */
const std::string kQwenLike =
    R"({"__metadata__":{"format":"pt"},)"
    R"("model.layers.0.self_attn.k_proj.weight":{"dtype":"BF16","shape":[128,896],"data_offsets":[273874944,274104320]},)"
    R"("model.embed_tokens.weight":{"dtype":"BF16","shape":[151936,896],"data_offsets":[0,272269312]},)"
    R"("model.layers.0.self_attn.q_proj.weight":{"dtype":"BF16","shape":[896,896],"data_offsets":[272269312,273874944]},)"
    R"("model.layers.0.self_attn.q_norm.weight":{"dtype":"BF16","shape":[64],"data_offsets":[274104320,274104448]}})";

/// One tensor entry named "w".
std::string one(const std::string& dtype, const std::string& shape, const std::string& offsets) {
  return R"({"w":{"dtype":)" + dtype + R"(,"shape":)" + shape + R"(,"data_offsets":)" + offsets + "}}";
}

std::string error_of(const std::string& bytes, std::int64_t file_size = -1) {
  try {
    (void)parse_safetensors_header(bytes, file_size);
  } catch (const TruncatedInputError& e) {
    return std::string("TRUNCATED: ") + llmsizer::edge::render_en(e.message());
  } catch (const InputError& e) {
    return llmsizer::edge::render_en(e.message());
  }
  return "parsed";
}

}  // namespace

TEST_CASE("A safetensors header gives every tensor, exact parameters and bytes", "[safetensors]") {
  const std::string bytes = safetensors_header(kQwenLike);
  const SafetensorsHeader h = parse_safetensors_header(bytes);
  REQUIRE(h.tensors.size() == 4);
  // Sorted by data offset.
  CHECK(h.tensors[0].name == "model.embed_tokens.weight");
  CHECK(h.tensors[0].dtype == "BF16");
  CHECK(h.tensors[0].shape == std::vector<std::int64_t>{151936, 896});
  CHECK(h.tensors[0].elements == 136134656);
  CHECK(h.tensors[0].bytes() == 272269312);
  CHECK(h.tensors[3].name == "model.layers.0.self_attn.q_norm.weight");
  CHECK(h.parameter_count == 136134656 + 802816 + 114688 + 64);
  CHECK(h.weight_bytes == 274104448);
  CHECK(h.header_length == static_cast<std::int64_t>(kQwenLike.size()));
  CHECK(h.needed_bytes() == 8 + static_cast<std::int64_t>(kQwenLike.size()));
  CHECK(h.metadata.at("format") == "pt");
  CHECK_FALSE(h.packed_quantization);

  SECTION("the architecture visible in the names") {
    const PartialArchitecture& a = h.architecture;
    CHECK(a.vocab_size == 151936);
    CHECK(a.hidden_size == 896);
    CHECK(a.num_layers == 1);
    CHECK(a.head_dim == 64);
    CHECK(a.num_attention_heads == 14);  // 896 / 64
    CHECK(a.num_kv_heads == 2);          // 128 / 64
    REQUIRE(a.tie_word_embeddings.has_value());
    CHECK(*a.tie_word_embeddings);  // no lm_head.weight
  }
  SECTION("the JSON summary") {
    const nlohmann::json j = safetensors_header_to_json(h);
    CHECK(j["format"] == "safetensors");
    CHECK(j["header_bytes"] == h.needed_bytes());
    CHECK(j["tensor_count"] == 4);
    CHECK(j["weight_bytes"] == 274104448);
    CHECK(j["dtypes"]["BF16"]["tensors"] == 4);
    CHECK(j["dtypes"]["BF16"]["bytes"] == 274104448);
    CHECK(j["model"]["num_key_value_heads"] == 2);
    CHECK(j["model"]["vocab_size"] == 151936);
    CHECK(j["metadata"]["format"] == "pt");
    CHECK_NOTHROW(j.dump());
  }
  SECTION("needed_bytes from the first 8 bytes alone") {
    CHECK(safetensors_needed_bytes(bytes.substr(0, 8)) == h.needed_bytes());
  }
  SECTION("with the file size: a complete file parses, a short or long one does not") {
    const auto size = h.needed_bytes() + h.weight_bytes;
    CHECK(parse_safetensors_header(bytes, size).weight_bytes == 274104448);
    CHECK_THROWS_WITH(parse_safetensors_header(bytes, size - 1), Contains("truncated"));
    CHECK_THROWS_WITH(parse_safetensors_header(bytes, size + 1), Contains("does not describe"));
  }
}

TEST_CASE("A safetensors file cut at every byte gives a clean 'need more bytes' error", "[safetensors]") {
  const std::string json = one(R"("F32")", "[2,3]", "[0,24]");
  const std::string bytes = safetensors_header(json);
  const auto needed = static_cast<std::int64_t>(bytes.size());
  int wrong = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);
    try {
      (void)parse_safetensors_header(prefix);
      ++wrong;
    } catch (const TruncatedInputError& e) {
      // Below 8 bytes the reader needs the length; from 8 on it knows the exact header size.
      if (e.needed_bytes() != (n < 8 ? 8 : needed)) ++wrong;
    } catch (...) {
      ++wrong;
    }
    // As a whole file, each prefix is broken: a plain InputError.
    try {
      (void)parse_safetensors_header(prefix, static_cast<std::int64_t>(n));
      ++wrong;
    } catch (const TruncatedInputError&) {
      ++wrong;
    } catch (const InputError&) {
    } catch (...) {
      ++wrong;
    }
  }
  CHECK(wrong == 0);
  // The complete file (header + 24 data bytes) parses with its size given.
  const std::string file = whole_file(json, 24);
  CHECK(parse_safetensors_header(file, static_cast<std::int64_t>(file.size())).parameter_count == 6);
}

TEST_CASE("A safetensors header length beyond the file or the 100 MB cap is rejected", "[safetensors]") {
  const std::string json = one(R"("F32")", "[2]", "[0,8]");
  // The first 10 bytes of a 20-byte file whose header claims 54 bytes.
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header(json).substr(0, 10), 20), Contains("larger than the file"));
  CHECK_THROWS_WITH(safetensors_needed_bytes(safetensors_header(json).substr(0, 8), 20), Contains("larger than the file"));
  CHECK_THROWS_WITH(parse_safetensors_header(le64(100000001) + "{}"), Contains("100,000,000"));
  CHECK_THROWS_WITH(parse_safetensors_header(le64(std::uint64_t{1} << 63)), Contains("limit"));
  CHECK_THROWS_WITH(parse_safetensors_header("abc", 3), Contains("8-byte"));
  CHECK_THROWS_WITH(parse_safetensors_header(std::string("GGUF\x03\0\0\0", 8)), Contains("GGUF"));
  CHECK_THROWS_WITH(parse_safetensors_header("{\"weight_map\": {}}"), Contains("JSON file"));
}

TEST_CASE("Malformed safetensors JSON is rejected with a clear error", "[safetensors]") {
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header("{\"w\": ")), Contains("not valid JSON"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header("{\"w\xFF\": {}}")), Contains("not valid UTF-8"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header("[1,2]")), Contains("must be a JSON object"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header("42")), Contains("must be a JSON object"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header(R"({"w": 5})")), Contains("must be an object"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header(R"({"__metadata__": {"a": 1}})")), Contains("must be a string"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header(R"({"__metadata__": [1]})")), Contains("must be an object"));
  CHECK_THROWS_WITH(parse_safetensors_header(safetensors_header(R"({"w": {"dtype": "F32", "shape": [1]}})")),
                    Contains("lacks data_offsets"));
}

TEST_CASE("Safetensors tensors with wrong types, lying shapes or bad offsets are rejected", "[safetensors]") {
  auto err = [](const std::string& json) { return error_of(safetensors_header(json)); };
  CHECK_THAT(err(one("5", "[2]", "[0,8]")), Contains("must be a string"));
  CHECK_THAT(err(one(R"("F32")", R"("abc")", "[0,8]")), Contains("array of whole numbers"));
  CHECK_THAT(err(one(R"("F32")", "[-2]", "[0,8]")), Contains("negative"));
  CHECK_THAT(err(one(R"("F32")", "[1.5]", "[0,8]")), Contains("whole numbers"));
  CHECK_THAT(err(one(R"("F32")", "[[2]]", "[0,8]")), Contains("nested array"));
  CHECK_THAT(err(one(R"("F32")", "[2]", "[0]")), Contains("[begin, end]"));
  CHECK_THAT(err(one(R"("F32")", "[2]", "[0,4,8]")), Contains("more than two"));
  CHECK_THAT(err(one(R"("F32")", "[2]", "[8,0]")), Contains("end before they begin"));
  CHECK_THAT(err(one(R"("Q4")", "[2]", "[0,8]")), Contains("unknown dtype \"Q4\""));
  // Lying shape: F32 [2, 3] needs 24 bytes, the offsets say 16.
  CHECK_THAT(err(one(R"("F32")", "[2,3]", "[0,16]")), Contains("needs 24 bytes"));
  // 2^62 × 4 elements overflows int64.
  CHECK_THAT(err(one(R"("F32")", "[4611686018427387904,4]", "[0,8]")), Contains("overflows"));
  CHECK_THAT(err(one(R"("F32")", "[18446744073709551615]", "[0,8]")), Contains("beyond int64"));
  // Sub-byte dtypes: 3 × 4 bits is not a whole number of bytes; 4 × 4 bits is 2 bytes.
  CHECK_THAT(err(one(R"("F4")", "[3]", "[0,2]")), Contains("not a whole number of bytes"));
  CHECK(parse_safetensors_header(safetensors_header(one(R"("F4")", "[4]", "[0,2]"))).weight_bytes == 2);
  // A scalar has one element.
  CHECK(parse_safetensors_header(safetensors_header(one(R"("I64")", "[]", "[0,8]"))).parameter_count == 1);
  // Unknown fields are ignored, whatever their shape.
  CHECK(parse_safetensors_header(safetensors_header(
            R"({"w":{"extra":{"a":[1,{"b":null}]},"dtype":"U8","shape":[3],"data_offsets":[0,3],"x":true}})"))
            .weight_bytes == 3);

  SECTION("overlapping, gapped, out-of-order and duplicate entries") {
    CHECK_THAT(err(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})"),
               Contains("overlap"));
    CHECK_THAT(err(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[16,24]}})"),
               Contains("gap"));
    CHECK_THAT(err(one(R"("F32")", "[2]", "[8,16]")), Contains("gap"));
    // Listed out of order but tiling the data section: fine (JSON objects have no order).
    CHECK(parse_safetensors_header(safetensors_header(R"({"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},)"
                                                R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})"))
              .tensors.front()
              .name == "a");
    CHECK_THAT(err(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})"),
               Contains("twice"));
  }
}

TEST_CASE("GPTQ/AWQ packed tensors are flagged so a caller can unpack the count", "[safetensors]") {
  // GPTQ 4-bit q_proj of a 4096-wide model: qweight I32 [4096/8, 4096], qzeros I32 [4096/128, 4096/8],
  // scales F16 [4096/128, 4096], g_idx I32 [4096].
  const std::string json =
      R"({"model.layers.0.self_attn.q_proj.qweight":{"dtype":"I32","shape":[512,4096],"data_offsets":[0,8388608]},)"
      R"("model.layers.0.self_attn.q_proj.qzeros":{"dtype":"I32","shape":[32,512],"data_offsets":[8388608,8454144]},)"
      R"("model.layers.0.self_attn.q_proj.scales":{"dtype":"F16","shape":[32,4096],"data_offsets":[8454144,8716288]},)"
      R"("model.layers.0.self_attn.q_proj.g_idx":{"dtype":"I32","shape":[4096],"data_offsets":[8716288,8732672]}})";
  const SafetensorsHeader h = parse_safetensors_header(safetensors_header(json));
  CHECK(h.packed_quantization);
  CHECK(h.packed_weight_elements == 512 * 4096);
  CHECK(h.quant_aux_elements == 32 * 512 + 32 * 4096 + 4096);
  CHECK(h.parameter_count == 512 * 4096 + 32 * 512 + 32 * 4096 + 4096);
  // The caller's unpacking at 4 bits recovers the 4096 × 4096 weight.
  CHECK(h.parameter_count - h.packed_weight_elements - h.quant_aux_elements + h.packed_weight_elements * 32 / 4 ==
        4096 * 4096);
  CHECK(safetensors_header_to_json(h)["packed_quantization"] == true);
}

TEST_CASE("A safetensors index gives total size and the shard of every tensor", "[safetensors]") {
  const std::string json = R"({"metadata": {"total_size": 15231233024, "total_parameters": 7615616512},
    "weight_map": {"lm_head.weight": "model-00004-of-00004.safetensors",
                   "model.embed_tokens.weight": "model-00001-of-00004.safetensors",
                   "model.norm.weight": "model-00004-of-00004.safetensors"}})";
  const SafetensorsIndex index = parse_safetensors_index(json);
  CHECK(index.total_size == 15231233024);  // Qwen2.5-7B-Instruct index: 7.6e9 params × 2 bytes
  CHECK(index.weight_map.size() == 3);
  CHECK(index.weight_map.at("model.embed_tokens.weight") == "model-00001-of-00004.safetensors");
  CHECK(index.shards == std::vector<std::string>{"model-00001-of-00004.safetensors", "model-00004-of-00004.safetensors"});
  const nlohmann::json j = safetensors_index_to_json(index);
  CHECK(j["tensors_per_shard"]["model-00004-of-00004.safetensors"] == 2);

  CHECK(parse_safetensors_index(R"({"metadata": {"total_size": 1.0e3}, "weight_map": {}})").total_size == 1000);
  CHECK_THROWS_WITH(parse_safetensors_index(R"({"metadata": {}})"), Contains("no weight_map"));
  CHECK_THROWS_WITH(parse_safetensors_index(R"({"weight_map": {"a": 1}})"), Contains("shard file name"));
  CHECK_THROWS_WITH(parse_safetensors_index(R"({"weight_map": []})"), Contains("must be an object"));
  CHECK_THROWS_WITH(parse_safetensors_index(R"({"metadata": {"total_size": -1}, "weight_map": {}})"),
                    Contains("non-negative"));
  CHECK_THROWS_WITH(parse_safetensors_index(R"({"metadata": {"total_size": "big"}, "weight_map": {}})"),
                    Contains("non-negative"));
  CHECK_THROWS_WITH(parse_safetensors_index("[]"), Contains("must be a JSON object"));
  CHECK_THROWS_WITH(parse_safetensors_index("{\"weight_map\": {\"\xFF\": \"x\"}}"), Contains("UTF-8"));
  CHECK_THROWS_WITH(parse_safetensors_index("{"), Contains("not valid JSON"));
}

TEST_CASE("inspect_model_header tells the formats apart and never throws", "[safetensors][gguf]") {
  using nlohmann::json;
  // A safetensors header of exactly 123 bytes starts with the byte '{' (123): still safetensors.
  std::string json123 = one(R"("U8")", "[4]", "[0,4]");
  json123.resize(123, ' ');
  const json st = json::parse(inspect_model_header(safetensors_header(json123)));
  CHECK(st["format"] == "safetensors");
  CHECK(st["weight_bytes"] == 4);

  const json index = json::parse(inspect_model_header(R"({"weight_map": {"a": "s1.safetensors"}})"));
  CHECK(index["format"] == "safetensors-index");
  CHECK(index["shards"] == json::array({"s1.safetensors"}));

  const std::string gguf_bytes = std::string("GGUF\x03\0\0\0", 8) + std::string(16, '\0');
  CHECK(json::parse(inspect_model_header(gguf_bytes))["format"] == "gguf");

  // Errors come back as JSON; a short prefix says how much to read.
  const json short_read = json::parse(inspect_model_header(safetensors_header(json123).substr(0, 20)));
  CHECK(short_read["error"]["needed_bytes"] == 131);  // 8 + 123
  CHECK(json::parse(inspect_model_header("{", 5))["error"]["needed_bytes"] == 5);
  CHECK(json::parse(inspect_model_header("GGUF\xFF\xFF\xFF\xFF"))["error"]["field"] == "file");
  CHECK(json::parse(inspect_model_header(""))["error"]["needed_bytes"] == 8);
}

}  // namespace safetensors_test
