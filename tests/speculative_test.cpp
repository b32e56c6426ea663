// SPDX-License-Identifier: MIT
// Speculative decoding with a draft model (speculative.hpp): the expected tokens per target step,
// the break-even acceptance, and one pairing worked by hand through the JSON edge: Qwen2.5-32B
// Q4_K_M with a Qwen2.5-0.5B Q8_0 draft in llama-server on a 24 GB RTX 4090 at a 16k context.
#include <cmath>

#include <catch2/catch.hpp>

#include "llmsizer/speculative.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace speculative_test {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using nlohmann::json;
using namespace llmsizer;

TEST_CASE("Tokens per target step follow (1 - a^(k+1)) / (1 - a)", "[speculative]") {
  // α = 0.7, k = 8: 0.7^9 = 0.040353607; (1 - 0.040353607) / 0.3 = 3.198821310.
  CHECK_THAT(tokens_per_target_step(0.7, 8), WithinAbs(3.198821310, 1e-9));
  // α = 0: only the target's own token; α = 1: all k drafted tokens and the target's.
  CHECK_THAT(tokens_per_target_step(0.0, 8), WithinAbs(1.0, 1e-12));
  CHECK_THAT(tokens_per_target_step(1.0, 8), WithinAbs(9.0, 1e-12));
  // α = 0.5, k = 1: (1 - 0.25) / 0.5 = 1.5.
  CHECK_THAT(tokens_per_target_step(0.5, 1), WithinAbs(1.5, 1e-12));
}

TEST_CASE("The break-even acceptance is where the expected tokens pay for the step", "[speculative]") {
  // k = 1 and a step costing 1.5 plain steps: 1 + α = 1.5 → α = 0.5.
  CHECK_THAT(break_even_acceptance(1, 1.5), WithinAbs(0.5, 1e-9));
  // k = 2, cost 1.75: 1 + α + α² = 1.75 → α = (−1 + √(1 + 3)) / 2 = 0.5.
  CHECK_THAT(break_even_acceptance(2, 1.75), WithinAbs(0.5, 1e-9));
  CHECK(break_even_acceptance(4, 1.0) == 0.0);  // free speculation: any α gains
  CHECK(break_even_acceptance(4, 5.0) == 1.0);  // k + 1 tokens cannot pay for it
}

namespace {

json pairing(const char* kv_cache) {
  return {{"model", "qwen2.5-32b-instruct"}, {"weights", "q4_k_m"}, {"kv_cache", kv_cache}, {"engine", "llama.cpp"},
          {"input_tokens", 15360}, {"output_tokens", 1024}, {"hardware", "nvidia-rtx-4090"},
          {"draft", {{"model", "qwen2.5-0.5b-instruct"}, {"weights", "q8_0"}, {"draft_max", 8}, {"acceptance_rate", 0.7}}}};
}

}  // namespace

TEST_CASE("Qwen2.5-32B Q4_K_M with a Qwen2.5-0.5B Q8_0 draft on a 24 GB card at 16k, by hand", "[speculative][llama_cpp]") {
  const json r = test_support::estimate(pairing("q8_0"));
  REQUIRE(r.contains("draft"));
  const json& d = r["draft"];

  // The draft's weights (Q8_0: 34 B per 32 weights; 24 layers of hidden 896, 2 KV heads of 64, FFN 4864):
  //   matrices per layer 896×896 × 2 + 896×128 × 2 + 896×4864 × 3 = 14,909,440 weights × 34/32 = 15,841,280 B,
  //   × 24 = 380,190,720 B; F32 q/k/v biases and two norms (896 + 128 + 128 + 2 × 896) × 4 = 11,776 B × 24
  //   = 282,624 B; output norm 3,584 B; the tied embedding 151,936 × 896 × 34/32 = 144,643,072 B, mapped
  //   on the CPU and copied to the GPU as the output head.
  //   GPU: 380,190,720 + 282,624 + 3,584 + 144,643,072 = 525,120,000 B; with the CPU's copy 669,763,072 B.
  CHECK(d["weights_bytes"].get<std::int64_t>() == 669763072);
  // Its cache: one slot, so one draft context of the slot's 16,384 cells, F16 (the draft's default):
  //   24 layers × 2 (K, V) × 2 KV heads × 64 × 16,384 × 2 B = 201,326,592 B.
  CHECK(d["contexts"] == 1);
  CHECK(d["kv_cache_bytes"].get<std::int64_t>() == 201326592);
  // Its compute buffer: llama-server's draft context outputs one logit row per slot (n_outputs_max =
  // n_parallel), so it holds one row, 151,936 × 4 B = 607,744 B, not a micro-batch's 512 rows
  // (311,164,928 B); with the output buffer (607,744 B) and the graph of 512 tokens it stays far below
  // those 512 rows. (Each buffer of such a context is checked against a real llama.cpp by
  // tests/js/llama_cpp_draft_real.mjs.)
  const double compute = d["compute_bytes"].get<double>();
  CHECK(compute >= 2.0 * 607744.0);
  CHECK(compute < 311164928.0 / 2.0);
  // On the GPU: its weights there, its cache and its device compute buffer; the CUDA context is the target's.
  const std::int64_t device = d["device_bytes"].get<std::int64_t>();
  CHECK(device >= 525120000 + 201326592);
  CHECK(device <= 525120000 + 201326592 + static_cast<std::int64_t>(compute));
  CHECK(d["host_bytes"].get<std::int64_t>() >= 144643072);  // the mapped embedding

  // The pair on the card: 24 GiB less the 1.5 GiB desktop reserve = 25,769,803,776 − 1,610,612,736
  // = 24,159,191,040 B usable; the model's own required bytes plus the draft's GPU bytes.
  const json& fit = d["fit"];
  CHECK(fit["usable_bytes"].get<std::int64_t>() == 24159191040);
  CHECK(fit["required_bytes"].get<std::int64_t>() == r["fit"]["required_bytes"].get<std::int64_t>() + device);
  CHECK(fit["headroom_bytes"].get<std::int64_t>() == 24159191040 - fit["required_bytes"].get<std::int64_t>());
  // With the 32B's cache at q8_0 the pair fits within the 10% margin (2,415,919,104 B): tight.
  CHECK(fit["headroom_bytes"].get<std::int64_t>() > 0);
  CHECK(fit["headroom_bytes"].get<std::int64_t>() < 2415919104);
  CHECK(fit["verdict"] == "tight");

  // Speed at α = 0.7, k = 8: 3.19882 tokens per target step (above).
  CHECK_THAT(d["tokens_per_target_step"].get<double>(), WithinAbs(3.1988, 1e-4));
  const double target = d["step_ms"]["target"].get<double>();
  const double verify = d["step_ms"]["verify"].get<double>();
  const double draft = d["step_ms"]["draft"].get<double>();
  // Decode of the 32B is bound by reading ~19.4 GB of weights at the 4090's 1,008 GB/s: the 9 tokens of a
  // verify step add 9 × 2 × 32.8e9 = 5.9e11 FLOPs, ~6 ms at 60% of its 165 TFLOPS, hidden under the read:
  // a verify step costs what a plain step does (within 10%). The plain step holds llama.cpp's host
  // sampling of its one row (throughput.hpp host_sampling): 152,064 logits × 0.5 ns = 0.076032 ms
  // sampled, 152,064 × 4 B over the 4090's PCIe 4.0 x16 (32 GB/s × 0.75) = 0.025344 ms read back;
  // the verify step's device time holds none (the loop's sampling is counted apart, below).
  const double target_row = 0.076032 + 0.025344;
  CHECK(target > 19.4e9 / 1008e9 * 1e3 + target_row);
  CHECK(verify >= (target - target_row) * 0.999);
  CHECK(verify <= target * 1.10);
  // The draft reads its 0.525 GB on the GPU per step: at least 0.52 ms.
  CHECK(draft >= 0.525e9 / 1008e9 * 1e3);
  // llama-server's draft re-evaluates the 9 verified tokens after each target step: one pass over its
  // weights (9 columns run MMQ, one read of the weights; 9 × 2 × 0.5e9 FLOPs is well under the read):
  // about one draft step (within 5%).
  const double reeval = d["step_ms"]["draft_reeval"].get<double>();
  CHECK(reeval >= draft * 0.999);
  CHECK(reeval <= draft * 1.05);
  // The host's sampling per target step: the verify step's 9 rows read back (9 × 0.025344 ms), the
  // 3.19882 tokens the target keeps sampled (× 0.076032 ms); the draft's 8 decodes and its
  // re-evaluation each read back one row of 151,936 logits (9 × 0.0253227 ms) and 8 are sampled
  // (8 × 0.075968 ms): 0.228096 + 0.243212 + 0.227904 + 0.607744 = 1.306956 ms.
  const double host = d["step_ms"]["host_sampling"].get<double>();
  CHECK_THAT(host, WithinAbs(1.306956, 1e-4));  // the answer rounds step_ms to 4 decimals
  // speedup = 3.19882 × target / (verify + 8 × draft + the re-evaluation + the host's sampling).
  const double expected = 3.198821310 * target / (verify + 8.0 * draft + reeval + host);
  CHECK_THAT(d["speedup"].get<double>(), WithinRel(expected, 1e-3));
  // It pays off, and never beats the tokens it keeps per target step.
  CHECK(d["speedup"].get<double>() > 1.0);
  CHECK(d["speedup"].get<double>() < 3.198821310);
  // The break-even α solves (1 − α⁹) / (1 − α) × (target − 0.076032) = verify + 8 × draft +
  // re-evaluation + the host's sampling but the kept tokens' (each token's sampling is in both sides).
  const double ratio = (verify + 8.0 * draft + reeval + host - 3.198821310 * 0.076032) / (target - 0.076032);
  const double be = d["break_even_acceptance"].get<double>();
  CHECK_THAT(tokens_per_target_step(be, 8), WithinRel(ratio, 2e-3));
  CHECK_THAT(d["decode_tokens_per_s"].get<double>(), WithinRel(d["decode_tokens_per_s_without"].get<double>() * d["speedup"].get<double>(), 1e-3));
  CHECK(d["command_line"].get<std::string>().find("-md DRAFT.gguf --draft-max 8 -ngld all") != std::string::npos);
}

TEST_CASE("On CUDA a verify step of up to 8 positions runs MMVQ: its FLOPs at the vector rate", "[speculative][llama_cpp]") {
  // Llama-3.1-8B Q4_0 on a T4 with k = 7: 8 columns, within ggml-cuda's MMVQ_MAX_BATCH_SIZE (8), whose
  // integer dot products run on the CUDA cores. FLOPs: 2 × 7,504,924,672 (32 layers × 218,112,000 +
  // the 525,336,576 output layer + the 4,096 final norm; the embedding is gathered) × 8 = 1.20079e11,
  // at 60% of the T4's 8.1 TFLOPS FP32 = 4.86e12 FLOP/s: 24.707 ms, above reading its ~4.2 GB of
  // weights at 256 GB/s (16.5 ms). On its 65 TFLOPS tensor cores the same FLOPs would take 3.1 ms.
  const json r = test_support::estimate({{"model", "llama-3.1-8b-instruct"}, {"weights", "q4_0"}, {"engine", "llama.cpp"},
                                         {"input_tokens", 64}, {"output_tokens", 64}, {"hardware", "nvidia-t4"},
                                         {"draft", {{"model", "llama-3.2-1b-instruct"}, {"weights", "q8_0"}, {"draft_max", 7}}}});
  const json& d = r["draft"];
  const double verify = d["step_ms"]["verify"].get<double>();
  // Plus what a 96-token context adds to a plain step (a fraction of a millisecond).
  CHECK(verify >= 24.707 * 0.999);
  CHECK(verify <= 24.707 * 1.03);
}

TEST_CASE("On Apple silicon a verify step costs a plain step per position up to 8, whole 32-column tiles above", "[speculative][llama_cpp]") {
  json request = {{"model", "qwen2.5-32b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"},
                  {"input_tokens", 256}, {"output_tokens", 256}, {"hardware", "apple-m4-pro"}, {"memory_option_bytes", 68719476736},
                  {"draft", {{"model", "qwen2.5-0.5b-instruct"}, {"weights", "q8_0"}, {"draft_max", 4}}}};
  // k = 4: 5 columns run ggml-metal's matrix-vector kernels, one pass over the weights per column:
  // 5 plain steps at a one-token context plus what the 384-token context adds, under 5 plain steps;
  // the graph is dispatched once, so its kernels' fixed time (step_ms.dispatch) counts once, not 5 times.
  const json answer = test_support::estimate(request);
  json d = answer["draft"];
  double target = d["step_ms"]["target"].get<double>();
  const double dispatch = answer["throughput"]["step_ms"]["dispatch"].get<double>();
  CHECK(dispatch > 0.0);
  CHECK(d["step_ms"]["verify"].get<double>() <= 5.0 * target - 4.0 * dispatch);
  CHECK(d["step_ms"]["verify"].get<double>() >= 4.9 * target - 4.0 * dispatch);

  // k = 16: 17 columns run mul_mm, whose tiles are 32 columns wide. FLOPs: 2 × 31,985,308,672
  // (64 layers × 487,605,248 + the 778,567,680 output layer + the 5,120 final norm) × 32 = 2.04706e12,
  // at 60% of the M4 Pro's 9.2 TFLOPS = 5.52e12 FLOP/s: 370.84 ms, above reading ~19.9 GB of weights
  // at 191.1 GB/s (104 ms); plus the context's part (under 2 ms).
  request["draft"]["draft_max"] = 16;
  d = test_support::estimate(request)["draft"];
  CHECK(d["step_ms"]["verify"].get<double>() >= 370.84 * 0.999);
  CHECK(d["step_ms"]["verify"].get<double>() <= 370.84 + 2.0);
}

TEST_CASE("At an F16 cache the 32B alone needs the GPU's last bytes; with its draft it offloads", "[speculative][llama_cpp]") {
  // The 32B's F16 cache: 64 layers × 2 × 8 KV heads × 128 × 16,384 × 2 B = 4,294,967,296 B, beside its
  // 19.4 GB of weights: more than the 24,159,191,040 B usable with the CUDA context and compute buffers.
  const json r = test_support::estimate(pairing("fp16"));
  CHECK(r["llama_cpp"]["buffers"]["kv_device"].get<std::int64_t>() == 4294967296);
  CHECK(r["fit"]["verdict"] == "offload");
  CHECK(r["draft"]["fit"]["verdict"] == "offload");
  CHECK(r["draft"]["fit"]["headroom_bytes"].get<std::int64_t>() < 0);
}

TEST_CASE("A draft is only in the answer when asked for, and its errors name its field", "[speculative][api]") {
  json plain = pairing("q8_0");
  plain.erase("draft");
  CHECK_FALSE(test_support::estimate(plain).contains("draft"));

  json bad = pairing("q8_0");
  bad["draft"]["draft_max"] = 0;
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft.draft_max");
  bad = pairing("q8_0");
  bad["draft"]["acceptance_rate"] = 1.5;
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft.acceptance_rate");
  bad = pairing("q8_0");
  bad["draft"]["model"] = "no-such-model";
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft.model");
  bad = pairing("q8_0");
  bad["draft"] = 3;
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft");
  bad = pairing("q8_0");
  bad["engine"] = "ollama";
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft");
  bad = pairing("q8_0");
  bad["draft"]["model"] = json{{"params", 1000000}};
  CHECK(test_support::estimate(bad)["error"]["field"] == "draft.model");

  // Several slots: llama-server makes one draft context for all of them (the target's -c of both slots'
  // cells, two sequences): twice the cache, one compute buffer (one graph of a micro-batch; a logit
  // row more, 607,744 B, and the second sequence's output row), the weights once.
  json slots = pairing("q8_0");
  slots["parallel"] = 2;
  const json one = test_support::estimate(pairing("q8_0"))["draft"];
  const json two = test_support::estimate(slots)["draft"];
  CHECK(two["contexts"] == 1);
  CHECK(two["weights_bytes"] == one["weights_bytes"]);
  CHECK(two["kv_cache_bytes"].get<std::int64_t>() == 2 * one["kv_cache_bytes"].get<std::int64_t>());
  CHECK(two["compute_bytes"].get<double>() < 1.5 * one["compute_bytes"].get<double>());

  // Without hardware: the memory and the expected tokens per step, no speed and no fit.
  json bare = pairing("q8_0");
  bare.erase("hardware");
  const json d = test_support::estimate(bare)["draft"];
  CHECK(d["speedup"].is_null());
  CHECK_FALSE(d.contains("fit"));
  CHECK_THAT(d["tokens_per_target_step"].get<double>(), WithinAbs(3.1988, 1e-4));
}

TEST_CASE("Every engine and placement answers a draft: the speed-up grows with the acceptance and is 1 at the break-even", "[speculative][api]") {
  const char* engines[] = {"generic", "transformers", "vllm", "llama.cpp", "sglang", "litgpt"};
  const char* devices[] = {"nvidia-a100-80gb-sxm", "apple-m4-max", "amd-ryzen-9-7950x"};
  for (const char* engine : engines) {
    for (const char* device : devices) {
      for (int gpus : {0, 1, 2}) {
        if (gpus == 2 && std::string(device) != "nvidia-a100-80gb-sxm") continue;
        json request = {{"model", "qwen2.5-7b-instruct"}, {"engine", engine}, {"gpus", gpus}, {"hardware", device},
                        {"input_tokens", 2048}, {"output_tokens", 512}, {"draft", {{"model", "qwen2.5-0.5b-instruct"}, {"draft_max", 4}}}};
        CAPTURE(engine, device, gpus);
        const json low = test_support::estimate(request);
        REQUIRE(low.contains("draft"));
        const json& d = low["draft"];
        CHECK(d["acceptance_rate"] == kDefaultAcceptanceRate);
        CHECK_FALSE(d["acceptance_rate_given"].get<bool>());
        CHECK(d["weights_bytes"].get<std::int64_t>() > 0);
        CHECK(d["device_bytes"].get<std::int64_t>() + d["host_bytes"].get<std::int64_t>() >=
              d["kv_cache_bytes"].get<std::int64_t>());
        REQUIRE(d["speedup"].is_number());
        const double be = d["break_even_acceptance"].get<double>();
        CHECK(be >= 0.0);
        CHECK(be <= 1.0);
        // At a higher acceptance more tokens per step for the same steps: faster.
        request["draft"]["acceptance_rate"] = 0.9;
        const double high = test_support::estimate(request)["draft"]["speedup"].get<double>();
        CHECK(high > d["speedup"].get<double>());
        // At the break-even acceptance (when one exists below 1), the draft neither gains nor loses.
        if (be > 0.0 && be < 1.0) {
          request["draft"]["acceptance_rate"] = be;
          CHECK_THAT(test_support::estimate(request)["draft"]["speedup"].get<double>(), WithinAbs(1.0, 2e-3));
        }
      }
    }
  }
}

TEST_CASE("llama.cpp pairs a draft only within 128 tokens of the target's vocabulary", "[speculative]") {
  ModelSpec target;
  ModelSpec draft;
  target.vocab_size = 152064;  // Qwen2.5-7B's padded vocabulary
  draft.vocab_size = 151936;   // Qwen2.5-0.5B's: 128 fewer, still paired
  CHECK(draft_vocab_compatible(target, draft));
  draft.vocab_size = 151935;  // 129 fewer
  CHECK_FALSE(draft_vocab_compatible(target, draft));
  draft.vocab_size = 0;  // unknown: not refused
  CHECK(draft_vocab_compatible(target, draft));
  // Through a request: a Llama draft for a Qwen model is warned about, naming both vocabularies.
  const json a = test_support::estimate({{"model", "qwen2.5-7b-instruct"}, {"engine", "llama.cpp"}, {"weights", "q4_k_m"},
                                         {"draft", {{"model", "llama-3.2-1b-instruct"}}}});
  bool warned = false;
  for (const json& w : a["warnings_data"]) warned = warned || w["id"] == "warning.draft.vocab_differs";
  CHECK(warned);
}

TEST_CASE("DeepSeek-V3's own MTP layer as its draft under vLLM on 8 H200: its weights, its cache, the expected tokens", "[speculative]") {
  const json r = {{"model", "deepseek-v3"}, {"weights", "fp8"}, {"engine", "vllm"}, {"hardware", "nvidia-h200-sxm"}, {"gpus", 8},
                  {"input_tokens", 1000}, {"output_tokens", 1000}, {"draft", {{"method", "mtp"}}}};
  const json d = test_support::estimate(r)["draft"];
  CHECK(d["method"] == "mtp");
  CHECK(d["draft_max"] == 1);  // vLLM's advice for MTP (kDefaultMtpDraftMax)
  // The model card: "14B of MTP Module weights" (13.46B: one MoE decoder layer with its own copies of
  // the 129,280 × 7,168 embedding and head). FP8 for the linear layers, the two copies in BF16:
  // (13.46e9 − 2 × 0.9267e9) × 1 B + 2 × 0.9267e9 × 2 B = 15.31 GB over the 8 GPUs.
  const double copies = 2.0 * 129280.0 * 7168.0;
  const double expected = (13.46e9 - copies) * 1.0 + copies * 2.0;
  CHECK_THAT(d["weights_bytes"].get<double>() * 8, WithinRel(expected, 0.03));
  // Its cache: one MLA layer, (512 + 64) elements of 2 B a token, whole on every GPU, 2,000 tokens.
  CHECK(d["kv_cache_bytes"].get<std::int64_t>() == 576 * 2 * 2000);
  CHECK(d["compute_bytes"] == 0);
  // DeepSeek-V3 report §5.4.3: 85-90% of second tokens accepted; at 0.85 and k 1, 1.85 tokens a step.
  CHECK(d["acceptance_rate"].get<double>() == 0.85);
  CHECK_THAT(d["tokens_per_target_step"].get<double>(), WithinAbs(1.85, 1e-9));
  CHECK(d["command_line"].get<std::string>().find("\"method\": \"mtp\"") != std::string::npos);
}

TEST_CASE("An MTP draft needs a model that ships MTP layers and an engine that runs them, each error naming draft.method", "[speculative]") {
  json no_layers = {{"model", "qwen2.5-7b-instruct"}, {"engine", "vllm"}, {"draft", {{"method", "mtp"}}}};
  const json a = test_support::estimate(no_layers);
  REQUIRE(a.contains("error"));
  CHECK(a["error"]["field"] == "draft.method");
  json llama = {{"model", "deepseek-v3"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"}, {"draft", {{"method", "mtp"}}}};
  const json b = test_support::estimate(llama);
  REQUIRE(b.contains("error"));
  CHECK(b["error"]["field"] == "draft.method");
  json unknown = {{"model", "deepseek-v3"}, {"engine", "vllm"}, {"draft", {{"method", "eagle"}}}};
  CHECK(test_support::estimate(unknown)["error"]["field"] == "draft.method");
}


namespace {

/// Llama-3.1-8B Q4_0 on a T4 with a Llama-3.2-1B Q8_0 draft, k = 5, α = 0.7 (default), run by `program`
/// (null: the request leaves it out).
json t4_pair(const json& program) {
  json draft = {{"model", "llama-3.2-1b-instruct"}, {"weights", "q8_0"}, {"draft_max", 5}};
  if (!program.is_null()) draft["program"] = program;
  return {{"model", "llama-3.1-8b-instruct"}, {"weights", "q4_0"}, {"engine", "llama.cpp"},
          {"input_tokens", 64}, {"output_tokens", 64}, {"hardware", "nvidia-t4"}, {"draft", draft}};
}

}  // namespace

TEST_CASE("llama-speculative's loop: k + 1 single-token draft steps and no re-evaluation, worked by hand", "[speculative][llama_cpp]") {
  const json d = test_support::estimate(t4_pair("llama-speculative"))["draft"];
  CHECK(d["program"] == "llama-speculative");
  // Tokens per target step at α = 0.7, k = 5: 0.7^6 = 0.117649; (1 − 0.117649) / 0.3 = 2.941170.
  CHECK_THAT(d["tokens_per_target_step"].get<double>(), WithinAbs(2.9412, 1e-4));
  // The example's draft decodes the kept token and the 5 drafted ones, one at a time: 6 steps, no pass
  // over the verified tokens (examples/speculative/speculative.cpp; speculative.cpp cites the lines).
  CHECK(d["draft_steps"] == 6);
  const json& ms = d["step_ms"];
  CHECK_FALSE(ms.contains("draft_reeval"));
  const double target = ms["target"].get<double>();
  const double verify = ms["verify"].get<double>();
  const double draft = ms["draft"].get<double>();
  // The verify step of 6 columns runs MMVQ (≤ 8 columns): 2 × 7,504,924,672 × 6 = 9.00591e10 FLOPs at
  // 60% of the T4's 8.1 TFLOPS FP32 = 18.531 ms, above reading the weights; plus the context's part.
  CHECK(verify >= 18.531 * 0.999);
  CHECK(verify <= 18.531 * 1.03);
  // The host's sampling per target step (throughput.hpp host_sampling; Llama 3's 128,256 logits, the
  // T4's PCIe 3.0 x16 at 16 GB/s × 0.75): the verify step's 6 rows read back (6 × 0.042752 ms), the
  // 2.941170 kept tokens sampled (× 0.064128 ms), the draft's 6 decodes each read back a row (6 ×
  // 0.042752 ms) and 5 sampled (5 × 0.064128 ms): 0.256512 + 0.188612 + 0.256512 + 0.32064 = 1.022276 ms.
  const double host = ms["host_sampling"].get<double>();
  CHECK_THAT(host, WithinAbs(1.022276, 1e-4));
  // The plain target step carries its own row's sampling; the verify and draft steps are the
  // device's only: speed-up = tokens per step × target / (verify + 6 × draft + host sampling).
  const double expected = 2.941170 * target / (verify + 6.0 * draft + host);
  CHECK_THAT(d["speedup"].get<double>(), WithinRel(expected, 1e-3));
  // The break-even α: (1 − α⁶) / (1 − α) × (target − 0.064128) = verify + 6 × draft + the host's
  // sampling but the kept tokens'.
  const double ratio = (verify + 6.0 * draft + host - 2.941170 * 0.064128) / (target - 0.064128);
  CHECK_THAT(tokens_per_target_step(d["break_even_acceptance"].get<double>(), 5), WithinRel(ratio, 2e-3));
  CHECK(d["command_line"].get<std::string>().rfind("llama-speculative -m MODEL.gguf", 0) == 0);
  CHECK(d["command_line"].get<std::string>().find("-md DRAFT.gguf --draft-max 5 -ngld all") != std::string::npos);
}

TEST_CASE("llama-server's loop is the default and unchanged: k single-token draft steps and the re-evaluation", "[speculative][llama_cpp]") {
  const json absent = test_support::estimate(t4_pair(nullptr))["draft"];
  const json server = test_support::estimate(t4_pair("llama-server"))["draft"];
  // Leaving the field out is naming llama-server: the same answer, byte for byte.
  CHECK(absent.dump() == server.dump());
  CHECK(server["program"] == "llama-server");
  CHECK(server["draft_steps"] == 5);
  const json& ms = server["step_ms"];
  REQUIRE(ms.contains("draft_reeval"));
  // speed-up = 2.941170 × target / (verify + 5 × draft + the re-evaluation of the 6 verified tokens +
  // the host's sampling). Its draft reads back 6 rows too (5 decodes and the re-evaluation's last) and
  // samples 5: the same 1.022276 ms as llama-speculative's.
  CHECK_THAT(ms["host_sampling"].get<double>(), WithinAbs(1.022276, 1e-4));
  const double expected = 2.941170 * ms["target"].get<double>() /
                          (ms["verify"].get<double>() + 5.0 * ms["draft"].get<double>() + ms["draft_reeval"].get<double>() +
                           ms["host_sampling"].get<double>());
  CHECK_THAT(server["speedup"].get<double>(), WithinRel(expected, 1e-3));
  // The steps are the same in both programs (the same context, cache and placement); only the loop differs.
  const json speculative = test_support::estimate(t4_pair("llama-speculative"))["draft"];
  for (const char* step : {"target", "verify", "draft", "host_sampling"}) CHECK(speculative["step_ms"][step] == ms[step]);
  CHECK(speculative["kv_cache_bytes"] == server["kv_cache_bytes"]);
  CHECK(server["command_line"].get<std::string>().rfind("llama-server -m MODEL.gguf", 0) == 0);
}

TEST_CASE("llama-speculative's draft cache takes the target's cache type, llama-server's stays F16", "[speculative][llama_cpp]") {
  // The 32B and 0.5B pair at 16k with the target's cache at q8_0. llama-server: the draft's cache is
  // F16, 201,326,592 B (above). llama-speculative makes the draft context from the target's params,
  // -ctk/-ctv included: 24 layers × 2 × 2 KV heads × 64 × 16,384 cells × 34/32 B (q8_0) = 106,954,752 B.
  json request = pairing("q8_0");
  CHECK(test_support::estimate(request)["draft"]["kv_cache_bytes"].get<std::int64_t>() == 201326592);
  request["draft"]["program"] = "llama-speculative";
  const json d = test_support::estimate(request)["draft"];
  CHECK(d["kv_cache_bytes"].get<std::int64_t>() == 106954752);
  CHECK(d["contexts"] == 1);
}

TEST_CASE("draft.program: llama.cpp only, two values, one sequence for llama-speculative; errors name the field", "[speculative][api]") {
  json unknown = t4_pair("llama-cli");
  const json a = test_support::estimate(unknown);
  REQUIRE(a.contains("error"));
  CHECK(a["error"]["field"] == "draft.program");
  CHECK(a["error"]["message"].get<std::string>().find("llama-server, llama-speculative") != std::string::npos);
  json vllm = pairing("fp16");
  vllm["engine"] = "vllm";
  vllm["draft"]["program"] = "llama-server";
  const json b = test_support::estimate(vllm);
  REQUIRE(b.contains("error"));
  CHECK(b["error"]["field"] == "draft.program");
  CHECK(b["error"]["message_data"]["id"] == "error.draft.program_engine");
  json batch = t4_pair("llama-speculative");
  batch["batch"] = 2;
  const json c = test_support::estimate(batch);
  REQUIRE(c.contains("error"));
  CHECK(c["error"]["field"] == "draft.program");
  CHECK(c["error"]["message_data"]["id"] == "error.draft.program_one_sequence");
  // Several sequences stay llama-server's to serve.
  batch["draft"]["program"] = "llama-server";
  CHECK_FALSE(test_support::estimate(batch).contains("error"));
}

TEST_CASE("Before graph reuse every llama.cpp decode of the loop builds its graph: each draft decode and the verify step pay it once", "[speculative][llama_cpp]") {
  // throughput.hpp kLlamaCppGraphBuildSecondsPerLayer: 4.2 µs per layer for builds up to b5943.
  json request = t4_pair("llama-speculative");
  const json now = test_support::estimate(request)["draft"];
  request["engine_version"] = "b4000";
  const json then = test_support::estimate(request)["draft"];
  const json& a = now["step_ms"];
  const json& b = then["step_ms"];
  // Llama-3.1-8B's 32 layers: 0.1344 ms on the plain step and on the verify step (one forward of 6
  // columns, one graph); Llama-3.2-1B's 16 layers: 0.0672 ms on each of the draft's decodes.
  CHECK_THAT(b["target"].get<double>() - a["target"].get<double>(), WithinAbs(0.1344, 1e-9));
  CHECK_THAT(b["verify"].get<double>() - a["verify"].get<double>(), WithinAbs(0.1344, 1e-9));
  CHECK_THAT(b["draft"].get<double>() - a["draft"].get<double>(), WithinAbs(0.0672, 1e-9));
  CHECK(b["host_sampling"] == a["host_sampling"]);
  // A round of 6 draft decodes and the verify step pays 6 × 0.0672 + 0.1344 = 0.5376 ms more, the
  // plain step 0.1344 ms: speed-up = 2.941170 × target / (verify + 6 × draft + host sampling).
  const double expected = 2.941170 * b["target"].get<double>() /
                          (b["verify"].get<double>() + 6.0 * b["draft"].get<double>() + b["host_sampling"].get<double>());
  CHECK_THAT(then["speedup"].get<double>(), WithinRel(expected, 1e-3));
  CHECK(then["speedup"].get<double>() < now["speedup"].get<double>());
}

TEST_CASE("On Apple silicon a verify step of matrix-vector passes still builds one graph", "[speculative][llama_cpp]") {
  json request = {{"model", "qwen2.5-32b-instruct"}, {"weights", "q4_k_m"}, {"engine", "llama.cpp"},
                  {"input_tokens", 256}, {"output_tokens", 256}, {"hardware", "apple-m4-pro"}, {"memory_option_bytes", 68719476736},
                  {"draft", {{"model", "qwen2.5-0.5b-instruct"}, {"weights", "q8_0"}, {"draft_max", 4}}}};
  const json now = test_support::estimate(request)["draft"]["step_ms"];
  request["engine_version"] = "b4000";
  const json then = test_support::estimate(request)["draft"]["step_ms"];
  // Qwen2.5-32B's 64 layers × 4.2 µs = 0.2688 ms: once on the 5-column verify step, not once per column.
  CHECK_THAT(then["verify"].get<double>() - now["verify"].get<double>(), WithinAbs(0.2688, 1e-9));
  CHECK_THAT(then["target"].get<double>() - now["target"].get<double>(), WithinAbs(0.2688, 1e-9));
}

}  // namespace speculative_test
