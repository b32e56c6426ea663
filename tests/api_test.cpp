// SPDX-License-Identifier: MIT
// The JSON edge: contract fields, and bad requests answered with an error naming the field.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace api_test {

using nlohmann::json;
using test_support::estimate;

TEST_CASE("A preset request answers the contract's fields in bytes", "[api]") {
  const json r = estimate({{"model", "qwen2.5-7b-instruct"}, {"weights", "bf16"}, {"input_tokens", 1024}, {"output_tokens", 1024}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["model"]["params"] == 7'615'616'512LL);
  CHECK(r["memory"]["parts"]["weights"] == 15'231'233'024LL);  // 7,615,616,512 × 2 B
  // KV: 28,672 elements per token × 2048 tokens × 2 B = 117,440,512 B.
  CHECK(r["memory"]["parts"]["kv_cache"] == 117'440'512LL);
  // Download: the weights + safetensors headers (quantization.cpp): 4 shards × 8 B length +
  // 339 tensors × ~130 B JSON entry = 44,102 B.
  CHECK(r["disk_bytes"] == 15'231'233'024LL + 4 * 8 + 339 * 130);
  for (const char* key : {"device_bytes", "tensor_peak_bytes", "host_bytes"}) CHECK(r["memory"][key].is_number_integer());
  CHECK(r["explain"].size() >= 4);
  CHECK(r["explain"][0]["part"] == "weights");
}

TEST_CASE("A config.json and a bare parameter count are accepted as models", "[api]") {
  const json config = {{"model_type", "llama"}, {"hidden_size", 2048}, {"num_hidden_layers", 16}, {"num_attention_heads", 32},
                       {"num_key_value_heads", 8}, {"intermediate_size", 8192}, {"vocab_size", 128256}, {"tie_word_embeddings", true},
                       {"rope_theta", 500000.0}, {"some_future_field", 1}};
  const json r = estimate({{"model", {{"config", config}}}});
  REQUIRE_FALSE(r.contains("error"));
  // Llama-3.2-1B: 1,235,814,400 parameters (its safetensors metadata).
  CHECK(r["model"]["params"] == 1'235'814'400LL);
  bool warned = false;
  for (const auto& w : r["warnings"]) warned = warned || w.get<std::string>().find("some_future_field") != std::string::npos;
  CHECK(warned);
  const json bare = estimate({{"model", {{"params", 7e9}}}, {"weights", "fp16"}});
  CHECK(bare["memory"]["parts"]["weights"] == 14'000'000'000LL);
}

TEST_CASE("Bad requests get an error naming the field and never a crash", "[api][errors]") {
  const auto [body, field] = GENERATE(table<std::string, std::string>({
      {"", ""},
      {"   ", ""},
      {"{not json", ""},
      {"[1,2]", ""},
      {"{}", "model"},
      {R"({"model": "no-such-model"})", "model"},
      {R"({"model": 42})", "model"},
      {R"({"model": "qwen2.5-7b-instruct", "input_tokens": -5})", "input_tokens"},
      {R"({"model": "qwen2.5-7b-instruct", "input_tokens": "many"})", "input_tokens"},
      {R"({"model": "qwen2.5-7b-instruct", "input_tokens": 1.5})", "input_tokens"},
      {R"({"model": "qwen2.5-7b-instruct", "input_tokens": 1e30})", "input_tokens"},
      {R"({"model": "qwen2.5-7b-instruct", "output_tokens": 99999999999})", "output_tokens"},
      {R"({"model": "qwen2.5-7b-instruct", "batch": 0})", "batch"},
      {R"({"model": "qwen2.5-7b-instruct", "gpus": -1})", "gpus"},
      {R"({"model": "qwen2.5-7b-instruct", "weights": "int3"})", "weights"},
      {R"({"model": "qwen2.5-7b-instruct", "kv_cache": true})", "kv_cache"},
      {R"({"model": "qwen2.5-7b-instruct", "engine": "tgi"})", "engine"},
      {R"({"model": "qwen2.5-7b-instruct", "task": "finetune"})", "task"},
      {R"({"model": "qwen2.5-7b-instruct", "flash_attention": "yes"})", "flash_attention"},
      {R"({"model": "qwen2.5-7b-instruct", "task": "training", "training": {"seq_len": 0}})", "training.seq_len"},
      {R"({"model": "qwen2.5-7b-instruct", "task": "training", "training": []})", "training"},
      {R"({"model": {"params": -1}})", "model.params"},
      {R"({"model": {"params": 1e20}})", "model.params"},
      {R"({"model": {"config": {"hidden_size": 4096}}})", "model.config.num_hidden_layers"},
      {R"({"model": {"config": {"hidden_size": -1, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8}}})", "model.config.hidden_size"},
      {R"({"model": {"config": {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 3, "vocab_size": 10, "intermediate_size": 8}}})", "model.config.num_key_value_heads"},
      {R"({"model": {"config": []}})", "model.config"},
      {R"({"model": {"nothing": 1}})", "model"},
  }));
  CAPTURE(body);
  const std::string out = llmsizer::estimate(body);
  REQUIRE(llmsizer::is_error_response(out));
  const json r = json::parse(out);
  CHECK(r["error"]["field"] == field);
  CHECK_FALSE(r["error"]["message"].get<std::string>().empty());
}

TEST_CASE("A huge but valid model is sized without overflow or refused with a range error", "[api][errors][property]") {
  const json config = {{"hidden_size", 1'000'000}, {"num_hidden_layers", 10'000}, {"num_attention_heads", 1'000},
                       {"intermediate_size", 100'000'000}, {"vocab_size", 100'000'000}};
  const json r = estimate({{"model", {{"config", config}}}, {"input_tokens", 10'000'000}, {"output_tokens", 0}, {"batch", 1'000'000}});
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["field"].get<std::string>().rfind("model", 0) == 0);
  const json big = estimate({{"model", {{"params", 1e13}}}, {"weights", "fp32"}});
  REQUIRE_FALSE(big.contains("error"));
  CHECK(big["memory"]["parts"]["weights"] == 40'000'000'000'000LL);
}

TEST_CASE("The same request gives the same bytes every time", "[api][property]") {
  const std::string request = R"({"model": "qwen2.5-3b-instruct", "engine": "transformers", "input_tokens": 4096})";
  CHECK(llmsizer::estimate(request) == llmsizer::estimate(request));
}

TEST_CASE("Answers are ASCII text whose strings parse back to the English with its symbols", "[api]") {
  // The page's module decodes each answer with TextDecoder, fast only on ASCII (json_writer.hpp).
  const std::string answer = llmsizer::estimate(R"({"model": "qwen2.5-7b-instruct"})");
  const std::string recommendation = llmsizer::recommend(R"({"model": "qwen2.5-7b-instruct"})");
  const auto is_ascii = [](const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  };
  CHECK(is_ascii(answer));
  CHECK(is_ascii(recommendation));
  // Qwen2.5-7B: 28 query heads over 4 KV heads (its config.json), "7×" written as 7\u00d7.
  CHECK(json::parse(answer)["model"]["features"][0] == "GQA 28:4 \xE2\x80\x94 KV cache 7\xC3\x97 smaller than MHA");
}

namespace {
/// `value` with every member named in `english` (the English text of a message) removed, wherever it is.
json without_english(json value, const std::vector<std::string>& english) {
  if (value.is_object()) {
    for (const auto& name : english) value.erase(name);
    for (auto& [key, member] : value.items()) member = without_english(member, english);
  } else if (value.is_array()) {
    for (auto& item : value) item = without_english(item, english);
  }
  return value;
}
}  // namespace

TEST_CASE("english_text false leaves out each message's English text and keeps everything else", "[api]") {
  // The page renders every sentence from its data: the same answer, less the text.
  json request = {{"model", "qwen2.5-7b-instruct"}, {"weights", "int4"}, {"input_tokens", 7168}, {"output_tokens", 1024}};
  const json with_text = json::parse(llmsizer::recommend(request.dump()));
  request["english_text"] = false;
  const std::string data_only_text = llmsizer::recommend(request.dump());
  const json data_only = json::parse(data_only_text);
  REQUIRE_FALSE(with_text.contains("error"));
  REQUIRE(data_only["options"].size() == with_text["options"].size());
  CHECK_FALSE(data_only["options"][0].contains("reason"));
  CHECK(data_only["options"][0]["reason_data"] == with_text["options"][0]["reason_data"]);
  CHECK(data_only["costs"]["summary_data"] == with_text["costs"]["summary_data"]);
  CHECK_FALSE(data_only["costs"].contains("summary"));
  // Everything but the texts is the same: the texts are these keys, each beside its `_data`.
  const std::vector<std::string> english = {"reason", "fixes", "explain", "summary", "warnings", "note"};
  CHECK(data_only == without_english(with_text, english));
  CHECK(data_only_text.size() < with_text.dump().size() * 9 / 10);

  json estimate_request = {{"model", "qwen2.5-7b-instruct"}, {"hardware", "nvidia-rtx-4090"}, {"english_text", false}};
  const json estimated = estimate(estimate_request);
  REQUIRE_FALSE(estimated.contains("error"));
  CHECK_FALSE(estimated["explain"][0].contains("formula"));
  CHECK(estimated["explain"][0]["formula_data"]["id"] == "explain.weights.plain.formula");
  CHECK_FALSE(estimated["fit"].contains("summary"));
  CHECK(estimated["fit"].contains("summary_data"));
  CHECK_FALSE(estimated["model"].contains("features"));
  CHECK(estimated["model"]["features_data"].size() >= 1);
}

TEST_CASE("Models kept loaded answer the contract's models and fit.set, their text left out with english_text false", "[api][co_resident]") {
  // docs/contract.md, also_loaded: `models` (the request's model first) with device_bytes and
  // host_bytes, and with hardware fit.set with the set's verdict, summary and explanation.
  json request = {{"model", "qwen2.5-7b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"hardware", "nvidia-rtx-4090"},
                  {"also_loaded", json::array({{{"model", "qwen3-0.6b"}, {"weights", "q8_0"}, {"context", 2048}}})}};
  const json with_text = estimate(request);
  REQUIRE_FALSE(with_text.contains("error"));
  const json& models = with_text["models"];
  REQUIRE(models.size() == 2);
  CHECK(models[0]["model"] == "qwen2.5-7b-instruct");
  CHECK(models[1]["model"] == "qwen3-0.6b");
  CHECK(models[1]["weights"] == "q8_0");
  CHECK(models[1]["context"] == 2048);
  for (const json& m : models) {
    CHECK(m["device_bytes"].is_number_integer());
    CHECK(m["host_bytes"].is_number_integer());
    CHECK(m["resident"] == true);
  }
  const json& set = with_text["fit"]["set"];
  for (const char* key : {"verdict", "required_bytes", "usable_bytes", "headroom_bytes", "margin_bytes", "first_out", "summary", "summary_data",
                          "explain", "explain_data", "command_line"}) {
    CHECK(set.contains(key));
  }
  CHECK(set["explain"].size() == 3);  // llama.cpp's rule, then one line per model
  // The same answer written again from its parsed JSON is the same text.
  CHECK(json::parse(with_text.dump()) == with_text);
  request["english_text"] = false;
  const json data_only = estimate(request);
  CHECK_FALSE(data_only["fit"]["set"].contains("summary"));
  CHECK_FALSE(data_only["fit"]["set"].contains("explain"));
  CHECK(data_only["fit"]["set"]["summary_data"] == set["summary_data"]);
  CHECK(data_only["models"] == models);
}

TEST_CASE("english_text must be true or false", "[api][errors]") {
  const json r = estimate({{"model", "qwen2.5-7b-instruct"}, {"english_text", "no"}});
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["field"] == "english_text");
}

TEST_CASE("Every preset parses and lists", "[api][models]") {
  const json r = json::parse(llmsizer::list_models());
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["models"].size() >= 8);
}

TEST_CASE("The listing describes each preset exactly as an estimate for it does", "[api][models]") {
  // The listing reads each preset document itself, without the catalog's tensor lists:
  // its model fields must still be those of the catalog's preset, which estimates use.
  const json listing = json::parse(llmsizer::list_models());
  REQUIRE(listing["models"].size() >= 100);  // data/models holds 155 presets (2026-12-05)
  for (const auto& listed : listing["models"]) {
    const json r = estimate({{"model", listed["id"]}});
    INFO(listed["id"]);
    REQUIRE_FALSE(r.contains("error"));
    for (const auto& [key, value] : r["model"].items()) CHECK(listed[key] == value);
  }
}

TEST_CASE("A probe file given as the hardware sizes the request for the measured machine", "[api][hardware][probe]") {
  // data/measured/*.json is what llmsizer-probe writes; the page passes such a file as "my machine".
  const auto* doc = llmsizer::find_embedded_document("measured", "probe-intel-r-xeon-r-processor-2t");
  REQUIRE(doc != nullptr);
  const json probe = json::parse(doc->json.begin(), doc->json.end());
  const json r = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpus", 0}, {"hardware", probe}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["hardware"]["name"].get<std::string>().rfind("measured: ", 0) == 0);
  CHECK(r["fit"]["placement"] == "cpu");
  // CPU decode reads the weights once per token at the measured bandwidth: tokens/s × bytes per
  // step equals the probe's bandwidth (GB/s) within the rounding of the printed speed.
  const double bandwidth = probe["summary"]["cpu"]["memory_bandwidth_gb_per_s"].get<double>() * 1e9;
  const double step_bytes = r["throughput"]["bytes_per_step"].get<double>();
  CHECK_THAT(r["throughput"]["decode_tokens_per_s"].get<double>() * step_bytes, Catch::Matchers::WithinRel(bandwidth, 0.35));
  const json bad = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"hardware", {{"probe", json::object()}, {"summary", json::object()}}}});
  CHECK(bad["error"]["field"] == "hardware");
}

TEST_CASE("A memory size out of its range is refused as a size, naming the field", "[api][errors]") {
  // A budget of -16 GB or 0: not "not a whole number" but a size above zero, said in bytes for the
  // page to write in the person's GB or GiB.
  for (const double budget : {-16e9, 0.0}) {
    const json bad = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"budget_bytes", budget}});
    CHECK(bad["error"]["field"] == "budget_bytes");
    CHECK(bad["error"]["message_data"]["id"] == "error.memory_range.positive");
    CHECK(bad["error"]["message_data"]["args"]["got_bytes"] == static_cast<std::int64_t>(budget));
  }
  // A typed size beyond the machine's limit (1 PB) is said the same way.
  const json huge = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"machine", {{"ram_bytes", "2000000 GB"}}}});
  CHECK(huge["error"]["field"] == "machine.ram_bytes");
  CHECK(huge["error"]["message_data"]["args"]["max_bytes"] == 1'000'000'000'000'000LL);
  // A negative memory per GPU, where zero is allowed (no GPU).
  const json negative = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"machine", {{"ram_bytes", "16 GiB"}, {"gpus", 1}, {"vram_bytes", -1}}}});
  CHECK(negative["error"]["field"] == "machine.vram_bytes");
  CHECK(negative["error"]["message_data"]["id"] == "error.memory_range.not_negative");
}

TEST_CASE("engine_version is read in each engine's own numbering and echoed as written", "[api][engine_version]") {
  // The encoding the rules compare: major × 100 + minor (transformers 4.45 → 445, vLLM 0.6 → 6,
  // 0.10 → 10), a llama.cpp build its number. Each form as the engine's releases tag it.
  const auto [engine, version] = GENERATE(table<std::string, std::string>({
      {"transformers", "4.45"},
      {"transformers", "4.46.0"},
      {"transformers", "4.57.0.dev0"},
      {"vllm", "0.6.0"},
      {"vllm", "0.10.1"},
      {"vllm", "v0.8.5"},
      {"vllm", "0.10.1.1"},
      {"vllm", "0.6.3.post1"},
      {"vllm", "0.6.4.dev26+g1a2b3c4"},
      {"sglang", "0.3.0"},
      {"sglang", "0.4.6"},
      {"llama.cpp", "b6918"},
      {"llama.cpp", "6918"},
      {"llama.cpp", "b6918-1d2e3f4a"},
      {"llama.cpp", "version: 6918 (1d2e3f4a)"},
      {"llama.cpp", "build 2f68ce7cf (6918)"},
      {"llama.cpp", "build: 6918 (2f68ce7cf)"},
      {"ollama", "0.12.3"},
      {"autoawq", "0.2.6"},
      {"litgpt", "0.5.3"},
      {"generic", "1.0.0rc2"},  // TensorRT-LLM's numbering, read the same for any engine
      {"generic", "v0.2.0"},    // LMDeploy's
      {"generic", "0.17"},
  }));
  CAPTURE(engine, version);
  const json r = estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", engine}, {"engine_version", version}, {"hardware", "nvidia-h100-sxm"}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["settings"]["engine_version"] == version);
  // An engine none of whose figures depend on the version says so rather than ignoring it.
  std::vector<std::string> ids;
  for (const auto& w : r["warnings_data"]) ids.push_back(w["id"].get<std::string>());
  const bool no_rule = std::find(ids.begin(), ids.end(), "warning.engine_version.no_rule") != ids.end();
  CHECK(no_rule == (engine != "transformers" && engine != "vllm" && engine != "llama.cpp"));
  // Build 6918 reuses its graph: nothing to add, nothing to say.
  CHECK(std::find(ids.begin(), ids.end(), "warning.engine_version.llama_cpp_graph_build") == ids.end());
  const bool vllm_note = std::find(ids.begin(), ids.end(), "warning.engine_version.vllm_step_overhead") != ids.end() ||
                         std::find(ids.begin(), ids.end(), "warning.engine_version.vllm_v1_step_overhead") != ids.end();
  CHECK(vllm_note == (engine == "vllm"));
}

TEST_CASE("A llama.cpp build before graph reuse says the graph build it adds to every decode", "[api][engine_version]") {
  const auto warning = [](const char* version) {
    const json r = estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", "llama.cpp"}, {"engine_version", version}, {"hardware", "nvidia-h100-sxm"}});
    for (const auto& w : r["warnings_data"]) {
      if (w["id"] == "warning.engine_version.llama_cpp_graph_build") return w;
    }
    return json();
  };
  // b5943 is the last build known to rebuild the graph (throughput.hpp): 4.2 µs per layer.
  const json old = warning("b5943");
  REQUIRE(old.is_object());
  CHECK_THAT(old["args"]["per_layer_us"].get<double>(), Catch::Matchers::WithinAbs(4.2, 1e-9));
  CHECK(warning("b5944").is_null());
}

TEST_CASE("engine_version encodes major × 100 + minor, and a llama.cpp build as its number", "[api][engine_version]") {
  // transformers 4.44 and 4.45 differ (the whole prompt's logits before 4.45): the encoding orders them.
  const auto peak = [](const char* version) {
    return estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", "transformers"}, {"engine_version", version}, {"input_tokens", 4096}})["memory"]["parts"]["activations"].get<std::int64_t>();
  };
  CHECK(peak("4.44") > peak("4.45"));
  CHECK(peak("4.45") == peak("v4.45.2"));
  // vLLM before 0.6 keeps its measured step overhead without a note; 0.6 and 0.7 (still V0) are told
  // it was measured on v0.5.3; V1 (0.8 and later, and no version named) has its own, said to be an assumption.
  const auto with = [](const char* version) {
    json r = {{"model", "qwen2.5-7b-instruct"}, {"engine", "vllm"}, {"hardware", "nvidia-h100-sxm"}};
    if (version[0] != '\0') r["engine_version"] = version;
    return estimate(r);
  };
  const json old = with("0.5.3");
  const json v0 = with("0.7.3");
  const json v1 = with("0.10.1");
  CHECK(old["throughput"]["step_ms"]["engine_fixed"] == 3.8);
  CHECK(v0["throughput"]["step_ms"]["engine_fixed"] == 3.8);
  CHECK(v1["throughput"]["step_ms"]["engine_fixed"] == 1.0);
  CHECK(with("")["throughput"]["step_ms"]["engine_fixed"] == 1.0);
  CHECK(old["warnings_data"].dump().find("vllm_step_overhead") == std::string::npos);
  CHECK(v0["warnings_data"].dump().find("\"warning.engine_version.vllm_step_overhead\"") != std::string::npos);
  CHECK(v1["warnings_data"].dump().find("vllm_v1_step_overhead") != std::string::npos);
}

TEST_CASE("engine_version out of an engine's numbering is refused, naming the field and the forms", "[api][engine_version][errors]") {
  const auto [engine, version, id] = GENERATE(table<std::string, std::string, std::string>({
      {"vllm", "b6918", "error.engine_version"},
      {"vllm", "0.0", "error.engine_version"},
      {"vllm", "0.6.0 beta", "error.engine_version"},
      {"transformers", "four", "error.engine_version"},
      {"transformers", "4", "error.engine_version"},
      {"transformers", "400.1", "error.engine_version"},
      {"sglang", "0.4.x", "error.engine_version"},
      {"llama.cpp", "4.45", "error.engine_version_build"},
      {"llama.cpp", "1d2e3f4a", "error.engine_version_build"},
      {"llama.cpp", "b6918-xyz", "error.engine_version_build"},
      {"llama.cpp", "build 2f68ce7cf", "error.engine_version_build"},
      {"ollama", "b6918", "error.engine_version"},
  }));
  CAPTURE(engine, version);
  const json r = estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", engine}, {"engine_version", version}});
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["field"] == "engine_version");
  CHECK(r["error"]["message_data"]["id"] == id);
  const std::string message = r["error"]["message"].get<std::string>();
  CHECK(message.find(version) != std::string::npos);
  if (id == "error.engine_version") {
    CHECK(message.find(engine) != std::string::npos);
    CHECK(message.find("major.minor") != std::string::npos);
  } else {
    CHECK(message.find("b6918") != std::string::npos);
  }
}

TEST_CASE("throughput.step_ms lists every part its total sums", "[api][throughput]") {
  // Mixtral-8x7B in transformers 4.45 (before 4.53: the loop runs all 8 experts of each of the 32
  // layers, 32 × 8 × 80 µs = 20.48 ms, beside the device and host time), on two GPUs (a hand-off);
  // Llama-3.1-8B in vLLM on two GPUs (all-reduces and the engine's fixed time); FP8 in
  // transformers (synchronizing linears: host and device add up); a partial CPU offload.
  const auto request = GENERATE(
      json{{"model", "mixtral-8x7b-instruct-v0.1"}, {"engine", "transformers"}, {"engine_version", "4.45"}, {"hardware", "nvidia-h100-sxm"}, {"gpus", 2}},
      json{{"model", "llama-3.1-8b-instruct"}, {"engine", "vllm"}, {"hardware", "nvidia-h100-sxm"}, {"gpus", 2}},
      json{{"model", "qwen2.5-7b-instruct"}, {"engine", "transformers"}, {"weights", "fp8"}, {"hardware", "nvidia-h100-sxm"}},
      json{{"model", "llama-3.1-8b-instruct"}, {"engine", "llama.cpp"}, {"weights", "q4_k_m"}, {"n_gpu_layers", 16}, {"hardware", "nvidia-rtx-4090"}});
  CAPTURE(request.dump());
  const json r = estimate(request);
  REQUIRE_FALSE(r.contains("error"));
  const json& step = r["throughput"]["step_ms"];
  CAPTURE(step.dump());
  double sum = 0;
  for (const auto& part : step["sum_of"]) sum += step[part.get<std::string>()].get<double>();
  // Each part is rounded to 1e-4 ms in the answer.
  CHECK(std::abs(sum - step["total"].get<double>()) <= 3e-4);
  const double device = std::max(step["memory"].get<double>(), step["compute"].get<double>());
  CHECK(std::abs(step["device"].get<double>() - device) <= 1e-4);
  const double host = step["host_launch"].get<double>();
  const double overlapped = step["overlap"] == "sum" ? device + host : std::max(device, host);
  CHECK(std::abs(step["overlapped"].get<double>() - overlapped) <= 2e-4);
  CHECK(step["attention"].get<double>() <= step["memory"].get<double>());
  if (request["model"] == "mixtral-8x7b-instruct-v0.1") CHECK(step["expert_loop"] == 20.48);
  if (request.value("weights", "") == "fp8") CHECK(step["overlap"] == "sum");
}

TEST_CASE("The inference-only entry points answer inference as the others do and refuse the other tasks, naming task", "[api][errors]") {
  // The page's module exports these (wasm/bindings.cpp): an inference request's bytes are the same.
  const std::string inference = R"({"model": "qwen2.5-7b-instruct", "hardware": "nvidia-rtx-4090", "engine": "llama.cpp", "weights": "q4_k_m"})";
  CHECK(llmsizer::estimate_inference(inference) == llmsizer::estimate(inference));
  CHECK(llmsizer::recommend_inference(inference) == llmsizer::recommend(inference));
  const std::string page = R"({"estimate": {"model": "qwen2.5-7b-instruct"}, "chart": [{"model": "qwen2.5-7b-instruct", "input_tokens": 255}],
                               "formats": [{"model": "qwen2.5-7b-instruct", "weights": "int4"}], "recommend": {"model": "qwen2.5-7b-instruct"}})";
  CHECK(llmsizer::page_answer_inference(page) == llmsizer::page_answer(page));
  // A serving or training request: the task is refused, by name, where the others answer it.
  const std::string training = R"({"model": "qwen2.5-7b-instruct", "task": "training"})";
  const std::string serve = R"({"model": "qwen2.5-7b-instruct", "task": "serve", "hardware": "nvidia-h100-sxm"})";
  for (const std::string& request : {training, serve}) {
    INFO(request);
    CHECK_FALSE(llmsizer::is_error_response(llmsizer::estimate(request)));
    for (const std::string& answer : {llmsizer::estimate_inference(request), llmsizer::recommend_inference(request)}) {
      const json e = json::parse(answer).at("error");
      CHECK(e["field"] == "task");
      CHECK(e["message_data"]["id"] == "error.task.other_module");
    }
    const json in_page = json::parse(llmsizer::page_answer_inference("{\"estimate\": " + request + "}"));
    CHECK(in_page["estimate"]["error"]["field"] == "task");
  }
  // A member read before the task (the model) is refused first, as by the others.
  const std::string bad_model = R"({"model": "no-such-model", "task": "training"})";
  CHECK(llmsizer::estimate_inference(bad_model) == llmsizer::estimate(bad_model));
}

TEST_CASE("A page answer's chart point and format row carry the bytes and the verdict, and leave the model, settings and explanation to its estimate", "[api]") {
  // The same request as the estimate, as a format row and (without the device) as a chart point: the
  // page reads a row's memory and fit only, so those are the estimate's and the rest is written once.
  const std::string request = R"({"model": "qwen2.5-7b-instruct", "engine": "llama.cpp", "weights": "q4_k_m", "input_tokens": 3072, "output_tokens": 1024)";
  const std::string on_device = request + R"(, "hardware": "nvidia-rtx-4090"})";
  const json page = json::parse(llmsizer::page_answer(R"({"estimate": )" + on_device + R"(, "chart": [)" + request + R"(}], "formats": [)" + on_device + "]}"));
  const json& est = page.at("estimate");
  const json& point = page.at("chart").at(0);
  const json& row = page.at("formats").at(0);
  CHECK(row.at("memory") == est.at("memory"));
  CHECK(row.at("disk_bytes") == est.at("disk_bytes"));
  CHECK(row.at("hardware").at("name") == est.at("hardware").at("name"));
  CHECK(row.at("fit").at("fits") == est.at("fit").at("fits"));
  CHECK(row.at("fit").at("required_bytes") == est.at("fit").at("required_bytes"));
  CHECK(row.at("fit").at("usable_bytes") == est.at("fit").at("usable_bytes"));
  // No device named: the same memory for the point (llama.cpp's buffers do not depend on the device).
  CHECK(point.at("memory").at("device_bytes") == est.at("memory").at("device_bytes"));
  CHECK_FALSE(point.contains("fit"));
  for (const char* member : {"model", "settings", "weights_detail", "llama_cpp", "warnings", "explain"}) {
    INFO(member);
    CHECK(est.contains(member));
    CHECK_FALSE(row.contains(member));
    CHECK_FALSE(point.contains(member));
  }
}

TEST_CASE("The inference-only entry points refuse models kept loaded beside the request's, naming also_loaded, and read an empty list as none", "[api][errors]") {
  // The set of models kept loaded together is the tasks' module's (wasm/bindings_tasks.cpp); the page
  // routes on this refusal (web/lib/other_module.js).
  const std::string alone = R"({"model": "qwen2.5-7b-instruct", "hardware": "nvidia-rtx-4090", "engine": "llama.cpp", "weights": "q4_k_m")";
  const std::string together = alone + R"(, "also_loaded": [{"model": "qwen3-0.6b", "weights": "q8_0"}]})";
  const json every = json::parse(llmsizer::estimate(together));
  REQUIRE_FALSE(every.contains("error"));
  CHECK(every["models"].size() == 2);
  CHECK(every["fit"].contains("set"));
  const json refused = json::parse(llmsizer::estimate_inference(together)).at("error");
  CHECK(refused["field"] == "also_loaded");
  CHECK(refused["message_data"]["id"] == "error.also_loaded.other_module");
  // A malformed list is the tasks' module's to name as well: the page's refuses it the same way.
  const json malformed = json::parse(llmsizer::estimate_inference(alone + R"(, "also_loaded": 3})")).at("error");
  CHECK(malformed["message_data"]["id"] == "error.also_loaded.other_module");
  const json in_page = json::parse(llmsizer::page_answer_inference("{\"estimate\": " + together + ", \"chart\": [" + together + "]}"));
  CHECK(in_page["estimate"]["error"]["message_data"]["id"] == "error.also_loaded.other_module");
  CHECK(in_page["chart"][0]["error"]["message_data"]["id"] == "error.also_loaded.other_module");
  // Absent, null or empty: nothing kept loaded beside it, the same answer as the others'.
  for (const std::string& none : {alone + "}", alone + R"(, "also_loaded": null})", alone + R"(, "also_loaded": []})"}) {
    INFO(none);
    CHECK(llmsizer::estimate_inference(none) == llmsizer::estimate(none));
  }
}

}  // namespace api_test
