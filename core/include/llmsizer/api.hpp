// SPDX-License-Identifier: MIT
#pragma once
/// The JSON edge (../shared/contract.md): one JSON request in, one JSON response out. The CLI and
/// the WASM module both call these, so their output is byte-identical by construction. None of
/// them throws: a bad request returns {"error": {"field": ..., "message": ...}}.
#include <cstddef>
#include <string>
#include <string_view>

namespace llmsizer {

/// Memory (and, with `hardware`, fit and speed) for one request.
std::string estimate(const std::string& request_json);
struct SpeedCalibration;  // speed_calibration.hpp
/** The same with the speed model's table-read constants replaced by `calibration` (validate.cpp:
 *  a speed source's rows estimated without the values read from them). No request field does this. */
std::string estimate(const std::string& request_json, const SpeedCalibration& calibration);
/// Every catalog option for a request, ranked (contract: Recommendation).
std::string recommend(const std::string& request_json);
class Catalog;  // catalog.hpp
/// The same against `catalog` instead of the compiled-in one (bench/: the catalog grown ten-fold).
std::string recommend(const std::string& request_json, const Catalog& catalog);
/** Everything the page shows for one edit, in one call: {"estimate": request, "chart": [request,
 *  ...], "formats": [request, ...], "recommend": request} (each member but `estimate` optional)
 *  answers {"schema_version": 1, "estimate": estimate(its request), "chart": [...], "formats":
 *  [...], "recommend": recommend(its request) or null}. The estimate is byte for byte estimate's.
 *  The chart's points and the formats' rows are read for their bytes and verdict only: each is
 *  estimate's answer without the searches and fixes that estimate the request again many times
 *  (fit.max_context and fit.max_batch null, no fixes), and without the members the estimate shows
 *  once (model, settings, weights_detail, llama_cpp, ollama, warnings, explain), which would be
 *  written, passed to the page and parsed again for every row at every edit. Each part's error is
 *  that part's answer. */
std::string page_answer(const std::string& request_json);

/** estimate, recommend and page_answer for task inference alone: the same bytes for an inference
 *  request, and a request for another task refused, naming `task`. The page's module exports these
 *  (wasm/bindings.cpp), so that its linker leaves serving's and training's code out; the module the
 *  page loads when Serve or Train is chosen (wasm/bindings_tasks.cpp) exports the three above. */
std::string estimate_inference(const std::string& request_json);
std::string recommend_inference(const std::string& request_json);
std::string page_answer_inference(const std::string& request_json);
/// The model presets: {"schema_version": 1, "models": [...]}.
std::string list_models();
/// The hardware catalog: {"schema_version": 1, "hardware": [...]}.
std::string list_hardware();
/// The formats, engines and options the request accepts (for the page's menus).
std::string list_options();
/// Every message the core can say, as {"schema_version": 1, "messages": {id: English template}}:
/// the page's English string table for messages (web/i18n/messages.en.json is this, checked by a test).
std::string list_messages();

/** The summary of a model file from its first bytes (GGUF, safetensors, a safetensors index or a
 *  config.json): architecture, exact parameter count and weight bytes, or an error whose
 *  `needed_bytes` says how many leading bytes to read before calling again. `file_size_bytes`: the
 *  whole file's size, or -1. The page passes a File.slice() as raw bytes; nothing else of the file
 *  is read. The answer also holds `request_model` (put it in a request's "model" to estimate this
 *  file: exact parameter count and stored bytes), `resolved_model` (that model as an estimate's
 *  "model" describes it, with its features) and `warnings`. */
std::string inspect_model_file(std::string_view leading_bytes, double file_size_bytes);

/** Which files of a model repository make up its model, and which to read (the CLI's `--hf` and
 *  the page's "Load from Hugging Face" do the reading; nothing here does I/O). `listing_json`: the
 *  repository's file listing as the Hugging Face Hub answers `GET /api/models/{id}?blobs=true`
 *  (`id`, `sha`, `gated`, `siblings` [{"rfilename", "size", "lfs": {"size"}}]); `chosen_file`: a
 *  .gguf or .safetensors file of it, or empty for the usual choice (the safetensors weights, else
 *  the Q4_K_M GGUF, else the smallest GGUF whose format is known). Answers
 *  {"id", "revision", "gated", "kind": "safetensors"|"safetensors-sharded"|"gguf"|"config",
 *   "config": "config.json"|null (read it whole), "index": the shard index|null (read it whole; its
 *   `shards`, from inspect_model_file, are the headers to read), "read": [files whose headers to
 *   read], "chosen", "gguf": [{"file", "parts", "size_bytes", "quant", "weights"}] (every GGUF
 *   quantization, smallest first; `weights` is the request format its name gives, or null),
 *   "safetensors": [root .safetensors files], "sizes": {file: bytes}} or an error. */
std::string plan_repository(const std::string& listing_json, const std::string& chosen_file);

/** The model those files give: `parts_json` = {"name": "org/model", "config": config.json|null,
 *  "files": [inspect_model_file's answer for each header read, in order]}. Sums the exact counts
 *  and bytes over shards or split parts; the config.json, when given, is the architecture. Answers
 *  as inspect_model_file does (`request_model`, `resolved_model`, `warnings`, `parameter_count`,
 *  `weight_bytes`, plus `files`: how many headers), or an error. */
std::string describe_repository_model(const std::string& parts_json);

/** Reads a small quantized GGUF header through inspect_model_file, the whole of a dropped file's path
 *  (its metadata, a vocabulary walked string by string, tensor infos, then the answer's summary and
 *  model, and a prefix too short for it: the error asking for more bytes), `rounds` times, and returns
 *  whether each was answered as a real file's would be. The page calls it while it waits for a
 *  person's drop (its module loaded when a file is dragged over the page or its file input is
 *  reached: lib/model_files.js), so that the engine has compiled that path, and optimized its loops,
 *  before the first real file: a first read in a module that has run none of it takes several times
 *  its later reads (bench/results/history.md has the measurements that set the header's shape and
 *  kModelFileReaderWarmUpRounds). The page runs one round per task, so that no task holds its main
 *  thread for long. Its header: a 28-layer qwen2 of width 256 with the tensors of a real one
 *  (q/k/v biases included) in Q4_K (ggml: 144 bytes per 256 weights) with F32 norms and biases, and
 *  a 2,000-token vocabulary, 47 KB. */
bool warm_up_model_file_reader(int rounds);
/// The rounds of warm_up_model_file_reader after which the engine runs a first real file's read in
/// its optimized code (bench/results/history.md has the measurements that chose it).
constexpr int kModelFileReaderWarmUpRounds = 10;
/// Memory the warm-up writes once for a first read's bytes and answer: a page of memory the module
/// grows into is given its first use by the system when it is first written, and a first read of a
/// multi-megabyte GGUF header grows the module's memory by more than twice the header (the held
/// bytes' room doubling with the page's reads, then the answer). 16 MiB covers the largest headers
/// the benchmark reads (bench/results/history.md).
constexpr std::size_t kModelFileReaderWarmUpRoomBytes = std::size_t{16} << 20;
/// The page's warm-up steps (the files module's warmUp): the reader's rounds, then the memory.
constexpr int kModelFileReaderWarmUpSteps = kModelFileReaderWarmUpRounds + 1;

/// True when `response_json` is an error response (the CLI maps it to exit code 2).
bool is_error_response(const std::string& response_json);

}  // namespace llmsizer
