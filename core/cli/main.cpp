// SPDX-License-Identifier: MIT
// llmsizer: the native command line. It only parses arguments, calls the JSON edge (api.hpp) and
// prints; every number comes from the core.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hub_client.hpp"
#include "llmsizer/api.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/header_read.hpp"
#include "llmsizer/validate.hpp"

namespace {

using nlohmann::ordered_json;

constexpr int kExitOk = 0;
constexpr int kExitBadRequest = 2;

const char* kUsage = R"(llmsizer — what it takes to run or train a large language model

usage:
  llmsizer estimate  [FILE|-] [--json] [--gib] [request flags]
  llmsizer recommend [FILE|-] [--json] [request flags]
  llmsizer page      [FILE|-]            (the page's call per edit, JSON: {"estimate": request,
                      "chart": [request...], "formats": [request...], "recommend": request})
  llmsizer inspect   MODEL_FILE          (GGUF, .safetensors, index or config.json: reads the header only)
  llmsizer inspect   --hf ID [--hf-file FILE]   (the same for a Hugging Face model, read over the network)
  llmsizer hf        ID [--hf-file FILE] [--json] [request flags]
                     (a Hugging Face model's files: each GGUF quantization with its size and
                      whether it fits the request's hardware; reads config.json and headers only)
  llmsizer models    [--json]
  llmsizer hardware  [--json]
  llmsizer options
  llmsizer messages                      (every message id with its English template, as JSON)
  llmsizer validate  [--json | --markdown] [--kind inference|training|file_size|speed|serving|serving_external]

FILE holds a JSON request (README: The request and response); '-' reads standard input. Flags build or
override the request instead:
  --model ID  --model-file PATH (a GGUF, .safetensors or config.json: only its header is read)
  --hf ID (a Hugging Face model such as meta-llama/Llama-3.1-8B: only its config.json and the
       header bytes of its weights are read, over HTTPS, nothing else is sent but the id and file
       names; a GGUF repository: --hf-file NAME.gguf, else its Q4_K_M file)
  --hf-file NAME  --hf-revision REV (default main)  --hf-endpoint URL (default: $HF_ENDPOINT, else
       https://huggingface.co)  --hf-token-env VAR (the variable holding a token for gated or
       private models; default HF_TOKEN; the token is sent to the endpoint only, never stored)
  --task inference|training  --weights FMT  --kv-cache FMT  --engine NAME
  --input N  --output N  --batch N  --gpus N  --hardware ID  --goal GOAL  --max-options N (recommend: list the best N)
  --engine-version V (the engine's release in its own numbering: 4.45, 0.6.0, v0.8.5; llama.cpp b6918)
  --method full|freeze|lora|qlora  --seq-len N  --micro-batch N  --checkpointing
Sizes print in GB (10^9 bytes); --gib prints GiB (2^30 bytes).
Exit status: 0 success, 2 bad request (one line on standard error; with --json the error JSON on
standard output).
)";

std::string read_all(std::istream& in) {
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct Options {
  std::string command;
  std::string file;
  bool json = false;
  bool gib = false;
  std::vector<std::pair<std::string, std::string>> flags;  // request flags, in order
  std::vector<std::string> switches;                       // flags without a value
};

bool is_switch(const std::string& name) { return name == "--checkpointing" || name == "--json" || name == "--gib" || name == "--markdown"; }

std::string print_size(long long bytes, bool gib) {
  char buffer[64];
  if (gib) std::snprintf(buffer, sizeof buffer, "%9.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  else std::snprintf(buffer, sizeof buffer, "%9.2f GB", static_cast<double>(bytes) / 1e9);
  return buffer;
}

/** Reads only as much of a model file as its header needs: inspect_model_file answers an error
 *  with `needed_bytes` until the prefix holds the whole header, and header_read.hpp
 *  next_header_read says how far to read next. Returns the inspection (or an error response). */
ordered_json inspect_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {{"error", {{"field", "file"}, {"message", "cannot read " + path}}}};
  const std::int64_t size = static_cast<std::int64_t>(in.tellg());
  std::int64_t want = llmsizer::next_header_read(0, 0, size).bytes;
  for (;;) {  // next_header_read asks for more each round, up to its cap
    std::string prefix(static_cast<std::size_t>(want), '\0');
    in.seekg(0);
    in.read(&prefix[0], want);
    prefix.resize(static_cast<std::size_t>(in.gcount()));
    ordered_json r = ordered_json::parse(llmsizer::inspect_model_file(prefix, static_cast<double>(size)));
    const std::int64_t need = r.contains("error") ? r["error"].value("needed_bytes", std::int64_t{0}) : 0;
    const llmsizer::HeaderRead next = llmsizer::next_header_read(static_cast<std::int64_t>(prefix.size()), need, size);
    // A short read is the end of the file (an empty file reports size 0, read as unknown): reading
    // again would get no more, so this answer is final.
    if (next.step == llmsizer::HeaderReadStep::answered || static_cast<std::int64_t>(prefix.size()) < want) return r;
    if (next.step == llmsizer::HeaderReadStep::too_long) {
      return {{"error", {{"field", "file"}, {"message", "the header of " + path + " is longer than " + std::to_string(llmsizer::kMaxHeaderReadBytes) + " bytes; not read"}}}};
    }
    want = next.bytes;
  }
}

bool is_hf_option(const std::string& name) {
  return name == "--hf-file" || name == "--hf-revision" || name == "--hf-endpoint" || name == "--hf-token-env";
}

/// The flag's value, or `fallback`.
std::string flag_value(const Options& o, const std::string& name, const std::string& fallback = "") {
  std::string value = fallback;
  for (const auto& [n, v] : o.flags) {
    if (n == name) value = v;
  }
  return value;
}

/** Reads the model of Hugging Face repository `id` (hub_client.hpp) with the --hf-* options.
 *  Answers {"plan", "model", "requests", "bytes_read"} or an error JSON. */
ordered_json fetch_hf(const Options& o, const std::string& id) {
  llmsizer::cli::HubOptions hub;
  hub.endpoint = llmsizer::cli::hub_endpoint(flag_value(o, "--hf-endpoint"));
  hub.revision = flag_value(o, "--hf-revision", "main");
  const std::string token_variable = flag_value(o, "--hf-token-env", "HF_TOKEN");
  if (const char* token = std::getenv(token_variable.c_str())) hub.token = token;
  return llmsizer::cli::fetch_repository_model(hub, id, flag_value(o, "--hf-file"));
}

/// Tells on standard error which files were read, and the model's warnings.
void report_hf(const std::string& id, const ordered_json& r) {
  const auto& plan = r["plan"];
  std::cerr << "llmsizer: " << id << ": read " << r.value("requests", 0) << " requests, " << r.value("bytes_read", 0LL) << " bytes";
  if (plan.value("kind", "") == "gguf") {
    std::cerr << " (" << plan.value("chosen", "") << ", one of " << plan["gguf"].size()
              << " GGUF files; choose with --hf-file, list them with `llmsizer hf " << id << "`)";
  }
  std::cerr << "\n";
  for (const auto& w : r["model"].value("warnings", ordered_json::array())) std::cerr << "llmsizer: " << id << ": " << w.get<std::string>() << "\n";
}

/// The request as the printed report needs it: the report is made of the core's English sentences, so
/// a request's `english_text: false` (for pages that render the data themselves) is asked as true; --json
/// passes the request through as it is. A request that is not a JSON object is left to the core to report.
std::string with_english_text(const std::string& request) {
  try {
    ordered_json body = ordered_json::parse(request);
    if (!body.is_object() || !body.contains("english_text")) return request;
    body["english_text"] = true;
    return body.dump();
  } catch (const std::exception&) {
    return request;
  }
}

/// Builds the request from FILE and flags. Returns false (after printing) on a usage error.
bool build_request(const Options& o, std::string& request, std::string& error_field, std::string& error_message) {
  ordered_json body = ordered_json::object();
  if (!o.file.empty()) {
    std::string text;
    if (o.file == "-") {
      text = read_all(std::cin);
    } else {
      std::ifstream in(o.file, std::ios::binary);
      if (!in) {
        error_field = "file";
        error_message = "cannot read " + o.file;
        return false;
      }
      text = read_all(in);
    }
    if (o.flags.empty() && o.switches.empty()) {
      request = text;  // passed through untouched: the core reports any problem in it
      return true;
    }
    try {
      body = ordered_json::parse(text);
    } catch (const std::exception&) {
      request = text;
      return true;
    }
    if (!body.is_object()) {
      request = text;
      return true;
    }
  }
  auto number_or_text = [](const std::string& v) -> ordered_json {
    try {
      std::size_t used = 0;
      const long long n = std::stoll(v, &used);
      if (used == v.size()) return n;
    } catch (const std::exception&) {
    }
    try {
      std::size_t used = 0;
      const double d = std::stod(v, &used);
      if (used == v.size()) return d;
    } catch (const std::exception&) {
    }
    return v;
  };
  for (const auto& [name, value] : o.flags) {
    if (name == "--model") body["model"] = value;
    else if (name == "--model-file") {
      const ordered_json r = inspect_file(value);
      if (r.contains("error") || !r.contains("request_model") || r["request_model"].is_null()) {
        error_field = "model-file";
        error_message = r.contains("error") ? r["error"].value("message", "") : "an index has no architecture; give the model's config.json or a weights file";
        return false;
      }
      for (const auto& w : r["warnings"]) std::cerr << "llmsizer: " << value << ": " << w.get<std::string>() << "\n";
      body["model"] = r["request_model"];
    }
    else if (name == "--hf") {
      const ordered_json r = fetch_hf(o, value);
      if (r.contains("error")) {
        error_field = r["error"].value("field", "hf");
        error_message = r["error"].value("message", "");
        return false;
      }
      report_hf(value, r);
      body["model"] = r["model"]["request_model"];
    }
    else if (is_hf_option(name)) continue;
    else if (name == "--task") body["task"] = value;
    else if (name == "--weights") body["weights"] = value;
    else if (name == "--kv-cache") body["kv_cache"] = value;
    else if (name == "--engine") body["engine"] = value;
    else if (name == "--engine-version") body["engine_version"] = value;
    else if (name == "--input") body["input_tokens"] = number_or_text(value);
    else if (name == "--output") body["output_tokens"] = number_or_text(value);
    else if (name == "--batch") body["batch"] = number_or_text(value);
    else if (name == "--gpus") body["gpus"] = number_or_text(value);
    else if (name == "--hardware") body["hardware"] = value;
    else if (name == "--goal") body["goal"] = value;
    else if (name == "--max-options") body["max_options"] = number_or_text(value);
    else if (name == "--method") body["training"]["method"] = value;
    else if (name == "--seq-len") body["training"]["seq_len"] = number_or_text(value);
    else if (name == "--micro-batch") body["training"]["micro_batch"] = number_or_text(value);
    else {
      error_field = name;
      error_message = "unknown option " + name + " (see llmsizer --help)";
      return false;
    }
  }
  for (const auto& s : o.switches) {
    if (s == "--checkpointing") body["training"]["gradient_checkpointing"] = true;
  }
  request = body.dump();
  return true;
}

void print_estimate(const ordered_json& r, bool gib) {
  const auto& model = r["model"];
  std::cout << "Model: " << model.value("name", "") << " (" << model.value("id", "") << "), "
            << model.value("params", 0LL) << " parameters";
  if (model.value("active_params", 0LL) != model.value("params", 0LL)) std::cout << ", " << model.value("active_params", 0LL) << " active";
  std::cout << "\n";
  for (const auto& f : model.value("features", ordered_json::array())) std::cout << "  - " << f.get<std::string>() << "\n";
  const auto& s = r["settings"];
  std::cout << "Task: " << s.value("task", "") << ", weights " << s.value("weights", "");
  if (s.contains("engine")) {
    std::cout << ", KV cache " << s.value("kv_cache", "") << ", engine " << s.value("engine", "") << ", "
              << s.value("input_tokens", 0LL) << " in + " << s.value("output_tokens", 0LL) << " out tokens, batch "
              << s.value("batch", 0LL);
  }
  std::cout << ", GPUs " << s.value("gpus", 0) << "\n\n";
  std::cout << "Part             Size          Formula (numbers put in)\n";
  for (const auto& line : r["explain"]) {
    char name[32];
    std::snprintf(name, sizeof name, "%-15s", line.value("part", "").c_str());
    std::cout << name << print_size(line.value("bytes", 0LL), gib) << "  " << line.value("formula", "") << "\n"
              << "                               " << line.value("values", "") << "\n";
  }
  const auto& mem = r["memory"];
  std::cout << "\n";
  if (mem.value("device_bytes", 0LL) > 0) {
    std::cout << "Device memory (per GPU, as nvidia-smi shows): " << print_size(mem.value("device_bytes", 0LL), gib) << "\n";
    std::cout << "Tensor peak (torch.cuda.max_memory_allocated): " << print_size(mem.value("tensor_peak_bytes", 0LL), gib) << "\n";
  }
  if (mem.value("host_bytes", 0LL) > 0) std::cout << "Host RAM: " << print_size(mem.value("host_bytes", 0LL), gib) << "\n";
  std::cout << "Disk (download size): " << print_size(r.value("disk_bytes", 0LL), gib) << "\n";
  if (r.contains("fit")) {
    // The core's own sentences: the verdict, what it assumed, the fixes it re-estimated.
    const auto& fit = r["fit"];
    std::cout << "Fit: " << fit.value("summary", fit.value("note", "")) << "\n";
    if (fit.contains("required_bytes") && fit.contains("usable_bytes")) {
      std::cout << "  needs " << print_size(fit.value("required_bytes", 0LL), gib) << " of " << print_size(fit.value("usable_bytes", 0LL), gib) << " usable\n";
    }
    for (const auto& a : fit.value("assumptions", ordered_json::array())) std::cout << "  assumed: " << a.get<std::string>() << "\n";
    for (const auto& f : fit.value("fixes", ordered_json::array())) std::cout << "  fix: " << f.value("text", "") << "\n";
  }
  if (r.contains("throughput")) {
    const auto& speed = r["throughput"];
    if (speed["decode_tokens_per_s"].is_number()) {
      std::cout << "Speed: " << speed["decode_tokens_per_s"].get<double>() << " tokens/s per sequence";
    } else {
      std::cout << "Speed: unknown (" << speed.value("note", "") << ")";
    }
    if (speed.contains("basis")) std::cout << "; " << speed.value("basis", "");
    std::cout << "\n";
  }
  // Engines llama.cpp and ollama: how to run what was estimated.
  if (r.contains("llama_cpp")) std::cout << "llama.cpp command line: " << r["llama_cpp"].value("command_line", "") << "\n";
  if (r.contains("ollama")) std::cout << "Ollama: " << r["ollama"].value("command_line", "") << "\n";
  for (const auto& w : r["warnings"]) std::cout << "warning: " << w.get<std::string>() << "\n";
  std::cout << (gib ? "(GiB = 2^30 bytes)\n" : "(GB = 10^9 bytes; --gib for GiB)\n");
}

void print_models(const ordered_json& r) {
  std::printf("%-34s %16s %16s %7s\n", "id", "params", "published", "layers");
  for (const auto& m : r["models"]) {
    const std::string published = m["published_params"].is_number() ? std::to_string(m["published_params"].get<long long>()) : "-";
    std::printf("%-34s %16lld %16s %7d\n", m.value("id", "").c_str(), m.value("params", 0LL), published.c_str(), m.value("layers", 0));
  }
}

void print_recommendation(const ordered_json& r) {
  auto number = [](const ordered_json& v, const char* format) -> std::string {
    if (!v.is_number()) return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, v.get<double>());
    return buffer;
  };
  std::cout << "Model: " << r["model"].value("name", "") << ", goal " << r.value("goal", "") << "\n\n";
  std::printf("%-4s %-44s %-9s %5s %10s %10s %9s %10s\n", "#", "option", "kind", "GPUs", "spare GB", "tokens/s", "$/hour", "$/M tok");
  int rank = 0;
  for (const auto& o : r["options"]) {
    const std::string gpus = o["gpus_used"].is_number() ? std::to_string(o["gpus_used"].get<int>()) : "-";
    std::printf("%-4d %-44.44s %-9s %5s %10s %10s %9s %10s\n", ++rank, o.value("id", "").c_str(), o.value("kind", "").c_str(), gpus.c_str(),
                number(o["headroom_bytes"].is_number() ? ordered_json(o["headroom_bytes"].get<double>() / 1e9) : ordered_json(), "%.1f").c_str(),
                number(o["decode_tokens_per_s"], "%.1f").c_str(), number(o.value("usd_per_hour", ordered_json()), "%.3f").c_str(),
                number(o.value("usd_per_million_tokens", ordered_json()), "%.2f").c_str());
  }
  const std::size_t listed = r["options"].size();
  if (r["options_total"].is_number() && r["options_total"].get<std::size_t>() > listed) {
    std::cout << "(the best " << listed << " of " << r["options_total"].get<std::size_t>() << " options that fit)\n";
  }
  if (!r["options"].empty()) std::cout << "\nBest: " << r["options"][0].value("name", "") << ": " << r["options"][0].value("reason", "") << "\n";
  if (!r["near_misses"].empty()) std::cout << "\nNearly fits:\n";
  for (const auto& m : r["near_misses"]) {
    std::cout << "  " << m.value("id", "") << ": " << m.value("reason", "") << "\n";
    for (const auto& fix : m["fixes"]) std::cout << "    - " << fix.get<std::string>() << "\n";
  }
  for (const auto& w : r["warnings"]) std::cout << "warning: " << w.get<std::string>() << "\n";
}

void print_hardware(const ordered_json& r) {
  std::printf("%-44s %-9s %5s %10s %10s %10s %10s\n", "id", "kind", "GPUs", "memory GB", "GB/s", "price $", "$/hour");
  // A figure the catalog does not know is null: printed as 0.
  const auto number = [](const ordered_json& h, const char* key) { return h.contains(key) && h[key].is_number() ? h[key].get<double>() : 0.0; };
  for (const auto& h : r["hardware"]) {
    const double price = number(h, "price_usd");
    const double hourly = number(h, "price_usd_per_hour");
    std::printf("%-44.44s %-9s %5d %10.1f %10.1f %10s %10s\n", h.value("id", "").c_str(), h.value("kind", "").c_str(),
                static_cast<int>(number(h, "device_count")), number(h, "memory_bytes") / 1e9, number(h, "memory_bandwidth_gb_per_s"),
                price > 0 ? std::to_string(static_cast<long long>(price)).c_str() : "-",
                hourly > 0 ? std::to_string(hourly).substr(0, 6).c_str() : "-");
  }
}

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", 100.0 * fraction);
  return buffer;
}

/// `llmsizer validate`: every measured row against its estimate, then the errors per kind.
void print_validation(const llmsizer::ValidationReport& report) {
  std::printf("%-62s %12s %12s %-4s %8s\n", "row", "measured", "estimated", "unit", "error");
  for (const auto& r : report.rows) {
    if (!r.used) continue;
    std::printf("%-62s %12.2f %12.2f %-4s %8s%s\n", r.id.c_str(), r.measured, r.estimated, r.unit.c_str(), percent(r.error).c_str(),
                r.approximate ? "  ~ stand-in format" : "");
  }
  std::printf("\nexcluded rows:\n");
  for (const auto& r : report.rows) {
    if (!r.used) std::printf("  %s: %s\n", r.id.c_str(), r.excluded_reason.c_str());
  }
  std::printf("\n%-16s %5s %5s %5s %9s %9s %12s %12s %8s\n", "kind", "rows", "used", "exact", "median", "p90",
              "median exact", "p90 exact", "bias");
  for (const auto& s : report.summaries) {
    std::printf("%-16s %5d %5d %5d %8.1f%% %8.1f%% %11.1f%% %11.1f%% %8s\n", s.kind.c_str(), s.rows, s.used, s.exact,
                100.0 * s.median_abs_error, 100.0 * s.p90_abs_error, 100.0 * s.median_abs_error_exact, 100.0 * s.p90_abs_error_exact,
                percent(s.median_signed_error).c_str());
  }
  std::printf("(error = (estimated - measured) / measured; median and p90 of |error| over used rows; exact: rows mapped\n"
              " without a stand-in weight format; bias: median signed error)\n");
}

/// The same report as the Markdown of data/validation/ACCURACY.md.
void print_validation_markdown(const llmsizer::ValidationReport& report) {
  std::printf("# Accuracy against published measurements\n\n"
              "Generated by `llmsizer validate --markdown` (core/validate/validate.cpp; gates in tests/validation_test.cpp; rows and mapping rules in data/validation/README.md).\n"
              "error = (estimated - measured) / measured; median and p90 (nearest rank) of |error| over the rows compared;\n"
              "*exact formats*: rows whose weight format exists in the core (not a plain stand-in for GPTQ/AWQ/NF4/FP8);\n"
              "bias: median signed error (< 0: the estimate is low).\n\n");
  std::printf("| kind | rows | used | excluded | median \\|error\\| | p90 \\|error\\| | median (exact formats) | p90 (exact formats) | bias |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const auto& s : report.summaries) {
    if (s.used == 0) {
      std::printf("| %s | %d | 0 | %d | - | - | - | - | - |\n", s.kind.c_str(), s.rows, s.excluded);
      continue;
    }
    std::printf("| %s | %d | %d | %d | %.1f%% | %.1f%% | %.1f%% (%d rows) | %.1f%% | %s |\n", s.kind.c_str(), s.rows, s.used, s.excluded,
                100.0 * s.median_abs_error, 100.0 * s.p90_abs_error, 100.0 * s.median_abs_error_exact, s.exact,
                100.0 * s.p90_abs_error_exact, percent(s.median_signed_error).c_str());
  }
  // Per source, and the reasons rows were left out, in first-seen order.
  std::vector<std::string> sources, reasons;
  std::map<std::string, std::vector<double>> errors, exact_errors;
  std::map<std::string, int> reason_count;
  for (const auto& r : report.rows) {
    if (r.kind == "serving" || r.kind == "serving_external") continue;  // their own tables below (per source id, per metric)
    if (r.used) {
      if (!errors.count(r.source)) sources.push_back(r.source);
      errors[r.source].push_back(std::fabs(r.error));
      if (!r.approximate) exact_errors[r.source].push_back(std::fabs(r.error));
    } else {
      if (!reason_count.count(r.excluded_reason)) reasons.push_back(r.excluded_reason);
      ++reason_count[r.excluded_reason];
    }
  }
  std::printf("\n| source | used | median \\|error\\| | p90 \\|error\\| | exact-format rows | median (exact) |\n|---|---:|---:|---:|---:|---:|\n");
  for (const auto& source : sources) {
    const auto& e = errors[source];
    const auto& x = exact_errors[source];
    std::printf("| %s | %zu | %.1f%% | %.1f%% | %zu | %s |\n", source.c_str(), e.size(), 100.0 * llmsizer::median_of(e),
                100.0 * llmsizer::percentile_of(e, 0.9), x.size(), x.empty() ? "-" : percent(llmsizer::median_of(x)).substr(1).c_str());
  }
  std::printf("\n| rows left out | reason |\n|---:|---|\n");
  for (const auto& reason : reasons) std::printf("| %d | %s |\n", reason_count[reason], reason.c_str());
  std::fputs(llmsizer::serving_accuracy_markdown(report).c_str(), stdout);
  std::fputs(llmsizer::leave_one_source_out_markdown(report).c_str(), stdout);
}

int report_error(const std::string& response, bool json_output) {
  const auto e = ordered_json::parse(response);
  std::cerr << "llmsizer: " << e["error"].value("field", "") << ": " << e["error"].value("message", "") << "\n";
  if (json_output) std::cout << response << "\n";
  return kExitBadRequest;
}

/** `llmsizer hf ID`: the repository's model files, and for each GGUF quantization its size and
 *  the estimate with that format (the core's fit for the request's hardware). The architecture
 *  comes from the file read (--hf-file, else the usual choice): one header for the whole list. */
int list_hf(Options o) {
  if (o.file.empty()) {
    std::cerr << "llmsizer: hf needs a model id such as meta-llama/Llama-3.1-8B (see llmsizer --help)\n";
    return kExitBadRequest;
  }
  const std::string id = o.file;
  o.file.clear();
  const ordered_json fetched = fetch_hf(o, id);
  if (fetched.contains("error")) return report_error(fetched.dump(), o.json);
  std::string request, field, message;
  // The request flags (hardware, tokens, ...); the model is put in below.
  if (!build_request(o, request, field, message)) {
    std::cerr << "llmsizer: " << field << ": " << message << "\n";
    return kExitBadRequest;
  }
  ordered_json body = ordered_json::parse(request);
  body["model"] = fetched["model"]["request_model"];
  const ordered_json& plan = fetched["plan"];
  ordered_json rows = ordered_json::array();
  auto estimate_row = [&](ordered_json row, const ordered_json& weights) {
    ordered_json b = body;
    if (weights.is_string()) b["weights"] = weights;
    else b.erase("weights");
    const ordered_json e = ordered_json::parse(llmsizer::estimate(b.dump()));
    if (e.contains("error")) {
      row["error"] = e["error"];
    } else {
      row["device_bytes"] = e["memory"]["device_bytes"];
      row["host_bytes"] = e["memory"]["host_bytes"];
      row["fits"] = e.contains("fit") ? e["fit"]["fits"] : ordered_json(nullptr);
    }
    return row;
  };
  const std::string chosen = plan.value("chosen", "");
  for (const auto& q : plan["gguf"]) {
    ordered_json row = {{"file", q["file"]}, {"size_bytes", q["size_bytes"]}, {"quant", q["quant"]}, {"weights", q["weights"]}};
    // The file read is sized exactly from its header; the others by their format's layout.
    const bool read = q["file"] == chosen;
    row["read"] = read;
    if (read || q["weights"].is_string()) rows.push_back(estimate_row(row, read ? ordered_json(nullptr) : q["weights"]));
    else rows.push_back(row);
  }
  if (o.json) {
    std::cout << ordered_json{{"repository", plan}, {"model", fetched["model"]}, {"gguf", rows},
                              {"requests", fetched["requests"]}, {"bytes_read", fetched["bytes_read"]}}.dump() << "\n";
    return kExitOk;
  }
  report_hf(id, fetched);
  const auto& model = fetched["model"];
  std::cout << "Repository: " << plan.value("id", id) << " (revision " << plan.value("revision", "") << ")"
            << (plan.value("gated", false) ? ", gated" : "") << "\n";
  std::cout << "Model: " << model["resolved_model"].value("name", "") << ", " << model["resolved_model"].value("params", 0LL)
            << " parameters, from " << (plan["read"].empty() ? std::string("config.json") : plan["read"].dump()) << "\n";
  if (plan["gguf"].empty()) {
    const ordered_json e = estimate_row(ordered_json::object(), nullptr);
    std::cout << "Weights: " << model.value("weight_bytes", 0LL) << " bytes (" << model["request_model"].value("weights_format", "") << ")";
    if (e.contains("device_bytes")) std::cout << ", device memory " << print_size(e["device_bytes"].get<long long>(), o.gib);
    if (e.contains("fits") && !e["fits"].is_null()) std::cout << (e["fits"].get<bool>() ? ", fits" : ", does not fit");
    std::cout << "\n";
    return kExitOk;
  }
  std::printf("%-56s %13s %-9s %14s %-6s\n", "GGUF file", "size", "format", "device memory", "fits");
  for (const auto& row : rows) {
    const std::string size = row["size_bytes"].is_number() ? print_size(row["size_bytes"].get<long long>(), o.gib) : "?";
    const std::string device = row.contains("device_bytes") ? print_size(row["device_bytes"].get<long long>(), o.gib) : "-";
    const std::string fits = row.contains("fits") && row["fits"].is_boolean() ? (row["fits"].get<bool>() ? "yes" : "no") : "-";
    const std::string format = row["weights"].is_string() ? row["weights"].get<std::string>() : "?";
    std::printf("%-56.56s %13s %-9s %14s %-6s%s\n", row.value("file", "").c_str(), size.c_str(), format.c_str(), device.c_str(),
                fits.c_str(), row.value("read", false) ? "  (header read)" : "");
  }
  if (!body.contains("hardware")) std::cout << "(give --hardware ID for a fit verdict per file)\n";
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? kExitBadRequest : kExitOk;
  }
  o.command = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") o.json = true;
    else if (a == "--gib") o.gib = true;
    else if (is_switch(a)) o.switches.push_back(a);
    else if (llmsizer::starts_with(a, "--")) {
      if (i + 1 >= args.size()) {
        std::cerr << "llmsizer: " << a << ": needs a value (see llmsizer --help)\n";
        return kExitBadRequest;
      }
      o.flags.emplace_back(a, args[++i]);
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      std::cerr << "llmsizer: unexpected argument " << a << " (see llmsizer --help)\n";
      return kExitBadRequest;
    }
  }

  if (o.command == "models" || o.command == "hardware" || o.command == "options" || o.command == "messages") {
    const std::string out = o.command == "models" ? llmsizer::list_models()
                          : o.command == "hardware" ? llmsizer::list_hardware()
                          : o.command == "messages" ? llmsizer::list_messages()
                                                    : llmsizer::list_options();
    if (llmsizer::is_error_response(out)) return report_error(out, o.json);
    if (o.json || o.command == "options" || o.command == "messages") std::cout << out << "\n";
    else if (o.command == "models") print_models(ordered_json::parse(out));
    else print_hardware(ordered_json::parse(out));
    return kExitOk;
  }
  if (o.command == "validate") {
    std::string kind;
    for (const auto& [name, value] : o.flags) {
      if (name != "--kind") {
        std::cerr << "llmsizer: unknown option " << name << " for validate (see llmsizer --help)\n";
        return kExitBadRequest;
      }
      kind = value;
    }
    if (!kind.empty() && kind != "inference" && kind != "training" && kind != "file_size" && kind != "speed" && kind != "serving" &&
        kind != "serving_external") {
      std::cerr << "llmsizer: --kind: must be one of inference, training, file_size, speed, serving, serving_external; got " << kind << "\n";
      return kExitBadRequest;
    }
    llmsizer::ValidationReport report = llmsizer::run_validation(kind);
    if (kind == "serving") {
      // --kind serving shows the other publishers' serving rows too, in their own summary.
      llmsizer::ValidationReport external = llmsizer::run_validation("serving_external");
      for (auto& row : external.rows) report.rows.push_back(std::move(row));
      for (auto& summary : external.summaries) report.summaries.push_back(std::move(summary));
    }
    const bool markdown = std::find(o.switches.begin(), o.switches.end(), "--markdown") != o.switches.end();
    if (o.json) std::cout << llmsizer::validation_report_json(report) << "\n";
    else if (markdown) print_validation_markdown(report);
    else print_validation(report);
    return kExitOk;
  }
  if (o.command == "inspect" && !flag_value(o, "--hf").empty()) {
    const std::string id = flag_value(o, "--hf");
    const ordered_json r = fetch_hf(o, id);
    if (r.contains("error")) return report_error(r.dump(), o.json);
    report_hf(id, r);
    std::cout << r["model"].dump() << "\n";
    return kExitOk;
  }
  if (o.command == "hf") return list_hf(o);
  if (o.command == "inspect") {
    if (o.file.empty()) {
      std::cerr << "llmsizer: inspect needs a MODEL_FILE (see llmsizer --help)\n";
      return kExitBadRequest;
    }
    const ordered_json r = inspect_file(o.file);
    if (r.contains("error")) return report_error(r.dump(), o.json);
    std::cout << r.dump() << "\n";
    return kExitOk;
  }
  if (o.command != "estimate" && o.command != "recommend" && o.command != "page") {
    std::cerr << "llmsizer: unknown command " << o.command << " (see llmsizer --help)\n";
    return kExitBadRequest;
  }
  std::string request, field, message;
  if (!build_request(o, request, field, message)) {
    std::cerr << "llmsizer: " << field << ": " << message << "\n";
    if (o.json) std::cout << ordered_json{{"error", {{"field", field}, {"message", message}}}}.dump() << "\n";
    return kExitBadRequest;
  }
  if (o.command == "page") {
    // The page's one call per edit (api.hpp: page_answer), as JSON only: what the module's pageAnswer returns.
    const std::string response = llmsizer::page_answer(request);
    if (llmsizer::is_error_response(response)) return report_error(response, true);
    std::cout << response << "\n";
    return kExitOk;
  }
  if (!o.json) request = with_english_text(request);
  const std::string response = o.command == "estimate" ? llmsizer::estimate(request) : llmsizer::recommend(request);
  if (llmsizer::is_error_response(response)) return report_error(response, o.json);
  if (o.json) {
    std::cout << response << "\n";
  } else if (o.command == "estimate") {
    print_estimate(ordered_json::parse(response), o.gib);
  } else {
    print_recommendation(ordered_json::parse(response));
  }
  return kExitOk;
}
