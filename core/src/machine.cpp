// SPDX-License-Identifier: MIT
#include "llmsizer/machine.hpp"

#include <algorithm>

namespace llmsizer {

namespace {

/** The device of `catalog` a machine of its class is taken as: among the entries `wanted` keeps,
 *  those whose memory is nearest (`distance`, twice the difference plus 1 when larger, so that the
 *  smaller wins a tie), and of those the one with the median bandwidth (the lower of two). */
template <class Wanted, class Distance>
const HardwareSpec* typical_device(const std::vector<HardwareSpec>& catalog, Wanted wanted, Distance distance) {
  std::vector<const HardwareSpec*> nearest;
  std::int64_t best = 0;
  for (const HardwareSpec& h : catalog) {
    if (!wanted(h)) continue;
    const std::int64_t d = distance(h);
    if (nearest.empty() || d < best) {
      nearest.clear();
      best = d;
    }
    if (d == best) nearest.push_back(&h);
  }
  if (nearest.empty()) return nullptr;
  std::sort(nearest.begin(), nearest.end(), [](const HardwareSpec* a, const HardwareSpec* b) {
    return a->memory_bandwidth_gb_per_s != b->memory_bandwidth_gb_per_s ? a->memory_bandwidth_gb_per_s < b->memory_bandwidth_gb_per_s : a->id < b->id;
  });
  return nearest[(nearest.size() - 1) / 2];
}

std::int64_t memory_distance(std::int64_t have, std::int64_t want) {
  return have >= want ? 2 * (have - want) + (have > want ? 1 : 0) : 2 * (want - have);
}

/// A GPU a person has in a desktop or workstation: the catalog's consumer and workstation cards.
bool personal_gpu(const HardwareSpec& h) {
  return h.kind == HardwareKind::gpu && !h.unified_memory && (h.segment == "consumer" || h.segment == "workstation");
}

/// An Apple chip (its memory configurations are the Macs it ships in).
bool apple_chip(const HardwareSpec& h) { return h.kind == HardwareKind::gpu && h.unified_memory && is_apple(h); }

std::int64_t nearest_option_distance(const HardwareSpec& h, std::int64_t want) {
  std::int64_t best = memory_distance(h.device_memory_bytes, want);
  for (std::int64_t option : h.memory_options_bytes) best = std::min(best, memory_distance(option, want));
  return best;
}

void take_typical_host(HardwareSpec& h) {
  h.host_bandwidth_gb_per_s = kTypicalPcBandwidthGbPerS;
  h.host_tflops = kTypicalPcTflops;
  h.cpu_cores = kTypicalPcCores;
  h.avx512 = false;
  h.amx = false;
}

/// The accelerator's speed figures of `from` (not its memory, which is the person's).
void take_gpu_figures(HardwareSpec& h, const HardwareSpec& from) {
  copy_accelerator_figures(h, from);
  h.measured_bandwidth_gb_per_s = 0;
  h.measured_tflops = 0;
}

Message typical_basis(const char* id, const HardwareSpec& like, std::int64_t memory_bytes) {
  return Message(id).text("name", like.name).memory_size("memory", memory_bytes).decimal("bandwidth", like.memory_bandwidth_gb_per_s, 1);
}

}  // namespace

HardwareSpec machine_hardware(const MachineSpec& m, const HardwareSpec* base, const std::vector<HardwareSpec>& catalog) {
  HardwareSpec h = base != nullptr ? *base : HardwareSpec{};
  h.is_machine = true;
  h.id = "my-machine";
  h.os = m.os;
  if (base == nullptr) {
    h.name.clear();
    h.source = "request machine";
  }
  h.memory_options_bytes.clear();
  h.memory_option_prices_usd.clear();
  h.host_memory_bytes = m.ram_bytes;
  h.gpu_memory_limit_bytes = 0;
  h.unsupported = Message();
  h.speed_basis = base != nullptr ? Message("speed.basis.base").text("name", base->name) : Message();
  const bool base_is_cpu = base != nullptr && base->is_cpu();
  // macOS runs on Apple silicon only; Linux and Windows on a unified-memory PC mean an AMD APU.
  const bool apple = m.os == OperatingSystem::macos ||
                     (m.os == OperatingSystem::unspecified && (base == nullptr ? m.unified_memory : is_apple(*base)));
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
    if (apple) {
      h.vendor = "Apple";
      h.segment = "apple-silicon";
    } else if (is_apple(h)) {
      h.vendor = "AMD";
      h.segment = "laptop";
    }
    if (base_is_cpu) {
      // An APU taken from its CPU entry (Ryzen AI Max+ 395): the GPU reads the same memory; its
      // own compute is not in the CPU's entry.
      h.memory_bandwidth_gb_per_s = base->host_bandwidth_gb_per_s;
      h.matrix_tflops = 0;
      h.fp32_tflops = 0;
    } else if (base == nullptr) {
      const HardwareSpec* like = apple ? typical_device(catalog, apple_chip, [&](const HardwareSpec& c) { return nearest_option_distance(c, m.ram_bytes); })
                                       : nullptr;
      if (like != nullptr) {
        take_gpu_figures(h, *like);
        h.cpu_cores = like->cpu_cores;
        h.host_tflops = like->host_tflops;
        // A chip's entry gives no power: a Mac with it draws what its adapter supplies (the laptop's).
        for (const HardwareSpec& mac : catalog) {
          if (mac.kind == HardwareKind::laptop && mac.gpu_id == like->id && mac.power_w > 0) {
            h.power_w = mac.power_w;
            break;
          }
        }
        h.speed_basis = typical_basis("speed.basis.typical_mac", *like, m.ram_bytes);
      } else {
        // An AMD APU with its memory only: the GPU reads a typical PC's RAM; its compute is not known.
        take_typical_host(h);
        h.memory_bandwidth_gb_per_s = kTypicalPcBandwidthGbPerS;
        h.speed_basis = Message("speed.basis.typical_pc").decimal("bandwidth", kTypicalPcBandwidthGbPerS, 1);
      }
    }
    h.host_bandwidth_gb_per_s = h.memory_bandwidth_gb_per_s;
  } else if (m.gpus > 0 && m.vram_bytes > 0) {
    if (h.kind != HardwareKind::laptop) h.kind = HardwareKind::gpu;
    h.unified_memory = false;
    h.device_count = m.gpus;
    h.device_memory_bytes = m.vram_bytes;
    h.drives_display = m.display;
    if (base_is_cpu || base == nullptr || base->is_cpu() || base->unified_memory) {
      // The GPU is not named: a typical card with this much memory; the CPU's figures (a named
      // CPU's, else a typical PC's) stay for the host side.
      const HardwareSpec* like = typical_device(catalog, personal_gpu, [&](const HardwareSpec& c) { return memory_distance(c.device_memory_bytes, m.vram_bytes); });
      if (base == nullptr || base->unified_memory) take_typical_host(h);
      h.unified_memory = false;
      if (like != nullptr) {
        take_gpu_figures(h, *like);
        h.speed_basis = typical_basis("speed.basis.typical_gpu", *like, m.vram_bytes);
      } else {
        take_gpu_figures(h, HardwareSpec{});
        h.speed_basis = Message();
      }
      h.price_usd = 0;
    }
  } else {
    // CPU only: the model in RAM.
    h.kind = HardwareKind::cpu;
    h.unified_memory = false;
    h.drives_display = false;
    h.device_count = 0;
    h.device_memory_bytes = 0;
    // A CPU entry's or an Apple laptop's host figures are its own; a card's entry carries only an
    // assumed host, and no base none: a typical PC's.
    const bool own_host_figures = base_is_cpu || (base != nullptr && base->kind == HardwareKind::laptop && base->unified_memory);
    if (!own_host_figures) {
      take_typical_host(h);
      h.speed_basis = Message("speed.basis.typical_pc").decimal("bandwidth", kTypicalPcBandwidthGbPerS, 1);
    }
    if (!base_is_cpu) {
      // A GPU's entry says nothing measured about its host CPU.
      h.measured_bandwidth_gb_per_s = 0;
      h.measured_tflops = 0;
    }
  }
  return h;
}

std::optional<HardwareSpec> own_cpu(const HardwareSpec& device) {
  if (device.is_cpu() || !(device.kind == HardwareKind::laptop || device.unified_memory || device.is_machine)) return std::nullopt;
  HardwareSpec cpu = device;
  cpu.id = kOwnCpuId;
  cpu.kind = HardwareKind::cpu;
  cpu.device_count = 0;
  cpu.device_memory_bytes = 0;
  cpu.unified_memory = false;
  cpu.measured_bandwidth_gb_per_s = 0;
  cpu.measured_tflops = 0;
  cpu.host_memory_bytes = device.unified_memory ? device.device_memory_bytes : device.host_memory_bytes;
  // An Apple chip's own cores read its unified memory; any other laptop's CPU is not in the catalog.
  if (!(device.unified_memory && is_apple(device))) take_typical_host(cpu);
  return cpu;
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
      } else if (hw.cuda_total_bytes > 0 && ram == hw.device_memory_bytes) {
        out.push_back(Message("assumption.nvidia_unified").bytes("cuda_total", hw.cuda_total_bytes).bytes("reserve", kOsReserveBytes)
                          .bytes("usable", usable).memory_size("memory", ram));
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
      // NVIDIA's Windows driver from 536.40 on falls back to shared system memory when the GPU's
      // runs out ("CUDA - Sysmem Fallback Policy", NVIDIA support article 5490).
      if (hw.is_machine && hw.os == OperatingSystem::windows) out.push_back(Message("assumption.windows_sysmem_fallback"));
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
