// SPDX-License-Identifier: MIT
#pragma once
/// The compiled-in data (data/models, data/hardware, data/measured) as the estimator's Catalog, and
/// the hardware lookups the CLI, the tests and the benchmarks use. Part of the JSON edge: the data
/// files are JSON, parsed here.
#include <optional>
#include <string_view>
#include <vector>

#include "llmsizer/catalog.hpp"
#include "llmsizer/hardware.hpp"

namespace llmsizer {

/// The catalog over the compiled-in data files. Immutable; one instance for the process.
const Catalog& embedded_catalog();

/** Every catalog entry (data/hardware) and every measured probe file (data/measured, named
 *  "measured: <name>"), parsed from the compiled-in JSON on first use into a function-local
 *  `static const` vector (embedded_catalog.cpp): the data are immutable, so parsing once is
 *  deterministic and thread-safe (C++11 magic statics), and a whole-catalog recommendation stays
 *  well under a millisecond. */
const std::vector<HardwareSpec>& hardware_catalog();

/// The catalog entry `id` (case-insensitive), or nullptr.
const HardwareSpec* find_hardware(std::string_view id);

/** The catalog entry `id` (case-insensitive), equal to find_hardware's, made from its own data file
 *  (and its GPU's, for an instance or laptop) without parsing the whole catalog: what one request
 *  naming one device needs. In the browser the whole catalog's first parse took tens of
 *  milliseconds before the first answer could be drawn. Probe entries ("measured: ...") come from
 *  the catalog. */
std::optional<HardwareSpec> hardware_entry(std::string_view id);

/** The catalog's cloud instances whose GPU is `gpu_id` (as hardware_catalog() has them), read from
 *  their own data files: what the buy-or-rent break-even of one owned GPU needs. */
std::vector<HardwareSpec> instances_with_gpu(std::string_view gpu_id);

/** Entries made from one llmsizer-probe document (data/measured/<id>.json, its `summary.cpu` and
 *  `summary.cuda`): named "measured: <name>", with the measured bandwidth and matrix throughput
 *  used as they are (no efficiency factor on top). */
std::vector<HardwareSpec> hardware_from_probe_text(std::string_view probe_json);

}  // namespace llmsizer
