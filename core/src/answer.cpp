// SPDX-License-Identifier: MIT
#include "llmsizer/answer.hpp"

#include <algorithm>
#include <map>


namespace llmsizer {

const char* task_id(Task task) { return task == Task::training ? "training" : "inference"; }

InferenceSettings Request::inference() const {
  InferenceSettings s;
  s.weights = weights;
  s.kv_cache = kv_cache;
  s.engine = engine;
  s.input_tokens = input_tokens;
  s.output_tokens = output_tokens;
  s.batch = batch;
  s.gpus = gpus;
  s.flash_attention = flash_attention;
  s.engine_version = engine_version;
  s.group_size = group_size;
  return s;
}

ModelSummary summarize_model(const ModelSpec& model) {
  return {count_params(model), describe_features(model)};
}

namespace {

WeightsSummary summarize_weights(const WeightsLayout& layout) {
  WeightsSummary w;
  w.bits_per_weight = layout.bits_per_weight();
  w.bytes_by_class = layout.bytes_by_class;
  std::map<std::string, WeightsSummary::Type> types;
  for (const auto& t : layout.tensors) {
    auto& entry = types[t.type];
    entry.type = t.type;
    entry.tensors += 1;
    entry.bytes += t.bytes;
  }
  for (auto& [name, entry] : types) w.types.push_back(std::move(entry));
  return w;
}

/// Why the download and the memory differ for this format and engine.
void disk_notes(const ModelSpec& m, const WeightFormat& f, Engine engine, int gpus, std::vector<Message>& warnings) {
  if (f.ecosystem == Ecosystem::gguf) {
    warnings.push_back(Message("warning.disk.gguf_mmap"));
    if (engine == Engine::llama_cpp && gpus > 0 && m.tie_word_embeddings) {
      warnings.push_back(Message("warning.memory.tied_embedding_held_twice"));
    }
  }
  if (f.scheme == QuantScheme::bnb_4bit || f.scheme == QuantScheme::llm_int8) {
    warnings.push_back(Message("warning.disk.bnb_quantizes_at_load").bytes("checkpoint", weight_bytes(m, *find_weight_format("bf16"))));
  }
}

SpeedPlacement speed_placement(const FitResult& f, int gpus) {
  SpeedPlacement p;
  p.gpus = f.placement == Placement::cpu ? 0 : std::max(1, gpus);
  if (f.placement == Placement::offload) {
    p.gpus = 1;
    p.gpu_layers = f.offload.gpu_layers;
  }
  return p;
}

InferenceOnHardware place_inference(const Request& r, const MemoryByDevices& memory, const Catalog& catalog) {
  InferenceOnHardware out;
  HardwareSpec hw = *r.hardware;
  if (r.gpus == 0 && !hw.is_cpu()) hw.device_count = 0;  // gpus 0: the host's CPU and RAM
  FitOptions options;
  options.gpus = hw.is_cpu() ? 0 : std::max(1, r.gpus);
  out.fit = fit_request(memory, hw, options);
  const SpeedPlacement where = speed_placement(out.fit, options.gpus);
  SpeedOptions speed_options;
  speed_options.enforce_eager = r.enforce_eager;
  out.throughput = estimate_throughput(r.model, memory.settings(), hw, where, speed_options);
  if (!hw.is_cpu() && out.throughput.known && r.cpu) {
    out.cpu_vs_gpu = compare_cpu_gpu(r.model, memory.settings(), *r.cpu, hw, where);
    out.cpu_id = r.cpu->id;
  }
  // The break-even needs only the instances with this GPU.
  const std::vector<HardwareSpec> rentals =
      hw.kind == HardwareKind::gpu && hw.price_usd > 0 ? catalog.instances_with_gpu(hw.id) : std::vector<HardwareSpec>{};
  out.cost = option_cost(hw, hw.is_cpu() ? 0 : options.gpus, out.throughput.decode_tokens_per_s_total, r.costs, rentals);
  out.hardware = std::move(hw);
  return out;
}

TrainingOnHardware place_training(const Request& r, const MemoryEstimate& estimate) {
  TrainingOnHardware out;
  out.hardware = *r.hardware;
  const HardwareSpec& hw = out.hardware;
  const int gpus = std::max(1, r.training.gpus);
  out.usable_bytes = usable_device_bytes(hw, hw.device_memory_bytes);
  out.required_bytes = estimate.device_bytes;
  out.fits = estimate.device_bytes <= out.usable_bytes && (hw.kind != HardwareKind::instance || gpus <= hw.device_count);
  out.headroom_bytes = out.usable_bytes - estimate.device_bytes;
  return out;
}

BudgetFit fit_budget(const MemoryEstimate& memory, std::int64_t budget) {
  BudgetFit f;
  f.required_bytes = memory.device_bytes > 0 ? memory.device_bytes : memory.host_bytes;
  f.usable_bytes = budget;
  f.headroom_bytes = budget - f.required_bytes;
  f.fits = f.headroom_bytes >= 0;
  return f;
}

}  // namespace

Answer answer(const Request& r, const Catalog& catalog) {
  Answer a;
  a.model = summarize_model(r.model);
  a.warnings = r.warnings;
  const WeightFormat& format = *r.weights;
  if (r.task == Task::inference) {
    // One layout and one estimate for the request; the fit on a device reuses both.
    const MemoryByDevices memory(r.model, r.inference(), weights_layout(r.model, format, r.group_size));
    a.memory = memory.at(r.gpus);
    a.disk = checkpoint_disk_size(r.model, format, memory.layout());
    a.weights = summarize_weights(memory.layout());
    a.warnings.insert(a.warnings.end(), a.memory.warnings.begin(), a.memory.warnings.end());
    disk_notes(r.model, format, r.engine, r.gpus, a.warnings);
    if (r.hardware) a.inference_hardware = place_inference(r, memory, catalog);
  } else {
    const WeightsLayout layout = weights_layout(r.model, format, r.group_size);
    TrainingEstimate training = estimate_training(r.model, r.training);
    a.memory = training.memory;
    a.training = std::move(training);
    a.disk = checkpoint_disk_size(r.model, format, layout);
    a.weights = summarize_weights(layout);
    a.warnings.insert(a.warnings.end(), a.memory.warnings.begin(), a.memory.warnings.end());
    disk_notes(r.model, format, r.engine, r.gpus, a.warnings);
    if (r.hardware) a.training_hardware = place_training(r, a.memory);
  }
  if (r.budget_bytes && !r.hardware) a.budget_fit = fit_budget(a.memory, *r.budget_bytes);
  if (r.task == Task::training && (a.training_hardware || a.budget_fit)) {
    // The longest sequence and the largest micro-batch that fit what the device can hold.
    const std::int64_t capacity = a.training_hardware ? a.training_hardware->usable_bytes : a.budget_fit->usable_bytes;
    if (a.memory.device_bytes > 0) {
      a.training_fit = training_fit(r.model, r.training, capacity, kMaxTrainingFitTokens, kMaxTrainingFitBatch);
    }
  }
  return a;
}

Recommendation recommend(const Request& r, const Catalog& catalog) {
  const MemoryByDevices memory(r.model, r.inference());
  Recommendation rec = recommend_hardware(memory, catalog.all_hardware(), r.goal, r.costs);
  const HardwareSpec* mine = r.hardware && !r.hardware->is_rented() ? &*r.hardware : nullptr;
  rec.costs = std::make_shared<const CostComparison>(compare_costs(memory, catalog.all_hardware(), mine, r.usage, r.costs));
  return rec;
}

}  // namespace llmsizer
