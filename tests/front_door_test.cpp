// SPDX-License-Identifier: MIT
// The typed front door: the JSON edge reads a request once into a Request, the pure
// answer() computes, to_json writes; and the defects found while building it.
#include <catch2/catch.hpp>

#include "llmsizer/answer.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/tensors.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace front_door_test {

using nlohmann::json;
using test_support::estimate;

TEST_CASE("Full training of 7B in mixed fp16 with AdamW holds the article's 16 bytes per parameter, the step temporary apart",
          "[front-door][training]") {
  // The source article's table: weights 2 + gradients 2 + optimizer states 8 (Adam m and v, fp32)
  // + master weights 4 = 16 B/param; 7e9 × 16 B = 112 GB exactly. torch AdamW (foreach) also
  // allocates sqrt(v) for every parameter during the step: 7e9 × 4 B = 28 GB, its own part.
  const json r = estimate({{"model", {{"params", 7e9}}},
                           {"task", "training"},
                           {"training", {{"method", "full"}, {"precision", "mixed-fp16"}, {"optimizer", "adamw"}}}});
  REQUIRE_FALSE(r.contains("error"));
  const json& parts = r["memory"]["parts"];
  CHECK(parts["weights"] == 14'000'000'000LL);
  CHECK(parts["gradients"] == 14'000'000'000LL);
  CHECK(parts["optimizer"] == 56'000'000'000LL);
  CHECK(parts["master_weights"] == 28'000'000'000LL);
  CHECK(parts["weights"].get<std::int64_t>() + parts["gradients"].get<std::int64_t>() + parts["optimizer"].get<std::int64_t>() +
            parts["master_weights"].get<std::int64_t>() ==
        112'000'000'000LL);
  CHECK(parts["step_temporary"] == 28'000'000'000LL);
  bool explained = false;
  for (const auto& line : r["explain"]) explained = explained || line["part"] == "step_temporary";
  CHECK(explained);
}

TEST_CASE("A bare parameter count with a shape dequantizes one matrix of that shape, not the whole model", "[front-door][defect]") {
  // bitsandbytes 4-bit prefill dequantizes the largest Linear to 16 bits: for 32 layers of 4096
  // with the assumed 4H MLP that is 4096 × 16384 × 2 B = 134,217,728 B (before: the whole 7e9
  // lump, 14 GB).
  const json r = estimate({{"model", {{"params", 7e9}, {"layers", 32}, {"hidden_size", 4096}}}, {"engine", "transformers"}, {"weights", "nf4"}});
  REQUIRE_FALSE(r.contains("error"));
  bool found = false;
  for (const auto& line : r["explain"]) {
    if (line["values_data"]["id"] == "explain.activations.bnb_dequant.values") {
      found = true;
      CHECK(line["bytes"] == 4096LL * 16384 * 2);
    }
  }
  CHECK(found);
  CHECK(r["memory"]["parts"]["activations"].get<std::int64_t>() < 1'000'000'000LL);
}

TEST_CASE("Stacked MoE experts are dequantized one expert at a time", "[front-door][defect]") {
  // Transformers' Mixtral experts are separate nn.Linear modules (MixtralBlockSparseTop2MLP w1,
  // w2, w3): one expert's 4096 × 14336 matrix is the largest, 117,440,512 B in 16 bits.
  const json r = estimate({{"model", "mixtral-8x7b-instruct-v0.1"}, {"engine", "transformers"}, {"weights", "nf4"}, {"input_tokens", 512}});
  REQUIRE_FALSE(r.contains("error"));
  for (const auto& line : r["explain"]) {
    if (line["values_data"]["id"] == "explain.activations.bnb_dequant.values") CHECK(line["bytes"] == 4096LL * 14336 * 2);
  }
}

TEST_CASE("A model file's request model keeps token_embd in host memory under llama.cpp, as its preset does", "[front-door][defect]") {
  // Qwen2.5-0.5B as inspect_model_file gives it: its config, the exact count 494,032,768 and the
  // file's stored bytes (here 2 B per weight). llama.cpp keeps token_embd on the host: 151,936 ×
  // 896 = 136,134,656 weights × 2 B = 272,269,312 B, and (tied) a copy on the GPU as the output.
  // Beside it in host memory: the output buffer, 151,936 logits × 4 B = 607,744
  // (llama-context.cpp output_reserve), and the CPU's compute buffer for a 512-token micro-batch at
  // 2,048 cells with flash attention (graph inputs and token_embd's get_rows run on the CPU): token
  // ids 2,048 + input embeddings 896 × 512 × 4 = 1,835,008 + positions 2,048 + K and V cell indices
  // 2 × 512 × 8 = 8,192 + the F16 mask 2,048 × 512 × 2 = 2,097,152 + output ids 2,048 + the lookup
  // 1,835,008 = 5,781,504.
  const json preset = test_support::estimate({{"model", "qwen2.5-0.5b-instruct"}, {"engine", "llama.cpp"}, {"weights", "gguf-f16"}});
  const auto* doc = llmsizer::find_embedded_document("models", "qwen2.5-0.5b-instruct");
  REQUIRE(doc != nullptr);
  const json config = json::parse(doc->json.begin(), doc->json.end())["config"];
  const json file = estimate({{"model", {{"config", config}, {"params", 494'032'768LL}, {"weight_bytes", 988'065'536LL}, {"weights_format", "F16"}}},
                              {"engine", "llama.cpp"}});
  REQUIRE_FALSE(file.contains("error"));
  CHECK(file["memory"]["host_bytes"] == 272'269'312LL + 607'744 + 5'781'504);
  CHECK(preset["memory"]["host_bytes"].get<std::int64_t>() > 0);  // the preset too keeps it on the host
}

TEST_CASE("llama.cpp's own type names are accepted for weights and KV cache", "[front-door][defect]") {
  // llama-quantize / GGUF general.file_type names F16 and F32; llama.cpp -ctk/-ctv f16 and f32.
  for (const char* name : {"F16", "f16"}) {
    const json r = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"weights", name}, {"kv_cache", "f16"}});
    REQUIRE_FALSE(r.contains("error"));
    CHECK(r["settings"]["weights"] == "gguf-f16");
    CHECK(r["settings"]["kv_cache"] == "fp16");
  }
  const json f32 = estimate({{"model", "qwen2.5-0.5b-instruct"}, {"weights", "F32"}, {"kv_cache", "F32"}});
  CHECK(f32["settings"]["weights"] == "gguf-f32");
  CHECK(f32["settings"]["kv_cache"] == "fp32");
}

TEST_CASE("One request lays the weights out once: the fit's device estimate equals the memory estimate", "[front-door]") {
  const llmsizer::Catalog& catalog = llmsizer::embedded_catalog();
  llmsizer::Request request;
  request.model = *catalog.model("qwen2.5-7b-instruct");
  request.weights = llmsizer::find_weight_format("bf16");
  request.kv_cache = llmsizer::find_kv_cache_format("bf16");
  request.hardware = catalog.hardware("nvidia-rtx-4090");
  const llmsizer::Answer a = llmsizer::answer(request, catalog);
  REQUIRE(a.inference_hardware);
  CHECK(a.inference_hardware->fit.required_bytes == a.memory.device_bytes);
}

TEST_CASE("A preset's tensor list is made once and never handed to a spec whose shape changed", "[front-door]") {
  const llmsizer::Catalog& catalog = llmsizer::embedded_catalog();
  const llmsizer::ModelSpec preset = *catalog.model("qwen2.5-7b-instruct");
  REQUIRE(preset.tensor_cache);
  // Two requests for the preset share one list (made when the catalog first read the preset).
  CHECK(catalog.model("qwen2.5-7b-instruct")->tensor_cache == preset.tensor_cache);
  CHECK(llmsizer::tensor_list(preset) == preset.tensor_cache);
  // Qwen2.5-7B (config.json: 28 layers, Q/K/V biases, untied head): token_embd, 12 tensors per
  // layer (2 norms, q/k/v weights and biases, o, gate, up, down), output_norm, output = 339.
  CHECK(preset.tensor_cache->tensors.size() == 339);
  CHECK(llmsizer::model_tensors(preset).size() == 339);

  // A copy with fewer layers gets its own list, not the preset's: 1 + 12 × 27 + 2 = 327.
  llmsizer::ModelSpec shorter = preset;
  shorter.num_layers = 27;
  CHECK(llmsizer::tensor_list(shorter) != preset.tensor_cache);
  CHECK(llmsizer::tensor_list(shorter)->tensors.size() == 327);
  // And a change that keeps every cached field but the parameter count (fewer KV heads) too.
  llmsizer::ModelSpec mqa = preset;
  mqa.num_kv_heads = 1;
  CHECK(llmsizer::tensor_list(mqa) != preset.tensor_cache);
  const auto* format = llmsizer::find_weight_format("bf16");
  CHECK(llmsizer::weights_layout(mqa, *format).total_bytes < llmsizer::weights_layout(preset, *format).total_bytes);
}

}  // namespace front_door_test
