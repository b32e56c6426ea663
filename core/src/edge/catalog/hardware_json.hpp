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

/// The string at `d[key]`, or "" when absent or not a string.
std::string json_string(const nlohmann::json& d, const char* key);

/** Parses one hardware document: a catalog file or a request's inline object (same fields, see
 *  data/hardware/README.md). `gpus` resolves an instance's or laptop's `gpu_id`. Throws
 *  InputError naming `field + ".<key>"` for a missing or out-of-range field. */
HardwareSpec hardware_from_json(const nlohmann::json& doc, const std::string& field, const std::vector<HardwareSpec>& gpus);

/// Hardware entries built from one data/measured probe document (CPU and CUDA summaries).
std::vector<HardwareSpec> hardware_from_probe(const nlohmann::json& doc);

}  // namespace llmsizer
