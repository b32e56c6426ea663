// SPDX-License-Identifier: MIT
#include "llmsizer/machine.hpp"

#include <algorithm>

namespace llmsizer {

HardwareSpec machine_hardware(const MachineSpec& m, const HardwareSpec* base) {
  HardwareSpec h = base != nullptr ? *base : HardwareSpec{};
  h.is_machine = true;
  h.id = "my-machine";
  if (base == nullptr) {
    h.name.clear();
    h.source = "request machine";
  }
  h.memory_options_bytes.clear();
  h.host_memory_bytes = m.ram_bytes;
  h.gpu_memory_limit_bytes = 0;
  h.unsupported = Message();
  const bool base_is_cpu = base != nullptr && base->is_cpu();
  if (m.unified_memory) {
    // One GPU sharing the RAM: the device's memory is the RAM, its bandwidth the RAM's.
    if (h.kind != HardwareKind::laptop) h.kind = HardwareKind::gpu;
    h.unified_memory = true;
    h.drives_display = false;
    h.ecc_carveout = false;
    h.device_count = 1;
    h.device_memory_bytes = m.ram_bytes;
    h.memory_options_bytes = {m.ram_bytes};
    h.gpu_memory_limit_bytes = m.gpu_memory_limit_bytes;
    if (base_is_cpu) {
      // An APU taken from its CPU entry (Ryzen AI Max+ 395): the GPU reads the same memory; its
      // own compute is not in the CPU's entry.
      h.memory_bandwidth_gb_per_s = base->host_bandwidth_gb_per_s;
      h.matrix_tflops = 0;
      h.fp32_tflops = 0;
    }
    h.host_bandwidth_gb_per_s = h.memory_bandwidth_gb_per_s;
  } else if (m.gpus > 0 && m.vram_bytes > 0) {
    if (h.kind != HardwareKind::laptop) h.kind = HardwareKind::gpu;
    h.unified_memory = false;
    h.device_count = m.gpus;
    h.device_memory_bytes = m.vram_bytes;
    h.drives_display = m.display;
    if (base_is_cpu || base == nullptr) {
      // The GPU is not named: its speed is unknown; the CPU's figures stay for the host side.
      h.memory_bandwidth_gb_per_s = 0;
      h.matrix_tflops = 0;
      h.fp32_tflops = 0;
      h.measured_bandwidth_gb_per_s = 0;
      h.measured_tflops = 0;
    }
  } else {
    // CPU only: the model in RAM.
    const bool had_host_figures = base_is_cpu || (base != nullptr && base->host_bandwidth_gb_per_s > 0);
    h.kind = HardwareKind::cpu;
    h.unified_memory = false;
    h.drives_display = false;
    h.device_count = 0;
    h.device_memory_bytes = 0;
    if (!had_host_figures) h.host_bandwidth_gb_per_s = 0;
    if (!base_is_cpu) {
      // A GPU's entry says nothing measured about its host CPU.
      h.measured_bandwidth_gb_per_s = 0;
      h.measured_tflops = 0;
    }
  }
  return h;
}

std::vector<Message> memory_assumptions(const MemoryAssumptionInputs& in) {
  std::vector<Message> out;
  if (in.hardware != nullptr) {
    const HardwareSpec& hw = *in.hardware;
    std::vector<std::int64_t> options = hw.memory_options_bytes;
    std::sort(options.begin(), options.end());
    if (!hw.is_machine && options.size() > 1) {
      out.push_back(Message("assumption.smallest_configuration").memory_size("memory", in.memory_option_bytes)
                        .memory_size("smallest", options.front()).memory_size("largest", options.back()));
    }
    if (hw.unified_memory) {
      const std::int64_t ram = in.memory_option_bytes > 0 ? in.memory_option_bytes : hw.device_memory_bytes;
      const std::int64_t usable = usable_device_bytes(hw, ram);
      if (hw.gpu_memory_limit_bytes > 0) {
        out.push_back(Message("assumption.gpu_limit_set").bytes("usable", usable).memory_size("memory", ram));
      } else if (is_apple(hw)) {
        out.push_back(Message(apple_gpu_working_set_fraction(ram) < 0.7 ? "assumption.apple_share_two_thirds" : "assumption.apple_share_three_quarters")
                          .bytes("usable", usable).memory_size("memory", ram));
      } else {
        out.push_back(Message("assumption.amd_share_half").bytes("usable", usable).memory_size("memory", ram));
      }
    } else if (!hw.is_cpu()) {
      if (hw.cuda_total_bytes > 0) {
        out.push_back(Message("assumption.cuda_total").bytes("cuda_total", hw.cuda_total_bytes).bytes("reserved", hw.device_memory_bytes - hw.cuda_total_bytes));
      } else if (hw.ecc_carveout) {
        out.push_back(Message("assumption.ecc_carveout").bytes("carveout", hw.device_memory_bytes / 16));
      }
      if (hw.drives_display) out.push_back(Message("assumption.display_reserve").bytes("reserve", kDisplayReserveBytes));
      if (in.overhead_bytes > 0) out.push_back(Message("assumption.runtime_overhead").bytes("overhead", in.overhead_bytes));
    }
    if (in.host_memory_used && !hw.unified_memory) {
      const std::int64_t ram = hw.host_memory_bytes > 0 ? hw.host_memory_bytes : kAssumedHostRamBytes;
      out.push_back(Message("assumption.os_reserve").bytes("reserve", kOsReserveBytes).bytes("ram", ram));
      // The catalog gives no RAM for a card or a laptop (nor for some instances): it is assumed.
      const bool ram_unknown = hw.kind == HardwareKind::gpu || hw.kind == HardwareKind::laptop || hw.host_memory_bytes <= 0;
      if (!hw.is_cpu() && !hw.is_machine && ram_unknown) out.push_back(Message("assumption.host_ram_assumed").bytes("ram", ram));
    }
  }
  out.push_back(Message("assumption.margin").bytes("margin", fit_margin_bytes(in.usable_bytes)).bytes("floor", kFitMarginFloorBytes)
                    .integer("percent", static_cast<std::int64_t>(kFitMarginFraction * 100 + 0.5)));
  return out;
}

}  // namespace llmsizer
