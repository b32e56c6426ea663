// SPDX-License-Identifier: MIT
// Quantized weights tensor by tensor: each block layout's bits per weight against the format's
// definition, llama.cpp's per-tensor type choice for known models, which tensors each convention
// keeps at 16 bits, GGUF sizes from llama.cpp's own tables, and the engine buffers.
#include <catch2/catch.hpp>

#include <string>

#include "llmsizer/memory.hpp"
#include "llmsizer/quantization.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace quantization_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;
using test_support::preset;

namespace {
const WeightFormat& format(const char* id) {
  const WeightFormat* f = find_weight_format(id);
  REQUIRE(f != nullptr);
  return *f;
}
/// The storage type of the tensor `name` of `model` in `layout` (the layout's tensors are the
/// model's tensor list, in its order).
std::string type_of(const ModelSpec& model, const WeightsLayout& layout, const std::string& name) {
  const auto list = tensor_list(model);  // held: the list may be made for this call
  const TensorStorage* t = layout.find(list->tensors, name);
  return t != nullptr ? std::string(t->type) : "";
}
double gib(std::int64_t bytes) { return static_cast<double>(bytes) / test_support::kGiB; }
}  // namespace

TEST_CASE("ggml block layouts give the bits per weight of their definitions", "[quantization][layout]") {
  // bits = 8 × block bytes / block weights; bytes from the ggml-common.h block structs, e.g.
  // Q4_K: fp16 d + fp16 dmin + 12 B scales + 128 B quants = 144 B per 256 = 4.5 bits.
  const auto [name, bits] = GENERATE(table<const char*, double>({
      {"Q4_K", 4.5}, {"Q6_K", 6.5625}, {"Q8_0", 8.5}, {"Q4_0", 4.5}, {"Q4_1", 5.0}, {"Q5_0", 5.5},
      {"Q5_1", 6.0}, {"Q5_K", 5.5}, {"Q3_K", 3.4375}, {"Q2_K", 2.625}, {"IQ4_XS", 4.25}, {"IQ4_NL", 4.5},
      {"IQ3_S", 3.4375}, {"IQ3_XXS", 3.0625}, {"IQ2_S", 2.5625}, {"IQ2_XS", 2.3125}, {"IQ2_XXS", 2.0625},
      {"IQ1_M", 1.75}, {"IQ1_S", 1.5625}, {"TQ1_0", 1.6875}, {"TQ2_0", 2.0625}, {"MXFP4", 4.25}, {"F16", 16.0}}));
  CAPTURE(name);
  const GgmlTypeInfo* t = ggml_type_by_name(name);
  REQUIRE(t != nullptr);
  CHECK_THAT(8.0 * t->block_bytes / t->block_elements, WithinRel(bits, 1e-12));
}

TEST_CASE("Transformers vLLM and MLX formats carry their scales in bits per weight", "[quantization][layout]") {
  const auto [id, bits] = GENERATE(table<const char*, double>({
      {"nf4", 4.5},                                    // 4 + 32 (fp32 absmax) / 64
      {"fp4", 4.5},
      {"nf4-dq", 4.0 + 8.0 / 64 + 32.0 / (64 * 256)},  // ≈ 4.127: 8-bit absmax, fp32 per 256 blocks
      {"gptq-int4", 4.0 + 16.0 / 128 + 4.0 / 128},     // 4.15625: fp16 scale + 4-bit zero per 128
      {"gptq-int8", 8.0 + 16.0 / 128 + 8.0 / 128},
      {"gptq-int3", 3.0 + 16.0 / 128 + 3.0 / 128},
      {"gptq-int2", 2.0 + 16.0 / 128 + 2.0 / 128},
      {"awq-int4", 4.0 + 16.0 / 128 + 4.0 / 128},
      {"mxfp4", 4.25},                                 // 32 × 4 bits + 8-bit E8M0 per 32
      {"nvfp4", 4.5},                                  // 16 × 4 bits + 8-bit E4M3 per 16
      {"mlx-4bit", 4.5},                               // 4 + (16-bit scale + 16-bit bias) / 64
      {"mlx-8bit", 8.5},
      {"fp8", 8.0}}));
  CAPTURE(id);
  CHECK_THAT(format(id).bits_per_weight(), WithinRel(bits, 1e-12));
}

TEST_CASE("An NF4 matrix stores packed codes plus one fp32 absmax per 64 weights", "[quantization][bnb]") {
  ModelSpec m = preset("meta-llama-3-8b");
  const WeightsLayout nf4 = weights_layout(m, format("nf4"));
  // blk.0.attn_q.weight: 4096 × 4096 = 16,777,216 weights → 8,388,608 B of codes + 262,144 blocks ×
  // 4 B absmax = 1,048,576 B + 164 B quant state (quant_map 64 B + ~100 B JSON) = 9,437,348 B.
  CHECK(nf4.tensor_bytes(tensor_list(m)->tensors, "blk.0.attn_q.weight") == 9'437'348);
  const WeightsLayout dq = weights_layout(m, format("nf4-dq"));
  // DQ: 8,388,608 + 262,144 (8-bit absmax) + 1,024 × 4 (fp32 per 256 blocks) + 256 × 4 (nested
  // quant map) + 4 (offset) + 164 = 8,656,040 B.
  CHECK(dq.tensor_bytes(tensor_list(m)->tensors, "blk.0.attn_q.weight") == 8'656'040);
}

TEST_CASE("A GPTQ 4-bit matrix stores qweight qzeros scales and g_idx", "[quantization][gptq]") {
  ModelSpec m = preset("meta-llama-3-8b");
  const WeightsLayout g = weights_layout(m, format("gptq-int4"));
  // 4096 in × 4096 out, group 128 → 32 groups: qweight 4096·4/8 × 4096 = 8,388,608; qzeros
  // 32 × 4096·4/8 = 65,536; scales 32 × 4096 × 2 = 262,144; g_idx 4096 × 4 = 16,384 → 8,732,672 B.
  CHECK(g.tensor_bytes(tensor_list(m)->tensors, "blk.0.attn_q.weight") == 8'732'672);
  CHECK(type_of(m, g, "blk.0.attn_q.weight") == "gptq-4bit");
  CHECK(type_of(m, weights_layout(m, format("gptq-int3")), "blk.0.attn_q.weight") == "gptq-3bit");
  CHECK(type_of(m, weights_layout(m, format("mlx-6bit")), "blk.0.attn_q.weight") == "mlx-6bit");
  // group_size 32: 128 groups → qzeros 262,144, scales 1,048,576 → 9,715,712 B.
  CHECK(weights_layout(m, format("gptq-int4"), 32).tensor_bytes(tensor_list(m)->tensors, "blk.0.attn_q.weight") == 9'715'712);
  // AWQ has no g_idx: 8,388,608 + 65,536 + 262,144 = 8,716,288 B.
  CHECK(weights_layout(m, format("awq-int4")).tensor_bytes(tensor_list(m)->tensors, "blk.0.attn_q.weight") == 8'716'288);
}

TEST_CASE("Transformers formats keep embeddings lm_head and norms at 16 bits while MLX quantizes the embedding", "[quantization][convention]") {
  ModelSpec m = preset("meta-llama-3-8b");
  const std::int64_t table = 128'256LL * 4096;  // vocab × hidden
  for (const char* id : {"nf4", "gptq-int4", "awq-int4", "llm-int8", "fp8"}) {
    CAPTURE(id);
    const WeightsLayout l = weights_layout(m, format(id));
    CHECK(l.class_bytes(TensorClass::embeddings) == table * 2);
    CHECK(l.class_bytes(TensorClass::lm_head) == table * 2);
    CHECK(l.class_bytes(TensorClass::norms) == (32 * 2 + 1) * 4096 * 2);
  }
  // MLX 4-bit: the embedding is quantized too: 525,336,576 × 4.5 / 8 = 295,501,824 B.
  CHECK(weights_layout(m, format("mlx-4bit")).class_bytes(TensorClass::embeddings) == 295'501'824);
}

TEST_CASE("gpt-oss MXFP4 quantizes only the MoE experts", "[quantization][mxfp4]") {
  ModelSpec m = preset("gpt-oss-20b");
  const WeightsLayout l = weights_layout(m, format("mxfp4"));
  const auto list = tensor_list(m);
  const auto& infos = list->tensors;
  REQUIRE(infos.size() == l.tensors.size());
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const TensorStorage& t = l.tensors[i];
    CAPTURE(infos[i].name);
    if (infos[i].name.find("_exps.weight") != std::string::npos) {
      CHECK(t.routed_experts);
      CHECK(t.type == "MXFP4");
      CHECK(t.bytes == t.elements / 32 * 17);
    } else {
      CHECK(t.type == "BF16");
      CHECK(t.bytes == t.elements * 2);
      // The experts' biases (ffn_*_exps.bias) are routed experts too; shared ones and the rest not.
      CHECK(t.routed_experts == (infos[i].name.find("_exps.bias") != std::string::npos));
    }
  }
  // gpt-oss-20b downloads ~13.8 GB (the model card: "runs within 16GB of memory"); the experts
  // dominate, so the whole model is far below bf16 and above the 4.25-bit floor.
  CHECK(l.bits_per_weight() > 4.25);
  CHECK(l.bits_per_weight() < 6.0);
}

TEST_CASE("Llama-3-8B Q4_K_M keeps output and the use_more_bits attn_v and ffn_down at Q6_K", "[quantization][gguf]") {
  ModelSpec m = preset("meta-llama-3-8b");
  const WeightsLayout l = weights_layout(m, format("q4_k_m"));
  // llama-quant.cpp use_more_bits(i, 32): i < 4 || i >= 28 || (i - 4) % 3 == 2.
  const int bumped[] = {0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31};
  for (int i = 0; i < 32; ++i) {
    const bool more = std::find(std::begin(bumped), std::end(bumped), i) != std::end(bumped);
    const std::string p = "blk." + std::to_string(i) + ".";
    CAPTURE(i);
    CHECK(type_of(m, l, p + "attn_v.weight") == (more ? "Q6_K" : "Q4_K"));
    CHECK(type_of(m, l, p + "ffn_down.weight") == (more ? "Q6_K" : "Q4_K"));
    CHECK(type_of(m, l, p + "attn_q.weight") == "Q4_K");
    CHECK(type_of(m, l, p + "ffn_up.weight") == "Q4_K");
    CHECK(type_of(m, l, p + "attn_norm.weight") == "F32");
  }
  CHECK(type_of(m, l, "output.weight") == "Q6_K");
  CHECK(type_of(m, l, "token_embd.weight") == "Q4_K");
  CHECK(type_of(m, l, "output_norm.weight") == "F32");
}

TEST_CASE("Rows that are not whole K-quant blocks fall back to 32-blocks and a tied embedding takes the output type", "[quantization][gguf]") {
  // Qwen2.5-0.5B: hidden 896 = 3.5 × 256, tied embeddings. llama-quant.cpp: token_embd (tied,
  // the output) with 896 % 256 ≠ 0 → Q8_0; Q4_K rows of 896 fall back to Q5_0; ffn_down rows are
  // 4864 = 19 × 256, so they stay K-quants (layer 4 of 24: not use_more_bits → Q4_K; layer 0 → Q6_K).
  ModelSpec m = preset("qwen2.5-0.5b-instruct");
  const WeightsLayout l = weights_layout(m, format("q4_k_m"));
  CHECK(type_of(m, l, "token_embd.weight") == "Q8_0");
  CHECK(type_of(m, l, "output.weight").empty());
  CHECK(type_of(m, l, "blk.5.attn_q.weight") == "Q5_0");
  CHECK(type_of(m, l, "blk.4.ffn_down.weight") == "Q4_K");
  CHECK(type_of(m, l, "blk.0.ffn_down.weight") == "Q6_K");
}

TEST_CASE("Llama-2-70B Q2_K and Q3_K_S match llama.cpp PR 5060 sizes", "[quantization][gguf][validation]") {
  // ggml-org/llama.cpp PR #5060 (2024-01-21) table for LLaMA-v2-70B: Q2_K 23.71 GiB,
  // Q3_K_S 27.86 GiB (after the 2-bit changes). Printed to 2 decimals: 0.5% tolerance.
  ModelSpec m = preset("llama-2-70b-hf");
  CHECK_THAT(gib(weights_layout(m, format("q2_k")).total_bytes), WithinRel(23.71, 0.005));
  CHECK_THAT(gib(weights_layout(m, format("q3_k_s")).total_bytes), WithinRel(27.86, 0.005));
}

TEST_CASE("The 2023 Q2_K mix matches the sizes llama.cpp reported when it made it", "[quantization][gguf][validation]") {
  // ggml-org/llama.cpp PR #2707 (2023-08-22): the new Q2_K of LLaMA-v2-7B is 2.63 GiB ("from 2.67
  // GiB to 2.63 GiB"). PR #2807 (2023-08-26) and examples/perplexity/README.md (Llama 2 70B
  // scorechart): 27.27 GiB for the 70B once its attn_v is Q5_K. Printed to 2 decimals: 0.5%.
  CHECK_THAT(gib(weights_layout(preset("llama-2-7b-hf"), format("q2_k_2023")).total_bytes), WithinRel(2.63, 0.005));
  CHECK_THAT(gib(weights_layout(preset("llama-2-70b-hf"), format("q2_k_2023")).total_bytes), WithinRel(27.27, 0.005));
  // The mix by hand for Llama-2-7B: q and k Q2_K, v, o, gate, up, down Q3_K.
  const ModelSpec m = preset("llama-2-7b-hf");
  const WeightsLayout l = weights_layout(m, format("q2_k_2023"));
  CHECK(type_of(m, l, "blk.0.attn_q.weight") == "Q2_K");
  CHECK(type_of(m, l, "blk.0.attn_k.weight") == "Q2_K");
  CHECK(type_of(m, l, "blk.0.attn_v.weight") == "Q3_K");
  CHECK(type_of(m, l, "blk.0.attn_output.weight") == "Q3_K");
  CHECK(type_of(m, l, "blk.31.ffn_down.weight") == "Q3_K");
  CHECK(type_of(m, l, "blk.5.ffn_up.weight") == "Q3_K");
  CHECK(type_of(m, l, "token_embd.weight") == "Q2_K");
  CHECK(type_of(m, l, "output.weight") == "Q6_K");
  // ... and the 70B's attn_v in Q5_K (PR #2807), the rest as for the 7B.
  const ModelSpec m70 = preset("llama-2-70b-hf");
  const WeightsLayout l70 = weights_layout(m70, format("q2_k_2023"));
  CHECK(type_of(m70, l70, "blk.0.attn_v.weight") == "Q5_K");
  CHECK(type_of(m70, l70, "blk.0.attn_q.weight") == "Q2_K");
}

TEST_CASE("Llama-3.1-8B GGUF sizes match llama.cpp's quantize README within 2 percent", "[quantization][gguf][validation]") {
  // ggml-org/llama.cpp tools/quantize/README.md at f4a71e707e2c, table for meta-llama/Llama-3.1-8B,
  // column "size (GiB)".
  const auto [id, size_gib] = GENERATE(table<const char*, double>({
      {"iq1_s", 1.87}, {"iq1_m", 2.01}, {"iq2_xxs", 2.23}, {"iq2_xs", 2.42}, {"iq2_s", 2.56}, {"iq2_m", 2.74},
      {"iq3_xxs", 3.04}, {"iq3_xs", 3.27}, {"iq3_s", 3.42}, {"iq3_m", 3.52}, {"iq4_xs", 4.17}, {"iq4_nl", 4.38},
      {"q2_k_s", 2.78}, {"q2_k", 2.95}, {"q3_k_s", 3.41}, {"q3_k_l", 4.02}, {"q4_k_s", 4.36}, {"q4_k_m", 4.58},
      {"q5_k_s", 5.21}, {"q5_k_m", 5.33}, {"q6_k", 6.14}, {"q8_0", 7.95}, {"gguf-f16", 14.96}}));
  CAPTURE(id);
  ModelSpec m = preset("llama-3.1-8b-instruct");
  const WeightFormat& f = format(id);
  const double computed = gib(checkpoint_disk_size(m, f, weights_layout(m, f)).total());
  CAPTURE(computed);
  CHECK_THAT(computed, WithinRel(size_gib, 0.02));
}

TEST_CASE("Llama-3.1-70B GGUF disk sizes match published files within 2 percent", "[quantization][gguf][validation]") {
  // bartowski's GGUF files of Llama-3.1-Nemotron-70B-Instruct (the tensor shapes of Llama-3.1-70B),
  // "File Size" column in GB, as listed at https://ozeki.chat/p_8590-understanding-ai-model-files.html
  // (a summary of bartowski's model card). Computed before this test was written: 10 of 12 within
  // 0.01%, Q4_0 -0.38%, IQ4_XS +0.97%. This is the evidence that the quantize README's 70B Q4_K_M
  // 43.1 GB (and its 405B row) are rounded: the file is 42.52 GB.
  const auto [id, size_gb] = GENERATE(table<const char*, double>({
      {"q8_0", 74.98}, {"q6_k", 57.89}, {"q5_k_m", 49.95}, {"q5_k_s", 48.66}, {"q4_k_m", 42.52}, {"q4_k_s", 40.35},
      {"q4_0", 40.12}, {"iq4_xs", 37.90}, {"q3_k_l", 37.14}, {"q3_k_m", 34.27}, {"iq3_m", 31.94}, {"q3_k_s", 30.91}}));
  CAPTURE(id);
  ModelSpec m = preset("llama-3.1-70b-instruct");
  const WeightFormat& f = format(id);
  const double computed_gb = static_cast<double>(checkpoint_disk_size(m, f, weights_layout(m, f)).total()) / 1e9;
  CAPTURE(computed_gb);
  CHECK_THAT(computed_gb, WithinRel(size_gb, 0.02));
}

TEST_CASE("The tensor list adds up to the parameter count for every preset", "[quantization][tensors]") {
  for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
    if (doc->kind != "models") continue;
    const ModelSpec m = preset(std::string(doc->id));
    CAPTURE(doc->id);
    std::int64_t sum = 0;
    for (const auto& t : model_tensors(m)) {
      CHECK(t.elements() > 0);
      sum += t.elements();
    }
    CHECK(sum == count_params(m).total);
  }
}

TEST_CASE("Quantized formats are smaller than bf16 and GGUF mixes are ordered by size", "[quantization][property]") {
  ModelSpec m = preset("qwen2.5-7b-instruct");
  const std::int64_t bf16 = weight_bytes(m, format("bf16"));
  for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
    CAPTURE(f->id);
    if (f->bits_per_weight() >= 16.0) continue;
    CHECK(weight_bytes(m, *f) < bf16);
  }
  std::int64_t previous = 0;
  for (const char* id : {"iq1_s", "iq2_xxs", "q2_k", "q3_k_s", "q3_k_m", "q3_k_l", "q4_k_s", "q4_k_m", "q5_k_s", "q5_k_m", "q6_k", "q8_0"}) {
    CAPTURE(id);
    const std::int64_t bytes = weight_bytes(m, format(id));
    CHECK(bytes > previous);
    previous = bytes;
  }
}

TEST_CASE("Engine buffers of quantized inference follow their documented formulas", "[quantization][engine]") {
  ModelSpec m = preset("meta-llama-3-8b");
  // bitsandbytes: the largest NF4 matrix (gate/up/down: 4096 × 14336) dequantized to 16 bits.
  CHECK(bnb_dequant_buffer_bytes(m, weights_layout(m, format("nf4"))) == 4096LL * 14336 * 2);
  CHECK(bnb_dequant_buffer_bytes(m, weights_layout(m, format("gptq-int4"))) == 0);
  // ExLlamaV2 scratch, largest layer ffn_gate/up (in 4096, out 14336):
  // 4096·14336·2 + 128 + 14336·2048·8·4 + 128 = 117,440,640 + 939,524,224 = 1,056,964,864 B.
  CHECK(gptq_exllama_scratch_bytes(m) == 1'056'964'864);
  // AWQ fused KV cache at fuse_max_seq_len 2048, batch 1: 2 × 32 × 8 × 128 × 2048 × 2 B.
  CHECK(awq_fused_kv_cache_bytes(m, 2048, 1) == 268'435'456);
}

TEST_CASE("llama.cpp warns that a quantized V cache needs flash attention", "[quantization][kv]") {
  ModelSpec m = preset("meta-llama-3-8b");
  InferenceSettings s;
  s.weights = find_weight_format("q4_k_m");
  s.engine = Engine::llama_cpp;
  s.input_tokens = 4096;
  for (const char* kv : {"q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "iq4_nl"}) {
    CAPTURE(kv);
    s.kv_cache = find_kv_cache_format(kv);
    REQUIRE(s.kv_cache != nullptr);
    s.flash_attention = false;
    auto e = estimate_inference_memory(m, s);
    CHECK(test_support::any_contains(e.warnings, "flash attention"));
    s.flash_attention = true;
    e = estimate_inference_memory(m, s);
    CHECK_FALSE(test_support::any_contains(e.warnings, "flash attention"));
  }
  // q4_0 KV: 18 B per 32 elements; 8B at 4096 tokens: 2 × 32 × 8 × 128 × 4096 elements × 18/32.
  s.kv_cache = find_kv_cache_format("q4_0");
  CHECK(kv_cache_bytes(m, *s.kv_cache, 4096, 1) == 2LL * 32 * 8 * 128 * 4096 / 32 * 18);
}

TEST_CASE("The estimate reports weights_detail and group_size for quantized formats", "[quantization][api]") {
  using nlohmann::json;
  json r = test_support::estimate({{"model", "meta-llama-3-8b"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}});
  REQUIRE_FALSE(r.contains("error"));
  const json& d = r["weights_detail"];
  CHECK(d["format"] == "q4_k_m");
  CHECK(d["ecosystem"] == "gguf");
  // Llama-3-8B Q4_K_M: 4.58 GiB file (llama.cpp perplexity scoreboard) → ~4.9 bits per weight.
  CHECK_THAT(d["bits_per_weight"].get<double>(), WithinRel(4.9, 0.01));
  std::int64_t sum = 0;
  for (const auto& [cls, bytes] : d["bytes"].items()) sum += bytes.get<std::int64_t>();
  CHECK(sum == r["disk_bytes"].get<std::int64_t>() - d["disk_metadata_bytes"].get<std::int64_t>());
  // llama.cpp keeps token_embd (Q4_K: 525,336,576 × 4.5 / 8 = 295,501,824 B) in host memory, with
  // the output buffer (llama-context.cpp output_reserve: 128,256 vocab × 1 sequence × 4 B = 513,024)
  // and the CPU's compute buffer (ggml-backend.cpp: graph inputs go to the CPU backend; token_embd's
  // get_rows runs there) for a 512-token micro-batch at 2,048 cells with flash attention: token ids
  // 2,048 + input embeddings 4,096 × 512 × 4 = 8,388,608 + positions 2,048 + K and V cell indices
  // 2 × 512 × 8 = 8,192 + the F16 mask 2,048 × 512 × 2 = 2,097,152 + output ids 2,048 + the lookup
  // 8,388,608 = 18,888,704.
  CHECK(r["memory"]["host_bytes"] == 295'501'824 + 513'024 + 18'888'704);
  CHECK(r["settings"]["kv_cache"] == "fp16");

  r = test_support::estimate({{"model", "meta-llama-3-8b"}, {"weights", "gptq-int4"}, {"group_size", 32}});
  CHECK(r["settings"]["group_size"] == 32);
  CHECK(r["weights_detail"]["group_size"] == 32);
  const json r128 = test_support::estimate({{"model", "meta-llama-3-8b"}, {"weights", "gptq-int4"}});
  CHECK(r["disk_bytes"].get<std::int64_t>() > r128["disk_bytes"].get<std::int64_t>());

  r = test_support::estimate({{"model", "meta-llama-3-8b"}, {"weights", "awq-int4"}, {"group_size", 100}});
  REQUIRE(r.contains("error"));
  CHECK(r["error"]["field"] == "group_size");
  r = test_support::estimate({{"model", "meta-llama-3-8b"}, {"weights", "q4_k_m"}, {"group_size", 64}});
  REQUIRE_FALSE(r.contains("error"));
  CHECK(r["warnings"].dump().find("group_size: ignored") != std::string::npos);
}

TEST_CASE("Llama-3.1-8B-Instruct in NVFP4: linear layers at 9 bytes per 16, the rest 16-bit, by hand", "[quantization][nvfp4]") {
  const ModelSpec m = preset("llama-3.1-8b-instruct");
  const WeightsLayout l = weights_layout(m, format("nvfp4"));
  // Linear weights per layer: q 4096 x 4096, k and v 4096 x 1024, o 4096 x 4096, gate and up
  // 4096 x 14336, down 14336 x 4096 = 218,103,808; x 32 layers = 6,979,321,856 in 224 matrices.
  constexpr std::int64_t kLinear = 32LL * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336);
  static_assert(kLinear == 6'979'321'856);
  // Each: E2M1 codes (n / 2) + one E4M3 scale per 16 (n / 16) + fp32 weight_scale_2 and input_scale.
  constexpr std::int64_t kLinearBytes = kLinear / 2 + kLinear / 16 + 224 * 8;
  // Embedding and lm_head (untied) 128,256 x 4,096 each, 65 RMSNorm weights of 4,096: bf16.
  constexpr std::int64_t kSixteenBitBytes = 2 * (2 * 128256LL * 4096 + 65 * 4096);
  CHECK(kLinearBytes + kSixteenBitBytes == 6'027'749'120);
  CHECK(l.total_bytes == kLinearBytes + kSixteenBitBytes);
  const auto list = tensor_list(m);
  for (std::size_t i = 0; i < list->tensors.size(); ++i) {
    CAPTURE(list->tensors[i].name);
    const bool linear = list->tensors[i].is_matrix() && list->tensors[i].layer >= 0;
    CHECK(l.tensors[i].type == std::string(linear ? "NVFP4" : "BF16"));
  }
  // A published NVFP4 checkpoint of this model (llm-compressor, lm_head kept bf16):
  // huggingface.co/weiweiz1/llama3.1-8b-nvfp, model-00001-of-00002.safetensors 4.98 GB +
  // model-00002-of-00002.safetensors 1.05 GB = 6.03 GB, each figure rounded to 10 MB: within 0.5%.
  CHECK_THAT(static_cast<double>(l.total_bytes), WithinRel(6.03e9, 0.005));
}

TEST_CASE("list_options groups the weight formats by ecosystem", "[quantization][api]") {
  const nlohmann::json o = nlohmann::json::parse(list_options());
  REQUIRE(o["weight_groups"].size() == 5);
  std::size_t listed = 0;
  for (const auto& g : o["weight_groups"]) listed += g["formats"].size();
  CHECK(listed == o["weights"].size());
  CHECK(o["weight_groups"][2]["label"] == "GGUF/llama.cpp");
  for (const auto& kv : o["kv_cache"]) CHECK(kv["bits_per_element"].get<double>() > 0.0);
}

}  // namespace quantization_test
