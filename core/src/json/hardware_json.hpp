// SPDX-License-Identifier: MIT
#pragma once
// The hardware catalog at the JSON edge: data/hardware/*.json (and data/measured probe files)
// parsed into HardwareSpec structs once, plus inline `hardware` objects of a request.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "llmsizer/hardware.hpp"

namespace llmsizer {

/// Dual-channel DDR5 desktop host assumed behind a desktop GPU or a Windows laptop for offloaded
/// layers: 83.2 GB/s (catalog amd-ryzen-9-7950x, DDR5-5200 × 2 channels × 8 B).
constexpr double kAssumedHostBandwidthGbPerS = 83.2;
/// All-core clock assumed for CPU compute (the catalog has no clocks): 3.0 GHz.
constexpr double kAssumedCpuClockGhz = 3.0;

/// The string at `d[key]`, or "" when absent or not a string.
std::string json_string(const nlohmann::json& d, const char* key);

/** Parses one hardware document: a catalog file or a request's inline object (same fields, see
 *  data/hardware/README.md). `gpus` resolves an instance's or laptop's `gpu_id`. Throws
 *  InputError naming `field + ".<key>"` for a missing or out-of-range field. */
HardwareSpec hardware_from_json(const nlohmann::json& doc, const std::string& field, const std::vector<HardwareSpec>& gpus);

/// Hardware entries built from one data/measured probe document (CPU and CUDA summaries).
std::vector<HardwareSpec> hardware_from_probe(const nlohmann::json& doc);

}  // namespace llmsizer
