// SPDX-License-Identifier: MIT
#include "answer/to_json.hpp"

#include <algorithm>
#include <cmath>

#include "llmsizer/message_text.hpp"
#include "answer/message_json.hpp"
#include "request/training_request.hpp"

namespace llmsizer::edge {
namespace {

constexpr int kSchemaVersion = 1;

/// A list of messages as English text and, under `<key>_data`, as data the page translates (the
/// text left out when the request says english_text false).
void put_messages(JsonWriter& w, const char* key, const std::vector<Message>& messages) {
  if (w.english_text()) {
    w.key(key).begin_array();
    for (const auto& m : messages) w.value(render_en(m));
    w.end_array();
  }
  w.key(key, "_data").begin_array();
  for (const auto& m : messages) write_message_json(w, m);
  w.end_array();
}

/// One message as English text and, under `<key>_data`, as data (the text left out when the
/// request says english_text false).
void put_message(JsonWriter& w, const char* key, const Message& message) {
  if (w.english_text()) w.field(key, render_en(message));
  w.key(key, "_data");
  write_message_json(w, message);
}

/// Rounds for display (deterministic across native and WASM builds): `digits` decimals.
double rounded(double value, int digits) {
  // 10^digits exactly (every power of ten to 10^22 is a double), without a pow call a number.
  static constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  const double scale = digits >= 0 && digits <= 9 ? kPowersOfTen[digits] : std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}
/// A positive figure rounded, or null when it is not known (0 or less).
void maybe(JsonWriter& w, const char* key, double value, int digits) {
  w.key(key);
  if (value > 0) w.value(rounded(value, digits));
  else w.value(nullptr);
}
/// `value` when `known`, else null.
template <typename T>
void known_or_null(JsonWriter& w, const char* key, bool known, T value) {
  w.key(key);
  if (known) w.value(value);
  else w.value(nullptr);
}

void parts_json(JsonWriter& w, const MemoryParts& p) {
  w.begin_object();
  w.field("weights", p.weights).field("kv_cache", p.kv_cache).field("activations", p.activations).field("overhead", p.overhead);
  w.field("gradients", p.gradients).field("optimizer", p.optimizer).field("master_weights", p.master_weights);
  w.field("adapters", p.adapters).field("step_temporary", p.step_temporary);
  w.end_object();
}

/// The weights as stored: format, effective bits per weight, bytes by tensor class and by type.
void weights_detail_json(JsonWriter& w, const Request& r, const Answer& a) {
  const WeightFormat& f = *r.weights;
  w.begin_object();
  w.field("format", f.id).field("name", f.name).field("ecosystem", ecosystem_id(f.ecosystem));
  if (f.group_size > 0 && f.scheme != QuantScheme::bnb_4bit && f.scheme != QuantScheme::mxfp4 && f.scheme != QuantScheme::nvfp4) w.field("group_size", r.group_size != 0 ? r.group_size : f.group_size);
  w.field("bits_per_weight", a.weights.bits_per_weight);
  w.key("bytes").begin_object();
  for (TensorClass c : {TensorClass::embeddings, TensorClass::attention, TensorClass::mlp, TensorClass::lm_head, TensorClass::norms, TensorClass::other}) {
    w.field(tensor_class_id(c), a.weights.bytes_by_class[static_cast<std::size_t>(c)]);
  }
  w.end_object();
  w.key("types").begin_array();
  for (const auto& t : a.weights.types) w.begin_object().field("type", t.type).field("tensors", t.tensors).field("bytes", t.bytes).end_object();
  w.end_array();
  w.field("disk_metadata_bytes", a.disk.metadata_bytes);
  w.end_object();
}

/// Task serve's settings: the layout, the workload and the latency target (contract: Serving).
void serve_settings_json(JsonWriter& w, const ServeSettings& s) {
  w.key("layout").begin_object().field("tp", s.layout.tp).field("pp", s.layout.pp).field("ep", s.layout.ep).field("dp", s.layout.dp).end_object();
  const ServeWorkload& l = s.workload;
  w.key("workload").begin_object().field("input_tokens", l.input_tokens).field("output_tokens", l.output_tokens);
  if (l.mode == LoadMode::concurrency) w.field("concurrency", l.concurrency);
  if (l.mode == LoadMode::request_rate) w.field("request_rate", l.request_rate);
  if (l.mode == LoadMode::max_throughput) w.field("max_throughput", true);
  w.field("requests", l.requests).field("seed", static_cast<std::int64_t>(l.seed));
  if (l.range_ratio > 0) w.field("range_ratio", l.range_ratio);
  w.end_object();
  w.key("slo").begin_object().field("ttft_ms", s.slo.ttft_ms).field("tpot_ms", s.slo.tpot_ms).field("percentile", s.slo.percentile).end_object();
}

/// The request's settings as answered; kEveryTask false: an inference request's only (the members
/// of training and serving are not written, and their writers not linked: to_json_inference).
template <bool kEveryTask>
void settings_json(JsonWriter& w, const Request& r) {
  w.begin_object();
  w.field("task", task_id(r.task)).field("weights", r.weights->id);
  if constexpr (kEveryTask) {
    if (r.task == Task::training) {
      w.field("gpus", r.gpus).key("training");
      training_settings_json(w, r.training);
      w.end_object();
      return;
    }
  }
  w.field("kv_cache", r.kv_cache->id).field("engine", r.serve ? serve_engine_id(r.serve->engine) : engine_id(r.engine)).field("input_tokens", r.input_tokens);
  w.field("output_tokens", r.output_tokens).field("batch", r.batch).field("gpus", r.gpus).field("flash_attention", r.flash_attention);
  if constexpr (kEveryTask) {
    if (r.serve) serve_settings_json(w, *r.serve);
  }
  if (r.group_size != 0) w.field("group_size", r.group_size);
  if (r.engine_version > 0) w.field("engine_version", r.engine_version_text);
  const LlamaCppOptions& l = r.llama_cpp;
  const int sequences = static_cast<int>(llama_cpp_sequences_for(0, r.batch));
  if (r.engine == Engine::llama_cpp) {
    w.key("llama_cpp").begin_object();
    w.field("ubatch", l.ubatch).field("n_batch", l.n_batch).field("parallel", l.parallel > 0 ? l.parallel : sequences);
    w.field("kv_unified", l.kv_unified).field("mmap", l.mmap).field("n_gpu_layers", l.n_gpu_layers);
    w.field("override_tensor", l.override_tensor).field("cpu_family", llama_cpp_cpu_id(l.cpu_family));
    w.field("swa_full", l.swa_full).field("offload_kqv", l.offload_kqv);
    w.end_object();
  }
  if (r.engine == Engine::ollama) {
    const OllamaOptions& o = r.ollama;
    w.key("ollama").begin_object();
    w.field("num_parallel", o.num_parallel > 0 ? o.num_parallel : sequences).field("num_batch", o.num_batch).field("num_gpu", o.num_gpu);
    w.field("use_mmap", o.use_mmap).key("flash_attention");
    if (o.flash_attention < 0) w.value("auto");
    else w.value(o.flash_attention == 1);
    w.field("cpu_family", llama_cpp_cpu_id(l.cpu_family));
    w.end_object();
  }
  w.end_object();
}

/// What llama.cpp allocates (engines llama.cpp and ollama): its resolved parameters, every buffer
/// as llama.cpp logs it, and the llama-server command line that reproduces them.
void llama_cpp_json(JsonWriter& w, const LlamaCppRun& run) {
  const LlamaCppMemory& m = run.memory;
  w.begin_object();
  w.field("n_ctx", m.n_ctx).field("n_ctx_seq", m.n_ctx_seq).field("n_batch", m.n_batch).field("n_ubatch", m.n_ubatch);
  w.field("n_seq", run.settings.n_seq).field("n_stream", m.n_stream).field("n_gpu_layers", m.n_gpu_layers);
  w.field("flash_attention", m.flash_attn).field("cache_type_k", run.settings.type_k).field("cache_type_v", run.settings.type_v);
  w.key("cells").begin_object().field("full", m.cells_full).field("sliding", m.cells_sliding).end_object();
  w.key("buffers").begin_object();
  w.field("weights_mapped", m.weights_mapped).field("weights_cpu", m.weights_cpu).field("weights_repack", m.weights_repack);
  w.field("weights_device", m.weights_device).field("weights_mapped_repacked", m.weights_mapped_repacked);
  w.field("kv_host", m.kv_host).field("kv_device", m.kv_device).field("recurrent_state", m.recurrent_state);
  w.field("compute_host", m.compute_host).field("compute_device", m.compute_device).field("output", m.output);
  w.end_object();
  w.field("host_bytes", m.host_bytes).field("device_bytes", m.device_bytes).field("command_line", run.command_line);
  put_messages(w, "notes", m.notes);
  w.end_object();
}

/// Engine ollama: Ollama's resolved context and parallel requests, what `ollama ps` shows, and the
/// commands that start it so.
void ollama_json(JsonWriter& w, const LlamaCppRun& run) {
  const OllamaMemory& o = *run.ollama;
  w.begin_object();
  w.field("num_ctx", o.num_ctx).field("num_parallel", o.num_parallel).field("ps_size_bytes", o.ps_size);
  w.field("ps_vram_bytes", o.ps_vram).field("command_line", run.ollama_command_line);
  w.end_object();
}

/// The members every option and hardware reference opens with (id, name, kind); the caller closes it.
void open_hardware_ref(JsonWriter& w, const HardwareSpec& h) {
  w.begin_object().field("id", h.id).field("name", h.name).field("kind", hardware_kind_id(h.kind));
}

/// The person's machine as the core read it (request `machine`).
void machine_json(JsonWriter& w, const HardwareSpec& h) {
  w.begin_object();
  w.field("ram_bytes", h.host_memory_bytes).field("vram_bytes", h.unified_memory || h.is_cpu() ? 0 : h.device_memory_bytes);
  w.field("gpus", h.device_count).field("unified_memory", h.unified_memory);
  w.field("gpu_memory_limit_bytes", h.gpu_memory_limit_bytes).field("display", h.drives_display);
  if (h.os != OperatingSystem::unspecified) w.field("os", operating_system_id(h.os));
  w.end_object();
}

/// {"id", "name", "kind"} and, for the person's own machine, "machine".
void hardware_json(JsonWriter& w, const HardwareSpec& h) {
  open_hardware_ref(w, h);
  if (h.is_machine) {
    w.key("machine");
    machine_json(w, h);
  }
  w.end_object();
}

/// A fix as data: the fields it sets (as a request writes them), what it costs, what it leaves.
void fix_json(JsonWriter& w, const Fix& f) {
  w.begin_object();
  w.field("cost", fix_cost_id(f.cost));
  w.key("changes").begin_object();
  // A field set twice keeps its first place and its last value (as the object it was built as did).
  for_each_last_by_name(f.changes, [](const FixChange& c) -> const std::string& { return c.field; }, [&](const FixChange& c) {
    w.key(c.field);
    if (c.type == FixChange::Type::text) w.value(c.text);
    else if (c.type == FixChange::Type::integer) w.value(c.integer);
    else w.value(c.boolean);
  });
  w.end_object();
  w.field("verdict", verdict_id(f.verdict)).field("headroom_bytes", f.headroom_bytes);
  put_message(w, "text", f.message);
  w.end_object();
}

/// The verdict beside a fit's numbers: its level, the margin, one sentence, the fixes, the rules applied.
void put_verdict(JsonWriter& w, Verdict verdict, std::int64_t margin_bytes, const Message& summary, const std::vector<Fix>& fixes,
                 const std::vector<Message>& assumptions) {
  w.field("verdict", verdict_id(verdict)).field("margin_bytes", margin_bytes);
  put_message(w, "summary", summary);
  w.key("fixes").begin_array();
  for (const Fix& f : fixes) fix_json(w, f);
  w.end_array();
  put_messages(w, "assumptions", assumptions);
}
void put_verdict(JsonWriter& w, const FitVerdict& v) { put_verdict(w, v.verdict, v.margin_bytes, v.summary, v.fixes, v.assumptions); }

/// The set of models kept loaded together (request `also_loaded`) on the device: its verdict, the
/// model out first, the engine's rule and each model's line.
void co_resident_fit_json(JsonWriter& w, const CoResidentSet& s) {
  w.begin_object();
  w.field("verdict", verdict_id(s.verdict)).field("required_bytes", s.required_bytes).field("usable_bytes", s.usable_bytes);
  w.field("headroom_bytes", s.headroom_bytes).field("margin_bytes", s.margin_bytes);
  if (s.max_loaded > 0) w.field("max_loaded_models", s.max_loaded);
  known_or_null(w, "first_out", s.first_out >= 0, s.first_out);
  put_message(w, "summary", s.summary);
  put_messages(w, "explain", s.explain);
  if (!s.command_line.empty()) w.field("command_line", s.command_line);
  w.end_object();
}

/// The response's `models`: the request's model, then each `also_loaded` one, with its memory.
void models_json(JsonWriter& w, const CoResidentSet& s, bool shares) {
  w.begin_array();
  for (const CoResidentModel& m : s.models) {
    w.begin_object();
    w.field("model", m.model_id).field("weights", m.weights_id).field("context", m.context);
    w.field("device_bytes", m.device_bytes).field("host_bytes", m.host_bytes);
    if (s.placed) {
      w.field("needed_bytes", m.needed_bytes).field("resident", m.resident);
      if (shares) w.field("gpu_memory_utilization", rounded(m.gpu_memory_utilization, 4));
    }
    w.end_object();
  }
  w.end_array();
}

/// An inference fit on hardware: its numbers, then its verdict (and the set's, with `also_loaded`;
/// kEveryTask false: an inference answer's without the set's writer, the page's module's, which
/// refuses `also_loaded`: parse_request.hpp TaskReaders).
template <bool kEveryTask>
void fit_json(JsonWriter& w, const InferenceOnHardware& h, const CoResidentSet* set) {
  const FitResult& f = h.fit;
  w.begin_object();
  w.field("fits", f.fits).field("placement", placement_id(f.placement)).field("required_bytes", f.required_bytes);
  w.field("usable_bytes", f.usable_bytes).field("headroom_bytes", f.headroom_bytes).key("gpus_needed");
  if (h.hardware.is_cpu()) w.value(0);
  else if (f.gpus_needed > 0) w.value(f.gpus_needed);
  else w.value(nullptr);
  w.field("gpus_used", f.gpus_used);
  known_or_null(w, "max_context", f.max_context >= 0, f.max_context);
  if (f.max_context_is_model_limit) w.field("max_context_limited_by", "model");
  known_or_null(w, "max_batch", f.max_batch >= 0, f.max_batch);
  if (f.memory_option_bytes > 0) w.field("memory_option_bytes", f.memory_option_bytes);
  w.key("offload");
  if (f.offload_possible) {
    w.begin_object().field("gpu_layers", f.offload.gpu_layers).field("cpu_layers", f.offload.cpu_layers);
    w.field("gpu_bytes", f.offload.gpu_bytes).field("host_bytes", f.offload.host_bytes).end_object();
  } else {
    w.value(nullptr);
  }
  put_verdict(w, f.verdict, f.margin_bytes, h.summary, h.fixes, h.assumptions);
  if constexpr (kEveryTask) {
    if (set != nullptr && set->placed) {
      w.key("set");
      co_resident_fit_json(w, *set);
    }
  }
  w.end_object();
}

/// `compute_unknown`: the catalog has no compute figure, so the compute time is unknown, not 0 ms.
/// `basis`: where the hardware's speed figures come from when they are not its own (my machine).
void throughput_json(JsonWriter& w, const Throughput& t, bool compute_unknown, const Message& basis) {
  w.begin_object();
  if (!basis.id.empty()) put_message(w, "basis", basis);
  if (!t.known) {
    w.field("decode_tokens_per_s", nullptr);
    put_message(w, "note", Message("throughput.bandwidth_unknown"));
    w.end_object();
    return;
  }
  w.field("decode_tokens_per_s", rounded(t.decode_tokens_per_s, 2));
  w.field("decode_tokens_per_s_total", rounded(t.decode_tokens_per_s_total, 2));
  maybe(w, "prefill_tokens_per_s", t.prefill_tokens_per_s, 1);
  maybe(w, "time_to_first_token_s", t.time_to_first_token_s, 4);
  maybe(w, "generation_tokens_per_s", t.generation_tokens_per_s, 2);
  put_message(w, "bound", Message(std::string("term.").append(t.step.bound)));
  w.field("bytes_per_step", t.bytes_per_step);
  w.key("step_ms").begin_object();
  w.field("total", rounded(t.step.total_s * 1e3, 4)).field("memory", rounded(t.step.memory_s * 1e3, 4));
  known_or_null(w, "compute", !compute_unknown, rounded(t.step.compute_s * 1e3, 4));
  w.field("host_launch", rounded(t.step.host_launch_s * 1e3, 4)).field("offload", rounded(t.step.offload_s * 1e3, 4));
  w.field("communication", rounded(t.step.communication_s * 1e3, 4)).field("engine_fixed", rounded(t.step.fixed_s * 1e3, 4));
  // Every part the total sums (StepTime): the device and host together (`overlapped`: max of
  // `device` and `host_launch`, or their sum where `overlap` is "sum"), the per-expert loop, the CPU
  // layers, communication and the engine's fixed time; memory, compute and host_launch are inside
  // `overlapped`, attention and dispatch inside memory.
  w.field("device", rounded(std::max(t.step.memory_s, t.step.compute_s) * 1e3, 4));
  w.field("overlapped", rounded(t.step.overlapped_s * 1e3, 4)).field("overlap", t.step.host_waits ? "sum" : "max");
  w.field("expert_loop", rounded(t.step.serial_s * 1e3, 4)).field("attention", rounded(t.step.attention_s * 1e3, 4));
  w.field("dispatch", rounded(t.step.dispatch_s * 1e3, 4));
  w.key("sum_of").begin_array().value("overlapped").value("expert_loop").value("offload").value("communication").value("engine_fixed").end_array();
  w.end_object();
  if (compute_unknown) w.key("unknown").begin_array().value("matrix_tflops").end_array();
  w.end_object();
}

/// The cost's members, written into an object the caller opened (a `cost` object, or an option's own).
void cost_members(JsonWriter& w, const OptionCost& c) {
  known_or_null(w, "usd_per_hour", c.known, rounded(c.usd_per_hour, 4));
  known_or_null(w, "usd_per_million_tokens", c.known && c.usd_per_million_tokens > 0, rounded(c.usd_per_million_tokens, 4));
  if (c.known) w.field("price", c.rented ? "rent" : "own");
  if (c.purchase_usd > 0) {
    w.field("purchase_usd", rounded(c.purchase_usd, 2));
    w.field("power_usd_per_hour", rounded(c.power_usd_per_hour, 4));
  }
  if (!c.break_even_instance.empty()) {
    w.field("break_even_instance", c.break_even_instance);
    known_or_null(w, "break_even_hours", c.break_even_hours >= 0, rounded(c.break_even_hours, 1));
  }
}

template <bool kEveryTask>
void add_inference_hardware(JsonWriter& w, const InferenceOnHardware& h, const CoResidentSet* set) {
  w.key("hardware");
  hardware_json(w, h.hardware);
  w.key("fit");
  fit_json<kEveryTask>(w, h, set);
  const HardwareSpec& hw = h.hardware;
  const double compute = hw.is_cpu() ? hw.host_tflops : (hw.measured_tflops > 0 ? hw.measured_tflops : hw.matrix_tflops);
  w.key("throughput");
  throughput_json(w, h.throughput, h.throughput.known && compute <= 0, speed_basis(hw, hw.is_cpu() || h.fit.placement == Placement::cpu));
  if (h.cpu_vs_gpu) {
    const CpuVsGpu& c = *h.cpu_vs_gpu;
    w.key("cpu_vs_gpu").begin_object();
    w.field("cpu", h.cpu_id).field("cpu_tokens_per_s", rounded(c.cpu_tokens_per_s, 2)).field("gpu_tokens_per_s", rounded(c.gpu_tokens_per_s, 2));
    known_or_null(w, "crossover_batch", c.crossover_batch > 0, c.crossover_batch);
    w.field("cpu_is_enough", c.cpu_is_enough).field("reading_tokens_per_s", kReadingTokensPerS);
    put_message(w, "note", c.note);
    w.end_object();
  }
  w.key("cost").begin_object();
  cost_members(w, h.cost);
  w.end_object();
}

/// The draft of speculative decoding: its memory, its speed and the pair's fit on the device.
/// Latency statistics in `scale` units (1e3: milliseconds from seconds).
void latency_json(JsonWriter& w, const char* key, const LatencyStats& s, double scale, int digits) {
  w.key(key).begin_object();
  w.field("mean", rounded(s.mean * scale, digits)).field("p50", rounded(s.p50 * scale, digits));
  w.field("p90", rounded(s.p90 * scale, digits)).field("p99", rounded(s.p99 * scale, digits));
  w.end_object();
}

/// The response's `serving` object (contract: Serving).
void serving_json(JsonWriter& w, const ServingAnswer& a) {
  const SimulationResult& r = a.result;
  w.begin_object();
  put_message(w, "summary", a.summary);
  w.field("fits", a.capacity.fits);
  w.field("output_tokens_per_s", rounded(a.output_tokens_per_s, 1)).field("total_tokens_per_s", rounded(a.total_tokens_per_s, 1));
  w.field("requests_per_s", rounded(a.requests_per_s, 3)).field("output_tokens_per_s_per_gpu", rounded(a.output_tokens_per_s_per_gpu, 1));
  w.field("per_user_output_tokens_per_s", rounded(a.per_user_output_tokens_per_s, 2));
  w.field("duration_s", rounded(r.duration_s, 3)).field("requests_simulated", r.requests).field("preemptions", r.preemptions);
  latency_json(w, "ttft_ms", r.ttft_s, 1e3, 2);
  latency_json(w, "tpot_ms", r.tpot_s, 1e3, 3);
  latency_json(w, "itl_ms", r.itl_s, 1e3, 3);
  latency_json(w, "e2e_latency_s", r.e2e_s, 1.0, 3);
  const ServeCapacity& c = a.capacity;
  w.field("kv_capacity_tokens", c.kv_capacity_tokens).field("kv_pool_bytes", c.pool_bytes).field("max_concurrency", c.max_concurrency);
  w.field("steady_batch", rounded(r.steady_batch, 2));
  const StepParts& st = r.typical_step;
  w.field("bound", st.bound.empty() ? std::string("bound.memory_bandwidth") : std::string(st.bound));
  w.key("step").begin_object();
  w.field("total_ms", rounded(st.total_s * 1e3, 4)).field("weights_ms", rounded(st.weights_s * 1e3, 4));
  w.field("kv_read_ms", rounded(st.kv_read_s * 1e3, 4)).field("compute_ms", rounded(st.compute_s * 1e3, 4));
  w.field("activations_ms", rounded(st.activations_s * 1e3, 4));
  w.field("communication_ms", rounded(st.communication_s * 1e3, 4)).field("engine_overhead_ms", rounded(st.engine_overhead_s * 1e3, 4));
  w.field("launch_ms", rounded(st.launch_s * 1e3, 4));
  w.end_object();
  w.key("curve").begin_array();
  for (const ServeCurvePoint& p : a.curve) {
    w.begin_object();
    w.field("concurrency", p.concurrency).field("output_tokens_per_s_per_gpu", rounded(p.output_tokens_per_s_per_gpu, 1));
    w.field("per_user_output_tokens_per_s", rounded(p.per_user_output_tokens_per_s, 2)).field("ttft_ms", rounded(p.ttft_ms, 2));
    w.field("tpot_ms", rounded(p.tpot_ms, 3)).field("meets_slo", p.meets_slo);
    w.end_object();
  }
  w.end_array();
  w.field("replicas", a.replicas).field("gpus_per_replica", a.gpus_per_replica).field("gpus_needed", a.gpus_needed);
  w.field("meets_slo", a.meets_slo);
  w.key("cost").begin_object();
  w.field("basis", a.cost.basis).field("per_month_usd", rounded(a.cost.per_month_usd, 2));
  w.field("per_million_output_tokens_usd", rounded(a.cost.per_million_output_tokens_usd, 4));
  w.end_object();
  w.key("energy").begin_object();
  w.field("watts", rounded(a.energy.watts, 1)).field("joules_per_output_token", rounded(a.energy.joules_per_output_token, 4));
  w.field("kwh_per_month", rounded(a.energy.kwh_per_month, 1));
  w.end_object();
  w.field("command_line", a.command_line);
  put_messages(w, "notes", a.notes);
  w.key("explain").begin_array();
  for (const ServeExplain& e : a.explain) {
    w.begin_object();
    w.field("id", e.id);
    if (w.english_text()) w.field("text", render_en(e.text));
    w.key("text_data");
    write_message_json(w, e.text);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void draft_json(JsonWriter& w, const Request& r, const Answer& a) {
  const DraftSettings& s = *r.draft;
  const DraftAnswer& d = *a.draft;
  const DraftMemory& m = d.memory;
  w.begin_object();
  w.field("method", s.mtp ? "mtp" : "model");
  w.field("model", s.model.id).field("weights", s.weights->id).field("draft_max", s.draft_max);
  if (r.engine == Engine::llama_cpp) w.field("program", draft_program_id(s.program)).field("contexts", m.contexts);
  w.field("weights_bytes", m.weights_bytes).field("kv_cache_bytes", m.kv_cache_bytes).field("compute_bytes", m.compute_bytes);
  w.field("device_bytes", m.device_bytes).field("host_bytes", m.host_bytes);
  w.field("acceptance_rate", s.acceptance_rate).field("acceptance_rate_given", s.acceptance_given);
  w.field("tokens_per_target_step", rounded(tokens_per_target_step(s.acceptance_rate, s.draft_max), 4));
  const bool known = d.speed && d.speed->known;
  known_or_null(w, "speedup", known, known ? rounded(d.speed->speedup, 4) : 0.0);
  known_or_null(w, "break_even_acceptance", known, known ? rounded(d.speed->break_even_acceptance, 4) : 0.0);
  known_or_null(w, "decode_tokens_per_s", known, known ? rounded(d.speed->decode_tokens_per_s, 2) : 0.0);
  known_or_null(w, "decode_tokens_per_s_without", known, known ? rounded(d.speed->decode_tokens_per_s_without, 2) : 0.0);
  if (known) {
    w.key("step_ms").begin_object();
    w.field("target", rounded(d.speed->target_step_s * 1e3, 4)).field("verify", rounded(d.speed->verify_step_s * 1e3, 4));
    w.field("draft", rounded(d.speed->draft_step_s * 1e3, 4));
    if (d.speed->draft_reeval_s > 0) w.field("draft_reeval", rounded(d.speed->draft_reeval_s * 1e3, 4));
    if (d.speed->host_sampling_s > 0) w.field("host_sampling", rounded(d.speed->host_sampling_s * 1e3, 4));
    w.end_object();
    w.field("draft_steps", d.speed->draft_steps);
  }
  if (d.fit) {
    const DraftFit& f = *d.fit;
    w.key("fit").begin_object();
    w.field("required_bytes", f.required_bytes).field("usable_bytes", f.usable_bytes).field("headroom_bytes", f.headroom_bytes);
    w.field("verdict", verdict_id(f.verdict)).field("margin_bytes", f.margin_bytes);
    put_message(w, "summary", d.summary);
    w.end_object();
  }
  if (!d.command_line.empty()) w.field("command_line", d.command_line);
  w.end_object();
}

/// Training's fit: the longest sequence at this micro-batch and the largest micro-batch at this
/// sequence length that fit (0: not even 1), and when it does not fit, the verdict in words.
/// Members of the fit object the caller opened.
void training_fit_members(JsonWriter& w, const TrainingFit& f, const TrainingSettings& t) {
  w.field("max_context", f.max_seq_len).field("max_batch", f.max_micro_batch);
  if (f.fits) return;
  // The length the sentence names is the one the fix sets (training.hpp: comfortable_seq_len); the
  // edge where nothing is left to spare (max_context) beside it.
  w.field("max_context_comfortable", f.comfortable_seq_len);
  Message verdict = f.comfortable_seq_len > 0
                        ? Message("fit.training.out_of_memory_comfortable").count("seq_len", t.seq_len).count("micro_batch", t.micro_batch)
                              .count("comfortable", f.comfortable_seq_len).count("max_context", f.max_seq_len)
                    : f.max_seq_len > 0
                        ? Message("fit.training.out_of_memory").count("seq_len", t.seq_len).count("micro_batch", t.micro_batch).count("max_context", f.max_seq_len)
                        : Message("fit.training.never_fits").count("micro_batch", t.micro_batch);
  put_message(w, "note", verdict);
}

/// Training on hardware: the hardware, then its fit (with training's own limits when computed).
void add_training_hardware(JsonWriter& w, const TrainingOnHardware& h, const TrainingFit* training_fit, const TrainingSettings& t) {
  w.key("hardware");
  hardware_json(w, h.hardware);
  w.key("fit").begin_object();
  w.field("fits", h.fits).field("required_bytes", h.required_bytes).field("usable_bytes", h.usable_bytes).field("headroom_bytes", h.headroom_bytes);
  if (h.memory_option_bytes > 0) w.field("memory_option_bytes", h.memory_option_bytes);
  put_verdict(w, h.verdict);
  if (training_fit) training_fit_members(w, *training_fit, t);
  w.end_object();
}

/// The fit against a budget the person gave (with training's own limits when computed: kEveryTask).
template <bool kEveryTask>
void add_budget_fit(JsonWriter& w, const BudgetFit& b, const TrainingFit* training_fit, const TrainingSettings& t) {
  w.key("fit").begin_object();
  w.field("fits", b.fits).field("required_bytes", b.required_bytes).field("usable_bytes", b.usable_bytes);
  w.field("headroom_bytes", b.headroom_bytes).field("budget", true);
  put_verdict(w, b.verdict);
  if constexpr (kEveryTask) {
    if (training_fit) training_fit_members(w, *training_fit, t);
  }
  w.end_object();
}

}  // namespace

std::string error_json(const InputError& error) {
  JsonWriter w;
  w.begin_object().key("error").begin_object();
  w.field("field", error.field()).field("message", render_en(error.message())).key("message_data");
  write_message_json(w, error.message());
  w.end_object().end_object();
  return w.take();
}

void model_json(JsonWriter& w, const ModelSpec& m, const ModelSummary& summary) {
  open_model_json(w, m, summary);
  w.end_object();
}

void open_model_json(JsonWriter& w, const ModelSpec& m, const ModelSummary& summary) {
  const ParamCounts& c = summary.params;
  w.begin_object();
  w.field("id", m.id).field("name", m.name).field("params", c.total).field("active_params", c.active).field("layers", m.num_layers);
  if (m.has_architecture()) {
    w.field("hidden_size", m.hidden_size).field("attention_heads", m.num_attention_heads).field("kv_heads", m.num_kv_heads);
    w.field("head_dim", m.head_dim).field("vocab_size", m.vocab_size).field("model_type", m.model_type_name);
    if (c.extra > 0) w.field("extra_params", c.extra);
    if (c.mtp > 0) w.field("mtp_params", c.mtp);
  }
  if (m.file_weight_bytes > 0) {
    w.field("file_weight_bytes", m.file_weight_bytes).field("file_weights_format", m.file_weights_format);
  }
  put_messages(w, "features", summary.features);
}

namespace {

/// An answer's JSON; kEveryTask false: an inference answer's (to_json_inference), without the
/// writers of training's and serving's members.
template <bool kEveryTask>
std::string answer_json(const Request& r, const Answer& a) {
  JsonWriter w;
  w.set_english_text(r.english_text);
  w.begin_object();
  // A page_answer row (Request::search_limits false) is read for its bytes and verdict only: the
  // model, settings, weights' detail, engine buffers, warnings and explanation the page shows are
  // the estimate's (api.hpp: page_answer).
  const bool row = !r.search_limits;
  w.field("schema_version", kSchemaVersion);
  if (!row) {
    w.key("model");
    model_json(w, r.model, a.model);
    w.key("settings");
    settings_json<kEveryTask>(w, r);
  }
  w.key("memory").begin_object();
  w.field("device_bytes", a.memory.device_bytes).field("tensor_peak_bytes", a.memory.tensor_peak_bytes).field("host_bytes", a.memory.host_bytes);
  w.key("parts");
  parts_json(w, a.memory.parts);
  w.end_object();
  w.field("disk_bytes", a.disk.total());
  if (!row) {
    w.key("weights_detail");
    weights_detail_json(w, r, a);
  }
  if constexpr (kEveryTask) {
    if (a.training) {
      w.key("training");
      training_result_json(w, *a.training);
      if (r.training.peak_tflops > 0) {
        w.key("throughput").begin_object().field("tokens_per_s", a.training->time.tokens_per_s).field("hours", a.training->time.hours).end_object();
      }
    }
  }
  if (a.memory.llama_cpp && r.task == Task::inference && !row) {
    w.key("llama_cpp");
    llama_cpp_json(w, *a.memory.llama_cpp);
    if (a.memory.llama_cpp->ollama) {
      w.key("ollama");
      ollama_json(w, *a.memory.llama_cpp);
    }
  }
  if (!row) {
    put_messages(w, "warnings", a.warnings);
    w.key("explain").begin_array();
    for (const auto& line : a.memory.explain) {
      w.begin_object();
      w.field("part", line.part);
      if (w.english_text()) w.field("formula", render_en(line.formula)).field("values", render_en(line.values));
      w.field("bytes", line.bytes);
      w.field("id", line.formula.id.substr(0, line.formula.id.rfind(".formula"))).key("formula_data");
      write_message_json(w, line.formula);
      w.key("values_data");
      write_message_json(w, line.values);
      w.end_object();
    }
    w.end_array();
  }
  // One fit at most: an inference fit on hardware, a training fit on hardware, or a budget's (answer.cpp:
  // a budget only without hardware; training's own limits only in training, with hardware or a budget).
  const TrainingFit* training_fit = a.training_fit ? &*a.training_fit : nullptr;
  if (a.inference_hardware) add_inference_hardware<kEveryTask>(w, *a.inference_hardware, a.co_resident ? &*a.co_resident : nullptr);
  if constexpr (kEveryTask) {
    if (a.training_hardware) add_training_hardware(w, *a.training_hardware, training_fit, r.training);
  }
  if (a.budget_fit) add_budget_fit<kEveryTask>(w, *a.budget_fit, a.training_hardware ? nullptr : training_fit, r.training);
  if (a.draft) {
    w.key("draft");
    draft_json(w, r, a);
  }
  if constexpr (kEveryTask) {
    if (a.co_resident) {
      w.key("models");
      models_json(w, *a.co_resident, r.engine == Engine::vllm || r.engine == Engine::sglang);
    }
    if (a.serving) {
      w.key("hardware");
      hardware_json(w, *r.hardware);
      w.key("serving");
      serving_json(w, *a.serving);
    }
  }
  w.end_object();
  return w.take();
}

}  // namespace

std::string to_json(const Request& r, const Answer& a) { return answer_json<true>(r, a); }
std::string to_json_inference(const Request& r, const Answer& a) { return answer_json<false>(r, a); }

namespace {

/// A cost row's last members (where its price comes from, the explanation of its numbers), closing it.
void close_cost_row(JsonWriter& w, const HardwareSpec& h, const std::vector<Message>& explain) {
  if (!h.price_date.empty()) w.field("price_date", h.price_date);
  if (!h.price_source.empty()) w.field("price_source", h.price_source);
  put_messages(w, "explain", explain);
  w.end_object();
}

}  // namespace

/// Buy, rent or use what you have (buy_or_rent.hpp): the usage and one row per option.
void costs_json(JsonWriter& w, const CostComparison& c) {
  w.begin_object();
  w.key("usage").begin_object();
  known_or_null(w, "hours_per_day", c.usage.hours_per_day > 0, c.usage.hours_per_day);
  known_or_null(w, "tokens_per_day", c.usage.tokens_per_day > 0, c.usage.tokens_per_day);
  w.end_object();
  w.key("rows").begin_array();
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const CostRow& row = c.rows[i];
    const HardwareSpec& h = *row.option.hardware;
    open_hardware_ref(w, h);
    w.field("cost_kind", cost_kind_id(row.kind)).field("rent_reference", static_cast<int>(i) == c.rent_reference);
    w.field("gpus_used", row.option.fit.gpus_used);
    if (row.option.fit.memory_option_bytes > 0) w.field("memory_option_bytes", row.option.fit.memory_option_bytes);
    w.field("tokens_per_s", rounded(row.tokens_per_s, 2)).field("hours_per_day", rounded(row.hours_per_day, 3));
    w.field("tokens_per_day", std::llround(row.tokens_per_day)).field("machines", row.machines);
    w.field("upfront_usd", rounded(row.upfront_usd, 2));
    // The parts of the month (purchase, power, upkeep, rent) are in `explain`, their numbers in explain_data.
    w.field("usd_per_month", rounded(row.usd_per_month, 2)).field("usd_per_hour", rounded(row.usd_per_hour, 4));
    w.field("usd_per_million_tokens", rounded(row.usd_per_million_tokens, 4));
    // Null when it never pays for itself within its life (or at all); the rent it is counted against beside it.
    known_or_null(w, "break_even_months", row.break_even_months > 0, rounded(row.break_even_months, 1));
    if (row.rent_same_work_usd_per_month > 0) w.field("rent_same_work_usd_per_month", rounded(row.rent_same_work_usd_per_month, 2));
    close_cost_row(w, h, row.explain);
  }
  w.end_array();
  put_message(w, "summary", c.summary);
  w.end_object();
}

std::string to_json(const Request& r, const ServeRecommendation& rec) {
  JsonWriter w;
  w.set_english_text(r.english_text);
  w.begin_object();
  w.field("schema_version", kSchemaVersion);
  w.key("model").begin_object().field("id", r.model.id).field("name", r.model.name).end_object();
  w.key("settings");
  settings_json<true>(w, r);
  w.field("evaluated", static_cast<std::int64_t>(rec.evaluated));
  const auto option = [&w](const ServeOption& o) {
    const ServingAnswer& a = o.answer;
    const SimulationResult& s = a.result;
    w.begin_object();
    w.field("hardware", o.hardware->id).field("name", o.hardware->name).field("kind", hardware_kind_id(o.hardware->kind));
    w.key("layout").begin_object().field("tp", o.tp).field("replicas", a.replicas).end_object();
    w.field("gpus_needed", a.gpus_needed).field("meets_slo", a.meets_slo);
    w.field("output_tokens_per_s", rounded(a.output_tokens_per_s, 1)).field("output_tokens_per_s_per_gpu", rounded(a.output_tokens_per_s_per_gpu, 1));
    w.field("per_user_output_tokens_per_s", rounded(a.per_user_output_tokens_per_s, 2));
    latency_json(w, "ttft_ms", s.ttft_s, 1e3, 2);
    latency_json(w, "tpot_ms", s.tpot_s, 1e3, 3);
    w.key("cost").begin_object().field("basis", a.cost.basis).field("per_month_usd", rounded(a.cost.per_month_usd, 2));
    w.field("per_million_output_tokens_usd", rounded(a.cost.per_million_output_tokens_usd, 4)).end_object();
    w.field("command_line", a.command_line);
    put_message(w, "summary", a.summary);
    if (!o.reason.id.empty()) put_message(w, "reason", o.reason);
    w.end_object();
  };
  w.key("options").begin_array();
  for (const ServeOption& o : rec.options) option(o);
  w.end_array();
  w.key("near_misses").begin_array();
  for (const ServeOption& o : rec.near_misses) option(o);
  w.end_array();
  put_messages(w, "warnings", r.warnings);
  w.end_object();
  return w.take();
}

std::string to_json(const Request& r, const Recommendation& rec) {
  JsonWriter w;
  w.set_english_text(r.english_text);
  // About 1 KB an option with its cost row (the whole catalog's answer: 111-132 KB for 123 options),
  // reserved at once instead of copied at each doubling from 4 KiB.
  w.reserve(16384 + 1024 * rec.options.size());
  w.begin_object();
  w.field("schema_version", kSchemaVersion);
  w.key("model").begin_object().field("id", r.model.id).field("name", r.model.name).end_object();
  w.key("settings").begin_object();
  w.field("weights", r.weights->id).field("kv_cache", r.kv_cache->id).field("engine", engine_id(r.engine));
  w.field("input_tokens", r.input_tokens).field("output_tokens", r.output_tokens).field("batch", r.batch);
  w.end_object();
  w.field("goal", goal_id(rec.goal));
  // How many fit: the options listed are the best max_options of them (all without it).
  w.field("options_total", rec.options_total);
  w.key("options").begin_array();
  for (const auto& o : rec.options) {
    const HardwareSpec& h = *o.hardware;
    open_hardware_ref(w, h);
    w.field("fits", true).field("placement", placement_id(o.fit.placement)).field("gpus_needed", o.fit.gpus_needed);
    w.field("gpus_used", o.fit.gpus_used).field("device_bytes", h.is_cpu() ? 0 : o.fit.required_bytes);
    if (h.is_cpu()) w.field("host_bytes", o.fit.required_bytes);
    w.field("headroom_bytes", o.fit.headroom_bytes).field("verdict", verdict_id(o.fit.verdict)).field("margin_bytes", o.fit.margin_bytes);
    if (o.fit.memory_option_bytes > 0) w.field("memory_option_bytes", o.fit.memory_option_bytes);
    known_or_null(w, "decode_tokens_per_s", o.speed.known, rounded(o.speed.decode_tokens_per_s, 2));
    known_or_null(w, "decode_tokens_per_s_total", o.speed.known, rounded(o.speed.decode_tokens_per_s_total, 2));
    maybe(w, "prefill_tokens_per_s", o.speed.prefill_tokens_per_s, 1);
    maybe(w, "time_to_first_token_s", o.speed.time_to_first_token_s, 4);
    cost_members(w, o.cost);  // no name in common with the members above
    if (!h.price_date.empty()) w.field("price_date", h.price_date);
    put_message(w, "reason", o.reason);
    w.end_object();
  }
  w.end_array();
  w.key("near_misses").begin_array();
  for (const auto& m : rec.near_misses) {
    open_hardware_ref(w, *m.hardware);
    w.field("fits", false).field("short_by_bytes", -m.fit.headroom_bytes).field("usable_bytes", m.fit.usable_bytes);
    put_messages(w, "fixes", m.fixes);
    put_message(w, "reason", m.reason);
    w.end_object();
  }
  w.end_array();
  if (rec.costs) {
    w.key("costs");
    costs_json(w, *rec.costs);
  }
  put_messages(w, "warnings", r.warnings);
  w.end_object();
  return w.take();
}

namespace {

/// What a training ranking sorts by (training_recommend.cpp, rank_value), in words.
Message training_ranked_by(Goal goal) {
  switch (goal) {
    case Goal::cheapest: return Message("recommend.training.ranked_by.cheapest");
    case Goal::best_value: return Message("recommend.training.ranked_by.best_value");
    case Goal::fastest: return Message("recommend.training.ranked_by.fastest");
    case Goal::local: return Message("recommend.training.ranked_by.local");
    case Goal::laptop: return Message("recommend.training.ranked_by.laptop");
  }
  return Message("recommend.training.ranked_by.best_value");
}

/// Training's buy or rent (buy_or_rent.hpp, compare_training_costs): the run and one row per option.
void training_costs_json(JsonWriter& w, const TrainingCostComparison& c) {
  w.begin_object();
  maybe(w, "run_tokens", c.run_tokens, 0);
  w.key("usage").begin_object().field("hours_per_day", c.hours_per_day).end_object();
  w.field("lifetime_years", c.lifetime_years);
  w.key("rows").begin_array();
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const TrainingCostRow& row = c.rows[i];
    const HardwareSpec& h = *row.hardware;
    open_hardware_ref(w, h);
    w.field("cost_kind", cost_kind_id(row.kind)).field("rent_reference", static_cast<int>(i) == c.rent_reference);
    w.field("gpus", row.gpus);
    if (row.memory_option_bytes > 0) w.field("memory_option_bytes", row.memory_option_bytes);
    w.field("tokens_per_s", rounded(row.tokens_per_s, 2)).field("upfront_usd", rounded(row.upfront_usd, 2));
    w.field("usd_per_hour", rounded(row.usd_per_hour, 4)).field("usd_per_million_tokens", rounded(row.usd_per_million_tokens, 4));
    maybe(w, "hours_per_run", row.run_hours, 3);
    maybe(w, "usd_per_run", row.run_usd, 2);
    // Owned: null when it never pays for itself within its life (or at all), or nothing is rented.
    const bool pays = row.break_even_million_tokens > 0;
    known_or_null(w, "break_even_tokens", pays, std::llround(row.break_even_million_tokens * 1e6));
    known_or_null(w, "break_even_runs", pays && row.break_even_runs > 0, rounded(row.break_even_runs, 1));
    close_cost_row(w, h, row.explain);
  }
  w.end_array();
  put_message(w, "summary", c.summary);
  w.end_object();
}

}  // namespace

std::string to_json(const Request& r, const TrainingRecommendation& rec) {
  JsonWriter w;
  w.set_english_text(r.english_text);
  w.begin_object();
  w.field("schema_version", kSchemaVersion).field("task", "training");
  w.key("model").begin_object().field("id", r.model.id).field("name", r.model.name).end_object();
  w.key("settings");
  training_settings_json(w, r.training);
  w.field("goal", goal_id(rec.goal));
  maybe(w, "epoch_tokens", rec.epoch_tokens, 0);
  w.field("epochs", rec.epochs);
  // No dataset size: no time or total is made up; the answer says what they need.
  if (rec.epoch_tokens <= 0) put_message(w, "note", Message("recommend.training.dataset_needed"));
  put_message(w, "ranked_by", training_ranked_by(rec.goal));
  // An option's members; the caller closes it (a near miss adds short_by_bytes).
  auto open_option_json = [&w](const TrainingOption& o) {
    const HardwareSpec& h = *o.hardware;
    open_hardware_ref(w, h);
    w.field("fits", verdict_fits(o.verdict)).field("verdict", verdict_id(o.verdict)).field("gpus", o.gpus);
    w.field("gpus_needed", o.gpus);  // as inference options name it (the page's column)
    w.field("zero_stage", o.zero_stage).field("device_bytes", o.device_bytes).field("usable_bytes", o.usable_bytes);
    w.field("headroom_bytes", o.headroom_bytes).field("margin_bytes", o.margin_bytes);
    if (o.memory_option_bytes > 0) w.field("memory_option_bytes", o.memory_option_bytes);
    maybe(w, "tokens_per_s", o.tokens_per_s, 1);
    maybe(w, "hours_per_epoch", o.hours, 3);
    maybe(w, "usd_per_epoch", o.usd, 2);
    maybe(w, "usd_total", o.run_usd, 2);
    maybe(w, "hours_total", o.run_hours, 3);
    cost_members(w, o.cost);  // no name in common with the members above
    if (!h.price_date.empty()) w.field("price_date", h.price_date);
    if (h.matrix_tflops <= 0 && h.measured_tflops <= 0) w.key("unknown").begin_array().value("matrix_tflops").end_array();
    put_message(w, "reason", o.reason);
    // As inference's near misses: the fixes in words (fixes, fixes_data); fix_changes: each as data.
    std::vector<Message> words;
    w.key("fix_changes").begin_array();
    for (const Fix& f : o.fixes) {
      words.push_back(f.message);
      fix_json(w, f);
    }
    w.end_array();
    put_messages(w, "fixes", words);
  };
  w.field("options_total", rec.options_total);
  w.key("options").begin_array();
  for (const auto& o : rec.options) {
    open_option_json(o);
    w.end_object();
  }
  w.end_array();
  w.key("near_misses").begin_array();
  for (const auto& m : rec.near_misses) {
    open_option_json(m);
    w.field("short_by_bytes", -m.headroom_bytes);
    w.end_object();
  }
  w.end_array();
  w.key("costs");
  training_costs_json(w, rec.costs);
  put_messages(w, "warnings", r.warnings);
  w.end_object();
  return w.take();
}

void hardware_entry_json(JsonWriter& w, const HardwareSpec& h) {
  open_hardware_ref(w, h);
  w.field("vendor", h.vendor).field("segment", h.segment).field("device_count", h.device_count);
  // A figure the catalog lacks is null and named under `unknown`, never shown as 0 GB or 0 ms.
  const std::int64_t memory = h.is_cpu() ? h.host_memory_bytes : h.device_memory_bytes;
  const double bandwidth = h.is_cpu() ? h.host_bandwidth_gb_per_s : h.memory_bandwidth_gb_per_s;
  const double compute = h.is_cpu() ? h.host_tflops : h.matrix_tflops;
  known_or_null(w, "memory_bytes", memory > 0, memory);
  if (!h.memory_options_bytes.empty()) w.field("memory_options_bytes", h.memory_options_bytes);
  known_or_null(w, "usable_bytes", memory > 0, memory > 0 ? (h.is_cpu() ? usable_host_bytes(memory) : usable_device_bytes(h, memory)) : 0);
  known_or_null(w, "memory_bandwidth_gb_per_s", bandwidth > 0, bandwidth);
  maybe(w, "matrix_tflops", compute, 2);
  if (memory <= 0 || bandwidth <= 0 || compute <= 0) {
    w.key("unknown").begin_array();
    if (memory <= 0) w.value("memory_bytes");
    if (bandwidth <= 0) w.value("memory_bandwidth_gb_per_s");
    if (compute <= 0) w.value("matrix_tflops");
    w.end_array();
  }
  maybe(w, "tdp_w", h.tdp_w, 1);
  maybe(w, "price_usd", h.price_usd, 2);
  maybe(w, "price_usd_per_hour", h.price_usd_per_hour, 4);
  if (!h.price_date.empty()) w.field("price_date", h.price_date);
  if (!h.gpu_id.empty()) w.field("gpu_id", h.gpu_id);
  if (!h.unsupported.id.empty()) put_message(w, "unsupported", h.unsupported);
  w.field("source", h.source);
  w.end_object();
}

}  // namespace llmsizer::edge
