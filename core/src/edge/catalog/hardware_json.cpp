// SPDX-License-Identifier: MIT
#include "catalog/hardware_json.hpp"

#include <algorithm>
#include <cctype>

#include "llmsizer/error.hpp"
#include "llmsizer/throughput.hpp"

namespace llmsizer {
namespace {

using nlohmann::json;

double num(const json& d, const char* key, double fallback = 0.0) {
  const auto it = d.find(key);
  return it != d.end() && it->is_number() ? it->get<double>() : fallback;
}
std::int64_t bytes(const json& d, const char* key) {
  const auto it = d.find(key);
  return it != d.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}
bool flag(const json& d, const char* key) {
  const auto it = d.find(key);
  return it != d.end() && it->is_boolean() && it->get<bool>();
}

/// `quantity`: the term naming what the number is ("quantity.gb_per_s": GB/s).
void need_positive(double value, const std::string& field, const char* quantity) {
  if (!(value > 0)) throw InputError(field, Message("error.hardware.positive").term("quantity", quantity));
}

void copy_gpu_facts(HardwareSpec& h, const HardwareSpec& gpu) {
  const double own_bandwidth = h.memory_bandwidth_gb_per_s;  // a laptop's own GPU memory bandwidth, when given
  copy_accelerator_figures(h, gpu);
  if (own_bandwidth > 0) h.memory_bandwidth_gb_per_s = own_bandwidth;
  h.ecc_carveout = gpu.ecc_carveout;
  if (h.device_memory_bytes == gpu.device_memory_bytes) h.cuda_total_bytes = gpu.cuda_total_bytes;
  if (gpu.unified_memory && gpu.cpu_cores > 0) {
    // An Apple laptop's CPU is its chip's.
    h.cpu_cores = gpu.cpu_cores;
    h.host_tflops = gpu.host_tflops;
  }
  h.measured_bandwidth_gb_per_s = gpu.measured_bandwidth_gb_per_s;
  h.measured_tflops = gpu.measured_tflops;
}

}  // namespace

std::string json_string(const json& d, const char* key) {
  const auto it = d.find(key);
  return it != d.end() && it->is_string() ? it->get<std::string>() : std::string();
}

HardwareSpec hardware_from_json(const json& d, const std::string& field, const std::vector<HardwareSpec>& gpus) {
  if (!d.is_object()) throw InputError(field, Message("error.hardware.not_an_object"));
  HardwareSpec h;
  h.id = json_string(d, "id");
  if (h.id.empty()) h.id = "custom";
  h.name = json_string(d, "name");
  if (h.name.empty()) h.name = h.id;
  h.vendor = json_string(d, "vendor");
  h.segment = json_string(d, "segment");
  h.source = json_string(d, "source");
  // Where a price comes from: a laptop's list price names its page; a card's or CPU's is its launch
  // MSRP (price_kind); an instance's, its pricing basis.
  h.price_source = json_string(d, "price_source");
  if (h.price_source.empty()) h.price_source = json_string(d, "price_kind");
  if (h.price_source.empty()) h.price_source = json_string(d, "price_basis");
  const std::string kind = json_string(d, "kind");
  const std::string memory_type = json_string(d, "memory_type");
  h.host_memory_bytes = kAssumedHostRamBytes;
  h.host_bandwidth_gb_per_s = kAssumedHostBandwidthGbPerS;
  h.host_tflops = cpu_tflops(kAssumedHostCores, true, false);
  if (kind == "gpu") {
    h.kind = HardwareKind::gpu;
    h.device_memory_bytes = bytes(d, "memory_bytes");
    h.cuda_total_bytes = bytes(d, "cuda_total_bytes");
    h.memory_bandwidth_gb_per_s = num(d, "memory_bandwidth_gb_per_s");
    h.fp32_tflops = num(d, "fp32_tflops");
    h.matrix_tflops = num(d, "fp16_tensor_tflops_dense");
    h.fp8_tflops = num(d, "fp8_tensor_tflops_dense");  // null: 0, not published or no FP8 units
    h.fp4_tflops = num(d, "fp4_tensor_tflops_dense");
    h.achievable_matrix_tflops = num(d, "max_achievable_tflops_bf16");
    h.achievable_fp8_tflops = num(d, "max_achievable_tflops_fp8");
    h.unified_memory = h.segment == "apple-silicon" || flag(d, "unified_memory");
    if (h.unified_memory) {
      h.matrix_tflops = unified_matrix_tflops(h.segment, h.matrix_tflops, h.fp32_tflops);
      if (d.contains("memory_options_bytes") && d["memory_options_bytes"].is_array()) {
        for (const auto& v : d["memory_options_bytes"]) h.memory_options_bytes.push_back(v.get<std::int64_t>());
      }
      h.host_memory_bytes = h.device_memory_bytes;
      h.host_bandwidth_gb_per_s = h.memory_bandwidth_gb_per_s;
      // The chip's own CPU cores (Apple tech specs; NEON: 4 × 128-bit FMA pipes per performance core,
      // the 32 FP32 FLOPs per cycle of the AVX2 estimate).
      h.cpu_cores = static_cast<int>(num(d, "cpu_cores"));
      if (h.cpu_cores > 0) h.host_tflops = cpu_tflops(h.cpu_cores, false, false);
    }
    h.drives_display = drives_display_by_segment(h.segment);
    h.ecc_carveout = ecc_carveout_by(h.segment, memory_type);
    const double pcie = num(d, "pcie_gb_per_s_bidir") / 2.0;
    const double nvlink = num(d, "nvlink_gb_per_s_bidir") / 2.0;
    h.pcie_gb_per_s = pcie;
    h.link_gb_per_s = std::max(pcie, nvlink);
    h.tdp_w = num(d, "tdp_w");
    h.price_usd = num(d, "price_usd");
    need_positive(static_cast<double>(h.device_memory_bytes), field + ".memory_bytes", "quantity.device_memory_bytes");
    need_positive(h.memory_bandwidth_gb_per_s, field + ".memory_bandwidth_gb_per_s", "quantity.gb_per_s");
  } else if (kind == "cpu") {
    h.kind = HardwareKind::cpu;
    h.device_count = 0;
    h.host_memory_bytes = bytes(d, "max_memory_bytes");
    if (h.host_memory_bytes == 0) h.host_memory_bytes = bytes(d, "ram_bytes");
    h.host_bandwidth_gb_per_s = num(d, "memory_bandwidth_gb_per_s");
    h.cpu_cores = static_cast<int>(num(d, "cores"));
    h.avx512 = flag(d, "avx512");
    h.amx = flag(d, "amx");
    h.host_tflops = cpu_tflops(h.cpu_cores, h.avx512, h.amx);
    h.tdp_w = num(d, "tdp_w");
    h.price_usd = num(d, "price_usd");
    need_positive(h.host_bandwidth_gb_per_s, field + ".memory_bandwidth_gb_per_s", "quantity.gb_per_s");
    need_positive(h.cpu_cores, field + ".cores", "quantity.cpu_cores");
    if (h.host_memory_bytes == 0) h.unsupported = Message("hardware.unsupported.ram_unknown");
  } else if (kind == "instance") {
    h.kind = HardwareKind::instance;
    h.segment = "cloud";
    h.device_count = static_cast<int>(num(d, "gpu_count", 1));
    h.device_memory_bytes = bytes(d, "gpu_memory_bytes");
    h.host_memory_bytes = bytes(d, "ram_bytes");
    h.price_usd_per_hour = num(d, "price_usd_per_hour");
    h.price_date = json_string(d, "price_date");
    h.gpu_id = json_string(d, "gpu_id");
    h.memory_bandwidth_gb_per_s = num(d, "memory_bandwidth_gb_per_s");
    const auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const HardwareSpec& g) { return g.id == h.gpu_id; });
    if (gpu != gpus.end()) copy_gpu_facts(h, *gpu);
    else if (h.memory_bandwidth_gb_per_s <= 0) h.unsupported = Message("hardware.unsupported.no_speed_figures").text("accelerator", json_string(d, "gpu_model"));
    if (neuron_only_accelerator(json_string(d, "gpu_model"))) h.unsupported = Message("hardware.unsupported.neuron");
    need_positive(static_cast<double>(h.device_memory_bytes), field + ".gpu_memory_bytes", "quantity.gpu_memory_per_gpu_bytes");
  } else if (kind == "laptop") {
    h.kind = HardwareKind::laptop;
    h.segment = "laptop";
    h.gpu_id = json_string(d, "gpu_id");
    h.memory_bandwidth_gb_per_s = num(d, "memory_bandwidth_gb_per_s");
    h.unified_memory = flag(d, "unified_memory");
    const auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const HardwareSpec& g) { return g.id == h.gpu_id; });
    if (gpu != gpus.end()) copy_gpu_facts(h, *gpu);
    if (h.unified_memory) {
      if (d.contains("memory_options_bytes") && d["memory_options_bytes"].is_array()) {
        for (const auto& v : d["memory_options_bytes"]) h.memory_options_bytes.push_back(v.get<std::int64_t>());
      }
      if (h.memory_options_bytes.empty()) throw InputError(field + ".memory_options_bytes", Message("error.hardware.memory_options"));
      h.device_memory_bytes = *std::max_element(h.memory_options_bytes.begin(), h.memory_options_bytes.end());
      h.host_memory_bytes = h.device_memory_bytes;
      h.host_bandwidth_gb_per_s = h.memory_bandwidth_gb_per_s;
      if (d.contains("price_usd_by_memory") && d["price_usd_by_memory"].is_array()) {
        for (const auto& v : d["price_usd_by_memory"]) h.memory_option_prices_usd.push_back(v.is_number() ? v.get<double>() : 0.0);
        if (h.memory_option_prices_usd.size() != h.memory_options_bytes.size()) {
          throw InputError(field + ".price_usd_by_memory", Message("error.hardware.memory_option_prices"));
        }
        h.price_usd = h.memory_option_prices_usd.front();
      }
    } else {
      // Laptop GPUs are different chips from the desktop parts of the same name; their compute
      // and power are OEM-configured and not catalogued (hardware-sources.md §4).
      h.device_memory_bytes = bytes(d, "gpu_memory_bytes");
      h.drives_display = true;
      h.price_usd = num(d, "price_usd");
    }
    h.power_w = num(d, "power_w");
    h.price_date = json_string(d, "price_date");
    need_positive(static_cast<double>(h.device_memory_bytes), field + ".gpu_memory_bytes", "quantity.gpu_memory_bytes");
    need_positive(h.memory_bandwidth_gb_per_s, field + ".memory_bandwidth_gb_per_s", "quantity.gb_per_s");
  } else {
    throw InputError(field + ".kind", Message("error.hardware.kind").text("kind", kind));
  }
  h.measured_bandwidth_gb_per_s = std::max(h.measured_bandwidth_gb_per_s, num(d, "measured_bandwidth_gb_per_s"));
  h.measured_tflops = std::max(h.measured_tflops, num(d, "measured_tflops"));
  return h;
}

std::vector<HardwareSpec> hardware_from_probe(const json& doc) {
  std::vector<HardwareSpec> out;
  const json summary = doc.value("summary", json::object());
  const std::string source = "measured by llmsizer-probe: data/measured/" + doc.value("id", std::string("?")) + ".json";
  const json cpu = summary.value("cpu", json::object());
  if (cpu.is_object() && num(cpu, "memory_bandwidth_gb_per_s") > 0) {
    HardwareSpec h;
    h.kind = HardwareKind::cpu;
    h.device_count = 0;
    h.id = "measured-" + doc.value("id", std::string("cpu"));
    h.name = "measured: " + json_string(cpu, "name");
    h.segment = "measured";
    h.host_memory_bytes = bytes(cpu, "memory_total_bytes");
    h.cpu_cores = static_cast<int>(num(cpu, "threads", 1));
    h.host_bandwidth_gb_per_s = num(cpu, "memory_bandwidth_gb_per_s") / kCpuBandwidthEfficiency;
    h.measured_bandwidth_gb_per_s = num(cpu, "memory_bandwidth_gb_per_s");
    const json mm = cpu.value("matmul_tflops", json::object());
    h.measured_tflops = std::max(num(mm, "bf16"), num(mm, "fp32"));
    h.host_tflops = h.measured_tflops;
    h.measured_source = source;
    h.source = source;
    out.push_back(h);
  }
  const json cuda = summary.value("cuda", json::object());
  if (cuda.is_object() && num(cuda, "memory_bandwidth_gb_per_s") > 0 && bytes(cuda, "memory_total_bytes") > 0) {
    HardwareSpec h;
    h.kind = HardwareKind::gpu;
    h.id = "measured-" + doc.value("id", std::string("gpu"));
    h.name = "measured: " + json_string(cuda, "name");
    h.segment = "measured";
    h.device_memory_bytes = bytes(cuda, "memory_total_bytes");
    h.memory_bandwidth_gb_per_s = num(cuda, "memory_bandwidth_gb_per_s");
    h.measured_bandwidth_gb_per_s = h.memory_bandwidth_gb_per_s;
    const json mm = cuda.value("matmul_tflops", json::object());
    h.measured_tflops = std::max(num(mm, "bf16"), num(mm, "fp16"));
    h.matrix_tflops = h.measured_tflops;
    const json h2d = cuda.value("host_to_device_gb_per_s", json::object());
    h.pcie_gb_per_s = num(h2d, "pinned");
    h.link_gb_per_s = h.pcie_gb_per_s;
    h.host_memory_bytes = kAssumedHostRamBytes;
    h.host_bandwidth_gb_per_s = kAssumedHostBandwidthGbPerS;
    h.host_tflops = cpu_tflops(kAssumedHostCores, true, false);
    h.measured_source = source;
    h.source = source;
    out.push_back(h);
  }
  return out;
}

}  // namespace llmsizer
