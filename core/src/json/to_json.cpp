// SPDX-License-Identifier: MIT
#include "to_json.hpp"

#include <algorithm>
#include <cmath>

#include "llmsizer/message_text.hpp"
#include "training_request.hpp"

namespace llmsizer::edge {
namespace {

constexpr int kSchemaVersion = 1;

/// A list of messages as English text and, under `<key>_data`, as data the page translates.
void put_messages(ojson& out, const char* key, const std::vector<Message>& messages) {
  ojson text = ojson::array();
  ojson data = ojson::array();
  for (const auto& m : messages) {
    text.push_back(render_en(m));
    data.push_back(message_json(m));
  }
  out[key] = std::move(text);
  out[std::string(key) + "_data"] = std::move(data);
}

/// One message as English text and, under `<key>_data`, as data.
void put_message(ojson& out, const char* key, const Message& message) {
  out[key] = render_en(message);
  out[std::string(key) + "_data"] = message_json(message);
}

/// Rounds for display (deterministic across native and WASM builds): `digits` decimals.
double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}
ojson maybe(double value, int digits) { return value > 0 ? ojson(rounded(value, digits)) : ojson(nullptr); }

ojson parts_json(const MemoryParts& p) {
  ojson j;
  j["weights"] = p.weights;
  j["kv_cache"] = p.kv_cache;
  j["activations"] = p.activations;
  j["overhead"] = p.overhead;
  j["gradients"] = p.gradients;
  j["optimizer"] = p.optimizer;
  j["master_weights"] = p.master_weights;
  j["adapters"] = p.adapters;
  j["step_temporary"] = p.step_temporary;
  return j;
}

/// The weights as stored: format, effective bits per weight, bytes by tensor class and by type.
ojson weights_detail_json(const Request& r, const Answer& a) {
  const WeightFormat& f = *r.weights;
  ojson j;
  j["format"] = f.id;
  j["name"] = f.name;
  j["ecosystem"] = ecosystem_id(f.ecosystem);
  if (f.group_size > 0 && f.scheme != QuantScheme::bnb_4bit && f.scheme != QuantScheme::mxfp4) j["group_size"] = r.group_size != 0 ? r.group_size : f.group_size;
  j["bits_per_weight"] = a.weights.bits_per_weight;
  j["bytes"] = ojson::object();
  for (TensorClass c : {TensorClass::embeddings, TensorClass::attention, TensorClass::mlp, TensorClass::lm_head, TensorClass::norms, TensorClass::other}) {
    j["bytes"][tensor_class_id(c)] = a.weights.bytes_by_class[static_cast<std::size_t>(c)];
  }
  j["types"] = ojson::array();
  for (const auto& t : a.weights.types) j["types"].push_back({{"type", t.type}, {"tensors", t.tensors}, {"bytes", t.bytes}});
  j["disk_metadata_bytes"] = a.disk.metadata_bytes;
  return j;
}

ojson settings_json(const Request& r) {
  ojson s;
  s["task"] = task_id(r.task);
  s["weights"] = r.weights->id;
  if (r.task == Task::training) {
    s["gpus"] = r.gpus;
    s["training"] = training_settings_json(r.training);
    return s;
  }
  s["kv_cache"] = r.kv_cache->id;
  s["engine"] = engine_id(r.engine);
  s["input_tokens"] = r.input_tokens;
  s["output_tokens"] = r.output_tokens;
  s["batch"] = r.batch;
  s["gpus"] = r.gpus;
  s["flash_attention"] = r.flash_attention;
  if (r.group_size != 0) s["group_size"] = r.group_size;
  if (r.engine_version > 0) s["engine_version"] = r.engine_version_text;
  const LlamaCppOptions& l = r.llama_cpp;
  const int sequences = static_cast<int>(std::min<std::int64_t>(r.batch, kLlamaCppMaxSequences));
  if (r.engine == Engine::llama_cpp) {
    s["llama_cpp"] = {{"ubatch", l.ubatch}, {"n_batch", l.n_batch}, {"parallel", l.parallel > 0 ? l.parallel : sequences},
                      {"kv_unified", l.kv_unified}, {"mmap", l.mmap}, {"n_gpu_layers", l.n_gpu_layers},
                      {"override_tensor", l.override_tensor}, {"cpu_family", llama_cpp_cpu_id(l.cpu_family)},
                      {"swa_full", l.swa_full}, {"offload_kqv", l.offload_kqv}};
  }
  if (r.engine == Engine::ollama) {
    const OllamaOptions& o = r.ollama;
    s["ollama"] = {{"num_parallel", o.num_parallel > 0 ? o.num_parallel : sequences}, {"num_batch", o.num_batch}, {"num_gpu", o.num_gpu},
                   {"use_mmap", o.use_mmap}, {"flash_attention", o.flash_attention < 0 ? ojson("auto") : ojson(o.flash_attention == 1)},
                   {"cpu_family", llama_cpp_cpu_id(l.cpu_family)}};
  }
  return s;
}

/// What llama.cpp allocates (engines llama.cpp and ollama): its resolved parameters, every buffer
/// as llama.cpp logs it, and the llama-server command line that reproduces them.
ojson llama_cpp_json(const LlamaCppRun& run) {
  const LlamaCppMemory& m = run.memory;
  ojson j;
  j["n_ctx"] = m.n_ctx;
  j["n_ctx_seq"] = m.n_ctx_seq;
  j["n_batch"] = m.n_batch;
  j["n_ubatch"] = m.n_ubatch;
  j["n_seq"] = run.settings.n_seq;
  j["n_stream"] = m.n_stream;
  j["n_gpu_layers"] = m.n_gpu_layers;
  j["flash_attention"] = m.flash_attn;
  j["cache_type_k"] = run.settings.type_k;
  j["cache_type_v"] = run.settings.type_v;
  j["cells"] = {{"full", m.cells_full}, {"sliding", m.cells_sliding}};
  j["buffers"] = {{"weights_mapped", m.weights_mapped}, {"weights_cpu", m.weights_cpu}, {"weights_repack", m.weights_repack},
                  {"weights_device", m.weights_device}, {"weights_mapped_repacked", m.weights_mapped_repacked},
                  {"kv_host", m.kv_host}, {"kv_device", m.kv_device}, {"recurrent_state", m.recurrent_state},
                  {"compute_host", m.compute_host}, {"compute_device", m.compute_device}, {"output", m.output}};
  j["host_bytes"] = m.host_bytes;
  j["device_bytes"] = m.device_bytes;
  j["command_line"] = run.command_line;
  put_messages(j, "notes", m.notes);
  return j;
}

/// Engine ollama: Ollama's resolved context and parallel requests, what `ollama ps` shows, and the
/// commands that start it so.
ojson ollama_json(const LlamaCppRun& run) {
  const OllamaMemory& o = *run.ollama;
  return {{"num_ctx", o.num_ctx}, {"num_parallel", o.num_parallel}, {"ps_size_bytes", o.ps_size},
          {"ps_vram_bytes", o.ps_vram}, {"command_line", run.ollama_command_line}};
}

ojson hardware_ref(const HardwareSpec& h) {
  return {{"id", h.id}, {"name", h.name}, {"kind", hardware_kind_id(h.kind)}};
}

/// The person's machine as the core read it (request `machine`).
ojson machine_json(const HardwareSpec& h) {
  ojson j;
  j["ram_bytes"] = h.host_memory_bytes;
  j["vram_bytes"] = h.unified_memory || h.is_cpu() ? 0 : h.device_memory_bytes;
  j["gpus"] = h.device_count;
  j["unified_memory"] = h.unified_memory;
  j["gpu_memory_limit_bytes"] = h.gpu_memory_limit_bytes;
  j["display"] = h.drives_display;
  return j;
}

/// A fix as data: the fields it sets (as a request writes them), what it costs, what it leaves.
ojson fix_json(const Fix& f) {
  ojson j;
  j["cost"] = fix_cost_id(f.cost);
  ojson changes = ojson::object();
  for (const FixChange& c : f.changes) {
    if (c.type == FixChange::Type::text) changes[c.field] = c.text;
    else if (c.type == FixChange::Type::integer) changes[c.field] = c.integer;
    else changes[c.field] = c.boolean;
  }
  j["changes"] = std::move(changes);
  j["verdict"] = verdict_id(f.verdict);
  j["headroom_bytes"] = f.headroom_bytes;
  put_message(j, "text", f.message);
  return j;
}

/// The verdict beside a fit's numbers: its level, the margin, one sentence, the fixes, the rules applied.
void put_verdict(ojson& fit, Verdict verdict, std::int64_t margin_bytes, const Message& summary, const std::vector<Fix>& fixes,
                 const std::vector<Message>& assumptions) {
  fit["verdict"] = verdict_id(verdict);
  fit["margin_bytes"] = margin_bytes;
  put_message(fit, "summary", summary);
  fit["fixes"] = ojson::array();
  for (const Fix& f : fixes) fit["fixes"].push_back(fix_json(f));
  put_messages(fit, "assumptions", assumptions);
}

ojson fit_json(const FitResult& f, const HardwareSpec& hw) {
  ojson j;
  j["fits"] = f.fits;
  j["placement"] = placement_id(f.placement);
  j["required_bytes"] = f.required_bytes;
  j["usable_bytes"] = f.usable_bytes;
  j["headroom_bytes"] = f.headroom_bytes;
  j["gpus_needed"] = hw.is_cpu() ? ojson(0) : (f.gpus_needed > 0 ? ojson(f.gpus_needed) : ojson(nullptr));
  j["gpus_used"] = f.gpus_used;
  j["max_context"] = f.max_context >= 0 ? ojson(f.max_context) : ojson(nullptr);
  if (f.max_context_is_model_limit) j["max_context_limited_by"] = "model";
  j["max_batch"] = f.max_batch >= 0 ? ojson(f.max_batch) : ojson(nullptr);
  if (f.memory_option_bytes > 0) j["memory_option_bytes"] = f.memory_option_bytes;
  if (f.offload_possible) {
    j["offload"] = {{"gpu_layers", f.offload.gpu_layers}, {"cpu_layers", f.offload.cpu_layers},
                    {"gpu_bytes", f.offload.gpu_bytes}, {"host_bytes", f.offload.host_bytes}};
  } else {
    j["offload"] = nullptr;
  }
  return j;
}

ojson throughput_json(const Throughput& t) {
  ojson j;
  if (!t.known) {
    j["decode_tokens_per_s"] = nullptr;
    put_message(j, "note", Message("throughput.bandwidth_unknown"));
    return j;
  }
  j["decode_tokens_per_s"] = rounded(t.decode_tokens_per_s, 2);
  j["decode_tokens_per_s_total"] = rounded(t.decode_tokens_per_s_total, 2);
  j["prefill_tokens_per_s"] = maybe(t.prefill_tokens_per_s, 1);
  j["time_to_first_token_s"] = maybe(t.time_to_first_token_s, 4);
  j["generation_tokens_per_s"] = maybe(t.generation_tokens_per_s, 2);
  put_message(j, "bound", Message("term." + t.step.bound));
  j["bytes_per_step"] = t.bytes_per_step;
  j["step_ms"] = {{"total", rounded(t.step.total_s * 1e3, 4)},          {"memory", rounded(t.step.memory_s * 1e3, 4)},
                  {"compute", rounded(t.step.compute_s * 1e3, 4)},      {"host_launch", rounded(t.step.host_launch_s * 1e3, 4)},
                  {"offload", rounded(t.step.offload_s * 1e3, 4)},      {"communication", rounded(t.step.communication_s * 1e3, 4)},
                  {"engine_fixed", rounded(t.step.fixed_s * 1e3, 4)}};
  return j;
}

ojson cost_json(const OptionCost& c) {
  ojson j;
  j["usd_per_hour"] = c.known ? ojson(rounded(c.usd_per_hour, 4)) : ojson(nullptr);
  j["usd_per_million_tokens"] = c.known && c.usd_per_million_tokens > 0 ? ojson(rounded(c.usd_per_million_tokens, 4)) : ojson(nullptr);
  if (c.known) j["price"] = c.rented ? "rent" : "own";
  if (c.purchase_usd > 0) {
    j["purchase_usd"] = rounded(c.purchase_usd, 2);
    j["power_usd_per_hour"] = rounded(c.power_usd_per_hour, 4);
  }
  if (!c.break_even_instance.empty()) {
    j["break_even_instance"] = c.break_even_instance;
    j["break_even_hours"] = c.break_even_hours >= 0 ? ojson(rounded(c.break_even_hours, 1)) : ojson(nullptr);
  }
  return j;
}

void add_inference_hardware(ojson& out, const InferenceOnHardware& h) {
  out["hardware"] = hardware_ref(h.hardware);
  if (h.hardware.is_machine) out["hardware"]["machine"] = machine_json(h.hardware);
  out["fit"] = fit_json(h.fit, h.hardware);
  put_verdict(out["fit"], h.fit.verdict, h.fit.margin_bytes, h.summary, h.fixes, h.assumptions);
  out["throughput"] = throughput_json(h.throughput);
  // No compute figure in the catalog: the compute time is unknown, not 0 ms.
  const HardwareSpec& hw = h.hardware;
  const double compute = hw.is_cpu() ? hw.host_tflops : (hw.measured_tflops > 0 ? hw.measured_tflops : hw.matrix_tflops);
  if (h.throughput.known && compute <= 0) {
    out["throughput"]["step_ms"]["compute"] = nullptr;
    out["throughput"]["unknown"] = ojson::array({"matrix_tflops"});
  }
  if (h.cpu_vs_gpu) {
    const CpuVsGpu& c = *h.cpu_vs_gpu;
    out["cpu_vs_gpu"] = {{"cpu", h.cpu_id},
                         {"cpu_tokens_per_s", rounded(c.cpu_tokens_per_s, 2)},
                         {"gpu_tokens_per_s", rounded(c.gpu_tokens_per_s, 2)},
                         {"crossover_batch", c.crossover_batch > 0 ? ojson(c.crossover_batch) : ojson(nullptr)},
                         {"cpu_is_enough", c.cpu_is_enough},
                         {"reading_tokens_per_s", kReadingTokensPerS}};
    put_message(out["cpu_vs_gpu"], "note", c.note);
  }
  out["cost"] = cost_json(h.cost);
}

void add_training_hardware(ojson& out, const TrainingOnHardware& h) {
  ojson fit;
  fit["fits"] = h.fits;
  fit["required_bytes"] = h.required_bytes;
  fit["usable_bytes"] = h.usable_bytes;
  fit["headroom_bytes"] = h.headroom_bytes;
  if (h.memory_option_bytes > 0) fit["memory_option_bytes"] = h.memory_option_bytes;
  put_verdict(fit, h.verdict.verdict, h.verdict.margin_bytes, h.verdict.summary, h.verdict.fixes, h.verdict.assumptions);
  out["hardware"] = hardware_ref(h.hardware);
  if (h.hardware.is_machine) out["hardware"]["machine"] = machine_json(h.hardware);
  out["fit"] = fit;
}

/// Training's fit: the longest sequence at this micro-batch and the largest micro-batch at this
/// sequence length that fit (0: not even 1), and when it does not fit, the verdict in words.
void add_training_fit(ojson& fit, const TrainingFit& f, const TrainingSettings& t) {
  fit["max_context"] = f.max_seq_len;
  fit["max_batch"] = f.max_micro_batch;
  if (f.fits) return;
  Message verdict = f.max_seq_len > 0 ? Message("fit.training.out_of_memory").count("seq_len", t.seq_len).count("micro_batch", t.micro_batch).count("max_context", f.max_seq_len)
                                      : Message("fit.training.never_fits").count("micro_batch", t.micro_batch);
  put_message(fit, "note", verdict);
}

}  // namespace

std::string dump(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

std::string error_json(const InputError& error) {
  ojson e;
  e["error"]["field"] = error.field();
  e["error"]["message"] = render_en(error.message());
  e["error"]["message_data"] = message_json(error.message());
  return dump(e);
}

ojson model_json(const ModelSpec& m, const ModelSummary& summary) {
  const ParamCounts& c = summary.params;
  ojson j;
  j["id"] = m.id;
  j["name"] = m.name;
  j["params"] = c.total;
  j["active_params"] = c.active;
  j["layers"] = m.num_layers;
  if (m.has_architecture()) {
    j["hidden_size"] = m.hidden_size;
    j["attention_heads"] = m.num_attention_heads;
    j["kv_heads"] = m.num_kv_heads;
    j["head_dim"] = m.head_dim;
    j["vocab_size"] = m.vocab_size;
    j["model_type"] = m.model_type;
    if (c.extra > 0) j["extra_params"] = c.extra;
    if (c.mtp > 0) j["mtp_params"] = c.mtp;
  }
  if (m.file_weight_bytes > 0) {
    j["file_weight_bytes"] = m.file_weight_bytes;
    j["file_weights_format"] = m.file_weights_format;
  }
  put_messages(j, "features", summary.features);
  return j;
}

std::string to_json(const Request& r, const Answer& a) {
  ojson out;
  out["schema_version"] = kSchemaVersion;
  out["model"] = model_json(r.model, a.model);
  out["settings"] = settings_json(r);
  out["memory"]["device_bytes"] = a.memory.device_bytes;
  out["memory"]["tensor_peak_bytes"] = a.memory.tensor_peak_bytes;
  out["memory"]["host_bytes"] = a.memory.host_bytes;
  out["memory"]["parts"] = parts_json(a.memory.parts);
  out["disk_bytes"] = a.disk.total();
  out["weights_detail"] = weights_detail_json(r, a);
  if (a.training) {
    out["training"] = training_result_json(*a.training);
    if (r.training.peak_tflops > 0) out["throughput"] = {{"tokens_per_s", a.training->time.tokens_per_s}, {"hours", a.training->time.hours}};
  }
  if (a.memory.llama_cpp && r.task == Task::inference) {
    out["llama_cpp"] = llama_cpp_json(*a.memory.llama_cpp);
    if (a.memory.llama_cpp->ollama) out["ollama"] = ollama_json(*a.memory.llama_cpp);
  }
  put_messages(out, "warnings", a.warnings);
  out["explain"] = ojson::array();
  for (const auto& line : a.memory.explain) {
    ojson j = {{"part", line.part}, {"formula", render_en(line.formula)}, {"values", render_en(line.values)}, {"bytes", line.bytes}};
    j["id"] = line.formula.id.substr(0, line.formula.id.rfind(".formula"));
    j["formula_data"] = message_json(line.formula);
    j["values_data"] = message_json(line.values);
    out["explain"].push_back(std::move(j));
  }
  if (a.inference_hardware) add_inference_hardware(out, *a.inference_hardware);
  if (a.training_hardware) add_training_hardware(out, *a.training_hardware);
  if (a.budget_fit) {
    out["fit"] = {{"fits", a.budget_fit->fits},
                  {"required_bytes", a.budget_fit->required_bytes},
                  {"usable_bytes", a.budget_fit->usable_bytes},
                  {"headroom_bytes", a.budget_fit->headroom_bytes},
                  {"budget", true}};
    const FitVerdict& v = a.budget_fit->verdict;
    put_verdict(out["fit"], v.verdict, v.margin_bytes, v.summary, v.fixes, v.assumptions);
  }
  if (a.training_fit) add_training_fit(out["fit"], *a.training_fit, r.training);
  return dump(out);
}

/// Buy, rent or use what you have (buy_or_rent.hpp): the usage and one row per option.
ojson costs_json(const CostComparison& c) {
  ojson out;
  out["usage"] = {{"hours_per_day", c.usage.hours_per_day > 0 ? ojson(c.usage.hours_per_day) : ojson(nullptr)},
                  {"tokens_per_day", c.usage.tokens_per_day > 0 ? ojson(c.usage.tokens_per_day) : ojson(nullptr)}};
  out["rows"] = ojson::array();
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const CostRow& row = c.rows[i];
    const HardwareSpec& h = *row.option.hardware;
    ojson j = hardware_ref(h);
    j["cost_kind"] = cost_kind_id(row.kind);
    j["rent_reference"] = static_cast<int>(i) == c.rent_reference;
    j["gpus_used"] = row.option.fit.gpus_used;
    if (row.option.fit.memory_option_bytes > 0) j["memory_option_bytes"] = row.option.fit.memory_option_bytes;
    j["tokens_per_s"] = rounded(row.tokens_per_s, 2);
    j["hours_per_day"] = rounded(row.hours_per_day, 3);
    j["tokens_per_day"] = std::llround(row.tokens_per_day);
    j["machines"] = row.machines;
    j["upfront_usd"] = rounded(row.upfront_usd, 2);
    // The parts of the month (purchase, power, upkeep, rent) are in `explain`, their numbers in explain_data.
    j["usd_per_month"] = rounded(row.usd_per_month, 2);
    j["usd_per_hour"] = rounded(row.usd_per_hour, 4);
    j["usd_per_million_tokens"] = rounded(row.usd_per_million_tokens, 4);
    j["break_even_months"] = row.break_even_months > 0 ? ojson(rounded(row.break_even_months, 1)) : ojson(nullptr);
    if (!h.price_date.empty()) j["price_date"] = h.price_date;
    if (!h.price_source.empty()) j["price_source"] = h.price_source;
    put_messages(j, "explain", row.explain);
    out["rows"].push_back(std::move(j));
  }
  put_message(out, "summary", c.summary);
  return out;
}

std::string to_json(const Request& r, const Recommendation& rec) {
  ojson out;
  out["schema_version"] = kSchemaVersion;
  out["model"] = {{"id", r.model.id}, {"name", r.model.name}};
  out["settings"] = {{"weights", r.weights->id}, {"kv_cache", r.kv_cache->id}, {"engine", engine_id(r.engine)},
                     {"input_tokens", r.input_tokens}, {"output_tokens", r.output_tokens}, {"batch", r.batch}};
  out["goal"] = goal_id(rec.goal);
  out["options"] = ojson::array();
  for (const auto& o : rec.options) {
    const HardwareSpec& h = *o.hardware;
    ojson j = hardware_ref(h);
    j["fits"] = true;
    j["placement"] = placement_id(o.fit.placement);
    j["gpus_needed"] = o.fit.gpus_needed;
    j["gpus_used"] = o.fit.gpus_used;
    j["device_bytes"] = h.is_cpu() ? 0 : o.fit.required_bytes;
    if (h.is_cpu()) j["host_bytes"] = o.fit.required_bytes;
    j["headroom_bytes"] = o.fit.headroom_bytes;
    j["verdict"] = verdict_id(o.fit.verdict);
    j["margin_bytes"] = o.fit.margin_bytes;
    if (o.fit.memory_option_bytes > 0) j["memory_option_bytes"] = o.fit.memory_option_bytes;
    j["decode_tokens_per_s"] = o.speed.known ? ojson(rounded(o.speed.decode_tokens_per_s, 2)) : ojson(nullptr);
    j["decode_tokens_per_s_total"] = o.speed.known ? ojson(rounded(o.speed.decode_tokens_per_s_total, 2)) : ojson(nullptr);
    j["prefill_tokens_per_s"] = maybe(o.speed.prefill_tokens_per_s, 1);
    j["time_to_first_token_s"] = maybe(o.speed.time_to_first_token_s, 4);
    const ojson c = cost_json(o.cost);
    for (auto it = c.begin(); it != c.end(); ++it) j[it.key()] = it.value();
    if (!h.price_date.empty()) j["price_date"] = h.price_date;
    put_message(j, "reason", o.reason);
    out["options"].push_back(std::move(j));
  }
  out["near_misses"] = ojson::array();
  for (const auto& m : rec.near_misses) {
    ojson j = hardware_ref(*m.hardware);
    j["fits"] = false;
    j["short_by_bytes"] = -m.fit.headroom_bytes;
    j["usable_bytes"] = m.fit.usable_bytes;
    put_messages(j, "fixes", m.fixes);
    put_message(j, "reason", m.reason);
    out["near_misses"].push_back(std::move(j));
  }
  if (rec.costs) out["costs"] = costs_json(*rec.costs);
  put_messages(out, "warnings", r.warnings);
  return dump(out);
}

std::string to_json(const Request& r, const TrainingRecommendation& rec) {
  ojson out;
  out["schema_version"] = kSchemaVersion;
  out["task"] = "training";
  out["model"] = {{"id", r.model.id}, {"name", r.model.name}};
  out["settings"] = training_settings_json(r.training);
  out["goal"] = goal_id(rec.goal);
  out["epoch_tokens"] = rec.epoch_tokens;
  if (rec.epoch_tokens_assumed) {
    put_message(out, "note", Message("recommend.training.epoch_assumed").count("tokens", static_cast<std::int64_t>(rec.epoch_tokens)));
  }
  auto option_json = [](const TrainingOption& o) {
    const HardwareSpec& h = *o.hardware;
    ojson j = hardware_ref(h);
    j["fits"] = verdict_fits(o.verdict);
    j["verdict"] = verdict_id(o.verdict);
    j["gpus"] = o.gpus;
    j["gpus_needed"] = o.gpus;  // as inference options name it (the page's column)
    j["zero_stage"] = o.zero_stage;
    j["device_bytes"] = o.device_bytes;
    j["usable_bytes"] = o.usable_bytes;
    j["headroom_bytes"] = o.headroom_bytes;
    j["margin_bytes"] = o.margin_bytes;
    if (o.memory_option_bytes > 0) j["memory_option_bytes"] = o.memory_option_bytes;
    j["tokens_per_s"] = maybe(o.tokens_per_s, 1);
    j["hours_per_epoch"] = maybe(o.hours, 3);
    j["usd_per_epoch"] = maybe(o.usd, 2);
    j["usd_total"] = maybe(o.usd, 2);
    const ojson c = cost_json(o.cost);
    for (auto it = c.begin(); it != c.end(); ++it) j[it.key()] = it.value();
    if (!h.price_date.empty()) j["price_date"] = h.price_date;
    if (h.matrix_tflops <= 0 && h.measured_tflops <= 0) j["unknown"] = ojson::array({"matrix_tflops"});
    put_message(j, "reason", o.reason);
    // As inference's near misses: the fixes in words (fixes, fixes_data); fix_changes: each as data.
    std::vector<Message> words;
    j["fix_changes"] = ojson::array();
    for (const Fix& f : o.fixes) {
      words.push_back(f.message);
      j["fix_changes"].push_back(fix_json(f));
    }
    put_messages(j, "fixes", words);
    return j;
  };
  out["options"] = ojson::array();
  for (const auto& o : rec.options) out["options"].push_back(option_json(o));
  out["near_misses"] = ojson::array();
  for (const auto& m : rec.near_misses) {
    ojson j = option_json(m);
    j["short_by_bytes"] = -m.headroom_bytes;
    out["near_misses"].push_back(std::move(j));
  }
  put_messages(out, "warnings", r.warnings);
  return dump(out);
}

ojson hardware_entry_json(const HardwareSpec& h) {
  ojson j = hardware_ref(h);
  j["vendor"] = h.vendor;
  j["segment"] = h.segment;
  j["device_count"] = h.device_count;
  // A figure the catalog lacks is null and named under `unknown`, never shown as 0 GB or 0 ms.
  const std::int64_t memory = h.is_cpu() ? h.host_memory_bytes : h.device_memory_bytes;
  const double bandwidth = h.is_cpu() ? h.host_bandwidth_gb_per_s : h.memory_bandwidth_gb_per_s;
  const double compute = h.is_cpu() ? h.host_tflops : h.matrix_tflops;
  j["memory_bytes"] = memory > 0 ? ojson(memory) : ojson(nullptr);
  if (!h.memory_options_bytes.empty()) j["memory_options_bytes"] = h.memory_options_bytes;
  j["usable_bytes"] = memory > 0 ? ojson(h.is_cpu() ? usable_host_bytes(memory) : usable_device_bytes(h, memory)) : ojson(nullptr);
  j["memory_bandwidth_gb_per_s"] = bandwidth > 0 ? ojson(bandwidth) : ojson(nullptr);
  j["matrix_tflops"] = maybe(compute, 2);
  ojson unknown = ojson::array();
  if (memory <= 0) unknown.push_back("memory_bytes");
  if (bandwidth <= 0) unknown.push_back("memory_bandwidth_gb_per_s");
  if (compute <= 0) unknown.push_back("matrix_tflops");
  if (!unknown.empty()) j["unknown"] = std::move(unknown);
  j["tdp_w"] = maybe(h.tdp_w, 1);
  j["price_usd"] = maybe(h.price_usd, 2);
  j["price_usd_per_hour"] = maybe(h.price_usd_per_hour, 4);
  if (!h.price_date.empty()) j["price_date"] = h.price_date;
  if (!h.gpu_id.empty()) j["gpu_id"] = h.gpu_id;
  if (!h.unsupported.id.empty()) put_message(j, "unsupported", h.unsupported);
  j["source"] = h.source;
  return j;
}

}  // namespace llmsizer::edge
