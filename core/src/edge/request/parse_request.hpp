// SPDX-License-Identifier: MIT
#pragma once
// JSON request text → the typed Request (request.hpp). The only code that reads a request or raises
// a field error (InputError): fields are read in one fixed order, and the first bad one is named.
#include <string>

#include <nlohmann/json_fwd.hpp>

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

/** The members only a serving or a training request has, read after the common ones, and an
 *  inference request's `also_loaded` (the models kept loaded beside its own). A program that answers
 *  one model's inference alone reads with none of them (api.hpp: estimate_inference), so that its
 *  linker leaves out the readers and everything only they reach: the page's module (wasm/bindings.cpp). */
struct TaskReaders {
  void (*serve)(const nlohmann::json& body, const Catalog& catalog, Request& r, Api api) = nullptr;
  void (*training)(const nlohmann::json& body, const Catalog& catalog, Request& r, Api api) = nullptr;
  void (*also_loaded)(const nlohmann::json& body, const Catalog& catalog, Request& r) = nullptr;
};
/// Every reader (parse_request's own).
extern const TaskReaders kEveryTaskReader;

/// parse_request with `readers` for the tasks other than inference and for `also_loaded`; a task whose
/// reader is null is refused, naming `task`, and a listed `also_loaded` without its reader, naming it.
Request parse_request(const std::string& text, const Catalog& catalog, Api api, const TaskReaders& readers);

}  // namespace llmsizer::edge
