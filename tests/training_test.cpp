// SPDX-License-Identifier: MIT
// Training memory and time: model states by precision and optimizer (the article's 16 B/param),
// LoRA adapter counts, ZeRO sharding (DeepSpeed's documented example), activations per layer,
// the request fields, and the shape of the model (monotonic in sequence length, batch, shards).
#include <algorithm>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "llmsizer/error.hpp"
#include "llmsizer/training.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace training_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {

ModelSpec bare(double params) {
  ModelSpec m;
  m.params_override = static_cast<std::int64_t>(params);
  return m;
}

TrainingSettings lora(std::int64_t rank, std::vector<std::string> targets) {
  TrainingSettings s;
  s.method = TrainingMethod::lora;
  s.lora_rank = rank;
  s.lora_targets = std::move(targets);
  return s;
}

}  // namespace

TEST_CASE("Full training with Adam in mixed precision is 16 bytes per parameter", "[training][article]") {
  // Article table: weights 2 + gradients 2 + optimizer states 8 + FP32 copy 4 = 16 B per parameter.
  const StateBytesPerParam b = full_training_state_bytes(TrainingPrecision::mixed_fp16, Optimizer::adamw);
  CHECK(b.weights == 2);
  CHECK(b.gradients == 2);
  CHECK(b.optimizer == 8);
  CHECK(b.master_weights == 4);
  CHECK(b.total() == 16);
}

TEST_CASE("Full training of a 7B model needs 112 GB before activations", "[training][article]") {
  // Article: 7B × 16 B = 112 GB of model states.
  const TrainingEstimate e = estimate_training(bare(7e9), TrainingSettings{});
  CHECK(e.model_states_bytes == 112'000'000'000);
}

TEST_CASE("Model states per parameter follow precision and optimizer", "[training][optimizer]") {
  // fp32: weights 4 + gradients 4 + Adam 8, no master copy = 16.
  CHECK(full_training_state_bytes(TrainingPrecision::fp32, Optimizer::adamw).total() == 16);
  // Pure bf16: PyTorch creates Adam's states like the bf16 parameter (zeros_like): 2 + 2 + 4 = 8.
  CHECK(full_training_state_bytes(TrainingPrecision::bf16, Optimizer::adamw).total() == 8);
  // bitsandbytes 8-bit Adam: 2 states × (1 B + 4 B absmax / 2048-value block) = 2.00390625 B.
  CHECK_THAT(optimizer_state_bytes(Optimizer::adamw_8bit, 4), WithinRel(2.00390625, 1e-12));
  CHECK(optimizer_state_bytes(Optimizer::paged_adamw_8bit, 4) == optimizer_state_bytes(Optimizer::adamw_8bit, 4));
  CHECK(optimizer_state_bytes(Optimizer::paged_adamw, 4) == 8);
  CHECK(optimizer_state_bytes(Optimizer::sgd, 4) == 0);
  CHECK(optimizer_state_bytes(Optimizer::sgd_momentum, 4) == 4);
  CHECK(optimizer_state_bytes(Optimizer::lion, 4) == 4);  // one momentum (Chen et al. 2023, Alg. 1)
  // Adafactor (no first moment, factored second moment): a 7B model with h = 4096 keeps about
  // 2/4096 of its parameters as fp32 state: 7e9 × 2 / 4096 × 4 B ≈ 13.7 MB.
  ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.optimizer = Optimizer::adafactor;
  const TrainingEstimate e = estimate_training(m, s);
  const double params = static_cast<double>(count_params(m).total);
  CHECK_THAT(static_cast<double>(e.memory.parts.optimizer), WithinRel(params * 2 / 4096 * 4, 0.01));
}

TEST_CASE("Gradient accumulation adds no memory", "[training][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-0.5b-instruct");
  TrainingSettings s;
  const auto one = estimate_training(m, s).memory.device_bytes;
  s.gradient_accumulation = 16;
  CHECK(estimate_training(m, s).memory.device_bytes == one);
}

TEST_CASE("LoRA r8 on q and v of Llama-2-7B has 4194304 adapter parameters", "[training][lora]") {
  // LoRA paper / PEFT print_trainable_parameters for Llama-2-7B, r = 8, q_proj + v_proj:
  // 2 matrices × 32 layers × 8 × (4096 + 4096) = 4,194,304.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  CHECK(trainable_params(m, lora(8, {"q_proj", "v_proj"})).adapters == 4'194'304);
}

TEST_CASE("LoRA r16 on all linear layers of Llama-2-7B has 39976960 adapter parameters", "[training][lora]") {
  // By hand, per layer: q, k, v, o: 4 × 16 × (4096 + 4096) = 524,288; gate, up: 2 × 16 × (4096 +
  // 11008) = 483,328; down: 16 × (11008 + 4096) = 241,664; sum 1,249,280 × 32 layers = 39,976,960.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  CHECK(trainable_params(m, lora(16, {"all-linear"})).adapters == 39'976'960);
  // The explicit list gives the same count as the preset.
  CHECK(trainable_params(m, lora(16, {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"})).adapters == 39'976'960);
  // "attention" = q, k, v, o: 524,288 × 32 = 16,777,216.
  CHECK(trainable_params(m, lora(16, {"attention"})).adapters == 16'777'216);
  // DoRA adds a magnitude of d_out per matrix: (4 × 4096 + 2 × 11008 + 4096) × 32 = 1,359,872.
  TrainingSettings dora = lora(16, {"all-linear"});
  dora.dora = true;
  CHECK(trainable_params(m, dora).adapters == 39'976'960 + 1'359'872);
}

TEST_CASE("LoRA targets on GQA and MoE models use their real shapes", "[training][lora]") {
  // Qwen2.5-7B: h 3584, 28 heads × 128 = 3584, 4 KV heads × 128 = 512 (config.json).
  // q, v at r 8: 28 layers × 8 × ((3584 + 3584) + (3584 + 512)) = 2,523,136.
  const ModelSpec q = test_support::preset("qwen2.5-7b-instruct");
  CHECK(trainable_params(q, lora(8, {"q_proj", "v_proj"})).adapters == 2'523'136);
  // Mixtral-8x7B: experts' down_proj at r 8: 32 layers × 8 experts × 8 × (14336 + 4096) = 37,748,736.
  const ModelSpec mx = test_support::preset("mixtral-8x7b-instruct-v0.1");
  CHECK(trainable_params(mx, lora(8, {"down_proj"})).adapters == 37'748'736);
}

TEST_CASE("LoRA attention targets on DeepSeek-V3 cover its latent-attention projections", "[training][lora]") {
  // DeepSeek-V3 config.json: h 7168, 128 heads, q_lora_rank 1536, kv_lora_rank 512, nope 128,
  // rope 64, v 128, 61 layers. At r 8 per layer: q_a 8 × (7168 + 1536) = 69,632; q_b 8 × (1536 +
  // 128 × 192) = 208,896; kv_a 8 × (7168 + 576) = 61,952; kv_b 8 × (512 + 128 × 256) = 266,240;
  // o 8 × (128 × 128 + 7168) = 188,416; sum 795,136 × 61 = 48,503,296.
  const ModelSpec m = test_support::preset("deepseek-v3");
  CHECK(trainable_params(m, lora(8, {"attention"})).adapters == 48'503'296);
  CHECK(trainable_params(m, lora(8, {"q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"})).adapters == 48'503'296);
}

TEST_CASE("Unknown LoRA targets are rejected with the field name", "[training][lora]") {
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  const std::optional<TrainingModelProblem> problem = training_model_problem(m, lora(8, {"qq_proj"}));
  REQUIRE(problem);
  CHECK(problem->field == "training.lora_targets");
  CHECK(problem->message.id == "error.lora_targets.unknown");
  // Through the JSON edge the field and the English message come back.
  const auto r = test_support::estimate({{"model", "llama-2-7b-hf"}, {"task", "training"}, {"training", {{"method", "lora"}, {"lora_targets", {"qq_proj"}}}}});
  CHECK(r["error"]["field"] == "training.lora_targets");
  CHECK_THAT(r["error"]["message"].get<std::string>(), Catch::Matchers::StartsWith("unknown LoRA target \"qq_proj\""));
  CHECK(r["error"]["message_data"]["id"] == "error.lora_targets.unknown");
}

TEST_CASE("ZeRO-3 over 8 GPUs keeps 2 bytes per parameter of model states per GPU", "[training][zero]") {
  // ZeRO paper (Rajbhandari et al. 2020, Figure 1): P_os+g+p = (2 + 2 + K)Ψ / N_d = 16Ψ / 8.
  TrainingSettings s;
  s.gpus = 8;
  s.zero_stage = 3;
  const TrainingEstimate e = estimate_training(bare(7e9), s);
  CHECK(e.model_states_bytes == 14'000'000'000);  // 7e9 × 2 B
}

TEST_CASE("DeepSpeed's t5-3b ZeRO-2 example on 8 GPUs needs 15.93 GB per GPU", "[training][zero]") {
  // DeepSpeed docs, "Memory Requirements": estimate_zero2_model_states_mem_needs_all_live for
  // t5-3b (2851M params), 1 node × 8 GPUs, offload_optimizer=none: "15.93GB" per GPU (GiB:
  // 4Ψ + 16Ψ/8 = 6 B × 2.851e9 = 17.1e9 B = 15.93 GiB); with offload_optimizer=cpu: 5.31GB (2Ψ).
  TrainingSettings s;
  s.precision = TrainingPrecision::mixed_fp16;
  s.gpus = 8;
  s.zero_stage = 2;
  const TrainingEstimate e = estimate_training(bare(2.85e9), s);
  const double states_gib = static_cast<double>(e.model_states_bytes + e.step_temporary_bytes) / test_support::kGiB;
  CHECK_THAT(states_gib, WithinRel(15.93, 0.05));
  s.offload_optimizer = true;
  const TrainingEstimate offloaded = estimate_training(bare(2.85e9), s);
  CHECK_THAT(static_cast<double>(offloaded.model_states_bytes) / test_support::kGiB, WithinRel(5.31, 0.05));
  // The host holds fp32 master, Adam states and fp32 gradients: 16 B × 2.85e9 = 45.6 GB.
  CHECK_THAT(static_cast<double>(offloaded.memory.host_bytes), WithinRel(2.85e9 * 16, 1e-9));
}

TEST_CASE("Per-layer activations of Llama-2-7B match the hand count", "[training][activations]") {
  // Full training, 16-bit, flash attention, no checkpointing, per token and layer:
  // norm input h + q/k/v input h + q, k, v (4096 each, MHA) + attention output q + norm input h +
  // gate/up input h + gate, up, SiLU outputs 3f + down input f, × 2 B
  // = 2 × (4 × 4096 + 2 × 4096 + 2 × 4096 + 4 × 11008) = 153,600, plus the fp32 log-sum-exp
  // of 32 heads (128 B) = 153,728 B; RMSNorm keeps its input in fp32 (LlamaRMSNorm upcasts), 2 more
  // bytes per element for each of the 2 norms: + 2 × 4096 × 2 = 170,112 B.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  const TrainingActivations a = training_activations(m, TrainingSettings{});
  CHECK(a.per_layer_token_bytes == 170'112);
  // Korthikanti et al. 2022 eq. 1 for comparison: 34·h = 139,264 B per token (non-gated 4h MLP, dropout).
  // The loss buffers: 12 B × 32000 vocab × 2048 tokens = 786,432,000 B.
  CHECK(a.loss_bytes == 786'432'000);
}

TEST_CASE("Training memory grows with sequence length and micro-batch", "[training][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  for (const auto method : {TrainingMethod::full, TrainingMethod::lora, TrainingMethod::qlora}) {
    for (const auto ckpt : {Checkpointing::none, Checkpointing::selective, Checkpointing::full}) {
      CAPTURE(static_cast<int>(method), static_cast<int>(ckpt));
      TrainingSettings s;
      s.method = method;
      s.checkpointing = ckpt;
      s.seq_len = 1024;
      const auto base = estimate_training(m, s).backward_peak_bytes;
      s.seq_len = 4096;
      const auto longer = estimate_training(m, s).backward_peak_bytes;
      CHECK(longer > base);
      s.micro_batch = 4;
      CHECK(estimate_training(m, s).backward_peak_bytes > longer);
    }
  }
}

TEST_CASE("Gradient checkpointing lowers activation memory", "[training][property]") {
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.seq_len = 4096;
  s.flash_attention = false;
  const auto none = training_activations(m, s).peak_bytes();
  s.checkpointing = Checkpointing::selective;
  const auto selective = training_activations(m, s).peak_bytes();
  s.checkpointing = Checkpointing::full;
  const auto full = training_activations(m, s).peak_bytes();
  CHECK(selective < none);
  CHECK(full < selective);
  // Flash attention removes the s² score bytes: 5 × 32 heads × 4096 × 2 B / 2 per token and layer.
  s.checkpointing = Checkpointing::none;
  const auto eager = training_activations(m, s).per_layer_token_bytes;
  s.flash_attention = true;
  CHECK(eager - training_activations(m, s).per_layer_token_bytes == 5 * 32 * 4096 - 4 * 32);
}

TEST_CASE("More ZeRO shards need less memory per GPU", "[training][property][zero]") {
  const ModelSpec m = test_support::preset("llama-2-13b-hf");
  for (int stage = 1; stage <= 3; ++stage) {
    CAPTURE(stage);
    TrainingSettings s;
    s.zero_stage = stage;
    s.gpus = 2;
    const auto two = estimate_training(m, s).memory.device_bytes;
    s.gpus = 8;
    CHECK(estimate_training(m, s).memory.device_bytes < two);
  }
  // And each stage shards more than the one before (8 GPUs).
  std::int64_t previous = INT64_MAX;
  for (int stage = 0; stage <= 3; ++stage) {
    TrainingSettings s;
    s.zero_stage = stage;
    s.gpus = 8;
    const auto bytes = estimate_training(m, s).model_states_bytes;
    CHECK(bytes <= previous);
    previous = bytes;
  }
}

TEST_CASE("QLoRA needs less than LoRA which needs less than full training", "[training][property]") {
  for (const char* id : {"llama-2-7b-hf", "qwen2.5-14b-instruct", "mixtral-8x7b-instruct-v0.1"}) {
    CAPTURE(id);
    const ModelSpec m = test_support::preset(id);
    TrainingSettings s;
    s.checkpointing = Checkpointing::full;
    const auto full = estimate_training(m, s).memory.device_bytes;
    s.method = TrainingMethod::lora;
    const auto lora_bytes = estimate_training(m, s).memory.device_bytes;
    s.method = TrainingMethod::qlora;
    const auto qlora_bytes = estimate_training(m, s).memory.device_bytes;
    CHECK(qlora_bytes < lora_bytes);
    CHECK(lora_bytes < full);
  }
}

TEST_CASE("QLoRA stores the decoder in NF4 with double quantization", "[training][qlora]") {
  // QLoRA paper §3: NF4 with double quantization = 4 + 0.127 bits: 0.5 + 1/64 + 4/(64·256) B.
  // The rest (embeddings, norms, lm_head): fp32 with Hugging Face, whose PEFT
  // prepare_model_for_kbit_training casts every parameter that is not a Params4bit to fp32; 16-bit
  // with Unsloth, which upcasts only the adapters.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::qlora;
  const ParamCounts c = count_params(m);
  const double linear = static_cast<double>(c.per_layer_attention + c.per_layer_mlp);
  const double rest = static_cast<double>(c.total) - linear;
  CHECK_THAT(static_cast<double>(estimate_training(m, s).memory.parts.weights), WithinRel(linear * 0.515869140625 + rest * 4, 1e-9));
  s.framework = TrainingFramework::unsloth;
  CHECK_THAT(static_cast<double>(estimate_training(m, s).memory.parts.weights), WithinRel(linear * 0.515869140625 + rest * 2, 1e-9));
}

TEST_CASE("Freeze training trains only the last layers", "[training][freeze]") {
  // Llama-2-7B decoder layer: 4 × 4096² + 3 × 4096 × 11008 + 2 × 4096 = 202,383,360 params.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::freeze;
  s.trainable_layers = 2;
  CHECK(trainable_params(m, s).trainable == 2 * 202'383'360);
  TrainingSettings full;
  CHECK(estimate_training(m, s).memory.device_bytes < estimate_training(m, full).memory.device_bytes);
}

TEST_CASE("Memory parts add up to the device total", "[training][property]") {
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  for (const auto method : {TrainingMethod::full, TrainingMethod::lora, TrainingMethod::qlora, TrainingMethod::freeze}) {
    for (int stage = 0; stage <= 3; ++stage) {
      CAPTURE(static_cast<int>(method), stage);
      TrainingSettings s;
      s.method = method;
      s.zero_stage = stage;
      s.gpus = 4;
      const TrainingEstimate t = estimate_training(m, s);
      const MemoryEstimate& e = t.memory;
      CHECK(e.parts.sum() == e.device_bytes);
      // The driver also sees the CUDA context, NCCL's buffers on 4 GPUs (688 MiB, NVIDIA/nccl#964)
      // and the blocks the caching allocator still holds: when ZeRO-1/2's step peaks, the
      // activation blocks; otherwise the 16-bit logits blocks of the fp32 loss
      // (2048 tokens × 152,064 × 2 × 2 B) beyond whichever peak is higher.
      CHECK(t.communicator_bytes == 688LL * 1024 * 1024);
      CHECK(e.device_bytes - e.tensor_peak_bytes == kCudaContextBytes + t.communicator_bytes + t.allocator_cached_bytes);
      CHECK(t.activations.loss_cached_bytes == 2048LL * 152'064 * 4);
      if (stage == 0 || stage == 3) {
        const std::int64_t above = t.backward_peak_bytes + t.activations.loss_cached_bytes - std::max(t.backward_peak_bytes, t.step_peak_bytes);
        CHECK(t.allocator_cached_bytes == std::max<std::int64_t>(0, above));
      }
    }
  }
}

TEST_CASE("Training time is 6 N D over the GPUs' sustained FLOPS", "[training][time]") {
  // Bare 7B count (no attention term): 6 × 7e9 × 1e9 tokens = 4.2e19 FLOPs; at 312 TFLOPS × 62%
  // (full fine-tuning's MFU in the Qwen-1 README runs, training_time.cpp) on 8 GPUs:
  // 4.2e19 / (8 × 312e12 × 0.62) = 27,140 s = 7.539 h; at $2/GPU-hour: $120.62.
  TrainingSettings s;
  s.gpus = 8;
  s.dataset_tokens = 1e9;
  s.peak_tflops = 312;
  s.usd_per_gpu_hour = 2;
  const TrainingTime t = training_time(bare(7e9), s);
  CHECK_THAT(t.flops, WithinRel(4.2e19, 1e-12));
  CHECK_THAT(t.hours, WithinRel(4.2e19 / (8 * 312e12 * 0.62) / 3600, 1e-12));
  CHECK_THAT(t.usd, WithinRel(t.hours * 8 * 2, 1e-12));
  // Full recomputation adds a forward: 8 N per token.
  s.checkpointing = Checkpointing::full;
  CHECK_THAT(training_time(bare(7e9), s).flops, WithinRel(8 * 7e9 * 1e9, 1e-12));
}

TEST_CASE("The JSON edge reports training results and names bad training fields", "[training][api]") {
  using nlohmann::json;
  const json ok = test_support::estimate({{"model", "llama-2-7b-hf"}, {"task", "training"},
      {"training", {{"method", "qlora"}, {"lora_rank", 8}, {"lora_targets", "attention"}, {"optimizer", "paged-adamw-8bit"},
                    {"gradient_checkpointing", true}, {"dataset_tokens", 1e8}, {"peak_tflops", 312}, {"usd_per_hour", 1.5}}}});
  REQUIRE_FALSE(ok.contains("error"));
  CHECK(ok["training"]["adapter_params"] == 8'388'608);  // 4 × 32 × 8 × 8192
  CHECK(ok["throughput"]["hours"].get<double>() > 0);
  CHECK(ok["training"]["usd"].get<double>() > 0);
  std::int64_t sum = 0;
  for (const auto& [k, v] : ok["memory"]["parts"].items()) sum += v.get<std::int64_t>();
  CHECK(sum == ok["memory"]["device_bytes"].get<std::int64_t>());

  // New response fields: the load peak (0 without FSDP), checkpoints in host RAM (0 without
  // Unsloth), the allocator's reserved blocks.
  CHECK(ok["training"]["load_peak_bytes"] == 0);
  CHECK(ok["training"]["host_activation_bytes"] == 0);
  CHECK(ok["training"].contains("allocator_cached_bytes"));

  const std::vector<std::pair<json, std::string>> bad = {
      {{{"lora_rank", 0}, {"method", "lora"}}, "training.lora_rank"},
      {{{"zero_stage", 4}}, "training.zero_stage"},
      {{{"optimizer", "adam9"}}, "training.optimizer"},
      {{{"offload_params", true}, {"zero_stage", 2}}, "training.offload_params"},
      {{{"offload_optimizer", true}}, "training.offload_optimizer"},
      {{{"gradient_checkpointing", "sometimes"}}, "training.gradient_checkpointing"},
      {{{"lora_targets", {"q_proj", 3}}, {"method", "lora"}}, "training.lora_targets"},
      {{{"trainable_layers", 33}, {"method", "freeze"}}, "training.trainable_layers"},
      {{{"mfu", 1.5}}, "training.mfu"},
  };
  for (const auto& [training, field] : bad) {
    CAPTURE(training.dump());
    const json r = test_support::estimate({{"model", "llama-2-7b-hf"}, {"task", "training"}, {"training", training}});
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["field"] == field);
  }
}

TEST_CASE("Training on a device reports the longest sequence and largest micro-batch that fit", "[training][api][fit]") {
  using nlohmann::json;
  // Llama-3.1-8B QLoRA with Unsloth on a 24 GiB budget: the fit's max_context is where
  // device_bytes crosses the budget, at this micro-batch; max_batch likewise at this seq_len.
  const json request = {{"model", "llama-3.1-8b-instruct"}, {"task", "training"}, {"budget_bytes", 24LL << 30},
                        {"training", {{"method", "qlora"}, {"framework", "unsloth"}, {"lora_rank", 32}, {"seq_len", 4096},
                                      {"gradient_checkpointing", true}, {"optimizer", "adamw-8bit"}}}};
  const json r = test_support::estimate(request);
  REQUIRE(r.contains("fit"));
  CHECK(r["fit"]["fits"] == true);
  const std::int64_t max_context = r["fit"]["max_context"].get<std::int64_t>();
  const std::int64_t max_batch = r["fit"]["max_batch"].get<std::int64_t>();
  REQUIRE(max_context > 4096);
  REQUIRE(max_batch >= 1);
  json at = request;
  at["training"]["seq_len"] = max_context;
  CHECK(test_support::estimate(at)["memory"]["device_bytes"].get<std::int64_t>() <= (24LL << 30));
  at["training"]["seq_len"] = max_context + 1;
  CHECK(test_support::estimate(at)["memory"]["device_bytes"].get<std::int64_t>() > (24LL << 30));
  json batch = request;
  batch["training"]["micro_batch"] = max_batch + 1;
  CHECK(test_support::estimate(batch)["memory"]["device_bytes"].get<std::int64_t>() > (24LL << 30));
  // Unsloth's offloaded checkpoints wait in host RAM: (32 − 2) layer inputs × 4096 tokens × 4096 × 2 B.
  CHECK(r["training"]["host_activation_bytes"] == 30LL * 4096 * 4096 * 2);

  // Past the longest sequence the fit is the out-of-memory verdict, naming the longest that fits
  // with the margin to spare (the length its fix sets) and the edge beside it.
  json too_long = request;
  too_long["training"]["seq_len"] = max_context + 1;
  const json oom = test_support::estimate(too_long);
  CHECK(oom["fit"]["fits"] == false);
  CHECK(oom["fit"]["max_context"] == max_context);
  CHECK(oom["fit"]["note_data"]["id"] == "fit.training.out_of_memory_comfortable");
  CHECK(oom["fit"]["note_data"]["args"]["max_context_count"] == max_context);
  const std::int64_t comfortable = oom["fit"]["max_context_comfortable"];
  CHECK(comfortable % 256 == 0);
  CHECK(comfortable < max_context);
  // A card smaller than the 4-bit weights: not even one token fits.
  json tiny = request;
  tiny["budget_bytes"] = 4LL << 30;
  const json never = test_support::estimate(tiny);
  CHECK(never["fit"]["max_context"] == 0);
  CHECK(never["fit"]["max_batch"] == 0);
  CHECK(never["fit"]["note_data"]["id"] == "fit.training.never_fits");

  // On named hardware the same fields join the hardware fit.
  json on_gpu = request;
  on_gpu.erase("budget_bytes");
  on_gpu["hardware"] = "nvidia-a100-40gb-sxm";
  const json a100 = test_support::estimate(on_gpu);
  CHECK(a100["fit"]["max_context"].get<std::int64_t>() > max_context);
}

TEST_CASE("Several GPUs add NCCL's buffers to what the driver holds, not to the tensor peak", "[training][nccl]") {
  // NVIDIA/nccl#964 (4 A100 with NVLink, through PyTorch): a 2-GPU communicator holds 544 MB and a
  // 3- or 4-GPU one 688 MB per GPU, outside the caching allocator (read as MiB).
  const ModelSpec m = test_support::preset("qwen2.5-7b-instruct");
  TrainingSettings s;
  s.method = TrainingMethod::lora;
  s.gpus = 1;
  CHECK(estimate_training(m, s).communicator_bytes == 0);
  for (const auto& [gpus, expected] : std::vector<std::pair<int, std::int64_t>>{{2, 544LL << 20}, {3, 688LL << 20}, {4, 688LL << 20}, {8, 688LL << 20}}) {
    CAPTURE(gpus);
    s.gpus = gpus;
    const TrainingEstimate t = estimate_training(m, s);
    CHECK(t.communicator_bytes == expected);
    CHECK(t.memory.device_bytes - t.memory.tensor_peak_bytes == kCudaContextBytes + expected + t.allocator_cached_bytes);
  }
}

TEST_CASE("A bytes-only training estimate has every byte of the full one, without its lines or time", "[training]") {
  // The searches and fixes compare bytes only (EstimateDetail::bytes_only): whatever the method,
  // optimizer, sharding, offload or GPU count, each byte must be the full estimate's.
  for (const char* id : {"qwen2.5-7b-instruct", "mixtral-8x7b-instruct-v0.1", "deepseek-v3"}) {
    const ModelSpec m = test_support::preset(id);
    for (const TrainingMethod method : {TrainingMethod::full, TrainingMethod::freeze, TrainingMethod::lora, TrainingMethod::qlora}) {
      for (const int gpus : {0, 1, 4}) {
        for (const int stage : {0, 2, 3}) {
          for (const Optimizer optimizer : {Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::adafactor}) {
            for (const bool offload : {false, true}) {
              INFO(id << " method " << static_cast<int>(method) << " gpus " << gpus << " stage " << stage << " optimizer "
                      << static_cast<int>(optimizer) << " offload " << offload);
              TrainingSettings s;
              s.method = method;
              s.gpus = gpus;
              s.zero_stage = stage;
              s.optimizer = optimizer;
              s.offload_optimizer = offload && stage > 0;
              s.gradient_accumulation = 2;
              const TrainingEstimate full = estimate_training(m, s);
              const TrainingEstimate bytes = estimate_training(m, s, EstimateDetail::bytes_only);
              CHECK(bytes.memory.device_bytes == full.memory.device_bytes);
              CHECK(bytes.memory.host_bytes == full.memory.host_bytes);
              CHECK(bytes.memory.tensor_peak_bytes == full.memory.tensor_peak_bytes);
              CHECK(bytes.memory.parts.sum() == full.memory.parts.sum());
              CHECK(bytes.backward_peak_bytes == full.backward_peak_bytes);
              CHECK(bytes.step_peak_bytes == full.step_peak_bytes);
              CHECK(bytes.allocator_cached_bytes == full.allocator_cached_bytes);
              CHECK(bytes.memory.explain.empty());
              CHECK(!full.memory.explain.empty());
            }
          }
        }
      }
    }
  }
}

}  // namespace training_test
