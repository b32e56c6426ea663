// SPDX-License-Identifier: MIT
#include "report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace llmsizer_probe {
namespace {

using nlohmann::json;

json summary_json(const std::vector<double>& samples) {
  const Summary s = summarize(samples);
  return {{"median", round_significant(s.median, 5)},
          {"mean", round_significant(s.mean, 5)},
          {"stddev", round_significant(s.stddev, 3)},
          {"min", round_significant(s.min, 5)},
          {"max", round_significant(s.max, 5)}};
}

json measurement_json(const Measurement& m) {
  json inputs = json::object();
  for (const auto& [key, value] : m.numeric_inputs) inputs[key] = round_significant(value, 8);
  for (const auto& [key, value] : m.text_inputs) inputs[key] = value;
  json samples = json::array();
  for (double x : m.samples) samples.push_back(round_significant(x, 5));
  return {{"name", m.name},       {"device", m.device},   {"unit", m.unit},
          {"inputs", inputs},     {"samples", samples},   {"summary", summary_json(m.samples)}};
}

const Measurement* find(const std::vector<Measurement>& all, const std::string& name) {
  for (const auto& m : all) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

double median_of(const Measurement& m) { return round_significant(summarize(m.samples).median, 5); }

/// Sets out[key] to the median of `name` scaled by `scale`, when it was measured.
void put_median(json& out, const std::string& key, const std::vector<Measurement>& all, const std::string& name,
                double scale = 1.0) {
  if (const Measurement* m = find(all, name)) out[key] = round_significant(median_of(*m) * scale, 5);
}

/// The highest median among the bandwidth tests named, and which test it was.
void put_best_bandwidth(json& out, const std::vector<Measurement>& all, const std::vector<std::string>& names) {
  const Measurement* best = nullptr;
  for (const auto& name : names) {
    const Measurement* m = find(all, name);
    if (m && (!best || median_of(*m) > median_of(*best))) best = m;
  }
  if (!best) return;
  out["memory_bandwidth_gb_per_s"] = median_of(*best);
  out["memory_bandwidth_source"] = best->name;
}

json cpu_summary(const ProbeRun& run) {
  const auto& all = run.cpu.measurements;
  json cpu = {{"device", "cpu0"},
              {"name", run.host.cpu_model},
              {"threads", run.cpu_threads},
              {"memory_total_bytes", run.host.ram_total_bytes},
              {"memory_available_bytes", run.host.ram_available_bytes}};
  put_best_bandwidth(cpu, all, {"cpu.stream.copy", "cpu.stream.scale", "cpu.stream.add", "cpu.stream.triad"});
  json stream = json::object();
  for (const char* kernel : {"copy", "scale", "add", "triad"}) {
    put_median(stream, kernel, all, std::string("cpu.stream.") + kernel);
  }
  cpu["stream_gb_per_s"] = stream;
  json matmul = json::object();
  put_median(matmul, "fp32", all, "cpu.gemm.fp32", 1e-3);  // GFLOP/s -> TFLOP/s
  put_median(matmul, "bf16", all, "cpu.gemm.bf16", 1e-3);
  cpu["matmul_tflops"] = matmul;
  put_median(cpu, "matvec_gb_per_s", all, "cpu.gemv.fp32");
  return cpu;
}

json cuda_summary(const ProbeRun& run) {
  const CudaProbeResult& cuda = run.cuda;
  if (!cuda.skip_reason.empty()) return {{"skip_reason", cuda.skip_reason}};
  const auto& all = cuda.measurements;
  const CudaDevice* dev = nullptr;
  for (const auto& d : cuda.devices) {
    if (d.measured) dev = &d;
  }
  json out = json::object();
  if (dev) {
    out = {{"device", dev->id},
           {"name", dev->name},
           {"sm_count", dev->sm_count},
           {"memory_total_bytes", dev->memory_total_bytes},
           {"memory_free_bytes", dev->memory_free_bytes},
           {"context_bytes", dev->context_bytes}};
    if (dev->cublas_init_bytes >= 0) out["cublas_init_bytes"] = dev->cublas_init_bytes;
  }
  out["device_count"] = cuda.devices.size();
  put_best_bandwidth(out, all, {"cuda.memcpy.d2d", "cuda.copy_kernel", "cuda.read_kernel"});
  json matmul = json::object();
  for (const char* dtype : {"fp32", "tf32", "fp16", "bf16", "fp8"}) {
    put_median(matmul, dtype, all, std::string("cuda.gemm.") + dtype);
  }
  out["matmul_tflops"] = matmul;
  json h2d = json::object(), d2h = json::object();
  for (const char* kind : {"pinned", "pageable"}) {
    put_median(h2d, kind, all, std::string("cuda.h2d.") + kind);
    put_median(d2h, kind, all, std::string("cuda.d2h.") + kind);
  }
  out["host_to_device_gb_per_s"] = h2d;
  out["device_to_host_gb_per_s"] = d2h;
  json launch = json::object();
  put_median(launch, "async", all, "cuda.launch.async");
  put_median(launch, "sync", all, "cuda.launch.sync");
  out["kernel_launch_us"] = launch;
  out["cpu_gpu_crossover_n"] = cuda.crossover_n > 0 ? json(cuda.crossover_n) : json(nullptr);
  return out;
}

json host_json(const ProbeRun& run) {
  json caches = json::array();
  for (const auto& c : run.host.caches) {
    caches.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}, {"instances", c.instances}});
  }
  return {{"cpu_model", run.host.cpu_model},
          {"cores", run.host.cores},
          {"threads", run.host.threads},
          {"ram_total_bytes", run.host.ram_total_bytes},
          {"ram_available_bytes", run.host.ram_available_bytes},
          {"caches", caches},
          {"cpu_flags", run.host.cpu_flags},
          {"os", run.host.os},
          {"compiler", run.host.compiler},
          {"load_average", run.host.load_average},
          {"blas", blas_description()}};
}

json devices_json(const ProbeRun& run) {
  json devices = json::array();
  devices.push_back({{"id", "cpu0"}, {"kind", "cpu"}, {"name", run.host.cpu_model}, {"threads_used", run.cpu_threads}});
  for (const auto& d : run.cuda.devices) {
    devices.push_back({{"id", d.id},
                       {"kind", "cuda"},
                       {"name", d.name},
                       {"pci_bus_id", d.pci_bus_id},
                       {"compute_capability", std::to_string(d.compute_capability_major) + "." +
                                                  std::to_string(d.compute_capability_minor)},
                       {"sm_count", d.sm_count},
                       {"memory_bus_width_bits", d.memory_bus_width_bits},
                       {"l2_cache_bytes", d.l2_cache_bytes},
                       {"memory_total_bytes", d.memory_total_bytes},
                       {"memory_free_bytes", d.memory_free_bytes},
                       {"context_bytes", d.context_bytes},
                       {"driver_version", run.cuda.driver_version},
                       {"runtime_version", run.cuda.runtime_version},
                       {"measured", d.measured}});
  }
  return devices;
}

}  // namespace

double round_significant(double x, int digits) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(x)))));
  return std::round(x * scale) / scale;
}

std::string slug(const std::string& text) {
  std::string out;
  for (unsigned char ch : text) {
    if (std::isalnum(ch)) {
      out.push_back(static_cast<char>(std::tolower(ch)));
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "unknown" : out;
}

std::string default_id(const HostInfo& host, const CudaProbeResult& cuda) {
  for (const auto& d : cuda.devices) {
    if (d.measured) return "probe-" + slug(d.name);
  }
  return "probe-" + slug(host.cpu_model) + "-" + std::to_string(host.threads) + "t";
}

json build_document(const ProbeRun& run) {
  json results = json::array();
  for (const auto& m : run.cpu.measurements) results.push_back(measurement_json(m));
  for (const auto& m : run.cuda.measurements) results.push_back(measurement_json(m));
  json skipped = json::array();
  for (const auto& s : run.cpu.skipped) skipped.push_back({{"name", s.name}, {"skip_reason", s.reason}});
  if (!run.cuda.skip_reason.empty()) skipped.push_back({{"name", "cuda"}, {"skip_reason", run.cuda.skip_reason}});
  for (const auto& s : run.cuda.skipped) skipped.push_back({{"name", s.name}, {"skip_reason", s.reason}});
  const bool cuda_measured = run.cuda.skip_reason.empty() && !run.cuda.measurements.empty();
  return {{"schema_version", kSchemaVersion},
          {"id", run.id},
          {"probe",
           {{"name", "llmsizer-probe"},
            {"version", LLMSIZER_PROBE_VERSION},
            {"git_commit", LLMSIZER_PROBE_GIT_COMMIT},
            {"argv", run.argv},
            {"quick", run.quick},
            {"runtime_s", round_significant(run.runtime_s, 3)},
            {"cuda_built", cuda_probe_built()}}},
          {"timestamp_utc", run.timestamp_utc},
          {"host", host_json(run)},
          {"devices", devices_json(run)},
          {"results", results},
          {"skipped", skipped},
          {"summary",
           {{"primary", cuda_measured ? "cuda" : "cpu"}, {"cpu", cpu_summary(run)}, {"cuda", cuda_summary(run)}}}};
}

json update_index(const json& index, const json& document) {
  json runs = json::array();
  if (index.is_object() && index.contains("runs") && index["runs"].is_array()) {
    for (const auto& r : index["runs"]) {
      if (r.value("id", "") != document["id"]) runs.push_back(r);
    }
  }
  const json& summary = document["summary"];
  const std::string primary = summary["primary"];
  runs.push_back({{"id", document["id"]},
                  {"file", document["id"].get<std::string>() + ".json"},
                  {"timestamp_utc", document["timestamp_utc"]},
                  {"primary", primary},
                  {"name", summary[primary].value("name", std::string("unknown"))},
                  {"probe", document["probe"]["name"]}});
  std::sort(runs.begin(), runs.end(), [](const json& a, const json& b) { return a.value("id", "") < b.value("id", ""); });
  return {{"schema_version", kSchemaVersion}, {"runs", runs}};
}

}  // namespace llmsizer_probe
