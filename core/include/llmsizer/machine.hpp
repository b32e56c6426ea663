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
};

/** The machine as hardware: the base's bandwidth, compute and price (none without a base: its
 *  speed is then unknown) with the machine's own memory and GPU count. The result's memory
 *  options hold only its RAM, so the fit uses what the person has. */
HardwareSpec machine_hardware(const MachineSpec& machine, const HardwareSpec* base);

/// What an answer assumed about memory, to say beside its fit.
struct MemoryAssumptionInputs {
  const HardwareSpec* hardware = nullptr;  ///< nullptr: a budget
  const FitResult* fit = nullptr;          ///< inference on the hardware (placement, option, offload)
  std::int64_t usable_bytes = 0;           ///< what the fit compared with
  std::int64_t overhead_bytes = 0;         ///< the estimate's runtime part (CUDA context, engine buffers)
  std::int64_t memory_option_bytes = 0;    ///< unified: the configuration used
  bool host_memory_used = false;           ///< the model (or part of it) sits in RAM
};

/** The rules applied, one sentence each: the memory configuration assumed for a laptop named
 *  without its memory, the GPU's share of unified memory, the display reserve, the ECC carve-out,
 *  the RAM kept for the operating system, the runtime's own memory, and the margin below which
 *  a fit is tight. */
std::vector<Message> memory_assumptions(const MemoryAssumptionInputs& in);

}  // namespace llmsizer
