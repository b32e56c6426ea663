// SPDX-License-Identifier: MIT
#include "llmsizer/answer.hpp"

#include <algorithm>

#include "llmsizer/context_limit.hpp"
#include "llmsizer/machine.hpp"
#include <optional>

namespace llmsizer {

const char* task_id(Task task) {
  switch (task) {
    case Task::training: return "training";
    case Task::serve: return "serve";
    case Task::inference: break;
  }
  return "inference";
}

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
  s.llama_cpp = llama_cpp;
  s.ollama = ollama;
  return s;
}

ModelSummary summarize_model(const ModelSpec& model) {
  return {count_params(model), describe_features(model)};
}

namespace {

/// A tight fit is already a fit: of its fixes, only those that make it comfortable are worth saying.
std::vector<Fix> worth_saying(std::vector<Fix> fixes, Verdict verdict) {
  if (verdict == Verdict::tight) {
    fixes.erase(std::remove_if(fixes.begin(), fixes.end(), [](const Fix& f) { return f.verdict != Verdict::comfortable; }), fixes.end());
  }
  return fixes;
}

WeightsSummary summarize_weights(const WeightsLayout& layout) {
  WeightsSummary w;
  w.bits_per_weight = layout.bits_per_weight();
  w.bytes_by_class = layout.bytes_by_class;
  // A model's few storage types, kept in name order (as a map would order them) by a scan of those
  // seen so far: a map keyed by the type name cost string comparisons per tensor, a visible part of
  // answer() for an estimate on a device.
  // Neighbouring tensors mostly share a type: the last one's entry is tried first.
  std::vector<WeightsSummary::Type>& types = w.types;
  std::size_t last = 0;
  for (const auto& t : layout.tensors) {
    if (last >= types.size() || types[last].type != t.type) {
      auto entry = std::find_if(types.begin(), types.end(), [&](const WeightsSummary::Type& e) { return !(e.type < t.type); });
      if (entry == types.end() || entry->type != t.type) entry = types.insert(entry, WeightsSummary::Type{std::string(t.type), 0, 0});
      last = static_cast<std::size_t>(entry - types.begin());
    }
    types[last].tensors += 1;
    types[last].bytes += t.bytes;
  }
  return w;
}

/// Why the download and the memory differ for this format and engine.
void disk_notes(const ModelSpec& m, const WeightFormat& f, Engine engine, int gpus, std::vector<Message>& warnings) {
  if (f.ecosystem == Ecosystem::gguf) {
    warnings.push_back(Message("warning.disk.gguf_mmap"));
    if ((engine == Engine::llama_cpp || engine == Engine::ollama) && gpus > 0 && m.tie_word_embeddings) {
      warnings.push_back(Message("warning.memory.tied_embedding_held_twice"));
    }
  }
  if (f.scheme == QuantScheme::bnb_4bit || f.scheme == QuantScheme::llm_int8) {
    warnings.push_back(Message("warning.disk.bnb_quantizes_at_load").bytes("checkpoint", weight_bytes(m, *find_weight_format("bf16"))));
  }
}

SpeedPlacement speed_placement(const FitResult& f, const HardwareSpec& hw, int gpus) {
  SpeedPlacement p;
  p.gpus = hw.is_cpu() ? 0 : std::max(1, gpus);
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
  options.search_limits = r.search_limits;
  out.fit = fit_request(memory, hw, options);
  const SpeedPlacement where = speed_placement(out.fit, hw, options.gpus);
  SpeedOptions speed_options;
  speed_options.enforce_eager = r.enforce_eager;
  speed_options.calibration = r.speed_calibration;
  out.throughput = estimate_throughput(r.model, memory.settings(), hw, where, speed_options);
  // MLX checkpoints run on Apple silicon (ml-explore/mlx: "an array framework for machine learning on
  // Apple silicon"): no x86 CPU is offered as their alternative.
  const bool cpu_runs_format = r.weights->ecosystem != Ecosystem::mlx || (r.cpu && is_apple(*r.cpu));
  if (!hw.is_cpu() && out.throughput.known && r.cpu && cpu_runs_format) {
    out.cpu_vs_gpu = compare_cpu_gpu(r.model, memory.settings(), *r.cpu, hw, where);
    out.cpu_id = r.cpu->id;
  }
  // The break-even needs only the instances with this GPU.
  const std::vector<HardwareSpec> rentals =
      hw.kind == HardwareKind::gpu && hw.price_usd > 0 ? catalog.instances_with_gpu(hw.id) : std::vector<HardwareSpec>{};
  out.cost = option_cost(hw, hw.is_cpu() ? 0 : options.gpus, out.throughput.decode_tokens_per_s_total, r.costs, rentals);
  const FitResult& f = out.fit;
  out.summary = fit_summary(f.verdict, f.headroom_bytes, f.margin_bytes, &f.offload, r.model.num_layers,
                            out.throughput.known ? out.throughput.decode_tokens_per_s : 0);
  // The bytes fit, PyTorch's caching allocator does not (hardware.hpp: allocator_runs_out).
  if (f.verdict == Verdict::no_fit && f.allocator_out_of_memory) out.summary = Message("verdict.no_fit_allocator").bytes("headroom", f.headroom_bytes);
  // Each fix is the request with one change, estimated again against the same device.
  if (f.verdict != Verdict::comfortable && r.search_limits) {
    out.fixes = worth_saying(inference_fixes(r.model, memory.settings(), fit_target(hw, f)), f.verdict);
  }
  // Beyond the model's trained context (context_limit.hpp): vLLM and SGLang do not start, Ollama
  // cuts the context, the others run without the model's guarantee. The verdict says which.
  const std::int64_t context = r.input_tokens + r.output_tokens;
  const std::int64_t trained = trained_context(r.model);
  if (trained > 0 && context > trained) {
    const BeyondContext rule = beyond_context(r.engine);
    if (rule == BeyondContext::refuses) {
      // The fix is estimated only where fixes are wanted (not for a chart point or a format row).
      std::optional<Fix> fix = r.search_limits ? trained_context_fix(r.model, memory.settings(), fit_target(hw, f), trained) : std::nullopt;
      out.fit.fits = false;
      out.fit.verdict = Verdict::no_fit;
      out.fit.placement = Placement::none;
      out.summary = Message("verdict.beyond_context.refused").text("engine", engine_id(r.engine)).grouped("context", context).grouped("trained", trained);
      out.fixes.clear();
      if (fix) out.fixes.push_back(std::move(*fix));
    } else {
      out.summary.then(Message(rule == BeyondContext::caps ? "verdict.beyond_context.capped" : "verdict.beyond_context.warned").grouped("trained", trained));
    }
  }
  MemoryAssumptionInputs in;
  in.hardware = &hw;
  in.fit = &f;
  in.usable_bytes = f.usable_bytes;
  in.overhead_bytes = hw.is_cpu() ? 0 : memory.at(std::max(1, f.gpus_used)).parts.overhead;
  in.memory_option_bytes = f.memory_option_bytes;
  in.host_memory_used = f.placement == Placement::cpu || f.verdict == Verdict::offload || hw.is_cpu();
  out.assumptions = memory_assumptions(in);
  out.hardware = std::move(hw);
  return out;
}

TrainingOnHardware place_training(const Request& r, const MemoryEstimate& estimate) {
  TrainingOnHardware out;
  out.hardware = *r.hardware;
  const HardwareSpec& hw = out.hardware;
  const int gpus = std::max(1, r.training.gpus);
  // Unified memory: the smallest configuration, as for inference (a laptop named without its memory).
  std::int64_t physical = hw.device_memory_bytes;
  if (hw.unified_memory && !hw.memory_options_bytes.empty()) {
    physical = *std::min_element(hw.memory_options_bytes.begin(), hw.memory_options_bytes.end());
    out.memory_option_bytes = physical;
  }
  out.usable_bytes = usable_device_bytes(hw, physical);
  out.required_bytes = estimate.device_bytes;
  const int max_gpus = max_devices(hw);
  out.fits = estimate.device_bytes <= out.usable_bytes && gpus <= std::max(1, max_gpus);
  out.headroom_bytes = out.usable_bytes - estimate.device_bytes;
  FitVerdict& v = out.verdict;
  v.margin_bytes = fit_margin_bytes(out.usable_bytes);
  v.verdict = out.fits ? memory_verdict(out.headroom_bytes, v.margin_bytes) : Verdict::no_fit;
  v.summary = fit_summary(v.verdict, out.headroom_bytes, v.margin_bytes, nullptr, r.model.num_layers, 0);
  if (v.verdict != Verdict::comfortable) v.fixes = worth_saying(training_fixes(r.model, r.training, out.usable_bytes, max_gpus), v.verdict);
  MemoryAssumptionInputs in;
  in.hardware = &hw;
  in.usable_bytes = out.usable_bytes;
  in.overhead_bytes = hw.unified_memory ? 0 : estimate.parts.overhead;
  in.memory_option_bytes = out.memory_option_bytes;
  v.assumptions = memory_assumptions(in);
  return out;
}

BudgetFit fit_budget(const Request& r, const MemoryEstimate& memory, std::int64_t budget) {
  BudgetFit f;
  f.required_bytes = memory.device_bytes > 0 ? memory.device_bytes : memory.host_bytes;
  f.usable_bytes = budget;
  f.headroom_bytes = budget - f.required_bytes;
  f.fits = f.headroom_bytes >= 0;
  FitVerdict& v = f.verdict;
  v.margin_bytes = fit_margin_bytes(budget);
  v.verdict = memory_verdict(f.headroom_bytes, v.margin_bytes);
  v.summary = fit_summary(v.verdict, f.headroom_bytes, v.margin_bytes, nullptr, r.model.num_layers, 0);
  // Training's fixes are its own (answer_other_task): this one's are inference's.
  if (v.verdict != Verdict::comfortable && r.task != Task::training) {
    FitTarget target;
    target.gpus = memory.device_bytes > 0 ? std::max(1, r.gpus) : 0;
    target.usable_bytes = budget;
    v.fixes = worth_saying(inference_fixes(r.model, r.inference(), target), v.verdict);
  }
  // A budget is compared as given: nothing is kept for the operating system (my machine does that).
  v.assumptions.push_back(Message("assumption.budget_as_given"));
  MemoryAssumptionInputs in;
  in.usable_bytes = budget;
  for (Message& m : memory_assumptions(in)) v.assumptions.push_back(std::move(m));
  return f;
}

/// The draft's memory beside the request's (`memory`), its launch command, and on a device the pair's
/// fit and speed.
DraftAnswer answer_draft(const Request& r, const MemoryEstimate& memory, const InferenceOnHardware* placed) {
  DraftAnswer d;
  const InferenceSettings target = r.inference();
  d.memory = draft_memory(*r.draft, target);
  d.command_line = draft_command_line(r.engine, *r.draft, memory.llama_cpp ? memory.llama_cpp->command_line : std::string());
  if (placed == nullptr) return d;
  const FitResult& f = placed->fit;
  d.fit = fit_with_draft(f, d.memory);
  d.summary = fit_summary(d.fit->verdict, d.fit->headroom_bytes, d.fit->margin_bytes, &f.offload, r.model.num_layers, 0);
  if (placed->throughput.known) {
    const HardwareSpec& hw = placed->hardware;
    SpeedOptions options;
    options.enforce_eager = r.enforce_eager;
    options.calibration = r.speed_calibration;
    d.speed = draft_speed(r.model, target, *r.draft, d.memory, hw, speed_placement(f, hw, hw.is_cpu() ? 0 : std::max(1, r.gpus)), options);
  }
  return d;
}

/// The request's model and its `also_loaded` models: each one's memory, and on a device the set's
/// fit (co_resident.hpp). The request's own model holds what its fit places on the GPU.
CoResidentSet answer_co_resident(const Request& r, const MemoryEstimate& memory, const InferenceOnHardware* placed) {
  const InferenceSettings main = r.inference();
  const bool unified = placed != nullptr && placed->hardware.unified_memory;
  std::vector<CoResidentModel> models;
  CoResidentModel own;
  own.model_id = r.model.id;
  own.weights_id = r.weights->id;
  own.context = r.input_tokens + r.output_tokens;
  own.device_bytes = memory.device_bytes;
  own.host_bytes = memory.host_bytes;
  if (placed != nullptr && placed->fit.placement == Placement::offload) {
    own.device_bytes = placed->fit.offload.gpu_bytes;
    own.host_bytes = placed->fit.offload.host_bytes;
  }
  own.needed_bytes = memory.device_bytes;
  own.n_gpu_layers = r.engine == Engine::ollama ? r.ollama.num_gpu : r.llama_cpp.n_gpu_layers;
  models.push_back(std::move(own));
  for (const AlsoLoadedSettings& other : r.also_loaded) models.push_back(co_resident_memory(other, main, unified));
  if (placed == nullptr) {
    CoResidentSet set;
    set.models = std::move(models);
    return set;
  }
  const HardwareSpec& hw = placed->hardware;
  const std::int64_t host = hw.host_memory_bytes > 0 ? usable_host_bytes(hw.host_memory_bytes) : 0;
  return place_co_resident(std::move(models), r.engine, std::max(1, placed->fit.gpus_used), placed->fit, host);
}

/// Serving on `hw` with `tp` GPUs per replica: the engine's profile, the step model of one
/// replica, and the simulated workload (serving.hpp), with the weights and reserved bytes per GPU
/// from the engine's memory rules (`estimate`, at tp GPUs).
ServingAnswer answer_serve(const Request& r, const HardwareSpec& hw, int tp, const WeightsLayout& layout, const MemoryEstimate& estimate,
                           bool curve, std::int64_t max_requests = kMaxServeRequests) {
  ServeSettings s = *r.serve;
  s.layout.tp = std::max(1, tp);
  s.workload.requests = std::min(s.workload.requests, max_requests);
  const int pp = std::max(1, s.layout.pp);
  const bool offline = s.workload.mode == LoadMode::max_throughput;
  const ServeEngineProfile engine =
      serve_engine_profile(s.engine, r.engine_version, s.layout.tp, offline, s.workload.input_tokens + s.workload.output_tokens, s.overrides,
                           hw.device_memory_bytes, hw.name);
  const ModelCounts counts = count_model(r.model);
  const StepModel step = make_step_model(r.model, counts, layout, *r.weights, *r.kv_cache, hw, s.layout.tp, pp, engine);
  ServeInputs in;
  in.model = &r.model;
  in.weights = r.weights;
  in.kv_cache = r.kv_cache;
  in.hardware = &hw;
  in.engine_version = r.engine_version;
  in.engine_version_text = r.engine_version_text;
  in.settings = s;
  in.costs = r.costs;
  in.weights_bytes = estimate.parts.weights / pp;
  in.reserved_bytes = estimate.parts.activations + estimate.parts.overhead;
  in.curve = curve;
  return answer_serving(in, step, engine);
}

/// The answer's first members, those of every task.
Answer answer_start(const Request& r) {
  Answer a;
  a.model = summarize_model(r.model);
  a.warnings = r.warnings;
  return a;
}

/// A serving or a training request's answer (what `answer` adds to answer_inference).
Answer answer_other_task(const Request& r) {
  Answer a = answer_start(r);
  const WeightFormat& format = *r.weights;
  if (r.task == Task::serve) {
    // One replica's memory by the engine's rules (tp GPUs), then the workload on it.
    const MemoryByDevices memory(r.model, r.inference(), weights_layout(r.model, format, r.group_size));
    a.memory = memory.at(r.gpus);
    a.disk = checkpoint_disk_size(r.model, format, memory.layout());
    a.weights = summarize_weights(memory.layout());
    a.warnings.insert(a.warnings.end(), a.memory.warnings.begin(), a.memory.warnings.end());
    if (r.hardware && r.serve) {
      // Beyond the model's trained context vLLM, SGLang (and the engines sized like vLLM) do not
      // start (context_limit.hpp): nothing is simulated.
      const std::int64_t context = r.serve->workload.input_tokens + r.serve->workload.output_tokens;
      const std::int64_t trained = trained_context(r.model);
      if (trained > 0 && context > trained && beyond_context(r.engine) == BeyondContext::refuses) {
        ServingAnswer refused;
        refused.capacity.fits = false;
        refused.meets_slo = false;
        refused.replicas = 0;
        refused.gpus_needed = 0;
        refused.summary = Message("verdict.beyond_context.refused").text("engine", serve_engine_id(r.serve->engine)).grouped("context", context).grouped("trained", trained);
        a.serving = std::move(refused);
      } else {
        a.serving = answer_serve(r, *r.hardware, r.serve->layout.tp, memory.layout(), a.memory, true);
      }
    }
    if (r.budget_bytes && !r.hardware) a.budget_fit = fit_budget(r, a.memory, *r.budget_bytes);
    return a;
  }
  const WeightsLayout layout = weights_layout(r.model, format, r.group_size);
  TrainingEstimate training = estimate_training(r.model, r.training);
  a.memory = training.memory;
  a.training = std::move(training);
  a.disk = checkpoint_disk_size(r.model, format, layout);
  a.weights = summarize_weights(layout);
  a.warnings.insert(a.warnings.end(), a.memory.warnings.begin(), a.memory.warnings.end());
  disk_notes(r.model, format, r.engine, r.gpus, a.warnings);
  if (r.hardware) a.training_hardware = place_training(r, a.memory);
  if (r.budget_bytes && !r.hardware) {
    a.budget_fit = fit_budget(r, a.memory, *r.budget_bytes);
    FitVerdict& v = a.budget_fit->verdict;
    if (v.verdict != Verdict::comfortable) v.fixes = worth_saying(training_fixes(r.model, r.training, *r.budget_bytes, 1), v.verdict);
  }
  if (a.training_hardware || a.budget_fit) {
    // The longest sequence and the largest micro-batch that fit what the device can hold.
    const std::int64_t capacity = a.training_hardware ? a.training_hardware->usable_bytes : a.budget_fit->usable_bytes;
    if (a.memory.device_bytes > 0 && r.search_limits) {
      a.training_fit = training_fit(r.model, r.training, capacity, kMaxTrainingFitTokens, kMaxTrainingFitBatch);
    }
  }
  return a;
}

}  // namespace

Answer answer_inference(const Request& r, const Catalog& catalog) {
  Answer a = answer_start(r);
  const WeightFormat& format = *r.weights;
  // One layout and one estimate for the request; the fit on a device reuses both.
  const MemoryByDevices memory(r.model, r.inference(), weights_layout(r.model, format, r.group_size));
  a.memory = memory.at(r.gpus);
  a.disk = checkpoint_disk_size(r.model, format, memory.layout());
  a.weights = summarize_weights(memory.layout());
  a.warnings.insert(a.warnings.end(), a.memory.warnings.begin(), a.memory.warnings.end());
  disk_notes(r.model, format, r.engine, r.gpus, a.warnings);
  if (r.hardware) {
    a.inference_hardware = place_inference(r, memory, catalog);
    // Metal has no CUDA context: the estimate shown is the one the fit compared.
    if (a.inference_hardware->hardware.unified_memory) a.memory = without_cuda_context(std::move(a.memory));
  }
  if (r.draft) a.draft = answer_draft(r, a.memory, a.inference_hardware ? &*a.inference_hardware : nullptr);
  if (r.budget_bytes && !r.hardware) a.budget_fit = fit_budget(r, a.memory, *r.budget_bytes);
  return a;
}

Answer answer(const Request& r, const Catalog& catalog) {
  if (r.task != Task::inference) return answer_other_task(r);
  Answer a = answer_inference(r, catalog);
  if (!r.also_loaded.empty()) a.co_resident = answer_co_resident(r, a.memory, a.inference_hardware ? &*a.inference_hardware : nullptr);
  return a;
}

Message fit_summary(Verdict verdict, std::int64_t headroom_bytes, std::int64_t margin_bytes, const OffloadSplit* offload, int layers,
                    double tokens_per_s) {
  switch (verdict) {
    case Verdict::comfortable: return Message("verdict.comfortable").bytes("headroom", headroom_bytes).bytes("margin", margin_bytes);
    case Verdict::tight: return Message("verdict.tight").bytes("headroom", headroom_bytes).bytes("margin", margin_bytes);
    case Verdict::offload: {
      Message m = offload != nullptr && offload->cpu_layers == 0
                      ? Message("verdict.offload_embeddings").count("layers", layers)
                      : Message("verdict.offload").count("gpu_layers", offload != nullptr ? offload->gpu_layers : 0).count("layers", layers);
      if (tokens_per_s > 0) m.then(Message("verdict.offload_speed").decimal("tokens_per_s", tokens_per_s, 1));
      return m;
    }
    case Verdict::no_fit: break;
  }
  return Message("verdict.no_fit").bytes("short", -headroom_bytes);
}

ServeRecommendation recommend_serving(const Request& r, const Catalog& catalog) {
  ServeRecommendation rec;
  // Beyond the trained context the engine does not start on any device (context_limit.hpp).
  const std::int64_t trained = trained_context(r.model);
  if (trained > 0 && r.serve->workload.input_tokens + r.serve->workload.output_tokens > trained && beyond_context(r.engine) == BeyondContext::refuses) {
    return rec;
  }
  // The engine's memory per tensor-parallel size, counted once for every device.
  const MemoryByDevices memory(r.model, r.inference(), weights_layout(r.model, *r.weights, r.group_size));
  for (const HardwareSpec& hw : catalog.all_hardware()) {
    // GPUs to buy (with a list price) and instances to rent; not CPUs, laptops or unified-memory boxes.
    if (hw.is_cpu() || hw.unified_memory || hw.kind == HardwareKind::laptop || hw.memory_bandwidth_gb_per_s <= 0) continue;
    if (effective_tflops(hw, false) <= 0) continue;  // its prompts cannot be timed
    if (!hw.is_rented() && !(hw.kind == HardwareKind::gpu && hw.price_usd > 0)) continue;
    if (!hw.unsupported.id.empty()) continue;
    const int most = hw.kind == HardwareKind::instance ? std::max(1, hw.device_count) : std::max(1, std::min(8, max_devices(hw)));
    // Each tensor-parallel group (powers of two) whose KV cache holds one request; the cheapest a
    // month that meets the target is kept (more GPUs per replica hold more sequences each).
    std::optional<ServeOption> best;
    const auto better = [](const ServeOption& a, const ServeOption& b) {
      if (a.answer.meets_slo != b.answer.meets_slo) return a.answer.meets_slo;
      if (a.answer.cost.per_month_usd != b.answer.cost.per_month_usd) return a.answer.cost.per_month_usd < b.answer.cost.per_month_usd;
      return a.answer.gpus_needed < b.answer.gpus_needed;
    };
    for (int tp = 1; tp <= most; tp *= 2) {
      // A group of tp GPUs needs at least tp of them. Once one meets the target on G GPUs, a group
      // of G or more costs at least as much a month (bought or rented, cost grows with the GPUs:
      // serving_test) and loses the tie on GPUs: it is not simulated.
      if (best && best->answer.meets_slo && tp >= best->answer.gpus_needed) break;
      ++rec.evaluated;
      ServeOption o;
      o.hardware = &hw;
      o.tp = tp;
      o.answer = answer_serve(r, hw, tp, memory.layout(), memory.at(tp), false, kServeRecommendRequests);
      if (!o.answer.capacity.fits) continue;  // the weights leave no room for one request's cache
      if (!best || better(o, *best)) best = std::move(o);
    }
    if (!best) continue;
    if (best->answer.meets_slo && best->answer.cost.basis != "none") {
      rec.options.push_back(std::move(*best));
    } else {
      best->reason = best->answer.meets_slo ? Message("serve.miss.no_price")
                                            : Message("serve.miss.slo").integer("replicas", best->answer.replicas).integer("gpus", best->answer.gpus_needed);
      rec.near_misses.push_back(std::move(*best));
    }
  }
  const auto monthly = [](const ServeOption& a, const ServeOption& b) {
    if (a.answer.cost.per_month_usd != b.answer.cost.per_month_usd) return a.answer.cost.per_month_usd < b.answer.cost.per_month_usd;
    return a.hardware->id < b.hardware->id;
  };
  std::sort(rec.options.begin(), rec.options.end(), monthly);
  // Near misses: the fastest per GPU first (closest to meeting the target).
  std::sort(rec.near_misses.begin(), rec.near_misses.end(), [](const ServeOption& a, const ServeOption& b) {
    if (a.answer.output_tokens_per_s_per_gpu != b.answer.output_tokens_per_s_per_gpu) return a.answer.output_tokens_per_s_per_gpu > b.answer.output_tokens_per_s_per_gpu;
    return a.hardware->id < b.hardware->id;
  });
  if (rec.near_misses.size() > kNearMisses) rec.near_misses.resize(kNearMisses);
  if (rec.options.size() > r.max_options) rec.options.resize(r.max_options);
  return rec;
}

Recommendation recommend(const Request& r, const Catalog& catalog) {
  // Bytes only: a recommendation says none of its estimates' explanations.
  const MemoryByDevices memory(r.model, r.inference(), EstimateDetail::bytes_only);
  const CatalogOptions evaluated(memory, catalog.all_hardware(), r.costs);  // each entry evaluated once for both
  Recommendation rec = recommend_hardware(evaluated, r.goal, kNearMisses, r.max_options);
  const HardwareSpec* mine = r.hardware && !r.hardware->is_rented() ? &*r.hardware : nullptr;
  rec.costs = std::make_shared<const CostComparison>(compare_costs(evaluated, mine, r.usage));
  return rec;
}

}  // namespace llmsizer
