// SPDX-License-Identifier: MIT
// Training memory as frameworks allocate it: DeepSpeed ZeRO-1/2 buckets and step buffers,
// FSDP's load-time peak and no_sync gradients, bitsandbytes' saved inputs, litgpt's fused qkv,
// Unsloth's offloaded checkpoints, fused LoRA kernels and Cut Cross-Entropy, and the largest
// sequence / micro-batch that fit. Expected numbers worked out by hand from the sources
// cited in training_frameworks.hpp and training_activations.cpp.
#include <catch2/catch.hpp>

#include "llmsizer/training.hpp"
#include "llmsizer/training_frameworks.hpp"
#include "test_support.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace training_frameworks_test {

using namespace llmsizer;
using Catch::Matchers::WithinRel;

namespace {
/// litgpt finetune/lora.py's defaults: LoRA r 8 on query and value, bf16-true (adapters in bf16).
TrainingSettings litgpt_lora_qv() {
  TrainingSettings s;
  s.method = TrainingMethod::lora;
  s.framework = TrainingFramework::litgpt;
  s.precision = TrainingPrecision::bf16;
  s.adapter_fp32 = false;
  s.lora_rank = 8;
  s.lora_targets = {"q_proj", "v_proj"};
  return s;
}
}  // namespace

TEST_CASE("DeepSpeed ZeRO-2 keeps its gradient buckets and flattens the gradients at the step", "[training][deepspeed]") {
  // Qwen's finetune/ds_config_zero2.json: reduce_bucket_size 2e8, overlap_comm true → two bf16
  // buckets of 2e8 elements = 0.8 GB; Qwen-1.8B's 1.84e9 parameters on one GPU: the step holds a
  // flat bf16 copy (2 B) and its fp32 conversion (4 B) = 6 B per parameter.
  ZeroConfig qwen;
  qwen.reduce_bucket_size = 200'000'000;
  qwen.overlap_comm = true;
  const ZeroBuffers b = zero12_buffers(1'836'828'672, 2, 1, qwen);
  CHECK(b.bucket_bytes == 800'000'000);
  CHECK(b.step_temporary_bytes == 1'836'828'672LL * 6);
  // DeepSpeed's defaults (5e8, overlap_comm off below stage 3): one 1 GB bucket; 4 GPUs split the step.
  const ZeroBuffers d = zero12_buffers(1'000'000'000, 2, 4, ZeroConfig{});
  CHECK(d.bucket_bytes == 1'000'000'000);
  CHECK(d.step_temporary_bytes == 250'000'000LL * 6);
}

TEST_CASE("Full fine-tuning under ZeRO-2 is flat at short sequences: the step, not the activations, peaks", "[training][deepspeed]") {
  // Qwen-1 README: Qwen-1.8B full-parameter 43.5 G from 256 to 2048 tokens. Step peak on one GPU:
  // 16 B per parameter of states + 6 B at the step = 22 × 1.84e9 = 40.4 GB, plus 0.8 GB of buckets
  // and the CUDA context; the activations do not change it.
  const ModelSpec m = test_support::preset("qwen2-1.5b-instruct");
  TrainingSettings s;
  s.method = TrainingMethod::full;
  s.framework = TrainingFramework::deepspeed;
  s.zero_stage = 2;
  s.zero.reduce_bucket_size = 200'000'000;
  s.zero.overlap_comm = true;
  s.checkpointing = Checkpointing::full;
  s.seq_len = 256;
  const TrainingEstimate short_seq = estimate_training(m, s);
  s.seq_len = 512;
  const TrainingEstimate longer = estimate_training(m, s);
  CHECK(short_seq.step_peak_bytes > short_seq.backward_peak_bytes);
  CHECK(short_seq.step_peak_bytes == longer.step_peak_bytes);
  const double params = static_cast<double>(count_params(m).total);
  CHECK_THAT(static_cast<double>(short_seq.step_peak_bytes), WithinRel(22 * params + 0.8e9, 0.001));
}

TEST_CASE("FSDP holds the whole 16-bit model next to its shard while a full state dict loads", "[training][fsdp]") {
  // Llama-2-7B on 2 GPUs: 6,738,415,616 params × 2 B = 13.48 GB whole + 6.74 GB shard = 20.2 GB.
  // Without gradient accumulation the load is the peak, flat in the micro-batch (with it, the next
  // test: the unsharded gradients of no_sync).
  const FsdpMemory f = fsdp_memory(13'476'831'232, 0, 2);
  CHECK(f.load_peak_bytes == 13'476'831'232 + 6'738'415'616);
  CHECK(fsdp_memory(13'476'831'232, 0, 1).load_peak_bytes == 0);
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::lora;
  s.framework = TrainingFramework::litgpt;
  s.precision = TrainingPrecision::bf16;
  s.gpus = 2;
  s.seq_len = 1304;
  s.checkpointing = Checkpointing::full;
  const TrainingEstimate one = estimate_training(m, s);
  s.micro_batch = 4;
  const TrainingEstimate four = estimate_training(m, s);
  CHECK(one.load_peak_bytes == f.load_peak_bytes);
  CHECK(one.memory.tensor_peak_bytes == four.memory.tensor_peak_bytes);
  CHECK_THAT(static_cast<double>(one.memory.tensor_peak_bytes), WithinRel(22.18e9, 0.10));
}

TEST_CASE("FSDP accumulating micro-batches without sync keeps the unsharded gradients", "[training][fsdp]") {
  // FSDP.no_sync: "FSDP will accumulate the full model gradients (instead of gradient shards)".
  // litgpt wraps each Block as one FlatParameter, so LoRA's blocks get gradients for their frozen
  // weights too: Llama-2-7B's decoder, 32 × 202,383,360 + 4,096 (final norm) = 6,476,271,616
  // params × 2 B, plus the adapters' 4,194,304 × 2 B = 12,960,931,840 B on each GPU.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s = litgpt_lora_qv();
  s.gpus = 2;
  s.seq_len = 1304;
  s.checkpointing = Checkpointing::full;
  CHECK(estimate_training(m, s).memory.parts.gradients == 4'194'304);  // the adapters' shard
  s.gradient_accumulation = 128;
  const TrainingEstimate accumulating = estimate_training(m, s);
  CHECK(accumulating.memory.parts.gradients == 12'960'931'840);
  // Now training, not the load, is the peak, and it rises with the micro-batch (resource tables:
  // 22.18, 22.47, 23.39 GB at micro-batch 1, 2, 4).
  s.micro_batch = 4;
  CHECK(estimate_training(m, s).memory.tensor_peak_bytes > accumulating.memory.tensor_peak_bytes);
  CHECK(accumulating.memory.tensor_peak_bytes > accumulating.load_peak_bytes);
}

TEST_CASE("bitsandbytes 4-bit linears keep their inputs for backward", "[training][qlora]") {
  // MatMul4Bit.forward saves A whenever it requires grad: per layer and token the q/k/v input (h),
  // the o_proj input (q), the gate/up input (h) and the down_proj input (f), 2 bytes each.
  // Llama-2-7B: 2 × (4096 + 4096 + 4096 + 11008) = 46,592 B more than a 16-bit LoRA layer.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings lora;
  lora.method = TrainingMethod::lora;
  lora.precision = TrainingPrecision::bf16;
  TrainingSettings qlora = lora;
  qlora.method = TrainingMethod::qlora;
  const auto a = training_activations(m, lora);
  const auto b = training_activations(m, qlora);
  CHECK(b.per_layer_token_bytes - a.per_layer_token_bytes == 46'592);
  qlora.quantized_base = QuantizedBase::gptq_int4;  // AutoGPTQ's QuantLinear keeps no input
  CHECK(training_activations(m, qlora).per_layer_token_bytes == a.per_layer_token_bytes);
}

TEST_CASE("Unsloth keeps two checkpointed layer inputs on the GPU and the rest in host RAM", "[training][unsloth]") {
  // Llama-2-7B, 8192 tokens, bf16: a layer input is 8192 × 4096 × 2 B = 67.1 MB; 32 layers.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::qlora;
  s.checkpointing = Checkpointing::full;
  s.seq_len = 8192;
  const auto hf = training_activations(m, s);
  s.framework = TrainingFramework::unsloth;
  const auto unsloth = training_activations(m, s);
  const std::int64_t layer_input = 8192LL * 4096 * 2;
  CHECK(unsloth.host_bytes == 30 * layer_input);
  // On the GPU: two layer inputs and the final norm's input.
  CHECK(unsloth.kept_bytes == 2 * layer_input + layer_input);
  // Hugging Face QLoRA after PEFT's prepare_model_for_kbit_training: the embedding output is fp32
  // and Linear4bit returns its input's dtype, so each of the 32 checkpointed layer inputs (and the
  // final norm's) is 8192 × 4096 × 4 B.
  CHECK(hf.kept_bytes == 33 * 8192LL * 4096 * 4);
  // Above 1024 tokens Unsloth calls Cut Cross-Entropy: no logits, an fp32 log-sum-exp and the
  // hidden states' 16-bit gradient per token: 8192 × (4 + 4096 × 2) B.
  CHECK(unsloth.loss_bytes == 8192LL * (4 + 4096 * 2));
  // Up to 1024 tokens it returns the logits and runs its fused cross-entropy: 16-bit logits and
  // one fp32 logsumexp per token instead of 12 B per logit.
  s.seq_len = 1024;
  CHECK(training_activations(m, s).loss_bytes == 1024LL * (32000 * 2 + 4));
}

TEST_CASE("Unsloth's fused LoRA kernels keep each block's input and the gate and up outputs", "[training][unsloth]") {
  // Llama-2-7B (h = q = 4096, kv = 4096, f = 11008), bf16, adapters without dropout: norms' inputs
  // 2 × h, QKV input h, q + k + v, attention output q, MLP input h, gate and up outputs 2 × f, in
  // 2 B, plus two fp32 inverse RMS: 2 × (4·4096 + 2·4096 + 2·4096 + 2·11008) + 8 = 109,576 B, plus
  // flash attention's fp32 log-sum-exp per head (32 × 4 B): 109,704 B per token and layer.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::qlora;
  s.framework = TrainingFramework::unsloth;
  s.checkpointing = Checkpointing::full;
  CHECK(training_activations(m, s).per_layer_token_bytes == 109'704);
  // With dropout Unsloth falls back to PEFT's layers: each adapter's input copy and mask return.
  s.lora_dropout = 0.05;
  CHECK(training_activations(m, s).per_layer_token_bytes > 109'704);
}

TEST_CASE("litgpt's fused qkv keeps its whole output and one LoRA input for q and v", "[training][litgpt]") {
  // Llama-2-7B, bf16, LoRA r 8 on q and v (litgpt's defaults), no dropout. Over Hugging Face's
  // layout litgpt keeps the fused qkv output (v is a view of it) beside the roped copies of q
  // and k: + 2 × (4096 + 4096) B; one LoRA input instead of two: − 4096 × 2 B; and the
  // index_copy source of the q and v LoRA outputs: + 2 × (4096 + 4096) B. Net + 24,576 B.
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s = litgpt_lora_qv();
  s.framework = TrainingFramework::trainer;
  const auto hf = training_activations(m, s);
  s.framework = TrainingFramework::litgpt;
  const auto litgpt = training_activations(m, s);
  CHECK(litgpt.per_layer_token_bytes - hf.per_layer_token_bytes == 24'576);
}

TEST_CASE("The largest sequence and micro-batch that fit are where the estimate crosses the device", "[training][fit]") {
  const ModelSpec m = test_support::preset("llama-2-7b-hf");
  TrainingSettings s;
  s.method = TrainingMethod::qlora;
  s.checkpointing = Checkpointing::full;
  const std::int64_t capacity = 24LL << 30;
  const TrainingFit fit = training_fit(m, s, capacity);
  REQUIRE(fit.max_seq_len > 0);
  TrainingSettings at = s;
  at.seq_len = fit.max_seq_len;
  CHECK(estimate_training(m, at).memory.device_bytes <= capacity);
  at.seq_len = fit.max_seq_len + 1;
  CHECK(estimate_training(m, at).memory.device_bytes > capacity);
  CHECK(fit.max_micro_batch >= 1);
  // Unsloth's offloaded checkpoints and fused loss fit a longer context on the same card.
  s.framework = TrainingFramework::unsloth;
  CHECK(training_fit(m, s, capacity).max_seq_len > fit.max_seq_len);
  // Nothing fits a device smaller than the frozen 4-bit weights.
  CHECK(training_fit(m, s, 1LL << 30).max_seq_len == 0);
}

TEST_CASE("Under Unsloth more work never needs less memory, except where Cut Cross-Entropy takes over, which the answer names", "[training][unsloth]") {
  // gemma-3-1b-it LoRA with Unsloth's offloaded checkpointing: 1 x 1,024 tokens keeps 1,024 rows of
  // 16-bit logits of its 262,144-entry vocabulary (512 MiB); 1 x 2,048 crosses Unsloth's 1,024-token
  // switch to Cut Cross-Entropy (training_frameworks.hpp kUnslothLogitsTokens), which keeps none.
  auto estimate_at = [](int micro_batch, int seq_len) {
    return test_support::estimate({{"model", "gemma-3-1b-it"}, {"task", "training"},
                                   {"training", {{"method", "lora"}, {"framework", "unsloth"}, {"micro_batch", micro_batch},
                                                 {"seq_len", seq_len}, {"gradient_checkpointing", true}}}});
  };
  auto names_the_rule = [](const nlohmann::json& a) {
    for (const auto& w : a["warnings_data"]) {
      if (w["id"] == "warning.training.unsloth_cut_cross_entropy") return true;
    }
    return false;
  };
  std::int64_t last = 0;
  bool last_named = false;
  for (const int seq_len : {256, 512, 1024, 2048, 4096, 8192}) {
    const nlohmann::json a = estimate_at(1, seq_len);
    const std::int64_t bytes = a["memory"]["device_bytes"];
    const bool named = names_the_rule(a);
    CAPTURE(seq_len, bytes, last);
    CHECK(named == (seq_len > 1024));
    // Less than the step before only where the rule switched on between them.
    if (bytes < last) CHECK((named && !last_named));
    last = bytes;
    last_named = named;
  }
  CHECK(estimate_at(1, 2048)["memory"]["device_bytes"] < estimate_at(1, 1024)["memory"]["device_bytes"]);
  // Doubling the micro-batch is the same number of tokens: the same switch.
  CHECK(names_the_rule(estimate_at(2, 1024)));
  CHECK_FALSE(names_the_rule(estimate_at(2, 512)));
}

}  // namespace training_frameworks_test
