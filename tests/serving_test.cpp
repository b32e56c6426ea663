// SPDX-License-Identifier: MIT
// Serving under load (serving.hpp, step_model.hpp, serve_engine.hpp): the worked example of the
// contract — Llama-3.1-8B FP8 on one H100 SXM under vLLM, 1,000 prompt and 1,000 answer tokens,
// 64 people at once — each part by hand, then the simulation's behaviour.
#include <cmath>

#include <catch2/catch.hpp>

#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/quantization.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/throughput.hpp"
#include "llmsizer/cost.hpp"
#include "llmsizer/serving.hpp"
#include "llmsizer/step_model.hpp"
#include "test_support.hpp"

namespace serving_test {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using nlohmann::json;
using namespace llmsizer;

json worked_example() {
  return {{"task", "serve"},
          {"model", "llama-3.1-8b-instruct"},
          {"weights", "fp8"},
          {"kv_cache", "fp8"},
          {"engine", "vllm"},
          {"hardware", "nvidia-h100-sxm"},
          {"workload", {{"input_tokens", 1000}, {"output_tokens", 1000}, {"concurrency", 64}}}};
}

// Llama-3.1-8B (config.json): 32 layers, hidden 4096, 32 heads, 8 KV heads, head_dim 128,
// intermediate 14336, vocab 128256, untied. Linear weights per layer: q 4096² + k, v 4096 × 1024
// each + o 4096² = 41,943,040; MLP 3 × 4096 × 14336 = 176,160,768; × 32 = 6,979,321,856.
constexpr double kLinearParams = 6'979'321'856.0;
constexpr double kEmbeddingParams = 128256.0 * 4096.0;  // 525,336,576, and as many in lm_head
// H100 SXM datasheet: 3,350 GB/s, 1,979 dense FP8 TFLOPS; achievable 0.8 and 0.6 of them (throughput.hpp).
constexpr double kBandwidth = 3350e9 * 0.8;
constexpr double kFp8Flops = 1979e12 * 0.6;
// FP8 KV cache: 32 layers × 2 (K, V) × 8 heads × 128 × 1 byte.
constexpr double kKvBytesPerToken = 32.0 * 2 * 8 * 128;
// Activations a token moves through vLLM's kernels between the GEMMs (step_model.hpp
// activation_elements_per_token), 16-bit, per layer: two fused residual norms 2 × 4 × 4,096;
// rotary on q (4,096) and k (1,024), read and written, 2 × 5,120; the cache write reading k and v
// 2 × 1,024; SiluAndMul 3 × 14,336. (32,768 + 10,240 + 2,048 + 43,008) × 32 layers × 2 B =
// 5,636,096 B.
constexpr double kActivationBytesPerToken = (8.0 * 4096 + 2 * (4096 + 1024) + 2 * 1024 + 3 * 14336) * 32 * 2;

TEST_CASE("Worked example: the KV pool is 0.9 of the H100 less the weights and the profile's reserve", "[serving]") {
  const json a = test_support::estimate(worked_example());
  REQUIRE(a.contains("serving"));
  const json& s = a["serving"];
  // Weights: FP8 linears (1 B each) + 16-bit embedding and lm_head + norms ≈ 9.08 GB.
  const double weights = kLinearParams + 2 * kEmbeddingParams * 2;
  CHECK_THAT(a["memory"]["parts"]["weights"].get<double>(), WithinRel(weights, 0.001));
  // Pool = gpu_memory_utilization 0.9 × 80 GiB − weights − (activations + CUDA context) from the
  // memory estimate; tokens = pool / 65,536 B, whole 16-token blocks.
  const double reserved = a["memory"]["parts"]["activations"].get<double>() + a["memory"]["parts"]["overhead"].get<double>();
  const double pool = 0.9 * 80.0 * (1LL << 30) - a["memory"]["parts"]["weights"].get<double>() - reserved;
  CHECK_THAT(s["kv_pool_bytes"].get<double>(), WithinRel(pool, 1e-6));
  const double tokens = std::floor(std::floor(pool / kKvBytesPerToken) / 16) * 16;
  CHECK_THAT(s["kv_capacity_tokens"].get<double>(), WithinAbs(tokens, 16));
  // 2,000 tokens a request: the pool holds ~500, below vLLM V1's max_num_seqs on an 80 GB H100
  // (1024, arg_utils.py get_batch_defaults), so the pool binds.
  CHECK(s["max_concurrency"].get<std::int64_t>() == s["kv_capacity_tokens"].get<std::int64_t>() / 2000);
}

TEST_CASE("A KV cache size set in tokens replaces vLLM's share and caps TensorRT-LLM's, never beyond the memory left", "[serving]") {
  // The worked example's pool holds ~1.0M tokens (0.9 × 80 GiB less ~10 GB, 65,536 B a token).
  json r = worked_example();
  r["serve"] = {{"kv_cache_tokens", 100000}};
  json s = test_support::estimate(r)["serving"];
  // vLLM --num-gpu-blocks-override: 100,000 tokens (6,250 blocks of 16), 100,000 × 65,536 B.
  CHECK(s["kv_capacity_tokens"] == 100000);
  CHECK_THAT(s["kv_pool_bytes"].get<double>(), WithinRel(100000 * kKvBytesPerToken, 1e-9));
  // 2,000 tokens a request: 100,000 / 2,000 = 50 requests at once, below max_num_seqs 256.
  CHECK(s["max_concurrency"] == 50);
  // More than the memory holds: the memory left after the weights and the reserve (80 GiB, not its 0.9).
  r["serve"] = {{"kv_cache_tokens", 9000000}};
  const json a = test_support::estimate(r);
  const double left = 80.0 * (1LL << 30) - a["memory"]["parts"]["weights"].get<double>() - a["memory"]["parts"]["activations"].get<double>() -
                      a["memory"]["parts"]["overhead"].get<double>();
  CHECK_THAT(a["serving"]["kv_capacity_tokens"].get<double>(), WithinAbs(std::floor(left / kKvBytesPerToken / 16) * 16, 16));
  // TensorRT-LLM max_tokens_in_paged_kv_cache: the smaller of it and the 0.9-of-free pool.
  r = worked_example();
  r["engine"] = "tensorrt-llm";
  const double share = test_support::estimate(r)["serving"]["kv_capacity_tokens"].get<double>();
  r["serve"] = {{"kv_cache_tokens", 9000000}};
  CHECK(test_support::estimate(r)["serving"]["kv_capacity_tokens"].get<double>() == share);
  r["serve"] = {{"kv_cache_tokens", 64000}};
  CHECK(test_support::estimate(r)["serving"]["kv_capacity_tokens"] == 64000);  // blocks of 64 tokens
  r["serve"] = {{"kv_cache_tokens", 0}};
  CHECK(test_support::estimate(r)["error"]["field"] == "serve.kv_cache_tokens");
}

TEST_CASE("A served TensorRT-LLM request's first token also crosses Triton's ensemble; an offline run's does not", "[serving]") {
  // One request alone: its time to first token is its prefill step, plus, when served, the
  // ensemble's 4.69 − 0.63 = 4.06 ms (tensorrtllm_backend docs/encoder_decoder.md, serve_engine.cpp).
  json r = worked_example();
  r["engine"] = "tensorrt-llm";
  r["workload"] = {{"input_tokens", 1000}, {"output_tokens", 100}, {"max_throughput", true}, {"requests", 1}};
  const json offline = test_support::estimate(r)["serving"];
  r["workload"] = {{"input_tokens", 1000}, {"output_tokens", 100}, {"concurrency", 1}, {"requests", 1}};
  const json served = test_support::estimate(r)["serving"];
  CHECK_THAT(served["ttft_ms"]["mean"].get<double>() - offline["ttft_ms"]["mean"].get<double>(), WithinAbs(4.06, 1e-9));
  // End-to-end seconds are printed to the millisecond: the difference within one.
  CHECK_THAT(served["e2e_latency_s"]["mean"].get<double>() - offline["e2e_latency_s"]["mean"].get<double>(), WithinAbs(4.06e-3, 1e-3));
  // The tokens after the first come as fast: the ensemble is on the path of every token alike.
  CHECK_THAT(served["tpot_ms"]["mean"].get<double>(), WithinRel(offline["tpot_ms"]["mean"].get<double>(), 1e-12));
  bool listed = false;
  for (const json& e : served["explain"]) listed = listed || e["id"] == "front_end";
  CHECK(listed);
  // vLLM's API server has no published figure: nothing is added (the worked example's steps stand).
  r["engine"] = "vllm";
  const json vllm_served = test_support::estimate(r)["serving"];
  r["workload"]["max_throughput"] = true;
  r["workload"].erase("concurrency");
  CHECK_THAT(vllm_served["ttft_ms"]["mean"].get<double>(), WithinRel(test_support::estimate(r)["serving"]["ttft_ms"]["mean"].get<double>(), 1e-12));
}

TEST_CASE("Worked example: the decode step at the steady batch, part by part", "[serving]") {
  const json s = test_support::estimate(worked_example())["serving"];
  const double batch = s["steady_batch"].get<double>();
  // Closed loop of 64: all 64 decode except while a new prompt is computed.
  CHECK(batch > 60.0);
  CHECK(batch <= 64.0);
  const double b = std::round(batch);
  // Weights read once: everything but the gathered embedding table, 9.08 − 1.05 GB at 2.68 TB/s.
  const double weights_s = (kLinearParams + kEmbeddingParams * 2) / kBandwidth;
  CHECK_THAT(s["step"]["weights_ms"].get<double>(), WithinRel(weights_s * 1e3, 0.002));
  // KV read: each sequence halfway through its answer, 1,500 tokens of 65,536 B.
  const double kv_s = b * 1500 * kKvBytesPerToken / kBandwidth;
  CHECK_THAT(s["step"]["kv_read_ms"].get<double>(), WithinRel(kv_s * 1e3, 0.002));
  // Compute stays below both: 2 × 8.03e9 × 62 = 1.0e12 FLOPs at 1.19 PFLOPS = 0.84 ms < 3 ms.
  CHECK(s["step"]["compute_ms"].get<double>() == 0.0);
  // Each decode token's activations: 62 × 5.64 MB at 2.68 TB/s ≈ 0.13 ms.
  const double activations_s = b * kActivationBytesPerToken / kBandwidth;
  CHECK_THAT(s["step"]["activations_ms"].get<double>(), WithinRel(activations_s * 1e3, 0.002));
  // vLLM V1's host time per step 1.0 ms; no launch time (a CUDA graph), no communication (tp 1).
  CHECK_THAT(s["step"]["engine_overhead_ms"].get<double>(), WithinAbs(1.0, 1e-9));
  const double total_ms = (weights_s + kv_s + activations_s) * 1e3 + 1.0;
  CHECK_THAT(s["step"]["total_ms"].get<double>(), WithinRel(total_ms, 0.002));
}

TEST_CASE("Worked example: output tokens per second from the steps of one answer", "[serving]") {
  const json s = test_support::estimate(worked_example())["serving"];
  // Each of the 64 answers takes 1,000 decode steps, its context growing from 1,000 to 2,000
  // tokens (the step above at 1,500 is their mean), and its prompt's 1,000 tokens are computed in
  // one mixed step: 2 × (6.98e9 + 0.53e9 output layer once) FLOPs per token at 1.19 PFLOPS adds
  // 11.8 ms per prompt, and its 1,000 tokens' activations 2.1 ms; 64 prompts over the 1,000 steps
  // of a cycle.
  const double decode_step = (kLinearParams + kEmbeddingParams * 2) / kBandwidth + 64 * 1500 * kKvBytesPerToken / kBandwidth +
                             64 * kActivationBytesPerToken / kBandwidth + 1e-3;
  const double prompt_s = 2.0 * kLinearParams * 1000 / kFp8Flops + 1000 * kActivationBytesPerToken / kBandwidth;
  const double cycle_s = 1000 * decode_step + 64 * prompt_s;
  const double tokens_per_s = 64 * 1000 / cycle_s;
  // Within 5%: the first wave's staggered start and the last one's drain are not in the cycle.
  CHECK_THAT(s["output_tokens_per_s"].get<double>(), WithinRel(tokens_per_s, 0.05));
  // Each person's tokens come one a step, the steps that also compute others' prompts included.
  CHECK_THAT(s["per_user_output_tokens_per_s"].get<double>(), WithinRel(1000 / cycle_s, 0.05));
  CHECK(s["requests_simulated"] == 1000);
  CHECK(s["preemptions"] == 0);
}

TEST_CASE("The curve runs from one person to what the cache holds, throughput rising and each person's speed falling", "[serving]") {
  const json s = test_support::estimate(worked_example())["serving"];
  const json& curve = s["curve"];
  REQUIRE(curve.size() == 9);  // 1, 2, 4, ..., 256
  CHECK(curve.front()["concurrency"] == 1);
  CHECK(curve.back()["concurrency"] == 256);
  for (std::size_t i = 1; i < curve.size(); ++i) {
    CHECK(curve[i]["output_tokens_per_s_per_gpu"].get<double>() > curve[i - 1]["output_tokens_per_s_per_gpu"].get<double>());
    CHECK(curve[i]["per_user_output_tokens_per_s"].get<double>() < curve[i - 1]["per_user_output_tokens_per_s"].get<double>());
  }
  // One person alone: a decode step of the weights (3.0 ms), ~1,500 tokens of cache (0.04 ms) and
  // the engine's 1.0 ms: ~248 tokens/s.
  CHECK_THAT(curve.front()["per_user_output_tokens_per_s"].get<double>(), WithinRel(1.0 / (3.0e-3 + 1500 * kKvBytesPerToken / kBandwidth + 1e-3), 0.03));
}

TEST_CASE("A latency target the load misses asks for more replicas, and more replicas meet it", "[serving]") {
  json r = worked_example();
  r["workload"]["concurrency"] = 256;
  r["slo"] = {{"tpot_ms", 8.0}, {"percentile", 90}};
  const json s = test_support::estimate(r)["serving"];
  CHECK(s["meets_slo"] == true);
  CHECK(s["replicas"].get<int>() > 1);
  CHECK(s["gpus_needed"] == s["replicas"].get<int>() * s["gpus_per_replica"].get<int>());
  CHECK(s["tpot_ms"]["p90"].get<double>() <= 8.0);
  // One replica fewer misses it.
  json fewer = r;
  fewer.erase("slo");
  fewer["workload"]["concurrency"] = (256 + s["replicas"].get<int>() - 2) / (s["replicas"].get<int>() - 1);
  const json one_less = test_support::estimate(fewer)["serving"];
  CHECK(one_less["tpot_ms"]["p90"].get<double>() > 8.0);
}

TEST_CASE("More people never need less memory nor give each person more speed", "[serving]") {
  double last_per_user = 1e9;
  for (int people : {1, 8, 64, 200}) {
    json r = worked_example();
    r["workload"]["concurrency"] = people;
    r["workload"]["requests"] = 4 * people;
    const json s = test_support::estimate(r)["serving"];
    CHECK(s["per_user_output_tokens_per_s"].get<double>() <= last_per_user * 1.001);
    last_per_user = s["per_user_output_tokens_per_s"].get<double>();
  }
}

TEST_CASE("A model too large for the GPU does not fit, and says how much the weights take", "[serving]") {
  json r = worked_example();
  r["model"] = "llama-3.1-70b-instruct";
  r["weights"] = "bf16";
  const json s = test_support::estimate(r)["serving"];
  CHECK(s["fits"] == false);
  CHECK(s["gpus_needed"] == 0);
  CHECK(s["summary_data"]["id"] == "serve.summary.does_not_fit");
  // On four with tensor parallelism it fits.
  r["layout"] = {{"tp", 4}};
  CHECK(test_support::estimate(r)["serving"]["fits"] == true);
}

TEST_CASE("Serve requests name the field they get wrong", "[serving]") {
  json r = worked_example();
  r["workload"]["concurrency"] = 0;
  CHECK(test_support::estimate(r)["error"]["field"] == "workload.concurrency");
  r = worked_example();
  r["workload"]["request_rate"] = 2;
  CHECK(test_support::estimate(r)["error"]["field"] == "workload");
  r = worked_example();
  r["slo"] = {{"percentile", 75}};
  CHECK(test_support::estimate(r)["error"]["field"] == "slo.percentile");
  r = worked_example();
  r.erase("hardware");
  CHECK(test_support::estimate(r)["error"]["field"] == "hardware");
  r = worked_example();
  r["engine"] = "transformers";
  CHECK(test_support::estimate(r)["error"]["field"] == "engine");
  r = worked_example();
  r["layout"] = {{"tp", 2}};
  r["gpus"] = 4;
  CHECK(test_support::estimate(r)["error"]["field"] == "gpus");
}

TEST_CASE("Every serving engine answers, with its own launch line", "[serving]") {
  const std::pair<const char*, const char*> engines[] = {{"vllm", "vllm serve"},
                                                         {"sglang", "sglang.launch_server"},
                                                         {"tensorrt-llm", "trtllm-serve"},
                                                         {"lmdeploy", "lmdeploy serve api_server"},
                                                         {"llama.cpp", "llama-server"},
                                                         {"ollama", "ollama serve"}};
  for (const auto& [engine, command] : engines) {
    json r = worked_example();
    r["engine"] = engine;
    if (std::string(engine) == "llama.cpp" || std::string(engine) == "ollama") {
      r["weights"] = "q4_k_m";
      r["kv_cache"] = "fp16";
      r["workload"]["concurrency"] = 2;
    }
    const json a = test_support::estimate(r);
    INFO(engine << ": " << a.dump().substr(0, 300));
    REQUIRE(a.contains("serving"));
    CHECK(a["settings"]["engine"] == engine);
    CHECK(a["serving"]["command_line"].get<std::string>().find(command) != std::string::npos);
    CHECK(a["serving"]["output_tokens_per_s"].get<double>() > 0);
  }
}

TEST_CASE("The same request gives the same answer: Poisson arrivals come from the seed", "[serving]") {
  json r = worked_example();
  r["workload"] = {{"input_tokens", 500}, {"output_tokens", 200}, {"request_rate", 5.0}, {"requests", 300}, {"seed", 7}};
  const json first = test_support::estimate(r);
  CHECK(test_support::estimate(r) == first);
  // Arrivals at 5 a second for 300 requests: ~60 s, and a load this light is served as it comes.
  CHECK_THAT(first["serving"]["requests_per_s"].get<double>(), WithinRel(5.0, 0.15));
  r["workload"]["seed"] = 8;
  CHECK(test_support::estimate(r)["serving"]["duration_s"] != first["serving"]["duration_s"]);
}

TEST_CASE("A MoE layer's activations: each routed expert's SiLU split over the ranks, the sum of the expert outputs on every rank", "[serving]") {
  // Mixtral-8x7B (config.json): 32 layers, hidden 4,096, 32 heads, 8 KV heads of 128, 8 experts of
  // 14,336, 2 per token. Per layer: on every rank two residual norms 8 × 4,096 and moe_sum reading
  // 2 expert outputs and writing one, 3 × 4,096; split over the ranks rotary 2 × (4,096 + 1,024),
  // the cache write 2 × 1,024, and SiluAndMul for 2 experts 2 × 3 × 14,336.
  const ActivationElements e = activation_elements_per_token(test_support::preset("mixtral-8x7b-v0.1"));
  CHECK_THAT(e.replicated, WithinAbs(32.0 * (8 * 4096 + 3 * 4096), 0.5));
  CHECK_THAT(e.split, WithinAbs(32.0 * (2 * (4096 + 1024) + 2 * 1024 + 2 * 3 * 14336), 0.5));
  CHECK_THAT(e.attention_prep, WithinAbs(32.0 * (2 * (4096 + 1024) + 2 * 1024), 0.5));
}

TEST_CASE("TensorRT-LLM's decode steps move no activations for rotary and the cache write; its prefill does", "[serving]") {
  json vllm = worked_example();
  vllm["workload"] = {{"input_tokens", 1000}, {"output_tokens", 1000}, {"concurrency", 1}};
  json trt = vllm;
  trt["engine"] = "tensorrt-llm";
  const json v = test_support::estimate(vllm)["serving"];
  const json t = test_support::estimate(trt)["serving"];
  // One decode token: vLLM 5,636,096 B (kActivationBytesPerToken); TensorRT-LLM without rotary and the
  // cache write, (10,240 + 2,048) × 32 layers × 2 B = 786,432 B less.
  CHECK_THAT(v["step"]["activations_ms"].get<double>(), WithinRel(kActivationBytesPerToken / kBandwidth * 1e3, 0.01));
  CHECK_THAT(t["step"]["activations_ms"].get<double>(), WithinRel((kActivationBytesPerToken - 786432.0) / kBandwidth * 1e3, 0.01));
}

}  // namespace serving_test

namespace serving_test {

/// The team: 20 people at once on a 32B model (AWQ 4-bit), 2,000-token prompts, 500-token
/// answers, first token within 3 s and 60 ms a token at the 90th percentile.
json team_request() {
  return {{"task", "serve"},
          {"model", "qwen2.5-32b-instruct"},
          {"weights", "awq-int4"},
          {"engine", "vllm"},
          {"workload", {{"input_tokens", 2000}, {"output_tokens", 500}, {"concurrency", 20}}},
          {"slo", {{"ttft_ms", 3000}, {"tpot_ms", 60}}}};
}

TEST_CASE("A serving recommendation lists devices that meet the target, cheapest a month first", "[serving]") {
  const json request = team_request();
  const json rec = json::parse(llmsizer::recommend(request.dump()));
  REQUIRE(rec.contains("options"));
  REQUIRE(rec["options"].size() >= 5);
  double last = 0;
  for (const json& o : rec["options"]) {
    CHECK(o["meets_slo"] == true);
    CHECK(o["ttft_ms"]["p90"].get<double>() <= 3000.0);
    CHECK(o["tpot_ms"]["p90"].get<double>() <= 60.0);
    CHECK(o["cost"]["per_month_usd"].get<double>() >= last);
    last = o["cost"]["per_month_usd"].get<double>();
    CHECK(o["gpus_needed"] == o["layout"]["tp"].get<int>() * o["layout"]["replicas"].get<int>());
  }
  // A 24 GB card holds the ~19 GB of weights with little cache: one alone cannot hold 20 people,
  // two with tensor parallelism can.
  bool rtx4090 = false;
  for (const json& o : rec["options"]) {
    if (o["hardware"] == "nvidia-rtx-4090") {
      rtx4090 = true;
      CHECK(o["layout"]["tp"].get<int>() >= 2);
    }
  }
  CHECK(rtx4090);
}

TEST_CASE("More GPUs of one kind never cost less a month, bought with the box around them or rented by the instance", "[serving]") {
  // The serving ranking stops trying larger tensor-parallel groups of a device once one meets the
  // target on fewer GPUs than the next group has: exact only while cost grows with the GPUs.
  const OwnershipCosts costs;
  for (const HardwareSpec& hw : hardware_catalog()) {
    if (hw.kind != HardwareKind::gpu || hw.price_usd <= 0 || hw.unified_memory) continue;
    double last_hourly = 0;
    for (int gpus = 1; gpus <= 64; ++gpus) {
      const Purchase bought = purchase_of(hw, gpus, 0, 0, costs);
      if (!bought.known()) break;
      const double hourly = owned_hourly_cost(bought.total_usd(), bought.power_w, costs).total_usd_per_hour;
      INFO(hw.id << " with " << gpus << " GPUs");
      CHECK(hourly >= last_hourly);
      last_hourly = hourly;
    }
  }
}

TEST_CASE("The serving ranking simulates a device's larger groups only while they could cost less than the best so far", "[serving]") {
  // The 80 GB cards meet the team's target on one GPU: their groups of 2, 4 and 8 are not simulated,
  // and the answer lists each device on the group that costs least as before.
  const json request = team_request();
  const json rec = json::parse(llmsizer::recommend(request.dump()));
  for (const json& o : rec["options"]) {
    if (o["hardware"] == "nvidia-h100-sxm") CHECK(o["layout"]["tp"] == 1);
  }
  // Every device with a price is tried at least once (tp 1), and fewer than all of its groups.
  int devices = 0;
  int groups = 0;
  for (const HardwareSpec& hw : hardware_catalog()) {
    if (hw.is_cpu() || hw.unified_memory || hw.kind == HardwareKind::laptop || hw.memory_bandwidth_gb_per_s <= 0) continue;
    if (effective_tflops(hw, false) <= 0 || !hw.unsupported.id.empty()) continue;
    if (!hw.is_rented() && !(hw.kind == HardwareKind::gpu && hw.price_usd > 0)) continue;
    ++devices;
    const int most = hw.kind == HardwareKind::instance ? std::max(1, hw.device_count) : std::max(1, std::min(8, max_devices(hw)));
    for (int tp = 1; tp <= most; tp *= 2) ++groups;
  }
  CHECK(rec["evaluated"].get<int>() >= devices);
  CHECK(rec["evaluated"].get<int>() < groups);
}

}  // namespace serving_test

namespace serving_test {

TEST_CASE("A vendor's measured sustained GEMM rate replaces the datasheet peak in the step", "[serving]") {
  // MI300X: AMD measured 1,273 TFLOPS sustained FP8 (ROCm blog "Measuring Max-Achievable FLOPs -
  // Part 2", Table 1), against 2,614.9 × 0.6 = 1,569 from the peak. A prompt-heavy offline run is
  // compute-bound: its compute part scales with that rate.
  json r = {{"task", "serve"},
            {"model", "llama-3.1-70b-instruct"},
            {"weights", "fp8"},
            {"kv_cache", "fp8"},
            {"engine", "vllm"},
            {"hardware", "amd-mi300x"},
            {"workload", {{"input_tokens", 2048}, {"output_tokens", 1}, {"max_throughput", true}, {"requests", 64}}}};
  const json on_mi300x = test_support::estimate(r)["serving"];
  // 64 prompts of 2,048 tokens, 16,384 a step offline (8 steps): the decoder's linear weights,
  // 80 × (2 × 8192² + 2 × 8192 × 1024 + 3 × 8192 × 28672) = 68.45e9, × 2 FLOPs × 131,072 tokens at
  // 1,273 TFLOPS = 14.1 s (plus attention, the output layer once per prompt, the 1 ms steps).
  const double linear_s = 2.0 * 68.45e9 * 64 * 2048 / 1273e12;
  CHECK(on_mi300x["duration_s"].get<double>() > linear_s);
  CHECK_THAT(on_mi300x["duration_s"].get<double>(), WithinRel(linear_s, 0.15));
}

}  // namespace serving_test

namespace serving_test {

TEST_CASE("A tensor-parallel step's all-reduces cross PCIe at NCCL's 0.75 of the link and NVLink at its datasheet rate", "[serving]") {
  // Llama-3.1-70B FP8 on 8 GPUs, a decode step of 256 sequences: 2 all-reduces per layer × 80
  // layers, each moving the ring's 2 × 7/8 of 256 tokens × 8,192 hidden × 2 B = 7,340,032 B.
  // L40S (PCIe 4.0 x16, 32 GB/s each way; NCCL moves 24 GB/s, kPcieLinkEfficiency):
  // 160 × (50 µs + 7,340,032 / 24e9) = 160 × 355.835 µs = 56.93 ms.
  // H100 SXM (NVLink 450 GB/s each way): 160 × (35 µs + 7,340,032 / 450e9) = 160 × 51.311 µs = 8.21 ms.
  const ModelSpec model = test_support::preset("llama-3.1-70b-instruct");
  const WeightFormat& weights = *find_weight_format("fp8");
  const KvCacheFormat& kv = *find_kv_cache_format("fp8");
  const ServeEngineProfile engine = serve_engine_profile(ServeEngine::tensorrt_llm, 0, 8, true, 256, {});
  StepBatch decode;
  decode.decode_sequences = 256;
  const double volume = 2.0 * 7 / 8 * 256 * 8192 * 2;
  const auto communication = [&](const char* device) {
    const StepModel step = make_step_model(model, count_model(model), weights_layout(model, weights), weights, kv, *find_hardware(device), 8, 1, engine);
    return step_time(step, decode).communication_s;
  };
  CHECK_THAT(communication("nvidia-l40s"), WithinRel(160 * (50e-6 + volume / 24e9), 1e-9));
  CHECK_THAT(communication("nvidia-h100-sxm"), WithinRel(160 * (35e-6 + volume / 450e9), 1e-9));
}

/// The step model of Llama-3.1-8B, FP8 weights and KV cache, on one H100 SXM under `engine`.
StepModel llama_8b_fp8_h100_step(const ServeEngineProfile& engine) {
  const ModelSpec model = test_support::preset("llama-3.1-8b-instruct");
  const WeightFormat& weights = *find_weight_format("fp8");
  return make_step_model(model, count_model(model), weights_layout(model, weights), weights, *find_kv_cache_format("fp8"),
                         *find_hardware("nvidia-h100-sxm"), 1, 1, engine);
}

/// A cache of `tokens` that fits, holding `sequences` whole requests at once.
ServeCapacity capacity_of(std::int64_t tokens, std::int64_t sequences) {
  ServeCapacity capacity;
  capacity.kv_capacity_tokens = tokens;
  capacity.max_concurrency = sequences;
  capacity.fits = true;
  return capacity;
}

TEST_CASE("Decode steps timed in a row equal the same steps taken one by one", "[serving]") {
  // Four requests of a one-token prompt and 100 answer tokens at once: one step computes the four
  // prompts (and gives each its first token), then 99 decode steps, each reading the cache one token
  // longer. The simulation times the 98 quiet ones in a row; here each step is timed alone.
  const ServeEngineProfile engine = serve_engine_profile(ServeEngine::vllm, 0, 1, true, 101, {});
  const StepModel step = llama_8b_fp8_h100_step(engine);
  const ServeCapacity capacity = capacity_of(1'000'000, 256);
  ServeWorkload w;
  w.input_tokens = 1;
  w.output_tokens = 100;
  w.mode = LoadMode::max_throughput;
  w.requests = 4;
  const SimulationResult r = simulate_serving(step, engine, capacity, w);

  StepBatch prompts;
  prompts.prefill_tokens = 4;
  prompts.prefill_sequences = 4;
  prompts.prefill_logit_sequences = 4;
  prompts.prefill_attention_pairs = 4 * 0.5;
  double expected = step_time(step, prompts).total_s;
  for (int j = 1; j < 100; ++j) {
    StepBatch decode;
    decode.decode_sequences = 4;
    decode.decode_kv_bytes = 4 * sequence_kv_bytes(step, 1 + j);  // the cache after j answer tokens, the new one included
    expected += step_time(step, decode).total_s;
  }
  CHECK(r.steps == 100);
  CHECK_THAT(r.duration_s, WithinRel(expected, 1e-9));
  CHECK_THAT(r.tpot_s.mean, WithinRel((expected - step_time(step, prompts).total_s) / 99, 1e-9));
}

}  // namespace serving_test

namespace serving_test {

TEST_CASE("vLLM V1 takes its larger batch defaults on a device of 70 GiB or more that is not an A100", "[serving]") {
  // vllm/engine/arg_utils.py get_batch_defaults: >= 70 GiB and no "a100" in the name: 1024 sequences,
  // 8192 tokens for the server, 16384 offline; else 256 sequences, 2048 and 8192 tokens.
  constexpr std::int64_t kGiB = std::int64_t{1} << 30;
  const ServeEngineProfile h100 = serve_engine_profile(ServeEngine::vllm, 0, 1, false, 2000, {}, 80 * kGiB, "NVIDIA H100 SXM5 80GB");
  CHECK(h100.max_num_seqs == 1024);
  CHECK(h100.max_num_batched_tokens == 8192);
  const ServeEngineProfile h100_offline = serve_engine_profile(ServeEngine::vllm, 0, 1, true, 2000, {}, 80 * kGiB, "NVIDIA H100 SXM5 80GB");
  CHECK(h100_offline.max_num_batched_tokens == 16384);
  const ServeEngineProfile a100 = serve_engine_profile(ServeEngine::vllm, 0, 1, false, 2000, {}, 80 * kGiB, "NVIDIA A100 SXM4 80GB");
  CHECK(a100.max_num_seqs == 256);
  CHECK(a100.max_num_batched_tokens == 2048);
  const ServeEngineProfile l40s = serve_engine_profile(ServeEngine::vllm, 0, 1, true, 2000, {}, 48 * kGiB, "NVIDIA L40S");
  CHECK(l40s.max_num_seqs == 256);
  CHECK(l40s.max_num_batched_tokens == 8192);
  // V0 (0.6) keeps its own defaults whatever the device; a request's own settings win.
  CHECK(serve_engine_profile(ServeEngine::vllm, 6, 1, false, 2000, {}, 80 * kGiB, "NVIDIA H100 SXM5 80GB").max_num_seqs == 256);
  ServeEngineOverrides set;
  set.max_num_seqs = 64;
  CHECK(serve_engine_profile(ServeEngine::vllm, 0, 1, false, 2000, set, 80 * kGiB, "NVIDIA H100 SXM5 80GB").max_num_seqs == 64);
}

TEST_CASE("A TensorRT-LLM server admits a request only while the cache holds its whole length: it never evicts", "[serving]") {
  // GUARANTEED_NO_EVICT (the executor's default policy): a pool of 10 blocks of 64 tokens holds two
  // sequences of 100 + 200 tokens (5 blocks each) but not three, so of six requests at once two run
  // at a time and none is preempted. Offline (trtllm-bench: MAX_UTILIZATION) the prompts' 2 blocks
  // each admit five at once, and the answers' blocks then run out: preemptions.
  const ServeCapacity capacity = capacity_of(640, 2);
  ServeWorkload w;
  w.input_tokens = 100;
  w.output_tokens = 200;
  w.mode = LoadMode::concurrency;
  w.concurrency = 6;
  w.requests = 6;
  const ServeEngineProfile server = serve_engine_profile(ServeEngine::tensorrt_llm, 0, 1, false, 300, {});
  const StepModel step = llama_8b_fp8_h100_step(server);
  const SimulationResult served = simulate_serving(step, server, capacity, w);
  CHECK(served.requests == 6);
  CHECK(served.preemptions == 0);
  CHECK(served.steady_batch <= 2.0 + 1e-9);
  const ServeEngineProfile bench = serve_engine_profile(ServeEngine::tensorrt_llm, 0, 1, true, 300, {});
  const SimulationResult benched = simulate_serving(step, bench, capacity, w);
  CHECK(benched.requests == 6);
  CHECK(benched.preemptions > 0);
}

TEST_CASE("A simulation too long to run stops at its step budget and says how many requests it served", "[serving]") {
  json r = worked_example();
  // 1,000 answers of 100,000 tokens one at a time: 1e8 steps, 20 times the budget.
  r["workload"] = {{"input_tokens", 1000}, {"output_tokens", 100000}, {"concurrency", 1}, {"requests", 1000}};
  const json s = test_support::estimate(r)["serving"];
  CHECK(s["requests_simulated"].get<std::int64_t>() < 1000);
  CHECK(s["requests_simulated"].get<std::int64_t>() >= 40);  // 5e6 steps / 100,000 tokens, less the prompts
  REQUIRE(s["notes_data"].size() == 1);
  CHECK(s["notes_data"][0]["id"] == "serve.note.truncated");
  CHECK(s["output_tokens_per_s"].get<double>() > 0);
}

TEST_CASE("Beyond the model's trained context vLLM does not start: nothing is simulated", "[serving]") {
  json r = worked_example();
  r["workload"] = {{"input_tokens", 100000}, {"output_tokens", 40000}, {"concurrency", 1}};  // 140,000 > 131,072
  const json s = test_support::estimate(r)["serving"];
  CHECK(s["fits"] == false);
  CHECK(s["summary_data"]["id"] == "verdict.beyond_context.refused");
  CHECK(s["requests_simulated"] == 0);
}

TEST_CASE("llama-server before graph reuse builds each micro-batch's graph on the host: 4.2 µs a layer per pass", "[serving][llama_cpp]") {
  // throughput.hpp kLlamaCppGraphBuildSecondsPerLayer up to b5943; Ollama's numbering names no build.
  CHECK(serve_engine_profile(ServeEngine::llama_cpp, 5000, 1, false, 0, {}).graph_build_s_per_layer == kLlamaCppGraphBuildSecondsPerLayer);
  CHECK(serve_engine_profile(ServeEngine::llama_cpp, 6918, 1, false, 0, {}).graph_build_s_per_layer == 0.0);
  CHECK(serve_engine_profile(ServeEngine::llama_cpp, 0, 1, false, 0, {}).graph_build_s_per_layer == 0.0);
  CHECK(serve_engine_profile(ServeEngine::ollama, 12, 1, false, 0, {}).graph_build_s_per_layer == 0.0);
  json r = worked_example();
  r["engine"] = "llama.cpp";
  r["weights"] = "q4_k_m";
  r["kv_cache"] = "fp16";
  r["workload"]["concurrency"] = 2;
  r["engine_version"] = "b6918";
  const json now = test_support::estimate(r)["serving"]["step"];
  r["engine_version"] = "b5000";
  const json then = test_support::estimate(r)["serving"]["step"];
  // The steady decode step of 2 sequences is one micro-batch: llama-server's 0.1 ms plus Llama-3.1-8B's
  // 32 layers × 4.2 µs = 0.1344 ms.
  CHECK_THAT(now["engine_overhead_ms"].get<double>(), WithinAbs(0.1, 1e-9));
  CHECK_THAT(then["engine_overhead_ms"].get<double>(), WithinAbs(0.2344, 1e-9));
  // A step of 600 prompt tokens runs two 512-token micro-batches: two graphs.
  StepModel model;
  model.layers = 32;
  model.ubatch_tokens = 512;
  model.step_overhead_s = 0.1e-3;
  model.graph_build_s = 32 * kLlamaCppGraphBuildSecondsPerLayer;
  StepBatch prompt;
  prompt.prefill_tokens = 600;
  prompt.prefill_sequences = 1;
  CHECK_THAT(step_time(model, prompt).engine_overhead_s, WithinRel(0.1e-3 + 2 * 134.4e-6, 1e-9));
}

}  // namespace serving_test
