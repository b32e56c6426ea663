// SPDX-License-Identifier: MIT
// Several models kept loaded side by side (co_resident.hpp, request `also_loaded`): each model's
// memory as its own runner or process, Ollama's limit of loaded models and its eviction, vLLM
// instances splitting the GPU, the set's verdict, and bad input.
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "llmsizer/co_resident.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace co_resident_test {

using nlohmann::json;
using namespace llmsizer;

namespace {

/// A chat model with an embedding model and a reranker under Ollama on a 24 GB RTX 4090 at an 8k
/// context: Llama-3.1-8B-Instruct Q4_K_M, and two Qwen3-0.6B-shaped models in Q8_0 (Qwen3-Embedding-0.6B
/// and Qwen3-Reranker-0.6B have Qwen3-0.6B's architecture: their model cards, "Number of Layers: 28",
/// "Embedding Dimension: up to 1024").
json chat_embed_rerank(const char* engine) {
  return {{"model", "llama-3.1-8b-instruct"}, {"weights", "q4_k_m"}, {"engine", engine}, {"input_tokens", 7168}, {"output_tokens", 1024},
          {"hardware", "nvidia-rtx-4090"},
          {"also_loaded", json::array({{{"model", "qwen3-0.6b"}, {"weights", "q8_0"}}, {{"model", "qwen3-0.6b"}, {"weights", "q8_0"}}})}};
}

/// The same request for one model alone: what that model's own runner holds.
json alone(const json& request, const char* model, const char* weights) {
  json r = request;
  r.erase("also_loaded");
  r["model"] = model;
  r["weights"] = weights;
  return test_support::estimate(r);
}

std::int64_t bytes(const json& v) { return v.get<std::int64_t>(); }

}  // namespace

TEST_CASE("An 8B chat model, an embedding model and a reranker stay loaded together under Ollama on a 24 GB card", "[co_resident][ollama]") {
  const json request = chat_embed_rerank("ollama");
  const json r = test_support::estimate(request);
  REQUIRE(r.contains("models"));
  const json& models = r["models"];
  REQUIRE(models.size() == 3);
  CHECK(models[0]["model"] == "llama-3.1-8b-instruct");
  CHECK(models[1]["model"] == "qwen3-0.6b");

  // Each model is its own runner (llama-server) with its own context, so each holds what it holds
  // alone: the request for that model by itself, on the same card at the same 8,192 tokens.
  const json chat = alone(request, "llama-3.1-8b-instruct", "q4_k_m");
  const json small = alone(request, "qwen3-0.6b", "q8_0");
  const std::int64_t chat_bytes = bytes(chat["memory"]["device_bytes"]);
  const std::int64_t small_bytes = bytes(small["memory"]["device_bytes"]);
  CHECK(bytes(models[0]["device_bytes"]) == chat_bytes);
  CHECK(bytes(models[1]["device_bytes"]) == small_bytes);
  CHECK(bytes(models[2]["device_bytes"]) == small_bytes);
  // The chat model's KV cache alone, F16 (Ollama's default): 32 layers × 2 (K, V) × 8 KV heads ×
  // 128 × 8,192 tokens × 2 B = 1,073,741,824 B; its Q4_K_M weights are 4.58 GiB (bartowski's GGUF,
  // 4,920,734,016 B): the runner holds more than both.
  CHECK(chat_bytes > 1073741824LL + 4000000000LL);
  // Qwen3-0.6B's cache: 28 layers × 2 × 8 KV heads × 128 × 8,192 × 2 B = 939,524,096 B.
  CHECK(small_bytes > 939524096LL);

  // The set: the three together on 24 GiB less the 1.5 GiB desktop reserve = 24,159,191,040 B,
  // against a margin of max(1 GiB, 10%) = 2,415,919,104 B.
  const json& set = r["fit"]["set"];
  const std::int64_t sum = chat_bytes + 2 * small_bytes;
  CHECK(bytes(set["usable_bytes"]) == 24159191040LL);
  CHECK(bytes(set["margin_bytes"]) == 2415919104LL);
  CHECK(bytes(set["required_bytes"]) == sum);
  CHECK(bytes(set["headroom_bytes"]) == 24159191040LL - sum);
  CHECK(set["max_loaded_models"] == 3);  // 3 per GPU (server/sched.go defaultModelsPerGPU)
  CHECK(set["first_out"].is_null());
  CHECK(set["verdict"] == (24159191040LL - sum >= 2415919104LL ? "comfortable" : "tight"));
  CHECK(set["verdict"] != "no_fit");
  // The explanation: Ollama's rule, then one line per model.
  CHECK(set["explain_data"].size() == 4);
  CHECK(set["explain_data"][0]["id"] == "co_resident.rule.ollama");
}

TEST_CASE("A fourth model under Ollama unloads the earliest idle one: three per GPU", "[co_resident][ollama]") {
  json request = chat_embed_rerank("ollama");
  request["also_loaded"].push_back({{"model", "qwen3-0.6b"}, {"weights", "q4_k_m"}});
  const json r = test_support::estimate(request);
  const json& set = r["fit"]["set"];
  // Three are loaded (the chat model and both 0.6B models); loading the fourth reaches
  // OLLAMA_MAX_LOADED_MODELS = 3 × 1 GPU, so an idle runner goes: the chat model is in use, the
  // embedding model (also_loaded[0], models[1]) is the earliest idle one.
  CHECK(set["verdict"] == "no_fit");
  CHECK(set["first_out"] == 1);
  CHECK(r["models"][1]["resident"] == false);
  CHECK(r["models"][0]["resident"] == true);
  CHECK(r["models"][3]["resident"] == true);
  CHECK(set["summary_data"]["id"] == "co_resident.ollama.evicted_max_loaded");
}

TEST_CASE("Under Ollama a third model that does not fit beside the others unloads an idle one", "[co_resident][ollama]") {
  // Llama-3.1-8B Q4_K_M (about 6 GB with its 8k cache), Qwen3-14B Q4_K_M (about 9 GB of weights
  // plus a 1.3 GB cache: 40 layers × 2 × 8 × 128 × 8,192 × 2 B = 1,342,177,280 B), then Qwen3-8B
  // Q8_0 (8.2e9 parameters × 34/32 B = 8.7 GB of weights): the first two fit the 24.16 GB, the
  // third does not fit beside them.
  json request = chat_embed_rerank("ollama");
  request["also_loaded"] = json::array({{{"model", "qwen3-14b"}, {"weights", "q4_k_m"}}, {{"model", "qwen3-8b"}, {"weights", "q8_0"}}});
  const json r = test_support::estimate(request);
  const json& models = r["models"];
  const std::int64_t first_two = bytes(models[0]["device_bytes"]) + bytes(models[1]["device_bytes"]);
  REQUIRE(first_two <= 24159191040LL);
  REQUIRE(first_two + bytes(models[2]["device_bytes"]) > 24159191040LL);
  const json& set = r["fit"]["set"];
  CHECK(set["verdict"] == "no_fit");
  CHECK(set["first_out"] == 1);  // Qwen3-14B: idle, listed first; the chat model is in use
  CHECK(set["summary_data"]["id"] == "co_resident.ollama.evicted_memory");
  // What stays: the chat model and Qwen3-8B.
  CHECK(bytes(set["required_bytes"]) == bytes(models[0]["device_bytes"]) + bytes(models[2]["device_bytes"]));
}

TEST_CASE("vLLM instances split the GPU by their gpu_memory_utilization", "[co_resident][vllm]") {
  // Llama-3.1-8B-Instruct BF16 and Qwen3-0.6B with a 0.2 share on an 80 GB H100: the request's
  // own model gives no share, so it takes what is left of vLLM's default 0.9: 0.9 − 0.2 = 0.7.
  const json request = {{"model", "llama-3.1-8b-instruct"}, {"weights", "bf16"}, {"engine", "vllm"}, {"input_tokens", 4096}, {"output_tokens", 1024},
                        {"hardware", "nvidia-h100-sxm"}, {"also_loaded", json::array({{{"model", "qwen3-0.6b"}, {"gpu_memory_utilization", 0.2}}})}};
  const json r = test_support::estimate(request);
  const json& set = r["fit"]["set"];
  const std::int64_t usable = bytes(set["usable_bytes"]);
  const json& models = r["models"];
  CHECK(models[0]["gpu_memory_utilization"].get<double>() == Approx(0.7).margin(1e-9));
  CHECK(models[1]["gpu_memory_utilization"].get<double>() == Approx(0.2).margin(1e-9));
  // Each instance holds its whole share: floor(share × usable).
  const std::int64_t main_share = bytes(models[0]["device_bytes"]);
  const std::int64_t small_share = bytes(models[1]["device_bytes"]);
  CHECK(static_cast<double>(main_share) == Approx(0.7 * static_cast<double>(usable)).margin(1.0));
  CHECK(static_cast<double>(small_share) == Approx(0.2 * static_cast<double>(usable)).margin(1.0));
  CHECK(bytes(set["required_bytes"]) == main_share + small_share);
  // The 8B model needs its 16.06 GB of BF16 weights (8,030,261,248 × 2 B) and more within its
  // 0.7 share (over 50 GB): it starts; the 0.6B model within 0.2 (over 15 GB): it starts.
  CHECK(bytes(models[0]["needed_bytes"]) > 16060522496LL);
  CHECK(set["first_out"].is_null());
  CHECK(set["verdict"] != "no_fit");
  CHECK(set["explain_data"][0]["id"] == "co_resident.rule.shares");

  // A share too small for the weights: Qwen3-8B BF16 (16.4 GB of weights) in 0.1 of the card
  // (about 8 GB) does not start, and is named.
  json small = request;
  small["also_loaded"] = json::array({{{"model", "qwen3-8b"}, {"gpu_memory_utilization", 0.1}}});
  const json s = test_support::estimate(small);
  CHECK(s["fit"]["set"]["verdict"] == "no_fit");
  CHECK(s["fit"]["set"]["first_out"] == 1);
  CHECK(s["models"][1]["resident"] == false);
  CHECK(s["fit"]["set"]["summary_data"]["id"] == "co_resident.share_short");
}

TEST_CASE("llama.cpp processes add up, and the last started is the one offloaded", "[co_resident][llama_cpp]") {
  json request = chat_embed_rerank("llama.cpp");
  request["also_loaded"] = json::array({{{"model", "qwen3-14b"}, {"weights", "q4_k_m"}}, {{"model", "qwen3-8b"}, {"weights", "q8_0"}}});
  const json r = test_support::estimate(request);
  const json& set = r["fit"]["set"];
  const json& models = r["models"];
  std::int64_t sum = 0;
  for (const json& m : models) sum += bytes(m["device_bytes"]);
  CHECK(bytes(set["required_bytes"]) == sum);
  REQUIRE(sum > 24159191040LL);
  CHECK(set["verdict"] == "offload");
  CHECK(set["first_out"] == 2);  // Qwen3-8B, started last
  CHECK(set["summary_data"]["id"] == "co_resident.offloaded");
}

TEST_CASE("Adding a model never reduces the set's memory", "[co_resident]") {
  for (const char* engine : {"ollama", "llama.cpp", "vllm", "transformers"}) {
    json request = chat_embed_rerank(engine);
    request["weights"] = std::string(engine) == "vllm" || std::string(engine) == "transformers" ? "bf16" : "q4_k_m";
    request["hardware"] = "nvidia-h100-sxm";
    std::int64_t before = 0;
    json list = json::array();
    for (const char* model : {"qwen3-0.6b", "qwen3-1.7b", "qwen3-4b"}) {
      list.push_back({{"model", model}});
      request["also_loaded"] = list;
      const json r = test_support::estimate(request);
      std::int64_t total = 0;
      for (const json& m : r["models"]) total += bytes(m["device_bytes"]) + bytes(m["host_bytes"]);
      INFO(engine << " + " << model);
      CHECK(total >= before);
      before = total;
    }
  }
}

TEST_CASE("Without hardware each model's memory is listed, with no verdict", "[co_resident]") {
  json request = chat_embed_rerank("ollama");
  request.erase("hardware");
  const json r = test_support::estimate(request);
  REQUIRE(r["models"].size() == 3);
  CHECK(!r.contains("fit"));
  CHECK(!r["models"][0].contains("resident"));
  CHECK(bytes(r["models"][0]["device_bytes"]) == bytes(r["memory"]["device_bytes"]));
}

TEST_CASE("Bad also_loaded input names the field and its range", "[co_resident][errors]") {
  json bad = chat_embed_rerank("ollama");
  bad["also_loaded"] = "qwen3-0.6b";
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded");
  bad["also_loaded"] = json::array();
  for (int i = 0; i < kMaxAlsoLoaded + 1; ++i) bad["also_loaded"].push_back({{"model", "qwen3-0.6b"}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded");
  bad["also_loaded"] = json::array({{{"model", "qwen3-0.6b"}}, 7});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[1]");
  bad["also_loaded"] = json::array({{{"model", "qwen3-0.6b"}}, {{"model", "qwen3-0.6b"}, {"weights", "q9_z"}}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[1].weights");
  bad["also_loaded"] = json::array({{{"weights", "q8_0"}}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[0].model");
  bad["also_loaded"] = json::array({{{"model", "no-such-model"}}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[0].model");
  bad["also_loaded"] = json::array({{{"model", "qwen3-0.6b"}, {"context", 0}}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[0].context");
  bad["also_loaded"] = json::array({{{"model", "qwen3-0.6b"}, {"n_gpu_layers", 99}}});
  CHECK(test_support::estimate(bad)["error"]["field"] == "also_loaded[0].n_gpu_layers");
  bad["also_loaded"] = json::array({{{"model", "qwen3-0.6b"}, {"gpu_memory_utilization", 0.6}}, {{"model", "qwen3-0.6b"}, {"gpu_memory_utilization", 0.5}}});
  const json e = test_support::estimate(bad)["error"];
  CHECK(e["field"] == "also_loaded[1].gpu_memory_utilization");
  CHECK(e["message"].get<std::string>().find("1.10") != std::string::npos);
  // An unknown member is named in a warning, not refused.
  json extra = chat_embed_rerank("ollama");
  extra["also_loaded"][0]["keep"] = true;
  const json w = test_support::estimate(extra);
  CHECK(!w.contains("error"));
  CHECK(test_support::any_contains(w["warnings"].get<std::vector<std::string>>(), "also_loaded[0].keep"));
}

TEST_CASE("The set places in order: the place function alone", "[co_resident]") {
  // Three processes of 10, 8 and 9 GB on a 24 GB device: 27 GB, 3 GB short; the third is out.
  FitResult fit;
  fit.placement = Placement::gpu;
  fit.usable_bytes = 24'000'000'000LL;
  std::vector<CoResidentModel> models(3);
  const std::int64_t sizes[] = {10'000'000'000LL, 8'000'000'000LL, 9'000'000'000LL};
  for (std::size_t i = 0; i < 3; ++i) {
    models[i].model_id = "m" + std::to_string(i);
    models[i].device_bytes = models[i].needed_bytes = sizes[i];
  }
  const CoResidentSet t = place_co_resident(models, Engine::transformers, 1, fit, 0);
  CHECK(t.required_bytes == 27'000'000'000LL);
  CHECK(t.headroom_bytes == -3'000'000'000LL);
  CHECK(t.verdict == Verdict::no_fit);
  CHECK(t.first_out == 2);
  // Ollama: the third does not fit beside 18 GB (18 + 9 > 24): the idle m1 goes, m0 (in use) stays;
  // 10 + 9 = 19 GB remain.
  const CoResidentSet o = place_co_resident(models, Engine::ollama, 1, fit, 0);
  CHECK(o.first_out == 1);
  CHECK(o.loading == 2);
  CHECK(o.required_bytes == 19'000'000'000LL);
  CHECK(o.verdict == Verdict::no_fit);
  // Two of them fit with 6 GB to spare against a margin of 2.4 GB (10% of 24 GB): comfortable.
  models.pop_back();
  const CoResidentSet two = place_co_resident(models, Engine::llama_cpp, 1, fit, 0);
  CHECK(two.required_bytes == 18'000'000'000LL);
  CHECK(two.margin_bytes == 2'400'000'000LL);
  CHECK(two.verdict == Verdict::comfortable);
}

}  // namespace co_resident_test
