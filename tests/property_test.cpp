// SPDX-License-Identifier: MIT
// Properties of the inference estimate over every preset, engine and a grid of contexts:
// the parts add up, nothing is negative, memory never falls with more context, batch or bits per
// weight, never rises per GPU with more tensor-parallel GPUs, sizes up to 10 trillion parameters
// and 10 million tokens neither overflow nor pass silently, and the same request gives the same bytes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/memory.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace property_test {

using namespace llmsizer;

namespace {

struct EngineCase {
  Engine engine;
  int version;  // transformers major × 100 + minor; 0: current
  const char* name;
};
const EngineCase kEngineCases[] = {{Engine::generic, 0, "generic"},
                               {Engine::transformers, 0, "transformers"},
                               {Engine::transformers, 438, "transformers 4.38"},
                               {Engine::vllm, 0, "vllm"},
                               {Engine::llama_cpp, 0, "llama.cpp"}};

std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
    if (doc->kind == "models") ids.emplace_back(doc->id);
  }
  return ids;
}

InferenceSettings make(const EngineCase& c, const char* weights, std::int64_t input, std::int64_t output, std::int64_t batch, int gpus) {
  InferenceSettings s;
  s.weights = find_weight_format(weights);
  s.kv_cache = find_kv_cache_format("bf16");
  s.engine = c.engine;
  s.engine_version = c.version;
  s.input_tokens = input;
  s.output_tokens = output;
  s.batch = batch;
  s.gpus = gpus;
  return s;
}

/// Every part is non-negative and the parts add up to device + host memory.
void check_shape(const MemoryEstimate& e) {
  const MemoryParts& p = e.parts;
  for (std::int64_t part : {p.weights, p.kv_cache, p.activations, p.overhead, p.gradients, p.optimizer, p.master_weights, p.adapters}) {
    CHECK(part >= 0);
  }
  CHECK(p.sum() == e.device_bytes + e.host_bytes);
  CHECK(e.tensor_peak_bytes >= 0);
  CHECK(e.tensor_peak_bytes <= e.device_bytes);
}

}  // namespace

TEST_CASE("Parts add up and none is negative for every preset and engine", "[property][memory]") {
  const auto ids = preset_ids();
  REQUIRE(ids.size() >= 60);
  for (const auto& id : ids) {
    const ModelSpec m = test_support::preset(id);
    for (const auto& c : kEngineCases) {
      for (int gpus : {0, 1, 4}) {
        for (std::int64_t input : {1, 4096, 131072}) {
          CAPTURE(id, c.name, gpus, input);
          check_shape(estimate_inference_memory(m, make(c, "bf16", input, 256, 2, gpus)));
        }
      }
    }
  }
}

TEST_CASE("Memory never falls with longer context or larger batch", "[property][memory]") {
  for (const auto& id : preset_ids()) {
    const ModelSpec m = test_support::preset(id);
    for (const auto& c : kEngineCases) {
      CAPTURE(id, c.name);
      std::int64_t previous = 0;
      for (std::int64_t input : {1, 7, 512, 2048, 8191, 32768, 131072, 1048576}) {
        CAPTURE(input);
        const auto e = estimate_inference_memory(m, make(c, "bf16", input, 128, 1, 1));
        CHECK(e.device_bytes >= previous);
        previous = e.device_bytes;
      }
      previous = 0;
      for (std::int64_t output : {0, 1, 1000, 100000}) {
        CAPTURE(output);
        const auto e = estimate_inference_memory(m, make(c, "bf16", 1024, output, 1, 1));
        CHECK(e.device_bytes >= previous);
        previous = e.device_bytes;
      }
      previous = 0;
      for (std::int64_t batch : {1, 2, 3, 16, 256}) {
        CAPTURE(batch);
        const auto e = estimate_inference_memory(m, make(c, "bf16", 2048, 256, batch, 1));
        CHECK(e.device_bytes >= previous);
        previous = e.device_bytes;
      }
    }
  }
}

TEST_CASE("Memory never falls with more bits per weight", "[property][memory]") {
  // Formats in order of bits per weight (int8 and fp8 are both one byte).
  const char* formats[] = {"int4", "int8", "fp8", "fp16", "bf16", "fp32"};
  for (const auto& id : preset_ids()) {
    const ModelSpec m = test_support::preset(id);
    for (const auto& c : kEngineCases) {
      CAPTURE(id, c.name);
      std::int64_t previous = 0;
      for (const char* w : formats) {
        CAPTURE(w);
        const auto e = estimate_inference_memory(m, make(c, w, 4096, 512, 1, 1));
        CHECK(e.device_bytes >= previous);
        previous = e.device_bytes;
      }
    }
  }
}

TEST_CASE("Memory per GPU never rises with more tensor-parallel GPUs", "[property][memory][tp]") {
  // transformers spreads a model with accelerate's device_map (device_map.hpp), whose fullest GPU
  // can hold more on more GPUs: a module larger than a GPU's share skips to the next GPU and the
  // last takes all that follows (transformers PR #47426, an embedding "dispatched on CUDA:1"), so
  // there the fullest GPU holds at most what one GPU alone would.
  for (const auto& id : preset_ids()) {
    const ModelSpec m = test_support::preset(id);
    for (const auto& c : kEngineCases) {
      CAPTURE(id, c.name);
      const bool device_map = c.engine == Engine::transformers;
      const std::int64_t alone = estimate_inference_memory(m, make(c, "bf16", 8192, 1024, 4, 1)).device_bytes;
      std::int64_t previous = INT64_MAX;
      for (int gpus : {1, 2, 3, 4, 8, 16, 64}) {
        CAPTURE(gpus);
        const auto e = estimate_inference_memory(m, make(c, "bf16", 8192, 1024, 4, gpus));
        CHECK(e.device_bytes <= (device_map ? alone : previous));
        previous = e.device_bytes;
      }
    }
  }
}

TEST_CASE("The same request gives the same bytes", "[property][api]") {
  for (const auto& id : preset_ids()) {
    const std::string request = nlohmann::json{{"model", id}, {"engine", "transformers"}, {"input_tokens", 3000}, {"output_tokens", 700},
                                               {"batch", 3}, {"gpus", 2}, {"weights", "int8"}}.dump();
    CAPTURE(id);
    const std::string first = estimate(request);
    CHECK_FALSE(is_error_response(first));
    CHECK(estimate(request) == first);
  }
}

TEST_CASE("Ten trillion parameters and ten million tokens give integers or a range error", "[property][api][range]") {
  // Every preset at the top of the token range, every engine: either a result whose parts are
  // non-negative and add up, or an error naming the field and the range.
  for (const auto& id : preset_ids()) {
    for (const char* engine : {"generic", "transformers", "vllm", "llama.cpp"}) {
      for (const char* version : {"", "4.38"}) {
        nlohmann::json request = {{"model", id}, {"engine", engine}, {"input_tokens", 10'000'000}, {"output_tokens", 0}, {"batch", 1}};
        if (*version != '\0') request["engine_version"] = version;
        CAPTURE(id, engine, version);
        const auto r = test_support::estimate(request);
        if (r.contains("error")) {
          CHECK_FALSE(r["error"]["field"].get<std::string>().empty());
          CHECK_FALSE(r["error"]["message"].get<std::string>().empty());
          continue;
        }
        const auto& mem = r["memory"];
        std::int64_t sum = 0;
        for (const auto& part : mem["parts"]) {
          CHECK(part.get<std::int64_t>() >= 0);
          sum += part.get<std::int64_t>();
        }
        CHECK(sum == mem["device_bytes"].get<std::int64_t>() + mem["host_bytes"].get<std::int64_t>());
        CHECK(mem["device_bytes"].get<std::int64_t>() > 0);
      }
    }
  }
  SECTION("a bare 10-trillion-parameter model") {
    const auto r = test_support::estimate({{"model", {{"params", 1e13}, {"layers", 200}, {"hidden_size", 65536}}},
                                           {"input_tokens", 10'000'000}, {"output_tokens", 0}, {"weights", "fp32"}});
    if (r.contains("error")) {
      CHECK(r["error"]["field"].get<std::string>() == "input_tokens");
    } else {
      // 1e13 params × 4 B = 4e13 B of weights.
      CHECK(r["memory"]["parts"]["weights"].get<std::int64_t>() == 40'000'000'000'000LL);
    }
    const auto small = test_support::estimate({{"model", {{"params", 1e13}}}, {"input_tokens", 10'000'000}, {"output_tokens", 0}, {"weights", "fp32"}});
    REQUIRE_FALSE(small.contains("error"));
    CHECK(small["memory"]["parts"]["weights"].get<std::int64_t>() == 40'000'000'000'000LL);
  }
  SECTION("beyond the range is an error naming the field") {
    const auto over = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"input_tokens", 10'000'001}});
    REQUIRE(over.contains("error"));
    CHECK(over["error"]["field"] == "input_tokens");
    const auto params = test_support::estimate({{"model", {{"params", 2e13}}}});
    REQUIRE(params.contains("error"));
    CHECK(params["error"]["field"] == "model.params");
    const auto version = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", "transformers"}, {"engine_version", "four"}});
    REQUIRE(version.contains("error"));
    CHECK(version["error"]["field"] == "engine_version");
  }
}

}  // namespace property_test
