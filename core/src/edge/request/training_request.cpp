// SPDX-License-Identifier: MIT
#include "request/training_request.hpp"

#include <set>

#include "llmsizer/error.hpp"
#include "request/read.hpp"

namespace llmsizer::edge {
namespace {

constexpr std::int64_t kMaxTokens = 10'000'000;
constexpr std::int64_t kMaxBatch = 1'000'000;

/// One of `values`, read by its id (`id_of`), or `fallback` when absent; the error lists the ids.
template <typename Enum, std::size_t N>
Enum choice(const json& obj, const char* key, const std::string& field, const Enum (&values)[N], const char* (*id_of)(Enum), Enum fallback) {
  std::vector<std::string> ids;
  for (Enum v : values) ids.emplace_back(id_of(v));
  const std::string value = text(obj, key, field, ids, id_of(fallback));
  for (Enum v : values) {
    if (value == id_of(v)) return v;
  }
  return fallback;
}

std::vector<std::string> parse_targets(const json& training) {
  const auto it = training.find("lora_targets");
  if (it == training.end() || it->is_null()) return {"all-linear"};
  if (it->is_string()) return {it->get<std::string>()};
  if (!it->is_array()) {
    throw InputError("training.lora_targets", Message("error.lora_targets.not_a_list").text("got", it->dump()));
  }
  std::vector<std::string> out;
  for (const auto& v : *it) {
    if (!v.is_string()) throw InputError("training.lora_targets", Message("error.lora_targets.entry_not_a_string").text("got", v.dump()));
    out.push_back(v.get<std::string>());
  }
  return out;
}

}  // namespace

TrainingSettings parse_training(const json& training, const ModelSpec& model, int gpus, std::int64_t seq_len_default,
                                std::int64_t micro_batch_default, bool flash_default, std::vector<Message>& warnings) {
  if (!training.is_object()) throw InputError("training", Message("error.training.not_object"));
  // Made on the first training request (a program that reads none neither makes nor links them:
  // parse_request.hpp TaskReaders).
  static const std::set<std::string> kTrainingKeys = {
      "method", "optimizer", "precision", "seq_len", "micro_batch", "gradient_accumulation", "gradient_checkpointing",
      "flash_attention", "lora_rank", "lora_alpha", "lora_dropout", "lora_targets", "dora", "adapter_dtype",
      "train_embeddings", "quantization", "trainable_layers", "zero_stage", "offload_optimizer", "offload_params",
      "packing", "chunked_loss", "loss_dtype", "dataset_tokens", "epochs", "peak_tflops", "usd_per_hour", "mfu",
      "framework", "reduce_bucket_size", "overlap_comm"};
  for (auto it = training.begin(); it != training.end(); ++it) {
    if (kTrainingKeys.count(it.key()) == 0) warnings.push_back(Message("warning.training.unknown_field").text("field", it.key()));
  }
  TrainingSettings t;
  t.gpus = gpus;
  t.method = choice(training, "method", "training.method", kTrainingMethods, method_id, t.method);
  t.optimizer = choice(training, "optimizer", "training.optimizer", kOptimizers, optimizer_id, t.optimizer);
  t.precision = choice(training, "precision", "training.precision", kTrainingPrecisions, precision_id, t.precision);
  t.seq_len = whole_number(training, "seq_len", "training.seq_len", 1, kMaxTokens, seq_len_default);
  t.micro_batch = whole_number(training, "micro_batch", "training.micro_batch", 1, kMaxBatch, micro_batch_default);
  t.gradient_accumulation = whole_number(training, "gradient_accumulation", "training.gradient_accumulation", 1, 1'000'000, 1);
  {
    const auto it = training.find("gradient_checkpointing");
    if (it != training.end() && !it->is_null()) {
      if (it->is_boolean()) {
        t.checkpointing = it->get<bool>() ? Checkpointing::full : Checkpointing::none;
      } else if (it->is_string() && (it->get<std::string>() == "selective" || it->get<std::string>() == "full")) {
        t.checkpointing = it->get<std::string>() == "selective" ? Checkpointing::selective : Checkpointing::full;
      } else {
        throw InputError("training.gradient_checkpointing", Message("error.training.checkpointing").text("got", it->dump()));
      }
    }
  }
  t.flash_attention = boolean(training, "flash_attention", "training.flash_attention", flash_default);
  t.packing = boolean(training, "packing", "training.packing", false);
  t.chunked_loss = boolean(training, "chunked_loss", "training.chunked_loss", false);
  t.loss_fp32 = text(training, "loss_dtype", "training.loss_dtype", {"fp32", "16-bit"}, "fp32") == "fp32";

  t.lora_rank = whole_number(training, "lora_rank", "training.lora_rank", 1, 65536, 16);
  number(training, "lora_alpha", "training.lora_alpha", 0.0, 1e6, 32.0);  // scaling only: no memory effect
  t.lora_dropout = number(training, "lora_dropout", "training.lora_dropout", 0.0, 0.99, 0.0);
  t.lora_targets = parse_targets(training);
  t.dora = boolean(training, "dora", "training.dora", false);
  t.adapter_fp32 = text(training, "adapter_dtype", "training.adapter_dtype", {"fp32", "base"}, "fp32") == "fp32";
  t.train_embeddings = boolean(training, "train_embeddings", "training.train_embeddings", false);
  t.quantized_base = choice(training, "quantization", "training.quantization", kQuantizedBases, quantization_id, t.quantized_base);
  const std::int64_t max_layers = model.num_layers > 0 ? model.num_layers : 100'000;
  t.trainable_layers = static_cast<int>(whole_number(training, "trainable_layers", "training.trainable_layers", 1, max_layers, std::min<std::int64_t>(2, max_layers)));

  t.zero_stage = static_cast<int>(whole_number(training, "zero_stage", "training.zero_stage", 0, 3, 0));
  // Issue 16: the framework whose own memory is modelled (training_frameworks.hpp), and the two
  // DeepSpeed settings that size its buffers (DeepSpeed's defaults: 5e8 elements, overlap_comm
  // only at stage 3).
  const std::string framework = text(training, "framework", "training.framework", {"trainer", "deepspeed", "fsdp", "litgpt", "unsloth"}, "trainer");
  t.framework = framework == "deepspeed" ? TrainingFramework::deepspeed : framework == "fsdp" ? TrainingFramework::fsdp
              : framework == "litgpt" ? TrainingFramework::litgpt : framework == "unsloth" ? TrainingFramework::unsloth : TrainingFramework::trainer;
  if (t.framework == TrainingFramework::deepspeed && t.zero_stage == 0) t.zero_stage = 1;
  t.zero.reduce_bucket_size = static_cast<std::int64_t>(number(training, "reduce_bucket_size", "training.reduce_bucket_size", 0.0, 1e11, 5e8));
  t.zero.overlap_comm = boolean(training, "overlap_comm", "training.overlap_comm", t.zero_stage == 3);
  t.offload_optimizer = boolean(training, "offload_optimizer", "training.offload_optimizer", false);
  t.offload_params = boolean(training, "offload_params", "training.offload_params", false);
  if (t.zero_stage > 0 && gpus == 0) throw InputError("training.zero_stage", Message("error.training.zero_on_cpu"));
  if (t.offload_optimizer && t.zero_stage == 0) throw InputError("training.offload_optimizer", Message("error.training.offload_needs_zero"));
  if (t.offload_params && t.zero_stage != 3) throw InputError("training.offload_params", Message("error.training.param_offload_needs_zero3"));

  t.dataset_tokens = number(training, "dataset_tokens", "training.dataset_tokens", 0.0, 1e16, 0.0);
  t.epochs = number(training, "epochs", "training.epochs", 0.0, 10000.0, 1.0);
  t.peak_tflops = number(training, "peak_tflops", "training.peak_tflops", 0.0, 1e6, 0.0);
  t.usd_per_gpu_hour = number(training, "usd_per_hour", "training.usd_per_hour", 0.0, 1e6, 0.0);
  t.mfu = number(training, "mfu", "training.mfu", 0.0, 1.0, 0.0);
  return t;
}

void training_settings_json(JsonWriter& w, const TrainingSettings& t) {
  w.begin_object();
  w.field("method", method_id(t.method)).field("optimizer", optimizer_id(t.optimizer)).field("precision", precision_id(t.precision));
  w.field("seq_len", t.seq_len).field("micro_batch", t.micro_batch).field("gradient_accumulation", t.gradient_accumulation);
  w.key("gradient_checkpointing");
  if (t.checkpointing == Checkpointing::selective) w.value("selective");
  else w.value(t.checkpointing == Checkpointing::full);
  w.field("flash_attention", t.flash_attention).field("packing", t.packing).field("chunked_loss", t.chunked_loss);
  w.field("loss_dtype", t.loss_fp32 ? "fp32" : "16-bit");
  if (t.method == TrainingMethod::lora || t.method == TrainingMethod::qlora) {
    w.field("lora_rank", t.lora_rank).field("lora_targets", t.lora_targets).field("lora_dropout", t.lora_dropout);
    w.field("dora", t.dora).field("adapter_dtype", t.adapter_fp32 ? "fp32" : "base").field("train_embeddings", t.train_embeddings);
  }
  if (t.method == TrainingMethod::qlora) w.field("quantization", quantization_id(t.quantized_base));
  if (t.method == TrainingMethod::freeze) w.field("trainable_layers", t.trainable_layers);
  w.field("framework", training_framework_id(t.framework)).field("zero_stage", t.zero_stage);
  w.field("offload_optimizer", t.offload_optimizer).field("offload_params", t.offload_params);
  w.end_object();
}

void training_result_json(JsonWriter& w, const TrainingEstimate& e) {
  w.begin_object();
  w.field("trainable_params", e.params.trainable).field("adapter_params", e.params.adapters);
  w.field("tokens_per_step", e.time.tokens_per_step).field("flops_per_token", e.time.flops_per_token).field("flops", e.time.flops);
  w.field("mfu", e.time.mfu).field("hours", e.time.hours).field("usd", e.time.usd);
  w.field("backward_peak_bytes", e.backward_peak_bytes).field("step_peak_bytes", e.step_peak_bytes);
  w.field("model_states_bytes", e.model_states_bytes).field("load_peak_bytes", e.load_peak_bytes);
  w.field("host_activation_bytes", e.host_activation_bytes).field("allocator_cached_bytes", e.allocator_cached_bytes);
  if (!e.lora_modules.empty()) w.field("lora_target_modules", e.lora_modules);
  w.end_object();
}

}  // namespace llmsizer::edge
