// SPDX-License-Identifier: MIT
#include "request/parse_request.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/hardware_json.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/engine_model.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/machine.hpp"
#include "llmsizer/size_limits.hpp"
#include "llmsizer/throughput.hpp"
#include "request/read.hpp"
#include "request/training_request.hpp"
#include "json_text.hpp"

namespace llmsizer::edge {
namespace {

using nlohmann::json;

/// The members each part of a request may have (key tables: constant arrays, so that the module builds
/// no sets of strings when it starts).
constexpr std::string_view kRequestKeys[] = {"model", "task", "weights", "kv_cache", "engine", "input_tokens",
                                            "output_tokens", "batch", "gpus", "hardware", "training",
                                            "flash_attention", "engine_version", "group_size", "goal", "cost", "cpu",
                                            "enforce_eager", "budget_bytes", "ubatch", "n_batch", "parallel", "kv_unified",
                                            "mmap", "n_gpu_layers", "override_tensor", "cpu_family", "swa_full", "offload_kqv",
                                            "ollama", "machine", "usage", "english_text", "max_options",
                                            "memory_option_bytes", "draft", "also_loaded", "layout", "workload", "slo", "serve"};
constexpr std::string_view kDraftKeys[] = {"method", "model", "weights", "draft_max", "acceptance_rate", "n_gpu_layers", "program"};
constexpr std::string_view kAlsoLoadedKeys[] = {"model", "weights", "context", "kv_cache", "n_gpu_layers", "gpu_memory_utilization"};

/// The llama.cpp request fields (contract: engine llama.cpp); `cpu_family` also applies to Ollama.
const char* const kLlamaCppFields[] = {"ubatch", "n_batch", "parallel", "kv_unified", "mmap", "n_gpu_layers",
                                       "override_tensor", "cpu_family", "swa_full", "offload_kqv"};
constexpr std::string_view kOllamaKeys[] = {"num_parallel", "num_batch", "num_gpu", "use_mmap", "kv_cache_type", "flash_attention"};

/// Group sizes GPTQ/AWQ/MLX checkpoints are published with (AutoGPTQ/AutoAWQ q_group_size, mlx
/// --q-group-size); -1 is GPTQ's "one group per column".
constexpr std::int64_t kGroupSizes[] = {32, 64, 128, 256, 512, 1024};

/// Whether `key` is one of `keys`.
template <std::size_t N>
bool is_one_of(std::string_view key, const std::string_view (&keys)[N]) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

json parse_body(const std::string& text) {
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw InputError("", Message("error.request.empty"));
  json body;
  try {
    body = parse_json(text);  // one instantiation of the parser for every parse (json_text.hpp)
  } catch (const json::parse_error& e) {
    throw InputError("", Message("error.request.not_json").text("detail", e.what()));
  }
  if (!body.is_object()) throw InputError("", Message("error.request.not_object").text("type", body.type_name()));
  return body;
}

/// The request values (ids) of a fixed format table (precision.hpp).
template <typename Format>
std::vector<std::string> ids_of(const Format* begin, const Format* end) {
  std::vector<std::string> ids;
  for (const Format* f = begin; f != end; ++f) ids.emplace_back(f->id);
  return ids;
}
/// Made once: every request reads them, and making the list of 60 was a tenth of parsing one.
const std::vector<std::string>& weight_format_ids() {
  static const std::vector<std::string> ids = ids_of(weight_formats_begin(), weight_formats_end());
  return ids;
}
const std::vector<std::string>& kv_format_ids() {
  static const std::vector<std::string> ids = ids_of(kv_cache_formats_begin(), kv_cache_formats_end());
  return ids;
}

/// `engine`: one of `engines` by its id (`id_of`), `fallback` when absent.
template <typename E, std::size_t N>
E parse_engine_of(const json& body, const E (&engines)[N], const char* (*id_of)(E), E fallback) {
  std::vector<std::string> ids;
  for (E e : engines) ids.emplace_back(id_of(e));
  const std::string id = text(body, "engine", "engine", ids, id_of(fallback));
  for (E e : engines) {
    if (id == id_of(e)) return e;
  }
  return fallback;
}

Engine parse_engine(const json& body) { return parse_engine_of(body, kEngines, engine_id, Engine::generic); }

/// Task serve's `engine`: one of the serving engines (serve_engine.hpp), vLLM when absent.
ServeEngine parse_serve_engine(const json& body) { return parse_engine_of(body, kServeEngines, serve_engine_id, ServeEngine::vllm); }

/// Examples of `engine`'s own version numbering, for the error that refuses one (each engine's
/// release tags: transformers v4.45.0, vLLM v0.6.0 / v0.10.1, SGLang v0.4.6, Ollama v0.12.3,
/// TensorRT-LLM v0.17.0 / v1.0.0rc2, LMDeploy v0.2.0, AutoAWQ v0.2.6, litgpt v0.5.3).
std::string engine_version_examples(const std::string& engine) {
  static const std::pair<const char*, const char*> kExamples[] = {
      {"transformers", "\"4.45\" or \"4.46.0\""}, {"vllm", "\"0.6.0\", \"0.10.1\" or \"v0.8.5\""},
      {"sglang", "\"0.3.0\" or \"0.4.6\""},       {"ollama", "\"0.12.3\""},
      {"tensorrt-llm", "\"0.17\" or \"1.0.0rc2\""}, {"lmdeploy", "\"v0.2.0\" or \"0.10.2\""},
      {"autoawq", "\"0.2.6\""},                   {"litgpt", "\"0.5.3\""}};
  for (const auto& [id, examples] : kExamples) {
    if (engine == id) return examples;
  }
  return "\"1.2\" or \"1.2.3\"";
}

std::size_t digits_end(const std::string& s, std::size_t from) {
  while (from < s.size() && std::isdigit(static_cast<unsigned char>(s[from]))) ++from;
  return from;
}

/// A release in major.minor[.patch[.n]] numbering (lower case, as `text` returns it), with an
/// optional leading "v" (vLLM and LMDeploy tag "v0.8.5", "v0.2.0") and optional pre-/post-release
/// and local suffixes ("1.0.0rc2", "0.6.3.post1", "4.57.0.dev0", "0.5.3+cu118"): major × 100 +
/// minor, 0 when it is not one. The patch level changes no rule, so it is read and dropped.
int dotted_version(const std::string& v) {
  std::size_t at = v.size() > 1 && v[0] == 'v' ? 1 : 0;
  const std::size_t major_end = digits_end(v, at);
  if (major_end == at || major_end - at > 2 || major_end >= v.size() || v[major_end] != '.') return 0;
  const int major = std::stoi(v.substr(at, major_end - at));
  at = major_end + 1;
  const std::size_t minor_end = digits_end(v, at);
  if (minor_end == at || minor_end - at > 2) return 0;
  const int minor = std::stoi(v.substr(at, minor_end - at));
  at = minor_end;
  // Up to two more numeric parts (a patch level; vLLM tagged v0.10.1.1).
  for (int part = 0; part < 2 && at + 1 < v.size() && v[at] == '.' && std::isdigit(static_cast<unsigned char>(v[at + 1])); ++part) {
    at = digits_end(v, at + 1);
  }
  // Pre-, post- and development releases as PEP 440 and the engines' tags write them (rc2, .post1,
  // .dev0, -alpha), up to three, then a local part (+cu118, +g1a2b3c4).
  static const char* const kSuffixes[] = {"alpha", "beta", "post", "dev", "pre", "rc", "a", "b"};
  for (int part = 0; part < 3 && at < v.size() && v[at] != '+'; ++part) {
    std::size_t word = at + (v[at] == '.' || v[at] == '-' || v[at] == '_' ? 1 : 0);
    std::size_t after = word;
    for (const char* suffix : kSuffixes) {
      if (v.compare(word, std::char_traits<char>::length(suffix), suffix) == 0) {
        after = word + std::char_traits<char>::length(suffix);
        break;
      }
    }
    if (after == word) return 0;
    at = digits_end(v, after);
  }
  if (at < v.size()) {
    if (v[at] != '+' || at + 1 == v.size() || v.size() - at > 24) return 0;
    for (std::size_t i = at + 1; i < v.size(); ++i) {
      if (!std::isalnum(static_cast<unsigned char>(v[i])) && v[i] != '.') return 0;
    }
  }
  return major * 100 + minor;  // 0.0 is 0: refused, 0 means "current"
}

bool hex_hash(const std::string& s, std::size_t from, std::size_t to) {
  if (to < from + 7 || to - from > 40) return false;
  for (std::size_t i = from; i < to; ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

/// A build number "6918" or release tag "b6918" exactly in v[from, to): the number, else 0.
int build_number(const std::string& v, std::size_t from, std::size_t to) {
  if (from < to && v[from] == 'b') ++from;
  if (from >= to || to - from > 6 || digits_end(v, from) != to) return 0;
  return std::stoi(v.substr(from, to - from));
}

/// A llama.cpp build (lower case): the release tag "b6918" or the number "6918", alone or with the
/// commit's short hash as llama.cpp prints them ("version: 6918 (1d2e3f4a)" from --version, "build:
/// 6918 (1d2e3f4a)" in its logs, "build 2f68ce7cf (6918)" as llama-batched-bench tables quote it)
/// or joined by '-' ("b6918-1d2e3f4a"). llama.cpp numbers its builds by commit count (the b<N> tags
/// of ggml-org/llama.cpp releases), so the number orders them; a hash alone does not. 0 when it is
/// not one.
int llama_cpp_build(const std::string& v) {
  std::size_t at = 0;
  for (const char* prefix : {"version:", "build:", "build "}) {
    if (starts_with(v, prefix)) {
      at = std::char_traits<char>::length(prefix);
      break;
    }
  }
  while (at < v.size() && v[at] == ' ') ++at;
  const std::size_t open = v.find(" (", at);
  if (open != std::string::npos && v.back() == ')') {
    // "6918 (hash)" or "hash (6918)".
    if (const int build = build_number(v, at, open); build > 0 && hex_hash(v, open + 2, v.size() - 1)) return build;
    if (const int build = build_number(v, open + 2, v.size() - 1); build > 0 && hex_hash(v, at, open)) return build;
    return 0;
  }
  const std::size_t dash = v.find('-', at);
  if (dash != std::string::npos) return hex_hash(v, dash + 1, v.size()) ? build_number(v, at, dash) : 0;
  return build_number(v, at, v.size());
}

/// Says so when the version given changes nothing in an inference estimate, so that it is not
/// ignored silently: transformers' and llama.cpp's rules read it (memory.cpp, throughput.cpp; a llama.cpp
/// build before graph reuse says what it adds); vLLM's per-step overhead is
/// a measurement of v0.5.3, kept for 0.6 and 0.7 for want of a published figure (kVllmStepOverheadS),
/// and an assumption for V1 from 0.8 (kVllmV1StepOverheadS); no other engine's figures differ by version.
void warn_engine_version(Request& r) {
  if (r.engine == Engine::transformers) return;
  if (r.engine == Engine::llama_cpp) {
    // The build decides whether each forward's graph is built on the host (throughput.hpp).
    const double per_layer = llama_cpp_graph_build_s_per_layer(r.engine_version);
    if (per_layer > 0) {
      r.warnings.push_back(Message("warning.engine_version.llama_cpp_graph_build").text("version", r.engine_version_text).decimal("per_layer_us", per_layer * 1e6, 1));
    }
    return;
  }
  if (r.engine == Engine::vllm) {
    if (r.engine_version >= kVllmAsyncOutputVersion && r.engine_version < kVllmV1Version) {
      r.warnings.push_back(Message("warning.engine_version.vllm_step_overhead").text("version", r.engine_version_text).decimal("overhead_ms", kVllmStepOverheadS * 1e3, 1));
    } else if (r.engine_version >= kVllmV1Version) {
      r.warnings.push_back(Message("warning.engine_version.vllm_v1_step_overhead").text("version", r.engine_version_text).decimal("overhead_ms", kVllmV1StepOverheadS * 1e3, 1));
    }
    return;
  }
  r.warnings.push_back(Message("warning.engine_version.no_rule").text("version", r.engine_version_text).text("engine", engine_id(r.engine)));
}

/// `engine_version` in the numbering of the engine the request names (`id`): a llama.cpp build → its build number (b6918 →
/// 6918); any other engine's release → major × 100 + minor ("4.45" → 445, vLLM "0.6.0" → 6,
/// "0.10.1" → 10; Ollama "0.12.3" → 12). Absent → 0 (the engine's current behaviour). The text is
/// kept as written, for the settings.
int parse_engine_version(const json& body, const std::string& id, std::string& as_written) {
  const std::string value = text(body, "engine_version", "engine_version", {}, "");
  if (value.empty()) return 0;
  if (id == engine_id(Engine::llama_cpp)) {
    const int build = llama_cpp_build(value);
    if (build <= 0) throw InputError("engine_version", Message("error.engine_version_build").text("got", body.at("engine_version").get<std::string>()));
    as_written = body.at("engine_version").get<std::string>();
    return build;
  }
  const int version = dotted_version(value);
  if (version <= 0) {
    throw InputError("engine_version", Message("error.engine_version").text("engine", id).text("examples", engine_version_examples(id))
                                           .text("got", body.at("engine_version").get<std::string>()));
  }
  as_written = body.at("engine_version").get<std::string>();
  return version;
}

int parse_group_size(const json& body, const WeightFormat& format, std::vector<Message>& warnings) {
  if (!body.contains("group_size") || body["group_size"].is_null()) return 0;
  const bool grouped = format.scheme == QuantScheme::gptq || format.scheme == QuantScheme::awq || format.scheme == QuantScheme::mlx;
  if (!grouped) {
    warnings.push_back(Message("warning.group_size.ignored").text("format", format.id));
    return 0;
  }
  const bool gptq = format.scheme == QuantScheme::gptq;
  const std::int64_t g = whole_number(body, "group_size", "group_size", -1, 1024, 0);
  if (g == -1 && gptq) return -1;
  if (std::find(std::begin(kGroupSizes), std::end(kGroupSizes), g) == std::end(kGroupSizes)) {
    throw InputError("group_size", Message(gptq ? "error.group_size_gptq" : "error.group_size").text("got", body["group_size"].dump()));
  }
  return static_cast<int>(g);
}

/// `hardware`: a catalog id, a probe file (its measured GPU if it has one, else its CPU), or an
/// inline object with the catalog's fields.
HardwareSpec parse_hardware(const json& body, const char* key, const Catalog& catalog) {
  const json& value = body.at(key);
  if (value.is_string()) {
    const std::optional<HardwareSpec> h = catalog.hardware(ascii_lower(value.get<std::string>()));
    if (!h) throw InputError(key, Message("error.hardware.unknown_id").text("id", value.get<std::string>()));
    return *h;
  }
  if (value.is_object() && value.contains("probe") && value.contains("summary")) {
    // A file written by llmsizer-probe (data/measured format), e.g. dropped on the page as "my machine".
    std::vector<HardwareSpec> measured = hardware_from_probe(value);
    if (measured.empty()) throw InputError(key, Message("error.hardware.probe_without_summary"));
    for (const auto& h : measured) {
      if (!h.is_cpu()) return h;
    }
    return measured.front();
  }
  std::vector<HardwareSpec> gpus;
  for (const auto& h : catalog.all_hardware()) {
    if (h.kind == HardwareKind::gpu) gpus.push_back(h);
  }
  return hardware_from_json(value, key, gpus);
}

/// The most memory a machine's field takes: 1 PB (as budget_bytes).
constexpr std::int64_t kMaxMachineBytes = 1'000'000'000'000'000LL;
constexpr std::string_view kMachineKeys[] = {"base", "ram_bytes", "vram_bytes", "gpus", "unified_memory", "gpu_memory_limit_bytes", "display", "os"};

/** `machine`: the person's own computer — RAM, memory per GPU, GPUs, unified memory — typed, or a
 *  catalog entry (`machine.base`, else the request's `hardware`) edited: each field left out keeps
 *  the entry's value. Sizes take bytes or "16 GiB" / "16 GB". */
HardwareSpec parse_machine(const json& body, const Catalog& catalog, const std::optional<HardwareSpec>& named) {
  const json& v = body.at("machine");
  if (!v.is_object()) throw InputError("machine", Message("error.machine.not_object"));
  for (const auto& [key, value] : v.items()) {
    if (!is_one_of(key, kMachineKeys)) throw InputError("machine." + key, Message("error.machine.unknown_field"));
  }
  std::optional<HardwareSpec> base = named;
  if (v.contains("base") && !v["base"].is_null()) {
    const std::string id = text(v, "base", "machine.base", {}, "");
    base = catalog.hardware(ascii_lower(id));
    if (!base) throw InputError("machine.base", Message("error.hardware.unknown_id").text("id", id));
  }
  MachineSpec m;
  m.base = base ? base->id : "";
  const bool base_unified = base && base->unified_memory;
  std::int64_t base_ram = 0;
  if (base_unified) {
    base_ram = base->memory_options_bytes.empty() ? base->device_memory_bytes
                                                  : *std::min_element(base->memory_options_bytes.begin(), base->memory_options_bytes.end());
  } else if (base && (base->is_cpu() || base->kind == HardwareKind::instance)) {
    base_ram = base->host_memory_bytes;
  }
  m.unified_memory = boolean(v, "unified_memory", "machine.unified_memory", base_unified);
  m.ram_bytes = memory_amount(v, "ram_bytes", "machine.ram_bytes", 1LL << 20, kMaxMachineBytes, base_ram);
  if (m.ram_bytes <= 0) throw InputError("machine.ram_bytes", Message("error.machine.ram_needed"));
  const int base_gpus = base && !base->is_cpu() && !base_unified ? base->device_count : 0;
  m.gpus = static_cast<int>(whole_number(v, "gpus", "machine.gpus", 0, 64, m.unified_memory ? 1 : base_gpus));
  if (!m.unified_memory) {
    m.vram_bytes = memory_amount(v, "vram_bytes", "machine.vram_bytes", 0, kMaxMachineBytes, base_gpus > 0 ? base->device_memory_bytes : 0);
    if (m.gpus > 0 && m.vram_bytes <= 0) throw InputError("machine.vram_bytes", Message("error.machine.vram_needed"));
    if (m.gpus == 0) m.vram_bytes = 0;
  } else {
    m.gpus = 1;
    m.gpu_memory_limit_bytes = memory_amount(v, "gpu_memory_limit_bytes", "machine.gpu_memory_limit_bytes", 0, m.ram_bytes, 0);
  }
  m.display = boolean(v, "display", "machine.display", base ? base->drives_display || base->kind == HardwareKind::laptop : true);
  const std::string os = text(v, "os", "machine.os", {"macos", "windows", "linux"}, "");
  m.os = os == "macos" ? OperatingSystem::macos : os == "windows" ? OperatingSystem::windows : os == "linux" ? OperatingSystem::linux_os : OperatingSystem::unspecified;
  return machine_hardware(m, base ? &*base : nullptr, catalog.all_hardware());
}

bool has_machine(const json& body) { return body.contains("machine") && !body["machine"].is_null(); }

/// The request's device: `hardware`, or `machine` (which may edit it).
HardwareSpec parse_device(const json& body, const Catalog& catalog) {
  std::optional<HardwareSpec> named;
  if (body.contains("hardware")) named = parse_hardware(body, "hardware", catalog);
  if (named && body.contains("memory_option_bytes") && !body["memory_option_bytes"].is_null()) {
    // A device sold in several memory configurations (a MacBook): the one the person has.
    const std::int64_t chosen = memory_amount(body, "memory_option_bytes", "memory_option_bytes", 1, kMaxMachineBytes, 0);
    if (!choose_memory_option(*named, chosen)) {
      std::string offered;
      for (std::int64_t o : named->memory_options_bytes) offered += (offered.empty() ? "" : ", ") + std::to_string(o);
      throw InputError("memory_option_bytes", Message("error.memory_option.not_offered").text("allowed", offered.empty() ? "-" : offered));
    }
  }
  if (has_machine(body)) return parse_machine(body, catalog, named);
  return *named;
}

OwnershipCosts parse_costs(const json& body) {
  OwnershipCosts c;
  if (!body.contains("cost")) return c;
  const json& v = body.at("cost");
  if (!v.is_object()) throw InputError("cost", Message("error.cost.not_object"));
  c.lifetime_years = number(v, "lifetime_years", "cost.lifetime_years", 0.1, 30, c.lifetime_years);
  c.hours_per_day = number(v, "hours_per_day", "cost.hours_per_day", 0.1, 24, c.hours_per_day);
  c.electricity_usd_per_kwh = number(v, "electricity_usd_per_kwh", "cost.electricity_usd_per_kwh", 0, 10, c.electricity_usd_per_kwh);
  c.pue = number(v, "pue", "cost.pue", 1, 3, c.pue);
  c.utilization = number(v, "utilization", "cost.utilization", 0, 1, c.utilization);
  c.upkeep_usd_per_year = number(v, "upkeep_usd_per_year", "cost.upkeep_usd_per_year", 0, 1e7, c.upkeep_usd_per_year);
  c.rest_of_box_usd = number(v, "rest_of_box_usd", "cost.rest_of_box_usd", 0, 1e6, c.rest_of_box_usd);
  return c;
}

/// How much the work runs: `usage` {"hours_per_day": 0.1-24} or {"tokens_per_day": 1-1e12}.
UsagePattern parse_usage(const json& body) {
  UsagePattern u;
  if (!body.contains("usage")) return u;
  const json& v = body.at("usage");
  if (!v.is_object()) throw InputError("usage", Message("error.usage.not_object"));
  u.hours_per_day = number(v, "hours_per_day", "usage.hours_per_day", 0.1, 24, 0);
  u.tokens_per_day = number(v, "tokens_per_day", "usage.tokens_per_day", 1, 1e12, 0);
  if (u.hours_per_day > 0 && u.tokens_per_day > 0) throw InputError("usage", Message("error.usage.both"));
  return u;
}

/// llama.cpp's own names for types that have another id here: its file types F16 and F32
/// (llama-quantize, GGUF general.file_type) are GGUF files; its cache types -ctk/-ctv f16 and f32
/// are the 16- and 32-bit caches. Every other llama.cpp name (Q4_K_M, q8_0, ...) already is an id.
std::string llama_cpp_alias(const json& body, const char* key) {
  const auto it = body.find(key);
  if (it == body.end() || !it->is_string()) return std::string();
  const std::string value = ascii_lower(it->get<std::string>());
  const bool weights = std::string_view(key) == "weights";
  if (value == "f16") return weights ? "gguf-f16" : "fp16";
  if (value == "f32") return weights ? "gguf-f32" : "fp32";
  return std::string();
}

/// Layers llama.cpp may put on the GPU: -1 (all) or 0 to layers + 1 (the output layer counts).
int gpu_layers(const json& obj, const char* key, const std::string& field, const ModelSpec& m) {
  const std::int64_t max = std::max(0, m.num_layers) + 1;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return -1;
  const Message message = Message("error.llama_cpp.n_gpu_layers").integer("max", max).integer("layers", m.num_layers).text("got", it->dump());
  try {
    return static_cast<int>(whole_number(obj, key, field, -1, max, -1));
  } catch (const InputError&) {
    throw InputError(field, message);
  }
}

/// The llama.cpp fields and the `ollama` object (read whatever the engine; a field the engine does
/// not read is named in a warning).
void parse_llama_cpp(const json& body, Request& r) {
  const bool llama = r.engine == Engine::llama_cpp;
  const bool ollama = r.engine == Engine::ollama;
  for (const char* field : kLlamaCppFields) {
    const bool applies = llama || (ollama && std::string_view(field) == "cpu_family");
    if (body.contains(field) && !applies) {
      r.warnings.push_back(Message("warning.request.engine_field_ignored").text("field", field).text("applies", "llama.cpp").text("engine", engine_id(r.engine)));
    }
  }
  LlamaCppOptions& o = r.llama_cpp;
  o.ubatch = whole_number(body, "ubatch", "ubatch", 1, kLlamaCppMaxUbatch, o.ubatch);
  o.n_batch = whole_number(body, "n_batch", "n_batch", 1, kLlamaCppMaxBatch, o.n_batch);
  o.parallel = static_cast<int>(whole_number(body, "parallel", "parallel", 1, kLlamaCppMaxSequences, 0));
  o.kv_unified = boolean(body, "kv_unified", "kv_unified", o.kv_unified);
  o.mmap = boolean(body, "mmap", "mmap", o.mmap);
  o.n_gpu_layers = gpu_layers(body, "n_gpu_layers", "n_gpu_layers", r.model);
  o.swa_full = boolean(body, "swa_full", "swa_full", o.swa_full);
  o.offload_kqv = boolean(body, "offload_kqv", "offload_kqv", o.offload_kqv);
  std::vector<std::string> cpus;
  for (LlamaCppCpu c : kLlamaCppCpus) cpus.emplace_back(llama_cpp_cpu_id(c));
  const std::string cpu = text(body, "cpu_family", "cpu_family", cpus, llama_cpp_cpu_id(o.cpu_family));
  for (LlamaCppCpu c : kLlamaCppCpus) {
    if (cpu == llama_cpp_cpu_id(c)) o.cpu_family = c;
  }
  if (body.contains("override_tensor") && !body["override_tensor"].is_null()) {
    const json& list = body["override_tensor"];
    if (!list.is_array() || list.size() > static_cast<std::size_t>(kLlamaCppMaxPatterns)) {
      throw InputError("override_tensor", Message("error.llama_cpp.override_tensor_list").integer("max", kLlamaCppMaxPatterns).text("got", list.dump()));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = "override_tensor[" + std::to_string(i) + "]";
      if (!list[i].is_string() || list[i].get<std::string>().empty()) {
        throw InputError(field, Message("error.llama_cpp.override_tensor_list").integer("max", kLlamaCppMaxPatterns).text("got", list[i].dump()));
      }
      check_override_pattern(list[i].get<std::string>(), field);
      o.override_tensor.push_back(list[i].get<std::string>());
    }
  }

  // Ollama: num_parallel (OLLAMA_NUM_PARALLEL), num_batch, num_gpu, use_mmap; its KV cache type and
  // flash attention are the request's kv_cache and flash_attention, which these two set.
  OllamaOptions& ol = r.ollama;
  ol.flash_attention = body.contains("flash_attention") && !body["flash_attention"].is_null() ? (r.flash_attention ? 1 : 0) : -1;
  if (!body.contains("ollama") || body["ollama"].is_null()) return;
  const json& v = body["ollama"];
  if (!v.is_object()) throw InputError("ollama", Message("error.ollama.not_object").text("got", v.dump()));
  if (!ollama) r.warnings.push_back(Message("warning.request.engine_field_ignored").text("field", "ollama").text("applies", "ollama").text("engine", engine_id(r.engine)));
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!is_one_of(it.key(), kOllamaKeys)) r.warnings.push_back(Message("warning.request.unknown_field").text("field", "ollama." + it.key()));
  }
  ol.num_parallel = static_cast<int>(whole_number(v, "num_parallel", "ollama.num_parallel", 1, kLlamaCppMaxSequences, 0));
  ol.num_batch = whole_number(v, "num_batch", "ollama.num_batch", 1, kLlamaCppMaxUbatch, ol.num_batch);
  ol.num_gpu = gpu_layers(v, "num_gpu", "ollama.num_gpu", r.model);
  ol.use_mmap = boolean(v, "use_mmap", "ollama.use_mmap", ol.use_mmap);
  if (v.contains("kv_cache_type") && !v["kv_cache_type"].is_null()) {
    // OLLAMA_KV_CACHE_TYPE: f16 (the default), q8_0, q4_0 (docs/faq.md)
    const std::string type = text(v, "kv_cache_type", "ollama.kv_cache_type", {"f16", "q8_0", "q4_0"}, "f16");
    const KvCacheFormat* format = find_kv_cache_format(type == "f16" ? "fp16" : type);
    if (body.contains("kv_cache") && !body["kv_cache"].is_null() && format != r.kv_cache) {
      throw InputError("ollama.kv_cache_type", Message("error.ollama.conflict").text("other", "kv_cache").text("value", r.kv_cache->id));
    }
    r.kv_cache = format;
  }
  if (v.contains("flash_attention") && !v["flash_attention"].is_null()) {
    const bool flash = boolean(v, "flash_attention", "ollama.flash_attention", true);
    if (ol.flash_attention >= 0 && flash != r.flash_attention) {
      throw InputError("ollama.flash_attention", Message("error.ollama.conflict").text("other", "flash_attention").text("value", r.flash_attention ? "true" : "false"));
    }
    r.flash_attention = flash;
    ol.flash_attention = flash ? 1 : 0;
  }
}

/// The fields every task reads: model, task, formats, tokens, devices.
void parse_common(const json& body, const Catalog& catalog, Request& r) {
  for (auto it = body.begin(); it != body.end(); ++it) {
    if (!is_one_of(it.key(), kRequestKeys)) r.warnings.push_back(Message("warning.request.unknown_field").text("field", it.key()));
  }
  if (!body.contains("model")) throw InputError("model", Message("error.model.required"));
  std::vector<Message> model_warnings;
  r.model = parse_model(body.at("model"), "model", model_warnings, catalog);
  r.warnings.insert(r.warnings.end(), model_warnings.begin(), model_warnings.end());

  const std::string task = text(body, "task", "task", {"inference", "training", "serve"}, "inference");
  r.task = task == "training" ? Task::training : task == "serve" ? Task::serve : Task::inference;
  // A model imported from a weights file brings its exact stored bytes: they stand for the
  // weights unless the request names a format (then params × bytes per parameter of that format).
  if (r.model.file_weight_bytes > 0 && !body.contains("weights")) {
    WeightFormat stored{"file", "as stored in the imported file", Ecosystem::file, std::max<std::int64_t>(1, count_params(r.model).total),
                        r.model.file_weight_bytes, "the file's header", QuantScheme::stored, 0, 0, false, GgufFileType::none};
    r.file_format = std::make_shared<const WeightFormat>(stored);
    r.weights = r.file_format.get();
  } else {
    const std::string alias = llama_cpp_alias(body, "weights");
    r.weights = find_weight_format(!alias.empty() ? alias : text(body, "weights", "weights", weight_format_ids(), "bf16"));
  }
  r.group_size = parse_group_size(body, *r.weights, r.warnings);
  // llama.cpp's default cache type is f16 (-ctk/-ctv f16); Transformers/vLLM follow the model dtype.
  // The cache defaults to the dtype the runtime computes in (llama.cpp: -ctk/-ctv f16).
  const char* kv_default = default_kv_cache_id(*r.weights);
  const std::string kv_alias = llama_cpp_alias(body, "kv_cache");
  r.kv_cache = find_kv_cache_format(!kv_alias.empty() ? kv_alias : text(body, "kv_cache", "kv_cache", kv_format_ids(), kv_default));
  if (r.task == Task::serve) {
    // The serving engines (serve_engine.hpp); memory by the rules of the engine that sizes each.
    r.serve = ServeSettings{};
    r.serve->engine = parse_serve_engine(body);
    r.engine = memory_engine(r.serve->engine);
  } else {
    r.engine = parse_engine(body);
  }
  hold_as_engine_does(r.model, r.engine, r.warnings);
  r.input_tokens = whole_number(body, "input_tokens", "input_tokens", 1, kMaxTokens, 1024);
  r.output_tokens = whole_number(body, "output_tokens", "output_tokens", 0, kMaxTokens, r.task == Task::training ? 0 : 1024);
  r.batch = whole_number(body, "batch", "batch", 1, kMaxBatch, 1);
  r.gpus = static_cast<int>(whole_number(body, "gpus", "gpus", 0, kMaxGpus, 1));
  r.flash_attention = boolean(body, "flash_attention", "flash_attention", true);
  // The engine as the request names it: a serving engine by its own id, whose version it reads
  // (serve_engine.hpp), though another engine's rules may size its memory.
  r.engine_version = parse_engine_version(body, r.serve ? serve_engine_id(r.serve->engine) : engine_id(r.engine), r.engine_version_text);
  if (r.engine_version > 0 && r.task == Task::inference) warn_engine_version(r);
  if (r.input_tokens + r.output_tokens > kMaxTokens) {
    throw InputError("output_tokens", Message("error.tokens.context_too_long").integer("max", kMaxTokens).integer("got", r.input_tokens + r.output_tokens));
  }
}

/// `draft`: the draft model of speculative decoding (speculative.hpp), its format and draft length.
void parse_draft(const json& body, const Catalog& catalog, Request& r) {
  if (!body.contains("draft") || body["draft"].is_null()) return;
  const json& v = body["draft"];
  if (!v.is_object()) throw InputError("draft", Message("error.draft.not_object").text("got", v.dump()));
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!is_one_of(it.key(), kDraftKeys)) r.warnings.push_back(Message("warning.request.unknown_field").text("field", "draft." + it.key()));
  }
  if (r.engine == Engine::ollama) throw InputError("draft", Message("error.draft.ollama"));
  DraftSettings d;
  // The llama.cpp program whose loop runs the draft (speculative.hpp DraftProgram); other engines run their own.
  if (v.contains("program") && !v["program"].is_null()) {
    const std::string program = text(v, "program", "draft.program", {"llama-server", "llama-speculative"}, "llama-server");
    if (r.engine != Engine::llama_cpp) throw InputError("draft.program", Message("error.draft.program_engine").text("got", program));
    d.program = program == "llama-speculative" ? DraftProgram::llama_speculative : DraftProgram::llama_server;
    // llama-speculative generates one sequence; its -np splits the draft into a tree of branches.
    const std::int64_t sequences = llama_cpp_sequences_for(r.llama_cpp.parallel, r.batch);
    if (d.program == DraftProgram::llama_speculative && sequences > 1) {
      throw InputError("draft.program", Message("error.draft.program_one_sequence").integer("sequences", sequences));
    }
  }
  d.mtp = text(v, "method", "draft.method", {"model", "mtp"}, "model") == "mtp";
  if (d.mtp) {
    if (r.model.mtp_layers <= 0) throw InputError("draft.method", Message("error.draft.no_mtp_layers").text("model", r.model.name));
    if (!runs_mtp_draft(r.engine)) throw InputError("draft.method", Message("error.draft.mtp_engine"));
    d.model = mtp_draft_model(r.model);
    d.weights = r.weights;
    d.group_size = r.group_size;
    d.draft_max = static_cast<int>(whole_number(v, "draft_max", "draft.draft_max", 1, kMaxDraftMax, kDefaultMtpDraftMax));
    d.acceptance_rate = kDefaultMtpAcceptanceRate;
    if (v.contains("acceptance_rate") && !v["acceptance_rate"].is_null()) {
      d.acceptance_rate = number(v, "acceptance_rate", "draft.acceptance_rate", 0.0, 1.0, kDefaultMtpAcceptanceRate);
      d.acceptance_given = true;
    }
    r.draft = std::move(d);
    return;
  }
  if (!v.contains("model")) throw InputError("draft.model", Message("error.model.required"));
  d.model = parse_model(v.at("model"), "draft.model", r.warnings, catalog);
  if (!d.model.has_architecture()) throw InputError("draft.model", Message("error.draft.needs_architecture"));
  const std::string alias = llama_cpp_alias(v, "weights");
  d.weights = find_weight_format(!alias.empty() ? alias : text(v, "weights", "draft.weights", weight_format_ids(), std::string(r.weights->id)));
  d.draft_max = static_cast<int>(whole_number(v, "draft_max", "draft.draft_max", 1, kMaxDraftMax, kDefaultDraftMax));
  if (v.contains("acceptance_rate") && !v["acceptance_rate"].is_null()) {
    d.acceptance_rate = number(v, "acceptance_rate", "draft.acceptance_rate", 0.0, 1.0, kDefaultAcceptanceRate);
    d.acceptance_given = true;
  }
  d.n_gpu_layers = gpu_layers(v, "n_gpu_layers", "draft.n_gpu_layers", d.model);
  if (!draft_vocab_compatible(r.model, d.model)) {
    r.warnings.push_back(Message("warning.draft.vocab_differs").grouped("draft_vocab", d.model.vocab_size).grouped("vocab", r.model.vocab_size));
  }
  check_byte_range(d.model, r.input_tokens + r.output_tokens, r.batch);
  r.draft = std::move(d);
}

/// `also_loaded`: the models kept loaded beside the request's (co_resident.hpp), each with its
/// weights and the engine settings that are its own.
void parse_also_loaded(const json& body, const Catalog& catalog, Request& r) {
  if (!body.contains("also_loaded") || body["also_loaded"].is_null()) return;
  const json& list = body["also_loaded"];
  if (!list.is_array() || list.size() > static_cast<std::size_t>(kMaxAlsoLoaded)) {
    throw InputError("also_loaded", Message("error.also_loaded.not_list").integer("max", kMaxAlsoLoaded).text("got", list.dump()));
  }
  double shares = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string field = "also_loaded[" + std::to_string(i) + "]";
    const json& v = list[i];
    if (!v.is_object()) throw InputError(field, Message("error.also_loaded.not_object").text("got", v.dump()));
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!is_one_of(it.key(), kAlsoLoadedKeys)) r.warnings.push_back(Message("warning.request.unknown_field").text("field", field + "." + it.key()));
    }
    if (!v.contains("model")) throw InputError(field + ".model", Message("error.model.required"));
    AlsoLoadedSettings a;
    a.model = parse_model(v.at("model"), field + ".model", r.warnings, catalog);
    const std::string alias = llama_cpp_alias(v, "weights");
    a.weights = find_weight_format(!alias.empty() ? alias : text(v, "weights", field + ".weights", weight_format_ids(), std::string(r.weights->id)));
    const std::string kv_alias = llama_cpp_alias(v, "kv_cache");
    if (!kv_alias.empty() || (v.contains("kv_cache") && !v["kv_cache"].is_null())) {
      a.kv_cache = find_kv_cache_format(!kv_alias.empty() ? kv_alias : text(v, "kv_cache", field + ".kv_cache", kv_format_ids(), std::string(r.kv_cache->id)));
    }
    a.context = whole_number(v, "context", field + ".context", 1, kMaxTokens, 0);
    a.n_gpu_layers = gpu_layers(v, "n_gpu_layers", field + ".n_gpu_layers", a.model);
    a.gpu_memory_utilization = number(v, "gpu_memory_utilization", field + ".gpu_memory_utilization", 0.01, 1.0, 0);
    shares += a.gpu_memory_utilization;
    if (shares > 1.0) throw InputError(field + ".gpu_memory_utilization", Message("error.also_loaded.shares_over_one").decimal("sum", shares, 2));
    check_byte_range(a.model, a.context > 0 ? a.context : r.input_tokens + r.output_tokens, r.batch);
    r.also_loaded.push_back(std::move(a));
  }
}

/// Inference on a device: the device, what owning it costs, the GPUs it has, engine speed options,
/// and the CPU to compare with.
void parse_inference_hardware(const json& body, const Catalog& catalog, Request& r) {
  HardwareSpec hw = parse_device(body, catalog);
  r.gpus = gpus_estimated_on(hw, r.gpus);
  r.costs = parse_costs(body);
  const bool host_only = r.gpus == 0 && !hw.is_cpu();  // gpus 0: the host's CPU and RAM
  if ((hw.kind == HardwareKind::instance || (hw.is_machine && !hw.is_cpu())) && r.gpus > (host_only ? 0 : hw.device_count)) {
    if (hw.is_machine) throw InputError("gpus", Message("error.gpus.machine").integer("gpus", hw.device_count));
    throw InputError("gpus", Message("error.gpus.instance").text("id", hw.id).integer("gpus", host_only ? 0 : hw.device_count));
  }
  // A laptop and a unified-memory machine have one GPU: two of them cannot be asked for.
  if (!hw.is_cpu() && max_devices(hw) == 1 && r.gpus > 1) throw InputError("gpus", Message("error.gpus.single").text("id", hw.id));
  r.enforce_eager = boolean(body, "enforce_eager", "enforce_eager", false);  // vLLM --enforce-eager
  // "CPU or GPU" is answered for a GPU whose speed is known: there the CPU is read.
  if (!hw.is_cpu() && !host_only && effective_bandwidth_gb_per_s(hw, false) > 0) {
    if (body.contains("cpu")) {
      const std::string id = text(body, "cpu", "cpu", {}, kReferenceCpu);
      r.cpu = catalog.hardware(ascii_lower(id));
      if (!r.cpu || !r.cpu->is_cpu()) throw InputError("cpu", Message("error.cpu.not_a_cpu").text("id", id));
    } else {
      // A laptop, a Mac or my machine is compared with its own CPU, a card with the reference desktop CPU.
      r.cpu = own_cpu(hw);
      if (!r.cpu) r.cpu = catalog.hardware(kReferenceCpu);
    }
  }
  r.hardware = std::move(hw);
}

/// Training on a device: its dense 16-bit peak (a probe's measurement first) and an instance's
/// price per GPU-hour feed the time and cost, unless the request gave its own.
void parse_training_hardware(const json& body, const Catalog& catalog, Request& r) {
  HardwareSpec hw = parse_device(body, catalog);
  if (hw.is_cpu()) throw InputError("hardware", Message("error.hardware.training_needs_gpu"));
  TrainingSettings& t = r.training;
  if (t.peak_tflops <= 0) t.peak_tflops = hw.measured_tflops > 0 ? hw.measured_tflops : hw.matrix_tflops;
  if (t.usd_per_gpu_hour <= 0 && hw.is_rented()) t.usd_per_gpu_hour = hw.price_usd_per_hour / std::max(1, hw.device_count);
  r.hardware = std::move(hw);
}

/// A memory budget in bytes (up to 1 PB), read last: it matters only without hardware.
void parse_budget(const json& body, Request& r) {
  if (!body.contains("budget_bytes") || body["budget_bytes"].is_null()) return;
  r.budget_bytes = memory_amount(body, "budget_bytes", "budget_bytes", 1, 1'000'000'000'000'000LL, 0);
  if (r.hardware) r.warnings.push_back(Message("warning.budget.hardware_wins"));
}

/// Warnings for the members of `object` (request field `field`) that `known` does not list.
void unknown_members(const json& object, const std::string& field, const std::set<std::string>& known, Request& r) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (known.count(it.key()) == 0) r.warnings.push_back(Message("warning.request.unknown_field").text("field", field + "." + it.key()));
  }
}

const json& member_object(const json& body, const char* key, const json& empty) {
  if (!body.contains(key) || body[key].is_null()) return empty;
  if (!body[key].is_object()) throw InputError(key, Message("error.serve.not_object").text("field", key).text("got", body[key].dump()));
  return body[key];
}

/// Task serve: `layout`, `workload`, `slo` and `serve` (contract: Serving), and the device it runs on.
void parse_serve(const json& body, const Catalog& catalog, Request& r, bool needs_hardware) {
  // The sections' members, made on the first serving request (a program that reads no serving
  // request neither makes nor links them: TaskReaders).
  static const std::set<std::string> kLayoutKeys = {"tp", "pp", "ep", "dp"};
  static const std::set<std::string> kWorkloadKeys = {"input_tokens", "output_tokens", "concurrency", "request_rate", "max_throughput", "requests",
                                                      "seed", "range_ratio"};
  static const std::set<std::string> kSloKeys = {"ttft_ms", "tpot_ms", "percentile"};
  static const std::set<std::string> kServeKeys = {"max_num_seqs", "max_num_batched_tokens", "memory_fraction", "chunked_prefill", "parallel",
                                                   "context", "scheduler_steps", "kv_cache_tokens"};
  ServeSettings& s = *r.serve;
  const json empty = json::object();
  const json& layout = member_object(body, "layout", empty);
  unknown_members(layout, "layout", kLayoutKeys, r);
  const bool gpus_given = body.contains("gpus") && !body["gpus"].is_null();
  s.layout.tp = static_cast<int>(whole_number(layout, "tp", "layout.tp", 1, kMaxGpus, gpus_given ? std::max(1, r.gpus) : 1));
  s.layout.pp = static_cast<int>(whole_number(layout, "pp", "layout.pp", 1, kMaxGpus, 1));
  s.layout.ep = static_cast<int>(whole_number(layout, "ep", "layout.ep", 1, kMaxGpus, 1));
  s.layout.dp = static_cast<int>(whole_number(layout, "dp", "layout.dp", 1, kMaxGpus, 1));
  const std::int64_t layout_gpus = static_cast<std::int64_t>(s.layout.tp) * s.layout.pp * s.layout.dp;
  if (layout_gpus > kMaxGpus) throw InputError("layout", Message("error.serve.too_many_gpus").integer("max", kMaxGpus).integer("got", layout_gpus));
  if (gpus_given && layout.contains("tp") && r.gpus != layout_gpus) {
    throw InputError("gpus", Message("error.serve.gpus_layout").integer("gpus", r.gpus).integer("layout", layout_gpus));
  }
  r.gpus = s.layout.tp;  // one replica's tensor-parallel group: the memory estimate's devices

  const json& w = member_object(body, "workload", empty);
  unknown_members(w, "workload", kWorkloadKeys, r);
  ServeWorkload& load = s.workload;
  load.input_tokens = whole_number(w, "input_tokens", "workload.input_tokens", 1, kMaxTokens, body.contains("input_tokens") ? r.input_tokens : 1000);
  load.output_tokens = whole_number(w, "output_tokens", "workload.output_tokens", 1, kMaxTokens, body.contains("output_tokens") ? r.output_tokens : 1000);
  if (load.input_tokens + load.output_tokens > kMaxTokens) {
    throw InputError("workload.output_tokens", Message("error.tokens.context_too_long").integer("max", kMaxTokens).integer("got", load.input_tokens + load.output_tokens));
  }
  const int modes = (w.contains("concurrency") ? 1 : 0) + (w.contains("request_rate") ? 1 : 0) + (boolean(w, "max_throughput", "workload.max_throughput", false) ? 1 : 0);
  if (modes > 1) throw InputError("workload", Message("error.serve.one_load_mode"));
  load.requests = whole_number(w, "requests", "workload.requests", 1, kMaxServeRequests, kDefaultServeRequests);
  load.seed = static_cast<std::uint64_t>(whole_number(w, "seed", "workload.seed", 0, 1LL << 53, 0));
  load.range_ratio = number(w, "range_ratio", "workload.range_ratio", 0.0, 1.0, 0.0);
  if (w.contains("request_rate")) {
    load.mode = LoadMode::request_rate;
    load.request_rate = number(w, "request_rate", "workload.request_rate", 1e-6, 1e6, 1.0);
  } else if (boolean(w, "max_throughput", "workload.max_throughput", false)) {
    load.mode = LoadMode::max_throughput;
  } else {
    load.mode = LoadMode::concurrency;
    load.concurrency = whole_number(w, "concurrency", "workload.concurrency", 1, kMaxServeRequests, 1);
  }
  r.input_tokens = load.input_tokens;
  r.output_tokens = load.output_tokens;

  const json& slo = member_object(body, "slo", empty);
  unknown_members(slo, "slo", kSloKeys, r);
  s.slo.ttft_ms = number(slo, "ttft_ms", "slo.ttft_ms", 1e-3, 1e9, 0);
  s.slo.tpot_ms = number(slo, "tpot_ms", "slo.tpot_ms", 1e-3, 1e9, 0);
  s.slo.percentile = static_cast<int>(whole_number(slo, "percentile", "slo.percentile", 50, 99, 90));
  if (s.slo.percentile != 50 && s.slo.percentile != 90 && s.slo.percentile != 95 && s.slo.percentile != 99) {
    throw InputError("slo.percentile", Message("error.serve.percentile").integer("got", s.slo.percentile));
  }

  const json& o = member_object(body, "serve", empty);
  unknown_members(o, "serve", kServeKeys, r);
  ServeEngineOverrides& e = s.overrides;
  e.max_num_seqs = whole_number(o, "max_num_seqs", "serve.max_num_seqs", 1, kMaxServeRequests, 0);
  e.max_num_batched_tokens = whole_number(o, "max_num_batched_tokens", "serve.max_num_batched_tokens", 1, kMaxTokens, 0);
  e.memory_fraction = number(o, "memory_fraction", "serve.memory_fraction", 0.01, 1.0, 0);
  if (o.contains("chunked_prefill")) e.chunked_prefill = boolean(o, "chunked_prefill", "serve.chunked_prefill", false) ? 1 : 0;
  e.parallel = whole_number(o, "parallel", "serve.parallel", 1, 4096, 0);
  e.context = whole_number(o, "context", "serve.context", 1, kMaxTokens, 0);
  e.scheduler_steps = static_cast<int>(whole_number(o, "scheduler_steps", "serve.scheduler_steps", 1, 64, 0));
  e.kv_cache_tokens = whole_number(o, "kv_cache_tokens", "serve.kv_cache_tokens", 1, kMaxTokens, 0);

  check_byte_range(r.model, load.input_tokens + load.output_tokens, 1);
  r.costs = parse_costs(body);
  if (!needs_hardware) return;
  if (!body.contains("hardware") && !has_machine(body)) throw InputError("hardware", Message("error.serve.needs_hardware"));
  HardwareSpec hw = parse_device(body, catalog);
  if (hw.is_cpu() || hw.memory_bandwidth_gb_per_s <= 0) throw InputError("hardware", Message("error.serve.needs_gpu").text("id", hw.id));
  // Prompts are computed, not read: a device whose tensor rate is not published cannot be timed.
  if (effective_tflops(hw, false) <= 0) throw InputError("hardware", Message("error.serve.needs_compute").text("id", hw.id));
  if (max_devices(hw) < s.layout.tp * s.layout.pp && (hw.kind == HardwareKind::instance || hw.is_machine || max_devices(hw) == 1)) {
    throw InputError("layout", Message("error.serve.layout_exceeds_device").text("id", hw.id).integer("gpus", max_devices(hw)).integer("got", s.layout.tp * s.layout.pp));
  }
  r.hardware = std::move(hw);
}

/// Task serve's members (contract: Serving); recommend also reads `max_options`.
void read_serve(const json& body, const Catalog& catalog, Request& r, Api api) {
  parse_serve(body, catalog, r, api == Api::estimate);
  if (api == Api::recommend) {
    if (const std::int64_t n = whole_number(body, "max_options", "max_options", 1, kMaxListedOptions, 0); n > 0) {
      r.max_options = static_cast<std::size_t>(n);
    }
  }
}

/// Task training's members: `training`, then for estimate the device and the budget.
void read_training(const json& body, const Catalog& catalog, Request& r, Api api) {
  r.training = parse_training(body.value("training", json::object()), r.model, r.gpus, r.input_tokens, r.batch, r.flash_attention, r.warnings);
  check_byte_range(r.model, r.training.seq_len, r.training.micro_batch);
  if (api == Api::estimate && (body.contains("hardware") || has_machine(body))) parse_training_hardware(body, catalog, r);
  // What the training method needs of the model (LoRA target names that exist in it, layers to
  // freeze) is checked here, after the device, as it always was.
  if (std::optional<TrainingModelProblem> problem = training_model_problem(r.model, r.training)) {
    throw InputError(problem->field, std::move(problem->message));
  }
  if (api == Api::estimate) parse_budget(body, r);
}

}  // namespace

const TaskReaders kEveryTaskReader{&read_serve, &read_training, &parse_also_loaded};

Request parse_request(const std::string& request_text, const Catalog& catalog, Api api, const TaskReaders& readers) {
  const json body = parse_body(request_text);
  Request r;
  parse_common(body, catalog, r);
  r.english_text = boolean(body, "english_text", "english_text", true);
  if (r.task != Task::inference) {
    const auto read = r.task == Task::serve ? readers.serve : readers.training;
    if (read == nullptr) throw InputError("task", Message("error.task.other_module").text("task", task_id(r.task)));
    read(body, catalog, r, api);
    // Serving's ranking and every estimate but inference's are read whole.
    if (r.task == Task::serve || api == Api::estimate) return r;
  } else {
    check_byte_range(r.model, r.input_tokens + r.output_tokens, r.batch);
    parse_llama_cpp(body, r);
  }
  if (api == Api::recommend) {
    Goal goal = Goal::best_value;
    parse_goal(text(body, "goal", "goal", {"cheapest", "fastest", "best-value", "local", "laptop"}, "best-value"), goal);
    r.goal = goal;
    r.costs = parse_costs(body);
    r.usage = parse_usage(body);
    // Absent or null (0 here, outside the range): every option.
    if (const std::int64_t n = whole_number(body, "max_options", "max_options", 1, kMaxListedOptions, 0); n > 0) {
      r.max_options = static_cast<std::size_t>(n);
    }
    // The hardware a person names is theirs: the "use what you have" row of the cost table.
    if (body.contains("hardware") || has_machine(body)) r.hardware = parse_device(body, catalog);
    return r;
  }
  parse_draft(body, catalog, r);
  if (readers.also_loaded != nullptr) {
    readers.also_loaded(body, catalog, r);
  } else if (const auto also = body.find("also_loaded"); also != body.end() && !also->is_null() && !(also->is_array() && also->empty())) {
    // Absent, null or empty, it lists nothing, as parse_also_loaded reads it.
    throw InputError("also_loaded", Message("error.also_loaded.other_module"));
  }
  if (body.contains("hardware") || has_machine(body)) parse_inference_hardware(body, catalog, r);
  parse_budget(body, r);
  return r;
}

Request parse_request(const std::string& request_text, const Catalog& catalog, Api api) {
  return parse_request(request_text, catalog, api, kEveryTaskReader);
}

}  // namespace llmsizer::edge
