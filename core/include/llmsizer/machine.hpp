// SPDX-License-Identifier: MIT
#pragma once
/// "My machine": the memory a person's own computer has (RAM, GPU memory per GPU, number of GPUs,
/// unified memory), typed or taken from a catalog entry and then edited, as hardware the fit can
/// use; and the memory rules the fit applies to any hardware, in words (what it assumed).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmsizer/hardware.hpp"
#include "llmsizer/message.hpp"

namespace llmsizer {

/// Request `machine`. Byte counts are exact: the page converts "16 GB" or "16 GiB" as typed.
struct MachineSpec {
  std::string base;                       ///< catalog id whose speed figures are used ("": none)
  std::int64_t ram_bytes = 0;             ///< system RAM; with unified memory, all of it
  std::int64_t vram_bytes = 0;            ///< memory of each discrete GPU (0: none)
  int gpus = 0;                           ///< discrete GPUs (unified memory: its one GPU)
  bool unified_memory = false;            ///< Apple silicon, AMD Strix Halo: the GPU uses the RAM
  std::int64_t gpu_memory_limit_bytes = 0;  ///< unified: the GPU's limit if raised (0: the OS default)
  bool display = true;                    ///< the (first) GPU also draws the desktop
  /// macOS, Windows or Linux. Unified memory with no OS and no base is taken as a Mac: Apple
  /// silicon is the unified-memory machine people own (an AMD APU says linux or windows).
  OperatingSystem os = OperatingSystem::unspecified;
};

/** A typical PC's host, for a machine whose CPU is not named: the assumed dual-channel DDR5 host
 *  (kAssumedHostBandwidthGbPerS, 83.2 GB/s) with 8 cores with AVX2 (a mainstream laptop chip: Ryzen 7
 *  7840U has 8 cores, amd.com product page): cpu_tflops(8) = 8 × 3.0e9 × 32 FP32 FLOPs per cycle =
 *  0.768 TFLOPS. */
constexpr double kTypicalPcBandwidthGbPerS = kAssumedHostBandwidthGbPerS;
constexpr int kTypicalPcCores = 8;
constexpr double kTypicalPcTflops = cpu_tflops(kTypicalPcCores, false, false);

/** The machine as hardware: its own memory and GPU count with the speed figures of
 *  - its base (a catalog entry the person said it is like), else
 *  - a typical device of its class from `catalog`: the GPU (or the Apple chip, or the AMD APU)
 *    with its memory per GPU (nearest size when none has it exactly) whose bandwidth is the
 *    median of those (the lower of two), and for the host a typical PC (kTypicalPcBandwidthGbPerS).
 *  `speed_basis` says which. The result's memory options hold only its RAM, so the fit uses what
 *  the person has. */
HardwareSpec machine_hardware(const MachineSpec& machine, const HardwareSpec* base, const std::vector<HardwareSpec>& catalog);

/// Id of a device's own CPU (own_cpu) in an answer's `cpu_vs_gpu.cpu`.
constexpr const char* kOwnCpuId = "own-cpu";

/** The CPU a laptop, a Mac or my machine carries, to answer "CPU or GPU" with instead of a desktop
 *  CPU from the catalog: a Mac's (or an Apple-based machine's) chip cores reading its unified memory
 *  (the entry's host figures); any other laptop or machine a typical PC's (kTypicalPcBandwidthGbPerS:
 *  the catalog gives no laptop's CPU). Null for a device that has none of its own (a card, an
 *  instance): the request's reference CPU is used there. */
std::optional<HardwareSpec> own_cpu(const HardwareSpec& device);

/// What an answer assumed about memory, to say beside its fit.
struct MemoryAssumptionInputs {
  const HardwareSpec* hardware = nullptr;  ///< nullptr: a budget
  const FitResult* fit = nullptr;          ///< inference on the hardware (placement, option, offload)
  std::int64_t usable_bytes = 0;           ///< what the fit compared with
  std::int64_t overhead_bytes = 0;         ///< the estimate's runtime part (CUDA context, engine buffers)
  std::int64_t memory_option_bytes = 0;    ///< unified: the configuration used
  bool host_memory_used = false;           ///< the model (or part of it) sits in RAM
  bool offloaded = false;                  ///< layers run from RAM (partial offload)
};

/** The rules applied, one sentence each: the memory configuration assumed for a laptop named
 *  without its memory, the GPU's share of unified memory, the display reserve, the ECC carve-out,
 *  the RAM kept for the operating system, the runtime's own memory, and the margin below which
 *  a fit is tight. */
std::vector<Message> memory_assumptions(const MemoryAssumptionInputs& in);

}  // namespace llmsizer
