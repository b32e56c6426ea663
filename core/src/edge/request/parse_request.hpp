// SPDX-License-Identifier: MIT
#pragma once
// JSON request text → the typed Request (request.hpp). The only code that reads a request or raises
// a field error (InputError): fields are read in one fixed order, and the first bad one is named.
#include <string>

#include "llmsizer/catalog.hpp"
#include "llmsizer/request.hpp"

namespace llmsizer::edge {

/// Which entry point reads the request: `recommend` also reads `goal` and `cost` and refuses
/// training; `estimate` reads `hardware` (then `cost`, `enforce_eager`, `cpu`).
enum class Api { estimate, recommend };

/// The reference CPU for "CPU or GPU" when the request names none: a 16-core desktop with
/// dual-channel DDR5 (catalog). listOptions' defaults name it, so the page's menu starts on it.
constexpr const char* kReferenceCpu = "amd-ryzen-9-7950x";

/** Reads `text`, resolves ids against `catalog` and every default once. Throws InputError naming
 *  the field (the first bad one in reading order: model, task, weights, group_size, kv_cache,
 *  engine, input_tokens, output_tokens, batch, gpus, flash_attention, engine_version, then for
 *  inference hardware, cost, gpus on an instance, enforce_eager, cpu; for training the `training`
 *  fields, hardware, the LoRA targets; for recommend the task, goal, cost). */
Request parse_request(const std::string& text, const Catalog& catalog, Api api);

}  // namespace llmsizer::edge
