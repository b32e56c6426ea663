// SPDX-License-Identifier: MIT
#include "hardware_api.hpp"

#include <cmath>

#include "hardware_json.hpp"
#include "llmsizer/cost.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/recommend.hpp"
#include "llmsizer/throughput.hpp"
#include "request.hpp"

namespace llmsizer {
namespace {

using ojson = nlohmann::ordered_json;
using nlohmann::json;

constexpr int kSchemaVersion = 1;
/// The reference CPU for "CPU or GPU": a 16-core desktop with dual-channel DDR5 (catalog).
constexpr const char* kReferenceCpu = "amd-ryzen-9-7950x";

/// Rounds for display (deterministic across native and WASM builds): `digits` decimals.
double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}
ojson maybe(double value, int digits) { return value > 0 ? ojson(rounded(value, digits)) : ojson(nullptr); }

std::vector<HardwareSpec> catalog_gpus() {
  std::vector<HardwareSpec> gpus;
  for (const auto& h : hardware_catalog()) {
    if (h.kind == HardwareKind::gpu) gpus.push_back(h);
  }
  return gpus;
}

HardwareSpec request_hardware(const json& body, const char* key) {
  const json& value = body.at(key);
  if (value.is_string()) {
    const std::optional<HardwareSpec> h = hardware_entry(value.get<std::string>());
    if (!h) throw InputError(key, "unknown hardware id \"" + value.get<std::string>() + "\"; list the catalog with `llmsizer hardware`, or give an object with its fields");
    return *h;
  }
  if (value.is_object() && value.contains("probe") && value.contains("summary")) {
    // A file written by llmsizer-probe (data/measured format), e.g. dropped on the page as "my
    // machine": its measured GPU if it has one, else its measured CPU.
    std::vector<HardwareSpec> measured = hardware_from_probe(value);
    if (measured.empty()) throw InputError(key, "the probe file has no measured summary (summary.cpu or summary.cuda with memory_bandwidth_gb_per_s)");
    for (const auto& h : measured) {
      if (!h.is_cpu()) return h;
    }
    return measured.front();
  }
  return hardware_from_json(value, key, catalog_gpus());
}

OwnershipCosts request_costs(const json& body) {
  OwnershipCosts c;
  if (!body.contains("cost")) return c;
  const json& v = body.at("cost");
  if (!v.is_object()) throw InputError("cost", "must be an object such as {\"lifetime_years\": 3, \"electricity_usd_per_kwh\": 0.17}");
  c.lifetime_years = request::number(v, "lifetime_years", "cost.lifetime_years", 0.1, 30, c.lifetime_years);
  c.hours_per_day = request::number(v, "hours_per_day", "cost.hours_per_day", 0.1, 24, c.hours_per_day);
  c.electricity_usd_per_kwh = request::number(v, "electricity_usd_per_kwh", "cost.electricity_usd_per_kwh", 0, 10, c.electricity_usd_per_kwh);
  c.pue = request::number(v, "pue", "cost.pue", 1, 3, c.pue);
  c.utilization = request::number(v, "utilization", "cost.utilization", 0, 1, c.utilization);
  c.upkeep_usd_per_year = request::number(v, "upkeep_usd_per_year", "cost.upkeep_usd_per_year", 0, 1e7, c.upkeep_usd_per_year);
  return c;
}

ojson hardware_ref(const HardwareSpec& h) {
  return {{"id", h.id}, {"name", h.name}, {"kind", hardware_kind_id(h.kind)}};
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
    j["note"] = "the hardware's memory bandwidth is not known";
    return j;
  }
  j["decode_tokens_per_s"] = rounded(t.decode_tokens_per_s, 2);
  j["decode_tokens_per_s_total"] = rounded(t.decode_tokens_per_s_total, 2);
  j["prefill_tokens_per_s"] = maybe(t.prefill_tokens_per_s, 1);
  j["time_to_first_token_s"] = maybe(t.time_to_first_token_s, 4);
  j["generation_tokens_per_s"] = maybe(t.generation_tokens_per_s, 2);
  j["bound"] = t.step.bound;
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

SpeedPlacement speed_placement(const FitResult& f, int gpus) {
  SpeedPlacement p;
  p.gpus = f.placement == Placement::cpu ? 0 : std::max(1, gpus);
  if (f.placement == Placement::offload) {
    p.gpus = 1;
    p.gpu_layers = f.offload.gpu_layers;
  }
  return p;
}

}  // namespace

void add_inference_hardware(ojson& out, const json& body, const ModelSpec& model, const InferenceSettings& settings) {
  HardwareSpec hw = request_hardware(body, "hardware");
  const OwnershipCosts costs = request_costs(body);
  if (settings.gpus == 0 && !hw.is_cpu()) hw.device_count = 0;  // gpus 0: the host's CPU and RAM
  if (hw.kind == HardwareKind::instance && settings.gpus > hw.device_count) {
    throw InputError("gpus", "the instance " + hw.id + " has " + std::to_string(hw.device_count) + " GPUs; ask for at most that many");
  }
  const MemoryByDevices memory(model, settings);
  FitOptions options;
  options.gpus = hw.is_cpu() ? 0 : std::max(1, settings.gpus);
  const FitResult fit = fit_request(memory, hw, options);
  const SpeedPlacement where = speed_placement(fit, options.gpus);
  SpeedOptions speed_options;
  speed_options.enforce_eager = request::boolean(body, "enforce_eager", "enforce_eager", false);  // vLLM --enforce-eager
  const Throughput speed = estimate_throughput(model, settings, hw, where, speed_options);
  out["hardware"] = hardware_ref(hw);
  out["fit"] = fit_json(fit, hw);
  out["throughput"] = throughput_json(speed);
  if (!hw.is_cpu() && speed.known) {
    std::optional<HardwareSpec> cpu;
    if (body.contains("cpu")) {
      const std::string id = request::text(body, "cpu", "cpu", {}, kReferenceCpu);
      cpu = hardware_entry(id);
      if (!cpu || !cpu->is_cpu()) throw InputError("cpu", "must be a CPU id from `llmsizer hardware` (kind cpu); got \"" + id + "\"");
    } else {
      cpu = hardware_entry(kReferenceCpu);
    }
    if (cpu) {
      const CpuVsGpu c = compare_cpu_gpu(model, settings, *cpu, hw, where);
      out["cpu_vs_gpu"] = {{"cpu", cpu->id},
                           {"cpu_tokens_per_s", rounded(c.cpu_tokens_per_s, 2)},
                           {"gpu_tokens_per_s", rounded(c.gpu_tokens_per_s, 2)},
                           {"crossover_batch", c.crossover_batch > 0 ? ojson(c.crossover_batch) : ojson(nullptr)},
                           {"cpu_is_enough", c.cpu_is_enough},
                           {"reading_tokens_per_s", kReadingTokensPerS},
                           {"note", c.note}};
    }
  }
  // The break-even needs only the instances with this GPU (not the whole catalog: its first parse was
  // most of a request's time, and in the browser tens of milliseconds before the first answer).
  const std::vector<HardwareSpec> rentals = hw.kind == HardwareKind::gpu && hw.price_usd > 0 ? instances_with_gpu(hw.id) : std::vector<HardwareSpec>{};
  out["cost"] = cost_json(option_cost(hw, hw.is_cpu() ? 0 : options.gpus, speed.decode_tokens_per_s_total, costs, rentals));
}

void apply_hardware_to_training(const json& body, TrainingSettings& settings) {
  const HardwareSpec hw = request_hardware(body, "hardware");
  if (hw.is_cpu()) throw InputError("hardware", "training is sized for GPUs; pick a GPU, laptop or instance");
  // The GPU's dense 16-bit peak (a probe's measurement first) and the instance's price per GPU-hour
  // feed the training module's time and cost, unless the request gave its own.
  if (settings.peak_tflops <= 0) settings.peak_tflops = hw.measured_tflops > 0 ? hw.measured_tflops : hw.matrix_tflops;
  if (settings.usd_per_gpu_hour <= 0 && hw.is_rented()) {
    settings.usd_per_gpu_hour = hw.price_usd_per_hour / std::max(1, hw.device_count);
  }
}

void add_training_hardware(ojson& out, const json& body, const TrainingSettings& settings, const MemoryEstimate& estimate) {
  const HardwareSpec hw = request_hardware(body, "hardware");
  const int gpus = std::max(1, settings.gpus);
  const std::int64_t usable = usable_device_bytes(hw, hw.device_memory_bytes);
  ojson fit;
  fit["fits"] = estimate.device_bytes <= usable && (hw.kind != HardwareKind::instance || gpus <= hw.device_count);
  fit["required_bytes"] = estimate.device_bytes;
  fit["usable_bytes"] = usable;
  fit["headroom_bytes"] = usable - estimate.device_bytes;
  out["hardware"] = hardware_ref(hw);
  out["fit"] = fit;
}

ojson recommend_json(const json& body, const ModelSpec& model, const InferenceSettings& settings, const std::vector<std::string>& warnings) {
  Goal goal = Goal::best_value;
  const std::string goal_text = request::text(body, "goal", "goal", {"cheapest", "fastest", "best-value", "local", "laptop"}, "best-value");
  parse_goal(goal_text, goal);
  const OwnershipCosts costs = request_costs(body);
  const MemoryByDevices memory(model, settings);
  const Recommendation r = recommend_hardware(memory, hardware_catalog(), goal, costs);
  ojson out;
  out["schema_version"] = kSchemaVersion;
  out["model"] = {{"id", model.id}, {"name", model.name}};
  out["settings"] = {{"weights", settings.weights->id}, {"kv_cache", settings.kv_cache->id}, {"engine", engine_id(settings.engine)},
                     {"input_tokens", settings.input_tokens}, {"output_tokens", settings.output_tokens}, {"batch", settings.batch}};
  out["goal"] = goal_id(goal);
  out["options"] = ojson::array();
  for (const auto& o : r.options) {
    const HardwareSpec& h = *o.hardware;
    ojson j = hardware_ref(h);
    j["fits"] = true;
    j["placement"] = placement_id(o.fit.placement);
    j["gpus_needed"] = o.fit.gpus_needed;
    j["gpus_used"] = o.fit.gpus_used;
    j["device_bytes"] = h.is_cpu() ? 0 : o.fit.required_bytes;
    if (h.is_cpu()) j["host_bytes"] = o.fit.required_bytes;
    j["headroom_bytes"] = o.fit.headroom_bytes;
    if (o.fit.memory_option_bytes > 0) j["memory_option_bytes"] = o.fit.memory_option_bytes;
    j["decode_tokens_per_s"] = o.speed.known ? ojson(rounded(o.speed.decode_tokens_per_s, 2)) : ojson(nullptr);
    j["decode_tokens_per_s_total"] = o.speed.known ? ojson(rounded(o.speed.decode_tokens_per_s_total, 2)) : ojson(nullptr);
    j["prefill_tokens_per_s"] = maybe(o.speed.prefill_tokens_per_s, 1);
    j["time_to_first_token_s"] = maybe(o.speed.time_to_first_token_s, 4);
    const ojson c = cost_json(o.cost);
    for (auto it = c.begin(); it != c.end(); ++it) j[it.key()] = it.value();
    if (!h.price_date.empty()) j["price_date"] = h.price_date;
    j["reason"] = o.reason;
    out["options"].push_back(std::move(j));
  }
  out["near_misses"] = ojson::array();
  for (const auto& m : r.near_misses) {
    ojson j = hardware_ref(*m.hardware);
    j["fits"] = false;
    j["short_by_bytes"] = -m.fit.headroom_bytes;
    j["usable_bytes"] = m.fit.usable_bytes;
    j["fixes"] = m.fixes;
    j["reason"] = m.reason;
    out["near_misses"].push_back(std::move(j));
  }
  out["warnings"] = warnings;
  return out;
}

ojson hardware_list_json() {
  ojson out;
  out["hardware"] = ojson::array();
  for (const auto& h : hardware_catalog()) {
    ojson j = hardware_ref(h);
    j["vendor"] = h.vendor;
    j["segment"] = h.segment;
    j["device_count"] = h.device_count;
    j["memory_bytes"] = h.is_cpu() ? h.host_memory_bytes : h.device_memory_bytes;
    if (!h.memory_options_bytes.empty()) j["memory_options_bytes"] = h.memory_options_bytes;
    j["usable_bytes"] = h.is_cpu() ? usable_host_bytes(h.host_memory_bytes) : usable_device_bytes(h, h.device_memory_bytes);
    j["memory_bandwidth_gb_per_s"] = h.is_cpu() ? h.host_bandwidth_gb_per_s : h.memory_bandwidth_gb_per_s;
    j["matrix_tflops"] = maybe(h.is_cpu() ? h.host_tflops : h.matrix_tflops, 2);
    j["tdp_w"] = maybe(h.tdp_w, 1);
    j["price_usd"] = maybe(h.price_usd, 2);
    j["price_usd_per_hour"] = maybe(h.price_usd_per_hour, 4);
    if (!h.price_date.empty()) j["price_date"] = h.price_date;
    if (!h.gpu_id.empty()) j["gpu_id"] = h.gpu_id;
    if (!h.unsupported_reason.empty()) j["unsupported"] = h.unsupported_reason;
    j["source"] = h.source;
    out["hardware"].push_back(std::move(j));
  }
  return out;
}

}  // namespace llmsizer
