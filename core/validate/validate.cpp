// SPDX-License-Identifier: MIT
#include "llmsizer/validate.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "llmsizer/api.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/hardware.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/speed_calibration.hpp"

namespace llmsizer {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGB = 1e9;

/// The kinds of measurement, in report order (each a data/validation/<kind>.json file). Their
/// accuracy gates live in the tests (tests/validation_test.cpp), not here.
// serving_external: serving rows of publishers not in serving.json, mapped by the same rules and
// reported apart (a check on data no input of the serving model was chosen from).
constexpr const char* kKinds[] = {"inference", "training", "file_size", "speed", "serving", "serving_external"};

bool is_serving_kind(const std::string& kind) { return kind == "serving" || kind == "serving_external"; }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string string_at(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The preset for a row's `model_ref`: its lowercase name, or an alias where the preset id is the
/// Hugging Face repository name and the row uses a short name.
std::string preset_for(const std::string& model_ref) {
  static const std::map<std::string, std::string> kAliases = {
      {"llama-3-8b", "meta-llama-3-8b"},  // vLLM PR #10511 serves meta-llama/Meta-Llama-3-8B
      {"vicuna-7b-v1.5", "llama-2-7b-hf"},  // lmsys/vicuna-7b-v1.5 is a fine-tuned Llama-2-7B (same config)
      // DeepSeek-LLM README "GPU Memory Usage": "7B and 67B models" (base and chat share one config)
      {"deepseek-llm-7b", "deepseek-llm-7b-base"},
      {"deepseek-llm-67b", "deepseek-llm-67b-base"},
  };
  const std::string id = ascii_lower(model_ref);
  const auto alias = kAliases.find(id);
  const std::string preset = alias != kAliases.end() ? alias->second : id;
  return find_embedded_document("models", preset) != nullptr ? preset : std::string();
}

/// The weight format for a row's `quantization`: the first candidate the core knows. A candidate
/// list names the checkpoint's own format first (what the quantization work adds) and the article's
/// plain format last; a plain (generic, quantized) format standing in for a checkpoint format makes
/// the row approximate: GPTQ/AWQ/FP8/NF4 checkpoints keep embeddings and lm_head in 16 bits and
/// store scales, which the plain bytes per parameter do not count.
bool map_weights(const std::string& quantization, ValidationRow& row, std::string& weights) {
  const std::string q = ascii_lower(quantization);
  std::vector<std::string> candidates;
  if (q.empty() || q == "bf16" || contains(q, "none")) candidates = {"bf16"};
  else if (q == "fp16") candidates = {"fp16"};
  else if (q == "gptq-int4") candidates = {"gptq-int4", "int4"};
  else if (q == "gptq-int8") candidates = {"gptq-int8", "int8"};
  else if (q == "awq-int4") candidates = {"awq-int4", "awq", "int4"};
  else if (q == "fp8") candidates = {"fp8-block", "fp8"};
  else if (contains(q, "nf4") && contains(q, "double")) candidates = {"nf4-dq", "nf4", "int4"};
  else if (contains(q, "nf4")) candidates = {"nf4", "int4"};
  else return false;
  for (const auto& id : candidates) {
    const WeightFormat* format = find_weight_format(id);
    if (format == nullptr) continue;
    weights = id;
    if (format->ecosystem == Ecosystem::generic && format->bits_per_weight() < 16.0 && id != candidates.front()) {
      row.approximate = true;
      row.notes.push_back("weights: \"" + quantization + "\" estimated with the plain format \"" + id + "\" until the core has \"" + candidates.front() + "\"");
    } else if (format->ecosystem == Ecosystem::generic && format->bits_per_weight() < 16.0) {
      row.approximate = true;
      row.notes.push_back("weights: the plain format \"" + id + "\" counts every weight at " + std::to_string(format->bits_per_weight()) + " bits; the checkpoint keeps embeddings and lm_head in 16 bits");
    }
    return true;
  }
  return false;
}

/// "4.38.2" → "4.38".
std::string major_minor(const std::string& version) {
  const std::size_t first = version.find('.');
  if (first == std::string::npos) return version;
  const std::size_t second = version.find('.', first + 1);
  return second == std::string::npos ? version : version.substr(0, second);
}

ValidationRow excluded(ValidationRow row, std::string reason) {
  row.used = false;
  row.excluded_reason = std::move(reason);
  return row;
}

/// The catalog GPU of a row's `gpu` text. The Qwen2.5 docs say "NVIDIA A100 80GB": the SXM part
/// (2039 GB/s; the PCIe card has 1935 GB/s, 5% less) is the catalog entry used.
std::string catalog_gpu(const std::string& text) {
  const std::string g = ascii_lower(text);
  if (contains(g, "h20")) return "nvidia-h20";
  if (contains(g, "a100") && contains(g, "40g")) return "nvidia-a100-40gb-sxm";
  if (contains(g, "a100")) return "nvidia-a100-80gb-sxm";
  if (contains(g, "4090")) return "nvidia-rtx-4090";
  return "";
}

/// Runs `request` through the JSON edge (the path every user takes) and returns the response; with
/// `calibration`, the speed model's table-read constants replaced (leave-one-source-out).
json estimate_json(const ojson& request, const SpeedCalibration* calibration = nullptr) {
  return json::parse(calibration != nullptr ? estimate(request.dump(), *calibration) : estimate(request.dump()));
}

/// The usable memory of one GPU a row names, bytes (0: not in the catalog).
std::int64_t gpu_capacity_bytes(const json& setting, const json& measured) {
  const std::string gpu = catalog_gpu(string_at(setting, "gpu"));
  if (!gpu.empty()) {
    if (const auto hw = hardware_entry(gpu)) return usable_device_bytes(*hw, hw->device_memory_bytes);
  }
  // PEFT README: "GPU capacity 80 GB" without the model (an A100 80GB by the README's setup).
  if (measured.contains("gpu_capacity_gb")) return static_cast<std::int64_t>(measured.at("gpu_capacity_gb").get<double>() * kGiB);
  return 0;
}

/// A row that recorded an out-of-memory failure: the estimate of its request against the GPU's
/// usable memory (memory.device_bytes, what the driver must hold). Not in the medians.
/// `hardware`: the catalog's entry for the row's GPU, for an inference request: the request is then
/// answered on it and its fit decides, as a person reads it (the bytes, and for transformers with
/// eager attention PyTorch's caching allocator: hardware.hpp allocator_runs_out).
ValidationRow oom_verdict(ValidationRow row, ojson request, std::int64_t capacity, const std::string& hardware = "") {
  row.oom = true;
  if (!hardware.empty()) request["hardware"] = hardware;
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "out-of-memory row; estimate error: " + response["error"].value("message", std::string()));
  row.estimated = response["memory"]["device_bytes"].get<double>() / kGB;
  row.measured = static_cast<double>(capacity) / kGB;
  row.unit = "GB";
  row.quantity = "memory.device_bytes against the GPU's usable memory (the source recorded out of memory)";
  row.predicted_fit = capacity > 0 && row.estimated * kGB <= static_cast<double>(capacity);
  bool allocator = false;
  if (!hardware.empty() && response.contains("fit") && response["fit"].is_object()) {
    allocator = row.predicted_fit && !response["fit"].value("fits", true);
    row.predicted_fit = row.predicted_fit && response["fit"].value("fits", true);
  }
  char text[200];
  std::snprintf(text, sizeof text, "out of memory: estimate %.2f GB vs %.2f GB usable: %s%s", row.estimated, row.measured,
                row.predicted_fit ? "predicted to FIT (wrong)" : "predicted not to fit",
                allocator ? " (the bytes fit; PyTorch's caching allocator runs out)" : "");
  row.notes.push_back(text);
  row.used = false;
  row.excluded_reason = "out-of-memory row (no number): checked as a verdict, predicted " + std::string(row.predicted_fit ? "to fit" : "not to fit");
  return row;
}

// ---------------------------------------------------------------------------------------------
// Inference memory

/// A row's identity (id, kind, source), the start of every kind's mapping.
ValidationRow row_for(const json& r, const char* kind) {
  ValidationRow row;
  row.id = string_at(r, "id");
  row.kind = kind;
  row.source = string_at(r, "source");
  return row;
}

/// The start of a memory or speed row's request: the preset of its model and its weight format.
/// Returns why the row cannot be mapped, or "" when `request` holds both.
std::string model_and_weights(const json& r, ValidationRow& row, ojson& request) {
  const std::string preset = preset_for(string_at(r, "model_ref"));
  if (preset.empty()) return "no preset for " + string_at(r, "model_ref") + " in data/models";
  request["model"] = preset;
  const std::string quantization = string_at(r.at("setting"), "quantization");
  std::string weights;
  if (!map_weights(quantization, row, weights)) return "quantization \"" + quantization + "\" has no weight format";
  request["weights"] = weights;
  return "";
}

/** A row of the DeepSeek-LLM README's "GPU Memory Usage" tables (deepseek-ai/DeepSeek-LLM@6712a86):
 *  "We profile the peak memory usage of inference for 7B and 67B models at different batch size and
 *  sequence length settings", 7B on one A100-PCIE-40GB, 67B on eight. Framework, tool and what
 *  "sequence length" counts are not stated; the mapping reads them as follows, each from the numbers:
 *  - Framework: the README's own inference examples (transformers, torch_dtype=torch.bfloat16,
 *    device_map="auto"), with the transformers release of the README's date (DeepSeek-LLM came out on
 *    2023-11-29: transformers 4.35), whose Llama has eager attention only (SDPA came in 4.36):
 *    engine transformers 4.35, flash_attention false, bf16 weights.
 *  - Unit: "GB" is GiB. The 7B weights alone are 6,910,365,696 × 2 B = 13.82 × 10^9 B, above the
 *    13.29 printed for batch 1 × 256 tokens if it were 10^9 B; read as GiB (14.27 × 10^9 B) it is the
 *    weights (12.87 GiB) plus 0.42 GiB. The quantity is the allocator peak (torch.cuda.max_memory_allocated,
 *    memory.tensor_peak_bytes): nvidia-smi would add the CUDA context (~0.4 GiB) to that row too.
 *  - Sequence length = the prompt, with generation after it (one new token: the number generated is not
 *    stated). Across the 7B table the memory grows faster than linearly in L at a fixed batch (bs 1:
 *    +0.34, +0.84, +1.90, +4.88 GiB per doubling from 256): the L × L attention scores of a prompt of L
 *    tokens, which a total of L tokens reached by decoding never holds (read that way, batch 1 × 4096
 *    would be the weights and two caches, 16.6 GiB, 22% below the 21.25 printed). At a fixed L the
 *    memory grows by ~1.5 MiB per token of the batch (bs 8 → 16: 0.384 GiB per sequence at 256, 0.73 at
 *    512, 1.52 at 1024): more than one forward holds (the cache, 0.47 MiB, and the bf16 + fp32 logits
 *    of every prompt position, 0.59 MiB per token), and what 4.35's generate holds in its first decode
 *    step (the previous step's tuple cache, the new one, and the prefill's fp32 logits: 1.33 MiB).
 *  - 67B: eight GPUs under device_map="auto" hold consecutive layers: accelerate's balanced split
 *    (device_map.hpp) puts embeddings + 11 layers on GPU 0, 13 of the 95 layers on each of GPUs 1-6
 *    and 6 layers + the output head on GPU 7, and each GPU computes every head's attention scores
 *    for its layers; the number is the fullest GPU's peak (a middle one: 13 layers are 16.76 GiB,
 *    against 16.92 printed at batch 1 × 256). engine transformers with gpus 8 is that split.
 *  Out-of-memory cells are verdicts on the 40 GB card, like every other OOM row. */
ValidationRow deepseek_llm_row(ValidationRow row, const json& r) {
  const json& setting = r.at("setting");
  const json& measured = r.at("measured");
  const int gpu_count = setting.value("gpu_count", 1);
  if (gpu_count > 1) row.notes.push_back(std::to_string(gpu_count) + " GPUs under device_map=\"auto\" (the README's loading): the fullest GPU of accelerate's layer split");
  ojson request;
  if (const std::string why = model_and_weights(r, row, request); !why.empty()) return excluded(row, why);
  request["weights"] = "bf16";  // the README's torch_dtype=torch.bfloat16 ("bf16 (presumed)" in the row)
  request["engine"] = "transformers";
  request["engine_version"] = "4.35";
  request["flash_attention"] = false;
  request["input_tokens"] = setting.at("seq_len");
  request["output_tokens"] = 1;
  request["batch"] = setting.value("batch", 1);
  request["gpus"] = gpu_count;
  row.notes.push_back("not stated: transformers 4.35 (the README's examples, its release date) with eager attention, 'sequence length' read as the prompt, one new token, GB read as GiB");
  if (measured.value("oom", false)) {
    return oom_verdict(row, request, gpu_capacity_bytes(setting, measured), catalog_gpu(string_at(setting, "gpu")));
  }
  row.measured = measured.at("gpu_memory_gb").get<double>();
  row.unit = "GiB";
  row.quantity = "memory.tensor_peak_bytes (peak allocated; the README's \"GB\" read as GiB)";
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].dump());
  row.estimated = response["memory"]["tensor_peak_bytes"].get<double>() / kGiB;
  row.used = true;
  return row;
}

ValidationRow inference_row(const json& r) {
  ValidationRow row = row_for(r, "inference");
  const json& setting = r.at("setting");
  const json& measured = r.at("measured");
  const std::string framework = ascii_lower(string_at(setting, "framework"));
  const std::string model_ref = string_at(r, "model_ref");

  if (contains(row.source, "deepseek-ai/DeepSeek-LLM")) return deepseek_llm_row(row, r);
  if (contains(row.source, "QwenLM/Qwen/")) {
    return excluded(row, "first-generation Qwen (remote-code QWenLMHeadModel, not in the presets); input length not stated");
  }
  if (measured.contains("oom") && starts_with(framework, "litgpt")) {
    // litgpt generate OOM cells: the same request as the table's other rows, as a verdict.
    ojson request;
    if (const std::string why = model_and_weights(r, row, request); !why.empty()) return excluded(row, why);
    request["engine"] = "litgpt";
    request["input_tokens"] = 6;
    request["output_tokens"] = 50;
    request["gpus"] = 1;
    return oom_verdict(row, request, gpu_capacity_bytes(setting, measured), catalog_gpu(string_at(setting, "gpu")));
  }
  if (measured.contains("oom")) {
    return excluded(row, "records only that the run did not fit (out of memory); no number to compare");
  }
  if (contains(ascii_lower(string_at(r, "notes")), "caution")) {
    return excluded(row, "the source itself calls this value inconsistent and did not report it");
  }
  ojson request;
  if (const std::string why = model_and_weights(r, row, request); !why.empty()) return excluded(row, why);


  // vLLM logs give parts (weights, activation profile, KV pool), not the request's peak: vLLM
  // preallocates gpu_memory_utilization × the card whatever the request. The weights part is
  // compared per GPU (tensor parallel split).
  if (starts_with(framework, "vllm")) {
    const bool per_gpu = measured.contains("weights_gib_per_gpu");
    if (!per_gpu && !measured.contains("weights_gib")) {
      return excluded(row, "vLLM log without the weights in GiB (block counts depend on an unstated GPU)");
    }
    row.measured = measured.at(per_gpu ? "weights_gib_per_gpu" : "weights_gib").get<double>();
    const int tp = setting.value("tensor_parallel", 1);
    request["engine"] = "vllm";
    request["gpus"] = tp;
    request["input_tokens"] = 1;
    request["output_tokens"] = 0;
    row.quantity = "memory.parts.weights per GPU (vLLM 'Loading model weights took', GiB)";
    row.unit = "GiB";
    row.request = request.dump();
    const json response = estimate_json(request);
    if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].dump());
    row.estimated = response["memory"]["parts"]["weights"].get<double>() / kGiB;
    row.used = true;
    return row;
  }

  // Tokens, batch, engine.
  std::int64_t input = setting.value("input_len", std::int64_t{0});
  std::int64_t output = setting.value("output_len", std::int64_t{0});
  if (starts_with(framework, "litgpt")) {
    // litgpt generate/base.py defaults at that commit: prompt "Hello, my name is" (6 Llama/
    // GPT-NeoX tokens with BOS), max_new_tokens 50; the KV cache is sized to prompt + new tokens.
    // Its own Python generation loop keeps nothing the textbook formula misses (engine litgpt
    // sizes memory as generic does), but its GPT holds lm_head apart from the embedding even
    // where the config ties them (Falcon): engine litgpt.
    input = 6;
    output = 50;
    request["engine"] = "litgpt";
    row.notes.push_back("prompt and max_new_tokens not stated: litgpt generate/base.py defaults (\"Hello, my name is\", 50 new tokens)");
  } else if (starts_with(framework, "transformers")) {
    request["engine"] = "transformers";
    const json versions = setting.value("framework_versions", json::object());
    std::string version = string_at(versions, "transformers");
    if (version.empty()) {
      // Qwen1.5 hf_infer.rst (Feb 2024): torch 2.1.2 and FA 2.5.6 listed, transformers not; Qwen1.5
      // needs >= 4.37.0 (its config's transformers_version) and 4.38 was current then: a generate
      // from before 4.42 (tuple cache) and 4.45 (whole-prompt logits) either way.
      version = "4.37";
      row.notes.push_back("transformers version not stated: 4.37 (Qwen1.5's minimum, the release of that time)");
    }
    request["engine_version"] = major_minor(version);
  } else {
    return excluded(row, "framework \"" + string_at(setting, "framework") + "\" is not an engine the core models");
  }
  if (input <= 0) return excluded(row, "input length not stated");
  request["input_tokens"] = input;
  request["output_tokens"] = output;
  request["batch"] = setting.value("batch", 1);

  // Units and what was measured.
  double unit_bytes = kGiB;
  if (measured.contains("gpu_memory_mb")) {
    // Qwen3 speed benchmark prints MB: MiB (2^20), since weights + KV cache alone exceed the
    // value read as 10^6 bytes (Qwen3-0.6B at 1 + 2048 tokens: 1,137 MiB of weights + 224 MiB of
    // cache vs 1,394 printed).
    row.measured = measured.at("gpu_memory_mb").get<double>();
    unit_bytes = kMiB;
    row.unit = "MiB";
  } else if (measured.contains("gpu_memory_gb")) {
    row.measured = measured.at("gpu_memory_gb").get<double>();
    if (contains(row.source, "QwenLM/Qwen2.5")) {
      // Qwen speed benchmark: sum over GPUs of torch.cuda.max_memory_allocated / 1024^3
      // (examples/speed-benchmark/speed_benchmark_transformers.py), printed as "GB".
      unit_bytes = kGiB;
      row.unit = "GiB";
    } else {
      // litgpt: torch.cuda.max_memory_allocated() / 1e9.
      unit_bytes = kGB;
      row.unit = "GB";
    }
  } else {
    return excluded(row, "no memory figure in the row");
  }
  const int gpu_count = setting.value("gpu_count", 1);
  if (gpu_count > 1) {
    // device_map="auto" splits the layers over the GPUs and the benchmark sums each GPU's own
    // peak: every device peaks at a different moment with its own layer temporaries, and
    // accelerate copies the whole-prompt fp32 logits back to the first GPU (io_same_device), so
    // the sum exceeds one device's peak by up to prompt × vocab × 6 B plus a layer's MLP
    // intermediates per extra GPU. The core's `gpus` is tensor parallelism, a different split.
    row.notes.push_back(std::to_string(gpu_count) + " GPUs");
    return excluded(row, "sum of per-GPU peaks of a multi-GPU device_map=auto layer split (not tensor parallelism, which the core's gpus models)");
  }
  request["gpus"] = 1;
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].dump());
  const json& memory = response["memory"];
  const double peak = memory["tensor_peak_bytes"].get<double>() / unit_bytes;
  if (contains(row.source, "getting_started/speed_benchmark.md")) {
    // The Qwen3 table does not state its method, and its numbers are the weights plus the KV
    // cache of the whole context and a near-constant rest (Qwen3-0.6B: +33 MiB at 1, 6144, 14336
    // and 30720 prompt tokens; each step between prompt lengths equals the KV cache of the added
    // tokens to the MiB) with no prefill temporaries — which any peak of a 30720-token prefill
    // holds (the MLP intermediates alone are 3 × tokens × intermediate_size × 2 B, 540 MiB for
    // 0.6B). So it is compared with the resident weights + cache.
    row.quantity = "memory.parts.weights + memory.parts.kv_cache (resident weights and cache; the Qwen3 table shows no prefill temporaries)";
    row.estimated = (memory["parts"]["weights"].get<double>() + memory["parts"]["kv_cache"].get<double>()) / unit_bytes;
    char text[96];
    std::snprintf(text, sizeof text, "tensor peak estimate %.0f %s (%+.1f%% against the printed value)", peak, row.unit.c_str(), 100.0 * (peak - row.measured) / row.measured);
    row.notes.push_back(text);
  } else {
    row.quantity = "memory.tensor_peak_bytes (torch.cuda.max_memory_allocated)";
    row.estimated = peak;
  }
  row.used = true;
  return row;
}

// ---------------------------------------------------------------------------------------------
// Training memory

/** A row of the Unsloth README's max-context tables (unslothai/unsloth@e3162dc README.md): the
 *  longest sequence that trained on a card of `gpu_vram_gb` (read as GiB: cards sold as "8 GB"
 *  carry 8 GiB), 4-bit QLoRA r 32 on all linear layers, batch 1, sequences padded to that length.
 *  The table states no optimizer: Unsloth's notebooks and its README examples train with
 *  optim="adamw_8bit", taken for both columns; its 4-bit checkpoints are NF4 with double
 *  quantization. Unsloth column: framework unsloth (offloaded gradient checkpointing, fused LoRA
 *  kernels, no dropout, Cut Cross-Entropy). "Hugging Face + FA2": transformers + PEFT (fp32
 *  adapters, prepare_model_for_kbit_training), gradient checkpointing, flash attention.
 *  Compared as memory: the estimate at the published longest sequence against the card (a memory
 *  error like every other training row); the longest sequence the estimate allows (the answer's
 *  fit.max_context) is printed beside it. "OOM" cells are verdicts at one token. */
ValidationRow unsloth_context_row(ValidationRow row, const json& r, const std::string& preset) {
  const json& st = r.at("setting");
  const json& measured = r.at("measured");
  if (preset.empty()) return excluded(row, "no preset for " + string_at(r, "model_ref"));
  const bool unsloth = string_at(st, "framework") == "unsloth";
  const std::int64_t capacity = static_cast<std::int64_t>(st.at("gpu_vram_gb").get<double>() * kGiB);
  const bool oom = measured.value("oom", false);
  ojson t;
  t["method"] = "qlora";
  t["quantization"] = "nf4";
  t["lora_rank"] = st.at("lora_rank");
  t["lora_targets"] = st.at("lora_target_modules");
  t["lora_dropout"] = 0.0;
  t["seq_len"] = oom ? 1 : measured.at("max_context_tokens").get<std::int64_t>();
  t["micro_batch"] = st.at("micro_batch");
  t["gradient_checkpointing"] = true;
  t["flash_attention"] = true;
  t["optimizer"] = "adamw-8bit";
  t["precision"] = "mixed-bf16";
  t["framework"] = unsloth ? "unsloth" : "trainer";
  ojson request;
  request["model"] = preset;
  request["task"] = "training";
  request["gpus"] = 1;
  request["training"] = t;
  if (oom) return oom_verdict(row, request, capacity);
  request["budget_bytes"] = capacity;
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].value("message", std::string()));
  row.measured = static_cast<double>(capacity) / kGB;
  row.unit = "GB";
  row.quantity = "memory.device_bytes at the published longest sequence, against the card's memory";
  row.estimated = response["memory"]["device_bytes"].get<double>() / kGB;
  const std::int64_t published = measured.at("max_context_tokens").get<std::int64_t>();
  const std::int64_t estimated_context = response.contains("fit") ? response["fit"].value("max_context", std::int64_t{0}) : 0;
  char text[160];
  std::snprintf(text, sizeof text, "longest sequence: published %lld tokens, estimated %lld (%+.1f%%)", static_cast<long long>(published),
                static_cast<long long>(estimated_context), 100.0 * static_cast<double>(estimated_context - published) / static_cast<double>(published));
  row.notes.push_back(text);
  row.used = true;
  return row;
}

/** A training row as its source ran it.
 *  - Qwen-1 README rows ("Profiling of Memory and Speed", QwenLM/Qwen@712d922) come from Qwen's
 *    finetune.py and finetune/ scripts. LoRA (finetune_lora_single_gpu.sh): no DeepSpeed; Qwen's
 *    remote code loads the model in bf16 on A100 and the HF Trainer steps torch AdamW on bf16
 *    parameters (pure bf16); peft 0.5 (pinned for PyTorch 2.0) makes fp32 adapters; r 64, dropout 0.05,
 *    c_attn/c_proj/w1/w2; "LoRA (emb)" also trains wte and lm_head copies. Q-LoRA
 *    (finetune_qlora_single_gpu.sh): GPTQ-Int4 base, fp16, DeepSpeed ZeRO-2. Full (finetune_ds.sh):
 *    bf16 with DeepSpeed ZeRO-2. Both use finetune/ds_config_zero2.json: reduce_bucket_size 2e8,
 *    overlap_comm true. modeling_qwen.py computes CrossEntropyLoss on the 16-bit logits; the HF
 *    Trainer runs the forward under torch autocast (cross_entropy then in fp32) except under DeepSpeed.
 *  - litgpt rows (tutorials/resource-tables.md, finetune/lora.py): bf16-true (weights, adapters
 *    and AdamW states in bf16), r 8 on query and value, dropout 0.05, cross-entropy on 16-bit
 *    logit chunks, the longest Alpaca sample (1304 tokens for Llama 2) in the first micro-batch;
 *    --quantize bnb.nf4[-dq] with bnb PagedAdamW; FSDP with block checkpointing on several GPUs;
 *    the peak printed is torch.cuda.max_memory_allocated() / 1e9. */
ValidationRow training_row(const json& r) {
  ValidationRow row = row_for(r, "training");
  const json& st = r.at("setting");
  const json& measured = r.at("measured");
  const std::string ref = string_at(r, "model_ref");
  if (starts_with(ref, "bigscience/") && !measured.value("oom", false)) {
    return excluded(row, std::string("PEFT README table: sequence length, batch, precision and LoRA rank not stated") +
                             (ref == "bigscience/bloomz-7b1" ? "" : "; encoder-decoder model (not modelled)"));
  }
  const EmbeddedDocument* doc = find_validation_document("training");
  const json models = doc != nullptr ? json::parse(doc->json.begin(), doc->json.end()).value("models", json::object()) : json::object();
  const std::string preset = preset_for(ref);
  const bool has_config = models.contains(ref) && (models[ref].contains("config") || models[ref].contains("params_stated"));
  if (preset.empty() && !has_config) return excluded(row, "no preset or architecture for " + ref);

  const bool litgpt = starts_with(string_at(st, "framework"), "litgpt");
  const bool unsloth_table = contains(row.source, "unslothai/unsloth");
  const std::string method = string_at(st, "method");
  ojson t;
  if (unsloth_table) return unsloth_context_row(row, r, preset);
  if (starts_with(ref, "bigscience/")) {
    // PEFT README OOM cells: full fine-tuning; the table states no sequence length or batch: the
    // smallest (1 token, batch 1) is the test's lower bound, mixed precision with AdamW.
    t["method"] = "full";
    t["seq_len"] = 1;
    t["micro_batch"] = 1;
    t["precision"] = "fp32";  // the README's accelerate config: mixed_precision no
  } else {
    t["seq_len"] = st.at("seq_len");
    t["micro_batch"] = st.at("micro_batch");
    t["gradient_accumulation"] = st.value("gradient_accumulation", 1);
    t["gradient_checkpointing"] = st.value("grad_checkpointing", false);
    t["flash_attention"] = litgpt || string_at(st, "attention") == "flash_attention_2";
    t["optimizer"] = "adamw";
  }
  if (litgpt) {
    const bool qlora = method == "qlora";
    t["framework"] = "litgpt";
    t["method"] = qlora ? "qlora" : "lora";
    t["precision"] = "bf16";
    t["lora_rank"] = st.at("lora_rank");
    t["lora_targets"] = {"q_proj", "v_proj"};  // litgpt to_query / to_value
    t["lora_dropout"] = st.value("lora_dropout", 0.0);
    t["adapter_dtype"] = "base";
    t["loss_dtype"] = "16-bit";
    if (qlora) {
      t["quantization"] = contains(string_at(st, "quantization"), "dq") ? "nf4" : "nf4-no-double-quant";
      t["optimizer"] = "paged-adamw";
    }
  } else if (starts_with(ref, "bigscience/")) {
  } else if (method == "full") {
    t["method"] = "full";
    t["precision"] = "mixed-bf16";
    t["framework"] = "deepspeed";
    t["zero_stage"] = 2;
    t["reduce_bucket_size"] = 2e8;
    t["overlap_comm"] = true;
    t["loss_dtype"] = "16-bit";
  } else {
    const bool qlora = starts_with(method, "qlora");
    t["method"] = qlora ? "qlora" : "lora";
    t["lora_rank"] = st.at("lora_rank");
    t["lora_targets"] = st.at("lora_target_modules");
    t["lora_dropout"] = st.value("lora_dropout", 0.0);
    // The README profiles with PyTorch 2.0, for which it pins peft >= 0.5.0, < 0.6.0 (README,
    // "torch>=2.0,<2.1 ... peft>=0.5.0,<0.6.0"). peft 0.5 creates lora_A/lora_B as nn.Linear in
    // the default dtype and moves them to the base weight's device only (tuners/lora.py
    // LoraLayer.update_layer: self.to(self.weight.device)): fp32 adapters, grads and AdamW states.
    // Under DeepSpeed fp16 (Q-LoRA) the engine casts the whole module to fp16 (module.half()):
    // adapters in the base dtype with DeepSpeed's fp32 master partition.
    t["adapter_dtype"] = qlora ? "base" : "fp32";
    t["train_embeddings"] = contains(method, "trainable_embedding");
    if (qlora) {
      t["quantization"] = "gptq-int4";
      t["precision"] = "mixed-fp16";
      t["framework"] = "deepspeed";
      t["zero_stage"] = 2;
      t["reduce_bucket_size"] = 2e8;
      t["overlap_comm"] = true;
      t["loss_dtype"] = "16-bit";
    } else {
      t["precision"] = "bf16";
    }
  }
  ojson request;
  if (!preset.empty()) {
    request["model"] = preset;
  } else if (models[ref].contains("config")) {
    request["model"] = {{"config", models[ref]["config"]}};
  } else {
    request["model"] = {{"params", models[ref]["params_stated"]}};
  }
  request["task"] = "training";
  request["gpus"] = st.value("gpu_count", 1);
  request["training"] = t;
  if (measured.value("oom", false)) return oom_verdict(row, request, gpu_capacity_bytes(st, measured));
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].value("message", std::string()));
  row.measured = measured.at("gpu_memory_gb").get<double>();
  row.unit = "GB";
  if (litgpt) {
    row.quantity = "memory.tensor_peak_bytes (torch.cuda.max_memory_allocated() / 1e9, per GPU)";
    row.estimated = response["memory"]["tensor_peak_bytes"].get<double>() / kGB;
  } else {
    // The README prints "G" without its method: compared as decimal GB with the device total
    // (tensors + CUDA context), what nvidia-smi shows.
    row.quantity = "memory.device_bytes (method not stated; read as what nvidia-smi shows)";
    row.estimated = response["memory"]["device_bytes"].get<double>() / kGB;
  }
  row.used = true;
  return row;
}

// ---------------------------------------------------------------------------------------------
// File sizes (GGUF/ggml): the row's model and llama.cpp quantization type → disk_bytes.

/// model_ref → preset for the file-size rows. LLaMA (v1) 7B/13B have Llama 2 7B/13B's shapes
/// (hidden 4096/5120, 32/40 layers, MLP 11008/13824, vocab 32000, untied; only the context length
/// differs, which does not change the weights); the Llama 3.1 instruct presets share the base
/// models' shapes.
std::string file_size_preset(const std::string& model_ref) {
  static const std::map<std::string, std::string> kAliases = {
      {"llama-3.1-8b", "llama-3.1-8b-instruct"}, {"llama-3.1-70b", "llama-3.1-70b-instruct"},
      {"llama-3.1-405b", "llama-3.1-405b-instruct"}, {"llama-7b", "llama-2-7b-hf"}, {"llama-13b", "llama-2-13b-hf"}};
  const auto alias = kAliases.find(ascii_lower(model_ref));
  return alias != kAliases.end() ? alias->second : preset_for(model_ref);
}

/// Rows left out, by id prefix, with the reason. The first is flagged by the rows' own notes; the
/// others are not, and are left out for the evidence given (llmsizer validate prints them).
const std::pair<const char*, const char*> kFileSizeExcluded[] = {
    {"llamacpp-old-readme-", "notes: size printed with a bare 'G' (GB or GiB not stated) to 2 significant digits, pre-GGUF ggml files, table later marked outdated upstream"},
    {"llamacpp-ppl-scoreboard-llama3-8b-q2-k-s", "the scoreboard repeats q2_K's 2.96 GiB; llama.cpp tools/quantize/README.md (f4a71e70) gives Q2_K_S 2.78 GiB vs Q2_K 2.95 GiB for Llama-3.1-8B (same shapes)"},
    {"llamacpp-quantize-readme-diskreq-llama-3-1-405b-q4-k-m", "the table's sizes are not exact: its 70B 'original' 280.9 GB is below the 70,553,706,496 parameters × 4 B = 282.2 GB such a file must hold, and its 70B Q4_K_M 43.1 GB is above the 42.52 GB of published files (12 published Llama-3.1-70B files are matched within 1%, tests/quantization_test.cpp); Q4_K_M files of Llama-3.1-405B-Instruct are listed at 243.0 GB (bartowski/Meta-Llama-3.1-405B-Instruct-GGUF) and 243 GB (ollama llama3.1:405b-instruct-q4_K_M), where the estimate is 243.07 GB"},
};

/// Rows measured on files made by an older llama.cpp whose mix for the type differs from today's:
/// the row is checked against that mix (a weight format of its own) and says so.
struct OlderMix {
  const char* id_prefix;
  const char* type;
  const char* format;
  const char* why;
};
const OlderMix kOlderMixes[] = {
    {"llamacpp-examples-quantize-llama-2-", "q2_k", "q2_k_2023",
     "the Llama 2 bits-per-weight table dates from 2023 (its other types match today's mixes; its Q2_K is the "
     "mix of llama.cpp PR #2707/#2807, replaced by PR #5060 in 2024-01): checked against format q2_k_2023"},
};

ValidationRow file_size_row(const json& r) {
  ValidationRow row = row_for(r, "file_size");
  const std::string preset = file_size_preset(string_at(r, "model_ref"));
  if (preset.empty()) return excluded(row, "no preset for " + string_at(r, "model_ref") + " in data/models");
  std::string type = ascii_lower(string_at(r.at("setting"), "quant_type"));
  if (starts_with(type, "original")) {
    // The README does not name the dtype; 32.1 GB for 8.03e9 parameters is 4 B each (the notes).
    type = "gguf-f32";
    row.notes.push_back("'original' read as F32 (4 bytes per parameter), as the row's notes suggest");
  } else if (type == "f16") {
    type = "gguf-f16";
  }
  for (const auto& older : kOlderMixes) {
    if (starts_with(row.id, older.id_prefix) && type == older.type) {
      type = older.format;
      row.notes.push_back(older.why);
    }
  }
  if (find_weight_format(type) == nullptr) return excluded(row, "quantization type \"" + type + "\" has no weight format");
  ojson request;
  request["model"] = preset;
  request["weights"] = type;
  request["engine"] = "llama.cpp";
  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].dump());
  const double disk = response["disk_bytes"].get<double>();
  const json& measured = r.at("measured");
  if (measured.contains("file_size_gb")) {
    row.measured = measured["file_size_gb"].get<double>();
    row.estimated = disk / kGB;
    row.unit = "GB";
    row.quantity = "disk_bytes";
  } else if (measured.contains("file_size_gib")) {
    row.measured = measured["file_size_gib"].get<double>();
    row.estimated = disk / kGiB;
    row.unit = "GiB";
    row.quantity = "disk_bytes";
  } else if (measured.contains("bits_per_weight")) {
    // The README's bits per weight of the whole file: file bytes × 8 / parameters.
    row.measured = measured["bits_per_weight"].get<double>();
    row.estimated = disk * 8.0 / response["model"]["params"].get<double>();
    row.unit = "bpw";
    row.quantity = "disk_bytes × 8 / params";
  } else if (measured.contains("file_size_as_printed")) {
    // "13.0G": GB or GiB not stated; read as GiB, the closer reading (printed only: excluded).
    const std::string printed = string_at(measured, "file_size_as_printed");
    row.measured = std::atof(printed.c_str());
    row.estimated = disk / kGiB;
    row.unit = "G (read as GiB)";
    row.quantity = "disk_bytes";
  } else {
    return excluded(row, "no file size in the row");
  }
  for (const auto& [prefix, reason] : kFileSizeExcluded) {
    if (!starts_with(row.id, prefix)) continue;
    char text[128];
    std::snprintf(text, sizeof text, "estimate %.3f vs %.3f %s (%+.2f%%), not counted", row.estimated, row.measured, row.unit.c_str(),
                  100.0 * (row.estimated - row.measured) / row.measured);
    row.notes.push_back(text);
    return excluded(row, reason);
  }
  row.used = true;
  return row;
}
// ---------------------------------------------------------------------------------------------
// Generation speed. Rows come from speed.json and from the memory rows of inference.json that
// also print tokens/s (the Qwen transformers tables, litgpt). Each source defines its rate:
// - Qwen2.5 docs (speed_benchmark.rst, hf_infer.rst): output_len / wall time of one generate call
//   at batch 1, prefill included (examples/speed-benchmark/speed_benchmark_transformers.py and
//   _vllm.py: tokens_per_second = GENERATE_LENGTH_PER_EXPERIMENT / time_cost);
// - Qwen3 table (getting_started/speed_benchmark.md, "Notes"): (prompt tokens + generated tokens)
//   / time;
// - litgpt generate/base.py: tokens generated / wall time of generate() (prefill included).
// The estimate's throughput.generation_tokens_per_s is output tokens / (time to first token + every
// decode step); the Qwen3 rate is that × (input + output) / output.

/// Engine of a speed row's framework; "" when the core has none.
std::string speed_engine(const std::string& framework) {
  const std::string f = ascii_lower(framework);
  if (starts_with(f, "vllm")) return "vllm";
  if (starts_with(f, "sglang")) return "sglang";
  if (starts_with(f, "litgpt")) return "litgpt";
  if (starts_with(f, "autoawq")) return "autoawq";
  if (f == "transformers") return "transformers";
  return "";
}

/// A row of llama-bench (llama.cpp's benchmark tool): one test of one model file on one device.
/// llama-bench times each test apart after a warm-up run (tools/llama-bench/llama-bench.cpp,
/// test_prompt / test_gen): "pp<n>" decodes a prompt of n tokens in one batch (n_batch 2048,
/// n_ubatch 512: one micro-batch for pp512) and prints n / its time; "tg<n>" clears the cache and
/// decodes n tokens one at a time from an empty context, printing n / their time. It samples
/// nothing (no sampler is built). So pp<n> is the estimate's prefill rate of an n-token prompt, and
/// tg<n> its decode rate over a context growing from 0 to n (throughput.decode_tokens_per_s_total,
/// taken at the middle of the generation, which for a cost linear in the context is the mean).
/// `-ngl 99` puts every layer on the GPU (the estimate's default for a model that fits).
ValidationRow llama_bench_row(ValidationRow row, const json& r, const SpeedCalibration* calibration) {
  const json& setting = r.at("setting");
  ojson request;
  const std::string preset = preset_for(string_at(r, "model_ref"));
  if (preset.empty()) return excluded(row, "no preset for " + string_at(r, "model_ref") + " in data/models");
  request["model"] = preset;
  // The GGUF file's type is the weight format (F16 files: gguf-f16, the file's own layout).
  std::string weights = ascii_lower(string_at(setting, "quantization"));
  if (weights == "f16") weights = "gguf-f16";
  if (find_weight_format(weights) == nullptr) return excluded(row, "GGUF type \"" + string_at(setting, "quantization") + "\" has no weight format");
  request["weights"] = weights;
  request["engine"] = "llama.cpp";
  // The device as the table names it: "Apple M2 Max" -> apple-m2-max (the entry holds the chip's
  // full GPU; rows of binned parts carry their excluded_reason in the file), "RTX 4090" ->
  // nvidia-rtx-4090, "DGX Spark (GB10)" -> nvidia-dgx-spark, "A100 80GB" (form factor not stated)
  // -> the SXM entry, as for the serving rows.
  const std::string gpu = string_at(setting, "gpu");
  std::string hardware = ascii_lower(gpu);
  std::replace(hardware.begin(), hardware.end(), ' ', '-');
  if (contains(hardware, "dgx-spark")) hardware = "nvidia-dgx-spark";
  if (contains(hardware, "a100-80gb")) {
    hardware = "nvidia-a100-80gb-sxm";
    row.notes.push_back("A100 80GB form factor not stated: the SXM entry (2039 GB/s; the PCIe card has 1935 GB/s)");
  }
  if (find_embedded_document("hardware", hardware) == nullptr && starts_with(hardware, "rtx-")) hardware = "nvidia-" + hardware;
  if (find_embedded_document("hardware", hardware) == nullptr) return excluded(row, "GPU \"" + gpu + "\" not in the catalog");
  request["hardware"] = hardware;
  request["flash_attention"] = setting.value("flash_attention", false);
  const std::string test = string_at(setting, "test");
  const bool prompt = starts_with(test, "pp");
  const std::int64_t tokens = std::atoll(test.c_str() + 2);
  if ((!prompt && !starts_with(test, "tg")) || tokens <= 0) return excluded(row, "llama-bench test \"" + test + "\" is neither pp<n> nor tg<n>");
  // "tg<n> @ d<depth>": the cache is first filled with depth tokens (untimed), then n tokens are
  // decoded: the estimate's decode after a prompt of depth tokens.
  const std::int64_t depth = setting.value("depth", std::int64_t{0});
  // The request's prompt has at least one token: tg<n> from an empty cache takes its first decoded
  // token as the one-token prompt and n more follow (one step more than the test times, at a
  // context 1 longer: below 1% of a 7B step's cache traffic at these lengths).
  request["input_tokens"] = prompt ? tokens : std::max<std::int64_t>(depth, 1);
  request["output_tokens"] = prompt ? std::int64_t{1} : tokens;
  request["batch"] = 1;
  request["gpus"] = 1;
  row.unit = "tokens/s";
  row.request = request.dump();
  row.notes.push_back("GPU taken as " + hardware);
  const json response = estimate_json(request, calibration);
  if (response.contains("error")) return excluded(row, "estimate error: " + response["error"].dump());
  const json& throughput = response["throughput"];
  const char* figure = prompt ? "prefill_tokens_per_s" : "decode_tokens_per_s_total";
  if (!throughput[figure].is_number()) return excluded(row, "no speed estimate for this hardware");
  row.measured = r.at("measured").at("tokens_per_s").get<double>();
  row.estimated = throughput[figure].get<double>();
  row.quantity = prompt ? "throughput.prefill_tokens_per_s (llama-bench pp<n>: prompt tokens / time of the prompt's decode)"
                        : "throughput.decode_tokens_per_s_total (llama-bench tg<n>: tokens / time of n single-token decodes after the test's depth)";
  row.used = true;
  return row;
}

/// The speed rows of one measured row: its generation (or steady decode) rate, and its prefill
/// rate where the source printed one (AutoAWQ README); with `calibration`, estimated with those
/// speed constants in place of the cited ones.
std::vector<ValidationRow> speed_rows(const json& r, const SpeedCalibration* calibration = nullptr) {
  ValidationRow row = row_for(r, "speed");
  const json& setting = r.at("setting");
  const json& measured = r.at("measured");
  if (measured.contains("requests_per_s")) {
    return {excluded(row, "offline batched throughput of many prompts (vLLM benchmark_throughput.py): not one sequence's speed, batch not stated")};
  }
  if (contains(row.source, "QwenLM/Qwen/")) {
    return {excluded(row, "first-generation Qwen README: speed averaged over encoded and generated tokens, input length not stated, no preset")};
  }
  // A row the data file itself leaves out (a device the catalog does not hold) keeps its reason.
  if (!string_at(r, "excluded_reason").empty()) return {excluded(row, string_at(r, "excluded_reason"))};
  if (starts_with(ascii_lower(string_at(setting, "framework")), "llama.cpp")) return {llama_bench_row(row, r, calibration)};
  const std::string engine = speed_engine(string_at(setting, "framework"));
  if (engine.empty()) return {excluded(row, "framework \"" + string_at(setting, "framework") + "\" is not an engine the core models")};
  ojson request;
  if (const std::string why = model_and_weights(r, row, request); !why.empty()) return {excluded(row, why)};
  const std::string gpu = catalog_gpu(string_at(setting, "gpu"));
  if (gpu.empty()) return {excluded(row, "GPU \"" + string_at(setting, "gpu") + "\" not in the catalog")};
  if (string_at(setting, "awq_kernel") == "GEMV") {
    return {excluded(row, "AWQ GEMV checkpoint (quant_config version GEMV: its own packing and CUDA-core kernels, slow for prompts and batches); the core's awq-int4 is the GEMM packing")};
  }
  request["engine"] = engine;
  std::int64_t input = setting.value("input_len", setting.value("prefill_len", std::int64_t{1}));
  std::int64_t output = setting.value("output_len", setting.value("decode_len", std::int64_t{1}));
  if (engine == "litgpt") {
    // generate/base.py defaults at that commit: prompt "Hello, my name is" (6 tokens with BOS),
    // max_new_tokens 50 (the table states neither).
    input = 6;
    output = 50;
    row.notes.push_back("prompt and max_new_tokens not stated: litgpt generate/base.py defaults (6-token prompt, 50 new tokens)");
  }
  if (engine == "transformers") {
    const json versions = setting.value("framework_versions", json::object());
    std::string version = string_at(versions, "transformers");
    if (version.empty()) {
      version = "4.37";  // Qwen1.5 hf_infer.rst: not stated; Qwen1.5's minimum, current in Feb 2024 (as for memory)
      row.notes.push_back("transformers version not stated: 4.37");
    }
    request["engine_version"] = major_minor(version);
    // The Qwen3 table's AWQ rows ran in its "Software for AutoAWQ" environment (PyTorch 2.6.0+cu124,
    // Transformers 4.51.3, AutoAWQ 0.2.9, AutoAWQ_kernels 0.0.9: no Flash Attention, which the other
    // environment lists), where examples/speed-benchmark/speed_benchmark_transformers.py can only
    // load the model with its other attention, attn_implementation='eager' (flash_attention_2 needs
    // the flash_attn package): repeat_kv and materialised scores.
    const bool awq = contains(string_at(setting, "quantization"), "awq") || contains(ascii_lower(string_at(r, "model_ref")), "-awq");
    if (versions.contains("autoawq_env") && awq) {
      request["flash_attention"] = false;
      row.notes.push_back("AutoAWQ environment without flash-attn: the benchmark's eager attention");
    }
  }
  if (engine == "vllm") {
    // vLLM's host time per step depends on its engine (V0 before 0.8, V1 after: serve_engine.hpp);
    // the Qwen2 vLLM table ran 0.4.2.
    const std::string version = string_at(setting.value("framework_versions", json::object()), "vllm");
    if (!version.empty() && std::isdigit(static_cast<unsigned char>(version[0]))) request["engine_version"] = major_minor(version);
  }
  const std::int64_t batch = setting.value("batch", std::int64_t{1});
  request["input_tokens"] = input;
  request["output_tokens"] = output;
  request["batch"] = batch;
  request["gpus"] = setting.value("gpu_count", setting.value("tensor_parallel", 1));
  request["hardware"] = gpu;
  const json engine_args = setting.value("vllm_engine_args", json::object());
  if (engine_args.value("enforce_eager", false)) request["enforce_eager"] = true;
  row.unit = "tokens/s";
  row.request = request.dump();
  row.notes.push_back("GPU taken as " + gpu);
  const json response = estimate_json(request, calibration);
  if (response.contains("error")) return {excluded(row, "estimate error: " + response["error"].dump())};
  const json& throughput = response["throughput"];
  if (!throughput["generation_tokens_per_s"].is_number()) return {excluded(row, "no speed estimate for this hardware")};

  if (measured.contains("decode_tokens_per_s")) {
    // AutoAWQ examples/benchmark.py: prefill and decode timed apart, batch × tokens / time.
    ValidationRow decode = row;
    decode.measured = measured.at("decode_tokens_per_s").get<double>();
    decode.estimated = throughput["decode_tokens_per_s_total"].get<double>();
    decode.quantity = "throughput.decode_tokens_per_s_total (batch × decode steps / their time, at the middle of the generation)";
    decode.used = true;
    ValidationRow prefill = row;
    prefill.id += "-prefill";
    prefill.measured = measured.at("prefill_tokens_per_s").get<double>();
    prefill.estimated = throughput["prefill_tokens_per_s"].get<double>();
    prefill.quantity = "throughput.prefill_tokens_per_s (batch × prompt tokens / time of the prompt forward)";
    prefill.used = true;
    return {decode, prefill};
  }
  // Rows with and without flash attention 2 (Qwen1.5 hf_infer): the FA2 figure.
  const char* key = measured.contains("tokens_per_s") ? "tokens_per_s" : "tokens_per_s_with_fa2";
  if (!measured.contains(key)) return {excluded(row, "no tokens/s figure")};
  row.measured = measured.at(key).get<double>();
  const bool prompt_counted = contains(row.source, "getting_started/speed_benchmark.md");
  row.quantity = prompt_counted ? "throughput.generation_tokens_per_s × (input + output) / output (the Qwen3 table counts prompt and generated tokens over the wall time)"
                                : "throughput.generation_tokens_per_s (output tokens / generate wall time, prefill included)";
  row.estimated = throughput["generation_tokens_per_s"].get<double>();
  if (prompt_counted) row.estimated *= static_cast<double>(input + output) / static_cast<double>(output);
  row.used = true;
  return {row};
}

// ---------------------------------------------------------------------------------------------
// Serving under load (data/validation/serving.json). Each row names a model, its precision, an
// engine and version, a GPU and layout, a workload and a load as the benchmark gave it; it becomes
// one `task: "serve"` request through the JSON edge, and every metric the row printed that the
// answer also has becomes its own comparison (id "<row id>/<metric>"), so that throughput, TTFT,
// TPOT/ITL and end-to-end time each get their own medians. Nothing here is chosen per row: the
// mapping rules below apply to every row of a kind of benchmark, and a row they cannot express is
// excluded with its reason.

/// "Owner/repo@commit:path" (a serving row's `source_ref`) → the file's URL at that commit.
std::string serving_source_url(const std::string& source_ref) {
  const std::size_t at = source_ref.find('@');
  const std::size_t colon = source_ref.find(':', at == std::string::npos ? 0 : at);
  if (at == std::string::npos || colon == std::string::npos) return source_ref;
  return "https://github.com/" + source_ref.substr(0, at) + "/blob/" + source_ref.substr(at + 1, colon - at - 1) + "/" +
         source_ref.substr(colon + 1);
}

/// The preset (and for GGUF files the weight format) of a serving row's model name.
struct ServingModel {
  std::string preset;
  std::string weights;  ///< set for GGUF files (their quantization is part of the name)
  std::string note;
};

ServingModel serving_model(const std::string& name) {
  const std::string m = ascii_lower(name);
  // ggml-org GGUF files of llama.cpp's DGX Spark bench: the file's type is the weight format.
  if (contains(m, "gpt-oss-20b")) return {"gpt-oss-20b", "mxfp4_moe", "GGUF MXFP4_MOE file (experts MXFP4, the rest Q8_0) as weights mxfp4_moe"};
  if (contains(m, "gpt-oss-120b")) return {"gpt-oss-120b", "mxfp4_moe", "GGUF MXFP4_MOE file (experts MXFP4, the rest Q8_0) as weights mxfp4_moe"};
  if (contains(m, "qwen3-coder-30b-a3b")) return {"qwen3-coder-30b-a3b-instruct", "q8_0", ""};
  if (contains(m, "qwen2.5-coder-7b")) {
    return {"qwen2.5-7b", "q8_0",
            "Qwen2.5-Coder-7B has no preset; it has the architecture of Qwen2.5-7B (qwen2: 28 layers, hidden 3584, 28 query / 4 KV "
            "heads, intermediate 18944, vocabulary 152,064), whose preset is used"};
  }
  if (contains(m, "gemma-3-4b-it")) return {"gemma-3-4b-it", "q4_0", "QAT Q4_0 GGUF file as weights q4_0"};
  if (contains(m, "llama-3.3-70b")) return {"llama-3.3-70b-instruct", "", ""};
  if (contains(m, "minimax m2.5")) return {"minimax-m2.5", "", ""};
  if (contains(m, "nemotron nano 30b")) {
    return {"nvidia-nemotron-3-nano-30b-a3b-bf16", "",
            "\"Nemotron Nano 30B\" (30B total, 3B active, hybrid Mamba-Transformer MoE) as NVIDIA-Nemotron-3-Nano-30B-A3B, whose BF16 preset "
            "holds the architecture (the row's precision is the weight format)"};
  }
  if (contains(m, "mixtral 8x22b")) return {"mixtral-8x22b-v0.1", "", ""};
  if (contains(m, "mixtral 8x7b")) return {"mixtral-8x7b-v0.1", "", ""};
  if (contains(m, "mistral 7b")) return {"mistral-7b-v0.1", "", "\"Mistral 7B\" as Mistral-7B-v0.1 (v0.2/v0.3 differ in vocabulary and sliding window only)"};
  if (starts_with(m, "llama2-")) {
    const std::string size = m.substr(7);  // "7b", "13b", "70b"
    return {"llama-2-" + size + "-hf", "", "the -chat model the benchmark config names has the architecture of the base preset"};
  }
  if (contains(m, "llama") && contains(m, "3.1")) {
    for (const char* size : {"405b", "70b", "8b"}) {
      if (contains(m, std::string(" ") + size)) {
        return {std::string("llama-3.1-") + size + "-instruct", "", "Llama 3.1 base and Instruct share the architecture: the Instruct preset"};
      }
    }
  }
  return {};
}

/// The catalog entry of a serving row's GPU (`gpu_normalized`), with the assumption made, if any.
/// Returns "" when the catalog has no such GPU.
std::string serving_hardware(const std::string& normalized, const std::string& printed, std::string& note) {
  const std::string g = ascii_lower(normalized);
  auto present = [](const std::string& id) { return find_embedded_document("hardware", id) != nullptr ? id : std::string(); };
  if (g == "h200") {
    if (contains(printed, "131GB")) note = "GPU printed \"H200 131GB HBM3\" (the H200 is a 141 GB part): the H200 SXM entry";
    return present("nvidia-h200-sxm");
  }
  if (g == "h100-sxm") return present("nvidia-h100-sxm");
  if (starts_with(g, "h100")) {
    note = "H100 form factor not stated: the SXM entry (the 80 GB HBM3 part of a multi-GPU server)";
    return present("nvidia-h100-sxm");
  }
  if (g == "gh200") {
    // "GH200 480GB": the superchip with 480 GB of LPDDR5X and the 96 GB HBM3 Hopper GPU.
    if (contains(printed, "480GB")) note = "\"GH200 480GB\" is the 96 GB HBM3 part (480 GB is the Grace CPU's LPDDR5X): nvidia-gh200";
    return present("nvidia-gh200");
  }
  if (g == "l40s") return present("nvidia-l40s");
  if (g == "b200") return present("nvidia-b200");
  if (starts_with(g, "a100-80gb")) {
    if (contains(g, "not stated")) note = "A100 80GB form factor not stated: the SXM entry (2039 GB/s; the PCIe card has 1935 GB/s)";
    return present("nvidia-a100-80gb-sxm");
  }
  if (g == "mi300x") return present("amd-mi300x");
  if (starts_with(g, "gb10")) {
    // The DGX Spark (GB10) entry, under whichever id the catalog gives it.
    for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
      if (doc->kind != "hardware") continue;
      const std::string id(doc->id);
      if (contains(id, "gb10") || contains(id, "dgx-spark")) return id;
    }
  }
  return "";
}

/// The core's engine id of a serving row's engine text.
std::string serving_engine(const std::string& text) {
  const std::string e = ascii_lower(text);
  if (contains(e, "tensorrt")) return "tensorrt-llm";  // also "NVIDIA NIM (TensorRT-LLM profile)"
  if (contains(e, "lmdeploy")) return "lmdeploy";
  if (contains(e, "sglang")) return "sglang";
  if (contains(e, "vllm")) return "vllm";
  if (contains(e, "llama.cpp")) return "llama.cpp";
  return "";
}

/// One metric a serving row may print: the answer's figure it is compared with, in the row's unit.
struct ServingMetric {
  const char* key;       ///< the row's `metrics` member
  const char* group;     ///< the report's metric group (throughput groups are renamed at a set request rate)
  const char* figure;    ///< member of the answer's `serving`
  const char* stat;      ///< member of that figure ({mean, p50, p90, p99}), or nullptr for a number
  double scale;          ///< answer unit → row unit
  const char* unit;
  const char* quantity;  ///< what is compared, for the report
};

// Units: the answer gives times to first token, per output token and between tokens in ms, the
// end-to-end latency and the simulated duration in s; each row's `_ms` / `_s` suffix is its unit.
const ServingMetric kServingMetrics[] = {
    {"output_tokens_per_s", "output_throughput", "output_tokens_per_s", nullptr, 1.0, "tokens/s", "serving.output_tokens_per_s"},
    {"tokens_per_s_total_or_output_unspecified", "output_throughput", "output_tokens_per_s", nullptr, 1.0, "tokens/s",
     "serving.output_tokens_per_s (the row does not say whether it is total or output tokens/s: ambiguous, see the notes)"},
    {"total_tokens_per_s", "total_throughput", "total_tokens_per_s", nullptr, 1.0, "tokens/s", "serving.total_tokens_per_s"},
    {"requests_per_s", "request_throughput", "requests_per_s", nullptr, 1.0, "requests/s", "serving.requests_per_s"},
    {"ttft_mean_ms", "ttft", "ttft_ms", "mean", 1.0, "ms", "serving.ttft_ms.mean"},
    {"ttft_mean_s", "ttft", "ttft_ms", "mean", 1e-3, "s", "serving.ttft_ms.mean / 1000"},
    {"ttft_p50_ms", "ttft", "ttft_ms", "p50", 1.0, "ms", "serving.ttft_ms.p50"},
    {"itl_mean_ms", "tpot_itl", "itl_ms", "mean", 1.0, "ms", "serving.itl_ms.mean"},
    {"itl_p50_ms", "tpot_itl", "itl_ms", "p50", 1.0, "ms", "serving.itl_ms.p50"},
    {"tpot_p50_ms", "tpot_itl", "tpot_ms", "p50", 1.0, "ms", "serving.tpot_ms.p50"},
    {"itl_p99_ms", "tpot_itl", "itl_ms", "p99", 1.0, "ms", "serving.itl_ms.p99"},
    // Pages that print "TTFT (ms)" or "TPOT (ms)" without saying mean or median (the benchmark tools
    // print both): compared with the mean, and approximate.
    {"ttft_ms_statistic_unspecified", "ttft", "ttft_ms", "mean", 1.0, "ms", "serving.ttft_ms.mean (the page does not say mean or median)"},
    {"itl_ms_statistic_unspecified", "tpot_itl", "itl_ms", "mean", 1.0, "ms", "serving.itl_ms.mean (the page does not say mean or median)"},
    {"tpot_ms_statistic_unspecified", "tpot_itl", "tpot_ms", "mean", 1.0, "ms", "serving.tpot_ms.mean (the page does not say mean or median)"},
    // LMDeploy profile_generation / profile_throughput: percentiles of the per-token latency (the
    // time between a request's successive tokens): the answer's inter-token latency percentiles.
    {"token_latency_p50_s", "tpot_itl", "itl_ms", "p50", 1e-3, "s", "serving.itl_ms.p50 / 1000 (LMDeploy per-token latency percentile)"},
    {"token_latency_p99_s", "tpot_itl", "itl_ms", "p99", 1e-3, "s", "serving.itl_ms.p99 / 1000 (LMDeploy per-token latency percentile)"},
    {"e2e_latency_p50_ms", "e2e", "e2e_latency_s", "p50", 1e3, "ms", "serving.e2e_latency_s.p50 × 1000"},
    // vLLM benchmark_latency.py times one llm.generate of the whole batch (every sequence starts at
    // once with the same lengths): the simulated duration. llama-batched-bench's T is the same.
    {"e2e_latency_s", "e2e", "duration_s", nullptr, 1.0, "s", "serving.duration_s (the batch's generate, all sequences started together)"},
    {"batch_latency_mean_ms", "e2e", "duration_s", nullptr, 1e3, "ms", "serving.duration_s × 1000 (benchmark_latency's mean over its timed generates of the batch)"},
    {"total_time_s", "e2e", "duration_s", nullptr, 1.0, "s", "serving.duration_s (llama-batched-bench T = T_PP + T_TG)"},
};

/// The comparisons of one serving row (one per metric the answer has), or one excluded row.
/// `kind`: "serving" or "serving_external" (the same rules, reported apart).
std::vector<ValidationRow> serving_rows(const json& r, const char* kind) {
  ValidationRow row = row_for(r, kind);
  row.source_id = row.source;
  row.source = serving_source_url(string_at(r, "source_ref"));
  // A row the data file itself leaves out (a model or setting the project cannot express) keeps its reason.
  if (!string_at(r, "excluded_reason").empty()) return {excluded(row, string_at(r, "excluded_reason"))};
  const json& metrics = r.at("metrics");
  const std::string load = ascii_lower(string_at(r, "load_mode"));
  const std::string workload = ascii_lower(string_at(r, "workload"));

  const ServingModel model = serving_model(string_at(r, "model"));
  if (model.preset.empty() || find_embedded_document("models", model.preset) == nullptr) {
    return {excluded(row, "no preset for " + string_at(r, "model") + " in data/models")};
  }
  if (!model.note.empty()) row.notes.push_back(model.note);
  ojson request;
  request["task"] = "serve";
  request["model"] = model.preset;

  // Weights and KV cache: the row's precision; the KV cache only where the row states it (else the
  // engine's default, the activations' 16-bit type).
  const std::string precision = ascii_lower(string_at(r, "weights_precision"));
  std::string weights = model.weights;
  if (weights.empty()) {
    if (starts_with(precision, "fp8")) weights = "fp8";
    else if (starts_with(precision, "fp16")) weights = "fp16";
    else if (starts_with(precision, "bf16")) weights = "bf16";
    else return {excluded(row, "weights \"" + string_at(r, "weights_precision") + "\" have no weight format")};
    if (contains(precision, "not stated")) row.notes.push_back("weights: " + string_at(r, "weights_precision"));
  }
  request["weights"] = weights;
  const std::string kv = ascii_lower(string_at(r, "kv_cache_precision"));
  if (starts_with(kv, "fp8")) request["kv_cache"] = "fp8";
  else if (starts_with(kv, "fp16")) request["kv_cache"] = "fp16";

  const std::string engine = serving_engine(string_at(r, "engine"));
  if (engine.empty()) return {excluded(row, "engine \"" + string_at(r, "engine") + "\" is not one the core simulates")};
  request["engine"] = engine;
  if (engine == "llama.cpp") request["engine_version"] = "b6918";  // "build 2f68ce7cf (6918)"
  else if (!string_at(r, "engine_version").empty()) request["engine_version"] = string_at(r, "engine_version");

  std::string hardware_note;
  const std::string hardware = serving_hardware(string_at(r, "gpu_normalized"), string_at(r, "gpu"), hardware_note);
  if (hardware.empty()) return {excluded(row, "GPU \"" + string_at(r, "gpu_normalized") + "\" not in the catalog")};
  if (!hardware_note.empty()) row.notes.push_back(hardware_note);
  request["hardware"] = hardware;

  // Layout: the row's tensor and pipeline sizes (a missing tp is the GPU count: every table with a
  // null tp runs one model over all its GPUs).
  const int gpus = r.value("gpu_count", 1);
  const json& parallelism = r.value("parallelism", json::object());
  const int tp = parallelism.contains("tp") && parallelism["tp"].is_number() ? parallelism["tp"].get<int>() : gpus;
  const int pp = parallelism.contains("pp") && parallelism["pp"].is_number() ? parallelism["pp"].get<int>() : 1;
  request["gpus"] = gpus;
  request["layout"] = {{"tp", tp}, {"pp", pp}};

  // Lengths: fixed where the row states them; for ShareGPT only where the row's own figures give
  // the means (output = output tokens/s ÷ requests/s, input = (total − output tokens/s) ÷ requests/s).
  std::int64_t input = 0;
  std::int64_t output = 0;
  bool sharegpt = false;
  if (r.at("input_tokens").is_number() && r.at("output_tokens").is_number()) {
    input = r.at("input_tokens").get<std::int64_t>();
    output = r.at("output_tokens").get<std::int64_t>();
  } else if (metrics.contains("output_tokens_per_s") && metrics.contains("total_tokens_per_s") && metrics.contains("requests_per_s")) {
    const double rps = metrics["requests_per_s"].get<double>();
    const double out_tps = metrics["output_tokens_per_s"].get<double>();
    const double total_tps = metrics["total_tokens_per_s"].get<double>();
    output = std::llround(out_tps / rps);
    input = std::llround((total_tps - out_tps) / rps);
    // ShareGPT's spread of lengths is not stated either: lengths uniform around the means, from
    // none to twice (workload.range_ratio 1, vLLM's --random-range-ratio) stand in for it. Equal
    // requests in a closed loop would stay in lockstep (every wave's prompts prefilled together),
    // which real lengths break up. Its comparisons are approximate (out of the exact medians), like
    // a stand-in weight format.
    row.approximate = true;
    sharegpt = true;
    char text[320];
    std::snprintf(text, sizeof text,
                  "ShareGPT lengths not stated: their means from the row itself, output %.1f / %.3f = %lld, input (%.1f - %.1f) / %.3f = %lld "
                  "tokens, simulated uniform from 0 to twice each mean (range_ratio 1)",
                  out_tps, rps, static_cast<long long>(output), total_tps, out_tps, rps, static_cast<long long>(input));
    row.notes.push_back(text);
  } else {
    return {excluded(row, "ShareGPT lengths not stated (and not derivable from the row: it lacks requests/s, output or total tokens/s)")};
  }
  if (input < 1 || output < 1) return {excluded(row, "lengths not usable")};

  // Load, as the benchmark gave it.
  ojson work = {{"input_tokens", input}, {"output_tokens", output}};
  if (sharegpt) work["range_ratio"] = 1.0;
  ojson serve = ojson::object();
  const json& rate = r.at("request_rate");
  const bool infinite_rate = rate.is_string() && ascii_lower(rate.get<std::string>()) == "inf";
  const std::int64_t concurrency = r.at("concurrency").is_number() ? r.at("concurrency").get<std::int64_t>() : 0;
  const std::int64_t requests = r.at("num_requests").is_number() ? r.at("num_requests").get<std::int64_t>() : 0;
  bool at_rate = false;
  if (engine == "llama.cpp") {
    // llama-batched-bench: B sequences, each its own PP-token prompt, then TG tokens each, all at
    // once (is_pp_shared = 0); llama.cpp slots = B, each holding PP + TG tokens.
    work["max_throughput"] = true;
    work["requests"] = concurrency;
    serve["parallel"] = concurrency;
    // serve.context is llama-server's -c, the context the slots share: B × (PP + TG) gives each
    // slot its sequence. The bench's n_ubatch 2048 has no field in the request (-ub stays the
    // engine's default); its n_batch 2048 is the default -b.
    serve["context"] = concurrency * (input + output);
    row.notes.push_back("llama-batched-bench: B = " + std::to_string(concurrency) + " sequences at once as B requests on B slots of " +
                        std::to_string(input + output) + " tokens (context B x (PP + TG)); the bench's n_ubatch 2048 is not in the request");
  } else if (starts_with(load, "static batch") && engine == "lmdeploy") {
    // LMDeploy's profile_generation.py (benchmark/, at the table's commit ebe90bc): `batch` threads
    // each send --test-round (default 6) requests in turn after one warm-up round, so a closed loop
    // of `batch` with 6 × batch requests, each thread's next prompt as soon as its answer ends. The
    // benchmark's config (benchmark_<size>.sh: max_batch_size 128, 256 for 70B) holds every batch.
    work["concurrency"] = concurrency;
    work["requests"] = 6 * concurrency;
    serve["max_num_seqs"] = concurrency;
    row.notes.push_back("profile_generation: " + std::to_string(concurrency) + " threads x 6 rounds (--test-round default 6): a closed loop of " +
                        std::to_string(concurrency) + " with " + std::to_string(6 * concurrency) + " requests, max_num_seqs " +
                        std::to_string(concurrency));
  } else if (starts_with(load, "static batch")) {
    // A static batch (vLLM benchmark_latency --batch-size: one llm.generate of the whole batch,
    // timed over --num-iters): the batch starts together, and the engine must take all of it at once.
    work["max_throughput"] = true;
    work["requests"] = concurrency;
    serve["max_num_seqs"] = concurrency;
    row.notes.push_back("static batch of " + std::to_string(concurrency) + ": " + std::to_string(concurrency) +
                        " requests at time 0 with max_num_seqs " + std::to_string(concurrency));
  } else if (contains(load, "offline") || infinite_rate) {
    work["max_throughput"] = true;
    // Every request the benchmark sent (at most 30,000 here), uncapped: with fewer, the last wave of
    // a full batch would weigh differently (capping at 1,000 moved estimates by up to 30%).
    work["requests"] = requests;
    if (requests == 0 && contains(load, "benchmark_throughput.py")) {
      // vLLM benchmarks/benchmark_throughput.py: --num-prompts defaults to 1000 (the row does not say).
      work["requests"] = 1000;
      row.notes.push_back("number of prompts not stated: benchmark_throughput.py's default --num-prompts 1000");
    }
  } else if (starts_with(load, "closed loop")) {
    // LMDeploy profile_throughput: `batch` threads (--concurrency); the v0.2.0 table's "batch" is
    // "the max batch size during inference", and v0.1.0a1's benchmark_<size>.sh sets max_batch_size
    // 128 (256 for 70B), at least every concurrency it runs: the engine takes every thread's request.
    work["concurrency"] = concurrency;
    work["requests"] = requests;
    if (engine == "lmdeploy") serve["max_num_seqs"] = concurrency;
    if (requests == 0 && concurrency > 0) {
      // The page gives the concurrency but not how many requests were sent: ten per place in the
      // loop (at least 100), so the closed loop runs well past its first wave. Approximate.
      work["requests"] = std::max<std::int64_t>(100, 10 * concurrency);
      row.approximate = true;
      row.notes.push_back("request count not stated: " + std::to_string(work["requests"].get<std::int64_t>()) +
                          " simulated (ten per place in the loop, at least 100)");
    }
  } else if (contains(load, "request rate") && rate.is_number()) {
    work["request_rate"] = rate.get<double>();
    work["requests"] = requests;
    at_rate = true;
  } else {
    return {excluded(row, "load \"" + string_at(r, "load_mode") + "\" not expressible")};
  }
  if (work.contains("requests") && work["requests"].get<std::int64_t>() < 1) return {excluded(row, "no request count")};
  request["workload"] = work;

  // Engine settings the row states.
  const std::string notes = string_at(r, "notes");
  if (engine == "tensorrt-llm" && contains(notes, "kv_cache_free_gpu_mem_fraction 0.95")) {
    serve["memory_fraction"] = 0.95;  // trtllm-bench's setting "in majority of cases" (the row's notes)
  }
  if (const std::size_t at = notes.find("max-num-seqs "); at != std::string::npos && !serve.contains("max_num_seqs")) {
    serve["max_num_seqs"] = std::atoll(notes.c_str() + at + 13);
  }
  if (row.source_id == "rocm-vllm-dev-docker-readme") {
    // AMD's README gives the commands of its tables (docs/dev-docker/README.md, "Latency Benchmark"
    // and "Throughput Benchmark", at each row's commit): --kv-cache-dtype fp8 for the FP8 models in
    // both, --gpu-memory-utilization 0.9; benchmark_throughput.py with --max-num-batched-tokens
    // 131072, and at 260cc1ab (vLLM 0.8.5) also --num-scheduler-steps 10 --enable-chunked-prefill False.
    if (weights == "fp8" && !request.contains("kv_cache")) {
      request["kv_cache"] = "fp8";
      row.notes.push_back("KV cache fp8: the README's benchmark_latency.py command (--kv-cache-dtype fp8 for FP8 models)");
    }
    serve["memory_fraction"] = 0.9;
    if (starts_with(load, "offline")) {
      serve["max_num_batched_tokens"] = 131072;
      if (contains(string_at(r, "source_ref"), "@260cc1ab")) {
        serve["scheduler_steps"] = 10;
        serve["chunked_prefill"] = false;
      }
      row.notes.push_back("the README's benchmark_throughput.py command at this commit: --max-num-batched-tokens 131072" +
                          std::string(serve.contains("scheduler_steps") ? ", --num-scheduler-steps 10, --enable-chunked-prefill False" : ""));
    }
  }
  if (row.source_id == "lmdeploy-a100-fp16-doc") {
    // The KV cache each table's benchmark gave TurboMind. At ebe90bc (v0.1.0a1) benchmark_7b.sh,
    // _13b.sh and _70b.sh write cache_max_entry_count 1000, 500 and 4000 into the converted model's
    // config.ini: a block count (src/turbomind/models/llama/BlockManager.cc: `block_count < 1.` is a
    // share, else the count) of cache_block_seq_len 128 tokens (lmdeploy/turbomind/deploy/
    // target_model/base.py), so 128,000, 64,000 and 512,000 tokens. At f148d47 (v0.2.0)
    // benchmark_turbomind_engine_a100.sh passes --cache-max-entry-count 0.95 (7B) and 0.9 (13B, 70B),
    // a share of the free memory. The scripts' max_context_token_num 4 (4 × session_len 4,104 prompt
    // tokens an iteration, LlamaTritonModel.cc) is not mapped: TurboMind v0.1's prefill order
    // (LlamaBatch::Initialize, max_prefill_iters) is not simulated; the engine's pre-v0.5 rule stands.
    const std::string model_name = ascii_lower(string_at(r, "model"));
    const std::string ref = string_at(r, "source_ref");
    const int size = contains(model_name, "70b") ? 70 : contains(model_name, "13b") ? 13 : contains(model_name, "7b") ? 7 : 0;
    if (contains(ref, "@ebe90bc") && size > 0) {
      const std::int64_t blocks = size == 70 ? 4000 : size == 13 ? 500 : 1000;
      serve["kv_cache_tokens"] = blocks * 128;
      row.notes.push_back("benchmark_" + std::to_string(size) + "b.sh: cache_max_entry_count " + std::to_string(blocks) +
                          " blocks of 128 tokens = " + std::to_string(blocks * 128) + " tokens of KV cache");
    } else if (contains(ref, "@f148d47") && size > 0) {
      serve["memory_fraction"] = size == 7 ? 0.95 : 0.9;
      row.notes.push_back(std::string("benchmark_turbomind_engine_a100.sh: --cache-max-entry-count ") + (size == 7 ? "0.95" : "0.9"));
    }
  }
  if (!serve.empty()) request["serve"] = serve;

  row.request = request.dump();
  const json response = estimate_json(request);
  if (response.contains("error")) return {excluded(row, "estimate error: " + response["error"].value("message", response["error"].dump()))};
  if (!response.contains("serving") || !response["serving"].is_object()) return {excluded(row, "the answer has no serving figures")};
  const json& serving = response["serving"];

  std::vector<ValidationRow> out;
  std::vector<std::string> not_compared, degenerate;
  for (const auto& [key, value] : metrics.items()) {
    const ServingMetric* metric = nullptr;
    for (const auto& each : kServingMetrics) {
      if (key == each.key) metric = &each;
    }
    if (metric == nullptr || !value.is_number()) {
      not_compared.push_back(key);
      continue;
    }
    const json* figure = serving.contains(metric->figure) ? &serving.at(metric->figure) : nullptr;
    if (figure != nullptr && metric->stat != nullptr) figure = figure->is_object() && figure->contains(metric->stat) ? &figure->at(metric->stat) : nullptr;
    if (figure == nullptr || !figure->is_number()) {
      not_compared.push_back(key);
      continue;
    }
    if (!(figure->get<double>() > 0.0) || !std::isfinite(figure->get<double>())) {
      // A zero or missing figure is no estimate (the step has no finite time on this hardware).
      degenerate.push_back(key);
      continue;
    }
    ValidationRow c = row;
    c.id += "/" + key;
    c.metric = metric->group;
    if (at_rate && c.metric.find("throughput") != std::string::npos) {
      // Below saturation a benchmark at a set request rate serves that rate: its throughput is the
      // offered load, not a measure of the engine. Kept apart from the throughput medians.
      c.metric = "throughput_at_set_rate";
    }
    c.unit = metric->unit;
    c.quantity = metric->quantity;
    c.measured = value.get<double>();
    c.estimated = figure->get<double>() * metric->scale;
    if (key.find("statistic_unspecified") != std::string::npos) {
      c.approximate = true;
      c.notes.push_back("the page does not say whether " + key.substr(0, key.find('_')) + " is a mean or a median: compared with the mean");
    }
    if (key == "tokens_per_s_total_or_output_unspecified") {
      c.approximate = true;
      char text[200];
      const double total = serving.value("total_tokens_per_s", 0.0);
      std::snprintf(text, sizeof text, "total or output tokens/s not stated (benchmark_throughput.py prints both): read as output; read as total: %.1f (%+.1f%%)",
                    total, 100.0 * (total - c.measured) / c.measured);
      c.notes.push_back(text);
    }
    c.used = true;
    out.push_back(std::move(c));
  }
  auto joined = [](const std::vector<std::string>& keys) {
    std::string list;
    for (const auto& key : keys) list += (list.empty() ? "" : ", ") + key;
    return list;
  };
  if (out.empty() && !degenerate.empty()) {
    return {excluded(row, "the answer's figures are 0 or null on " + hardware + " (no finite step time: " + serving.value("bound", std::string()) +
                              "); not compared: " + joined(degenerate))};
  }
  if (out.empty()) return {excluded(row, "no metric of the row is in the answer")};
  if (!degenerate.empty()) {
    for (auto& c : out) c.notes.push_back("not compared (the answer's figure is 0 or null): " + joined(degenerate));
  }
  if (!not_compared.empty()) {
    for (auto& c : out) c.notes.push_back("not compared (no such figure in the answer): " + joined(not_compared));
  }
  return out;
}

/// A memory row that also printed a speed (the Qwen transformers tables, litgpt).
bool has_speed(const json& r) {
  const json& m = r.at("measured");
  return m.contains("tokens_per_s") || m.contains("tokens_per_s_with_fa2");
}

ValidationRow validate_row(const std::string& kind, const json& r) {
  if (kind == "inference") return inference_row(r);
  if (kind == "training") return training_row(r);
  if (kind == "file_size") return file_size_row(r);
  return speed_rows(r).front();
}

ValidationSummary summarize(const std::string& kind, const std::vector<ValidationRow>& rows) {
  ValidationSummary s;
  s.kind = kind;
  std::vector<double> all, exact, signed_errors;
  for (const auto& row : rows) {
    if (row.kind != kind) continue;
    ++s.rows;
    if (!row.used) {
      ++s.excluded;
      continue;
    }
    ++s.used;
    all.push_back(std::fabs(row.error));
    signed_errors.push_back(row.error);
    if (!row.approximate) {
      ++s.exact;
      exact.push_back(std::fabs(row.error));
    }
  }
  s.median_abs_error = median_of(all);
  s.p90_abs_error = percentile_of(all, 0.9);
  s.median_abs_error_exact = median_of(exact);
  s.p90_abs_error_exact = percentile_of(exact, 0.9);
  s.median_signed_error = median_of(signed_errors);
  return s;
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double percentile_of(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  // Nearest rank: the smallest value with at least p of the values at or below it.
  const double rank = std::ceil(p * static_cast<double>(values.size()));
  const std::size_t index = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
  return values[std::min(index, values.size() - 1)];
}

const EmbeddedDocument* find_validation_document(std::string_view kind) {
  for (auto* doc = validation_documents_begin(); doc != validation_documents_end(); ++doc) {
    if (doc->id == kind) return doc;
  }
  return nullptr;
}

ValidationReport run_validation(const std::string& kind) {
  ValidationReport report;
  for (const char* each : kKinds) {
    if (!kind.empty() && kind != each) continue;
    const EmbeddedDocument* doc = find_validation_document(each);
    if (doc != nullptr) {
      const json data = json::parse(doc->json.begin(), doc->json.end());
      const json& rows_json = data.at("rows");
      // Serving rows are simulations (tens of ms to ~0.5 s each, most of it the answer's curve):
      // they run on every core, each into its own slot, so the report is the same in any order.
      std::vector<std::vector<ValidationRow>> mapped(rows_json.size());
      if (is_serving_kind(each)) {
        std::atomic<std::size_t> next{0};
        auto work = [&]() {
          for (std::size_t i = next++; i < rows_json.size(); i = next++) {
            try {
              mapped[i] = serving_rows(rows_json[i], each);
            } catch (const std::exception& e) {
              ValidationRow failed = row_for(rows_json[i], each);
              failed.source_id = failed.source;
              failed.source = serving_source_url(string_at(rows_json[i], "source_ref"));
              mapped[i] = {excluded(failed, std::string("mapping failed: ") + e.what())};
            }
          }
        };
        const unsigned workers = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < workers; ++t) pool.emplace_back(work);
        work();
        for (auto& t : pool) t.join();
      } else {
        for (std::size_t i = 0; i < rows_json.size(); ++i) {
          mapped[i] = std::string(each) == "speed" ? speed_rows(rows_json[i]) : std::vector<ValidationRow>{validate_row(each, rows_json[i])};
        }
      }
      for (auto& rows : mapped) {
        for (auto& row : rows) {
          if (row.used) row.error = row.measured != 0.0 ? (row.estimated - row.measured) / row.measured : 0.0;
          report.rows.push_back(std::move(row));
        }
      }
    }
    const EmbeddedDocument* memory = std::string(each) == "speed" ? find_validation_document("inference") : nullptr;
    if (memory != nullptr) {
      // Speeds printed beside memory figures are compared too (one speed row per such memory row).
      const json data = json::parse(memory->json.begin(), memory->json.end());
      for (const auto& r : data.at("rows")) {
        if (!has_speed(r)) continue;
        for (auto& row : speed_rows(r)) {
          if (row.used) row.error = row.measured != 0.0 ? (row.estimated - row.measured) / row.measured : 0.0;
          report.rows.push_back(std::move(row));
        }
      }
    }
    report.summaries.push_back(summarize(each, report.rows));
  }
  return report;
}

std::string validation_report_json(const ValidationReport& report) {
  ojson out;
  out["schema_version"] = 1;
  out["summaries"] = ojson::array();
  for (const auto& s : report.summaries) {
    out["summaries"].push_back({{"kind", s.kind}, {"rows", s.rows}, {"used", s.used}, {"exact", s.exact}, {"excluded", s.excluded},
                                {"median_abs_error", s.median_abs_error}, {"p90_abs_error", s.p90_abs_error},
                                {"median_abs_error_exact", s.median_abs_error_exact}, {"p90_abs_error_exact", s.p90_abs_error_exact},
                                {"median_signed_error", s.median_signed_error}});
  }
  out["rows"] = ojson::array();
  for (const auto& r : report.rows) {
    ojson j;
    j["id"] = r.id;
    j["kind"] = r.kind;
    if (!r.metric.empty()) j["metric"] = r.metric;
    j["used"] = r.used;
    if (r.used) {
      j["measured"] = r.measured;
      j["estimated"] = r.estimated;
      j["unit"] = r.unit;
      j["error"] = r.error;
      j["approximate"] = r.approximate;
      j["quantity"] = r.quantity;
      j["request"] = ojson::parse(r.request);
    } else {
      j["excluded_reason"] = r.excluded_reason;
      if (!r.request.empty()) j["request"] = ojson::parse(r.request);  // a row the estimate refused: what was asked
    }
    if (!r.notes.empty()) j["notes"] = r.notes;
    j["source"] = r.source;
    if (!r.source_id.empty()) j["source_id"] = r.source_id;
    out["rows"].push_back(j);
  }
  return out.dump();
}


// ---------------------------------------------------------------------------------------------
// Serving report and leave-one-source-out errors (data/validation/ACCURACY.md).

namespace {

std::string pct(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * value);
  return text;
}

std::string signed_pct(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", 100.0 * value);
  return text;
}

/// The metric groups of the serving comparisons, in report order, with the issue's targets.
struct ServingGroup {
  const char* id;
  const char* label;
};
const ServingGroup kServingGroups[] = {
    {"output_throughput", "output tokens/s (offline max throughput, closed loop, static batch)"},
    {"total_throughput", "total tokens/s (same loads)"},
    {"request_throughput", "requests/s (same loads)"},
    {"throughput_at_set_rate", "throughput at a set request rate (below saturation it is the offered load)"},
    {"ttft", "time to first token"},
    {"tpot_itl", "time per output token / inter-token latency"},
    {"e2e", "end-to-end time (a static batch's generate; llama-batched-bench T)"},
};

std::string base_id(const std::string& id) { return id.substr(0, id.find('/')); }

/// A serving file's `sources` (kind "serving" or "serving_external"): id → (where, description).
std::map<std::string, std::pair<std::string, std::string>> serving_sources(const std::string& kind) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  const EmbeddedDocument* doc = find_validation_document(kind);
  if (doc == nullptr) return out;
  const json data = json::parse(doc->json.begin(), doc->json.end());
  for (const auto& s : data.value("sources", json::array())) {
    // Repository and file (the commits are in each row's source URL and in the file's sources); a
    // web page (serving_external.json) by its publisher and URL.
    const std::string where = string_at(s, "repo").empty() ? string_at(s, "publisher") + ", " + string_at(s, "url_or_path")
                                                            : string_at(s, "repo") + " " + string_at(s, "path");
    out[string_at(s, "id")] = {where, string_at(s, "description")};
  }
  return out;
}

/// Speed sources whose rows a constant of core/include/llmsizer/speed_calibration.hpp was derived from,
/// as each constant's comment cites them (the substring identifies the source's URL).
struct DerivedConstants {
  const char* source_part;
  const char* constants;
};
const DerivedConstants kSpeedConstantsDerivedFrom[] = {
    {"QwenLM/Qwen2.5/blob/5c4e69cb61953a590ea724e0f0f0fcb06fa979e7/docs/source/benchmark/speed_benchmark.rst",
     "kEagerOpS, kTransformersLayerHostOldS, kTransformersDecodeAttentionBytesPerS, kAllReduceLatencyNvlinkS, kQuantGemmFloorS, "
     "kMoeLoopIterationS, kAutoGptqInt8LinearHostS, kExllamaBandwidthShare, kAwqGemmLinearHostS, kAwqGemmBandwidthShare, "
     "kVllmAwqBandwidthShare, kVllmFusedMoeBandwidthShare"},
    {"QwenLM/Qwen2.5/blob/14544eb0f7a075b80f2aeb0ca8f1a838e6c26267/docs/source/benchmark/hf_infer.rst",
     "kTransformersLayerHostOldS, kTransformersDecodeAttentionBytesPerS, kMoeLoopIterationS, kExllamaBandwidthShare, kAwqGemmLinearHostS"},
    {"QwenLM/Qwen2.5/blob/c7f51a1a1ce3d4bb750bc545cd2673fff4c5a8f9/docs/source/getting_started/speed_benchmark.md",
     "kTransformersLayerHostS, kTransformersDecodeAttentionBytesPerS, kAllReduceLatencyNvlinkS, kMoeLoopIterationS, "
     "kTransformersFp8LinearHostS, kTransformersFp8BandwidthShare, kGptqModelInt8LinearHostS, kSglangStepOverheadS, "
     "kSglangBf16BandwidthShare, kSglangFp8BandwidthShare, kSglangAwqBandwidthShare, kMarlinMoeExpertGemmS, kSglangFusedMoeShareOfDense"},
    {"casper-hansen/AutoAWQ/blob/027758d473e3e85356d2deb952a5279c0d85c396/README.md",
     "kAutoAwqFusedLayerHostS, kAutoAwqDecodeAttentionBytesPerS, kAutoAwqFirstForwardS, kAutoAwqGemmBandwidthShare"},
};

/// Inputs of the serving step model (step_model.hpp, serve_engine.hpp) derived from a speed source's
/// rows, as their comments cite them: the step model's figure on that source's rows is not a clean
/// leave-one-source-out one either.
const DerivedConstants kStepModelConstantsDerivedFrom[] = {
    {"QwenLM/Qwen2.5/blob/5c4e69cb61953a590ea724e0f0f0fcb06fa979e7/docs/source/benchmark/speed_benchmark.rst", "kAllReduceLatencyNvlinkS"},
    {"QwenLM/Qwen2.5/blob/c7f51a1a1ce3d4bb750bc545cd2673fff4c5a8f9/docs/source/getting_started/speed_benchmark.md",
     "kSglangStepOverheadS, kAllReduceLatencyNvlinkS"},
};

}  // namespace

/// Inputs of the serving model chosen after seeing a serving source's errors: none fitted to its rows,
/// but the choice was not blind, so the source's in-sample error is not a clean leave-one-source-out one.
std::string serving_inputs_chosen_after(const std::string& source) {
  if (source == "llamacpp-benches-dgx-spark") {
    return "none fitted; GB10's unpublished FP16/FP8 tensor rates are derived from its FP4 rate, and the GeForce Blackwell "
           "ratio (8 : 2 : 1, RTX 5090 whitepaper) was taken over the B200's (4 : 2 : 1) after the latter's errors on this "
           "source had been seen";
  }
  if (source == "rocm-vllm-dev-docker-readme") {
    return "none fitted; AMD's published max-achievable GEMM rates (MI300X 708 BF16 / 1,273 FP8 TFLOPS, ROCm blog) were "
           "looked up after this source's throughput had come out high";
  }
  return "none";
}

std::string speed_constants_derived_from(const std::string& source) {
  for (const auto& each : kSpeedConstantsDerivedFrom) {
    if (contains(source, each.source_part)) return each.constants;
  }
  return "";
}

namespace {

/// The fields of SpeedCalibration by the names kSpeedConstantsDerivedFrom and
/// data/validation/speed_loso.json give them (the constants' names before they became fields).
struct SpeedConstantField {
  const char* name;
  double SpeedCalibration::*field;
};
const SpeedConstantField kSpeedConstantFields[] = {
    {"kEagerOpS", &SpeedCalibration::eager_op_s},
    {"kAllReduceLatencyNvlinkS", &SpeedCalibration::all_reduce_latency_nvlink_s},
    {"kQuantGemmFloorS", &SpeedCalibration::quant_gemm_floor_s},
    {"kTransformersLayerHostS", &SpeedCalibration::transformers_layer_host_s},
    {"kTransformersLayerHostOldS", &SpeedCalibration::transformers_layer_host_old_s},
    {"kTransformersDecodeAttentionBytesPerS", &SpeedCalibration::transformers_decode_attention_bytes_per_s},
    {"kMoeLoopIterationS", &SpeedCalibration::moe_loop_iteration_s},
    {"kTransformersFp8LinearHostS", &SpeedCalibration::transformers_fp8_linear_host_s},
    {"kTransformersFp8BandwidthShare", &SpeedCalibration::transformers_fp8_bandwidth_share},
    {"kAutoGptqInt8LinearHostS", &SpeedCalibration::auto_gptq_int8_linear_host_s},
    {"kGptqModelInt8LinearHostS", &SpeedCalibration::gptq_model_int8_linear_host_s},
    {"kExllamaBandwidthShare", &SpeedCalibration::exllama_bandwidth_share},
    {"kAwqGemmLinearHostS", &SpeedCalibration::awq_gemm_linear_host_s},
    {"kAwqGemmBandwidthShare", &SpeedCalibration::awq_gemm_bandwidth_share},
    {"kAutoAwqFusedLayerHostS", &SpeedCalibration::auto_awq_fused_layer_host_s},
    {"kAutoAwqDecodeAttentionBytesPerS", &SpeedCalibration::auto_awq_decode_attention_bytes_per_s},
    {"kAutoAwqFirstForwardS", &SpeedCalibration::auto_awq_first_forward_s},
    {"kAutoAwqGemmBandwidthShare", &SpeedCalibration::auto_awq_gemm_bandwidth_share},
    {"kSglangStepOverheadS", &SpeedCalibration::sglang_step_overhead_s},
    {"kSglangBf16BandwidthShare", &SpeedCalibration::sglang_bf16_bandwidth_share},
    {"kSglangFp8BandwidthShare", &SpeedCalibration::sglang_fp8_bandwidth_share},
    {"kSglangAwqBandwidthShare", &SpeedCalibration::sglang_awq_bandwidth_share},
    {"kMarlinMoeExpertGemmS", &SpeedCalibration::marlin_moe_expert_gemm_s},
    {"kVllmAwqBandwidthShare", &SpeedCalibration::vllm_awq_bandwidth_share},
    {"kVllmFusedMoeBandwidthShare", &SpeedCalibration::vllm_fused_moe_bandwidth_share},
    {"kSglangFusedMoeShareOfDense", &SpeedCalibration::sglang_fused_moe_share_of_dense},
};

/// "a, b, c" → {"a", "b", "c"}.
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    std::size_t first = text.find_first_not_of(' ', start);
    if (first < end) out.push_back(text.substr(first, text.find_last_not_of(' ', end - 1) + 1 - first));
    start = end + 1;
  }
  return out;
}

/// The calibration speed_loso.json gives for leaving out `source`: the cited constants with those
/// derived from that source replaced. Nothing when the file does not give every one of them (or
/// names a constant SpeedCalibration does not have).
std::optional<SpeedCalibration> leave_one_source_out_calibration(const std::string& source) {
  const std::vector<std::string> derived = comma_list(speed_constants_derived_from(source));
  const EmbeddedDocument* doc = find_validation_document("speed_loso");
  if (derived.empty() || doc == nullptr) return std::nullopt;
  const json data = json::parse(doc->json.begin(), doc->json.end());
  for (const auto& entry : data.value("sources", json::array())) {
    const std::string part = string_at(entry, "source_part");
    if (part.empty() || !contains(source, part)) continue;
    SpeedCalibration calibration;
    std::set<std::string> given;
    for (const auto& constant : entry.value("constants", json::array())) {
      double* field = speed_constant(calibration, string_at(constant, "name"));
      if (field == nullptr || !constant.contains("value") || !constant["value"].is_number()) return std::nullopt;
      *field = constant["value"].get<double>();
      given.insert(string_at(constant, "name"));
    }
    for (const auto& name : derived) {
      if (!given.count(name)) return std::nullopt;
    }
    return calibration;
  }
  return std::nullopt;
}

}  // namespace

double* speed_constant(SpeedCalibration& calibration, std::string_view name) {
  for (const auto& each : kSpeedConstantFields) {
    if (name == each.name) return &(calibration.*each.field);
  }
  return nullptr;
}

std::optional<std::vector<double>> leave_one_source_out_speed_errors(const std::string& source) {
  const std::optional<SpeedCalibration> calibration = leave_one_source_out_calibration(source);
  if (!calibration) return std::nullopt;
  std::vector<double> errors;
  // The source's rows, wherever they are kept: speed.json, and the memory rows of inference.json
  // that also printed a speed (as run_validation maps them).
  for (const char* kind : {"speed", "inference"}) {
    const EmbeddedDocument* doc = find_validation_document(kind);
    if (doc == nullptr) continue;
    const json data = json::parse(doc->json.begin(), doc->json.end());
    for (const auto& r : data.at("rows")) {
      if (string_at(r, "source") != source || (std::string(kind) == "inference" && !has_speed(r))) continue;
      for (const auto& row : speed_rows(r, &*calibration)) {
        if (row.used && row.measured != 0.0) errors.push_back(std::fabs((row.estimated - row.measured) / row.measured));
      }
    }
  }
  return errors;
}

/// The error of the serving step model on one speed row of an engine it covers (vLLM, SGLang): the
/// row's request as a `task: "serve"` request of one request at concurrency 1 (the prompt's prefill,
/// then one decode step per token), its rate output tokens over the end-to-end time, counted as the
/// row's source counts it. Nothing for other engines, batches over 1 and requests the serving answer
/// refuses (a prompt and answer beyond the model's trained context, which vLLM and SGLang refuse
/// without a rope-scaling override; weights that leave no room for the KV cache).
std::optional<double> step_model_speed_error(const ValidationRow& row) {
  if (row.kind != "speed" || !row.used || row.request.empty()) return std::nullopt;
  const json speed = json::parse(row.request);
  const std::string engine = speed.value("engine", "");
  if ((engine != "vllm" && engine != "sglang") || speed.value("batch", std::int64_t{1}) != 1) return std::nullopt;
  const std::int64_t input = speed.value("input_tokens", std::int64_t{1});
  const std::int64_t output = speed.value("output_tokens", std::int64_t{1});
  const int gpus = speed.value("gpus", 1);
  ojson request;
  request["task"] = "serve";
  for (const char* key : {"model", "weights", "kv_cache", "engine", "engine_version", "hardware"}) {
    if (speed.contains(key)) request[key] = speed[key];
  }
  request["gpus"] = gpus;
  request["layout"] = {{"tp", gpus}, {"pp", 1}};
  request["workload"] = {{"input_tokens", input}, {"output_tokens", output}, {"concurrency", 1}, {"requests", 1}};
  const json response = estimate_json(request);
  if (!response.contains("serving") || !response["serving"]["e2e_latency_s"]["mean"].is_number()) return std::nullopt;
  const double e2e = response["serving"]["e2e_latency_s"]["mean"].get<double>();
  if (!(e2e > 0) || !(row.measured > 0)) return std::nullopt;
  double rate = static_cast<double>(output) / e2e;
  if (contains(row.quantity, "(input + output) / output")) rate *= static_cast<double>(input + output) / static_cast<double>(output);
  return (rate - row.measured) / row.measured;
}

std::string step_model_constants_derived_from(const std::string& source) {
  for (const auto& each : kStepModelConstantsDerivedFrom) {
    if (contains(source, each.source_part)) return each.constants;
  }
  return "";
}

namespace {

/// The serving tables of one kind: errors per metric group and per source, the worst rows, the rows
/// left out. `intro` is the section's heading and first paragraph.
std::string serving_kind_markdown(const ValidationReport& report, const std::string& kind, const std::string& intro) {
  std::vector<const ValidationRow*> used;
  std::vector<std::string> source_order, reason_order;
  std::map<std::string, int> reason_count;
  std::map<std::string, std::set<std::string>> data_rows, compared_rows;
  std::map<std::string, int> excluded_rows;
  for (const auto& r : report.rows) {
    if (r.kind != kind) continue;
    if (!data_rows.count(r.source_id)) source_order.push_back(r.source_id);
    data_rows[r.source_id].insert(base_id(r.id));
    if (r.used) {
      used.push_back(&r);
      compared_rows[r.source_id].insert(base_id(r.id));
    } else {
      ++excluded_rows[r.source_id];
      if (!reason_count.count(r.excluded_reason)) reason_order.push_back(r.excluded_reason);
      ++reason_count[r.excluded_reason];
    }
  }
  if (data_rows.empty()) return "";
  std::string md;
  char line[1200];
  md += intro;
  md += "| metric | comparisons | median \\|error\\| | p90 \\|error\\| | bias | median (exact) | p90 (exact) |\n|---|---:|---:|---:|---:|---:|---:|\n";
  std::vector<double> all_abs;
  for (const auto& group : kServingGroups) {
    std::vector<double> a, x, s;
    for (const auto* r : used) {
      if (r->metric != group.id) continue;
      a.push_back(std::fabs(r->error));
      s.push_back(r->error);
      if (!r->approximate) x.push_back(std::fabs(r->error));
    }
    if (a.empty()) continue;
    std::snprintf(line, sizeof line, "| %s | %zu | %s | %s | %s | %s | %s |\n", group.label, a.size(), pct(median_of(a)).c_str(),
                  pct(percentile_of(a, 0.9)).c_str(), signed_pct(median_of(s)).c_str(), x.empty() ? "-" : pct(median_of(x)).c_str(),
                  x.empty() ? "-" : pct(percentile_of(x, 0.9)).c_str());
    md += line;
  }
  for (const auto* r : used) all_abs.push_back(std::fabs(r->error));
  std::snprintf(line, sizeof line, "| every metric | %zu | %s | %s | | | |\n", all_abs.size(), pct(median_of(all_abs)).c_str(),
                pct(percentile_of(all_abs, 0.9)).c_str());
  md += line;

  // Per source.
  const auto sources = serving_sources(kind);
  md += "\n| source | data rows | rows compared | rows excluded | comparisons | output tokens/s median | TTFT median | TPOT/ITL median | "
        "e2e median | every metric: median | p90 | bias |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& source : source_order) {
    std::map<std::string, std::vector<double>> by_group;
    std::vector<double> a, s;
    for (const auto* r : used) {
      if (r->source_id != source) continue;
      by_group[r->metric].push_back(std::fabs(r->error));
      a.push_back(std::fabs(r->error));
      s.push_back(r->error);
    }
    auto cell = [&](const char* group) {
      const auto it = by_group.find(group);
      return it == by_group.end() ? std::string("-") : pct(median_of(it->second)) + " (" + std::to_string(it->second.size()) + ")";
    };
    const auto info = sources.find(source);
    const std::string url = info != sources.end() ? info->second.first : std::string();
    std::snprintf(line, sizeof line, "| `%s` (%s) | %zu | %zu | %d | %zu | %s | %s | %s | %s | %s | %s | %s |\n", source.c_str(), url.c_str(),
                  data_rows[source].size(), compared_rows[source].size(), excluded_rows[source], a.size(), cell("output_throughput").c_str(),
                  cell("ttft").c_str(), cell("tpot_itl").c_str(), cell("e2e").c_str(), a.empty() ? "-" : pct(median_of(a)).c_str(),
                  a.empty() ? "-" : pct(percentile_of(a, 0.9)).c_str(), a.empty() ? "-" : signed_pct(median_of(s)).c_str());
    md += line;
  }

  // The worst comparisons, all and exact only (the worst are often approximate).
  for (const bool exact_only : {false, true}) {
    std::vector<const ValidationRow*> worst;
    for (const auto* r : used) {
      if (!exact_only || !r->approximate) worst.push_back(r);
    }
    std::stable_sort(worst.begin(), worst.end(), [](const ValidationRow* a, const ValidationRow* b) { return std::fabs(a->error) > std::fabs(b->error); });
    if (worst.size() > 10) worst.resize(10);
    md += exact_only ? "\n| worst exact comparisons" : "\n| worst comparisons";
    md += " | metric | measured | estimated | error | request |\n|---|---|---:|---:|---:|---|\n";
    for (const auto* r : worst) {
      std::snprintf(line, sizeof line, "| %s%s | %s | %.4g %s | %.4g %s | %s | `%s` |\n", r->id.c_str(), r->approximate ? " (approximate)" : "",
                    r->metric.c_str(), r->measured, r->unit.c_str(), r->estimated, r->unit.c_str(), signed_pct(r->error).c_str(), r->request.c_str());
      md += line;
    }
  }
  md += "\n| serving rows left out | reason |\n|---:|---|\n";
  for (const auto& reason : reason_order) {
    std::snprintf(line, sizeof line, "| %d | %s |\n", reason_count[reason], reason.c_str());
    md += line;
  }
  return md;
}

}  // namespace

std::string serving_accuracy_markdown(const ValidationReport& report) {
  std::string md = serving_kind_markdown(
      report, "serving",
      "\n## Serving under load (data/validation/serving.json)\n\n"
      "Each published row becomes one `task: \"serve\"` request (its model, precision, engine and version, GPU, layout, lengths and "
      "load; mapping rules in data/validation/README.md) and every metric it printed that the answer has becomes its own comparison "
      "(`<row id>/<metric>`). Targets of the serving work: output tokens/s median |error| <= 15% and p90 <= 35%; TTFT and TPOT/ITL "
      "medians <= 25%. *exact*: without the approximate comparisons (a metric the row leaves ambiguous, total or output "
      "tokens/s; ShareGPT's mean lengths simulated as uniform lengths around them). In the "
      "table of kinds above, serving's rows count comparisons (one per metric) and excluded data rows.\n\n");
  md += serving_kind_markdown(
      report, "serving_external",
      "\n## Serving under load, other publishers (data/validation/serving_external.json)\n\n"
      "Published serving measurements of publishers whose tables are not in serving.json (NVIDIA's NIM docs, Vultr's B200 cookbook, "
      "Oracle's OCI blog, vLLM's performance CI), mapped by the same rules and never used to choose an input of the serving model: "
      "a model tuned to serving.json's tables would show it here. *exact*: without the approximate comparisons (a TTFT, TPOT or ITL "
      "the page does not call mean or median, compared with the mean; a request count the page does not give).\n\n");
  return md;
}

std::string leave_one_source_out_markdown(const ValidationReport& report) {
  std::string md;
  char line[1600];
  md += "\n## Leave-one-source-out\n\n"
        "For each source, the error on its rows when nothing was chosen by looking at them: a constant derived from a source's rows "
        "makes that source's in-sample error no measure of accuracy on rows the project has not seen.\n";

  // Serving: which step-model constants were derived from which rows.
  std::vector<std::string> serving_order;
  std::map<std::string, std::vector<double>> serving_all, serving_output;
  for (const auto& r : report.rows) {
    if (!is_serving_kind(r.kind)) continue;
    if (!serving_all.count(r.source_id)) serving_order.push_back(r.source_id);
    auto& all = serving_all[r.source_id];
    if (!r.used) continue;
    all.push_back(std::fabs(r.error));
    if (r.metric == "output_throughput") serving_output[r.source_id].push_back(std::fabs(r.error));
  }
  if (!serving_order.empty()) {
    md += "\n### Serving\n\n"
          "No constant of the serving step model or scheduler is fitted to these rows (each cites its own source: vendor data, "
          "microbenchmarks, the engines' code; core/include/llmsizer/serving.hpp), so leaving a source out changes nothing: the "
          "leave-one-source-out figure equals the in-sample one, and both columns are printed. Two inputs were chosen after "
          "seeing a source's errors (not fitted, but not blind either); the last column names them, and for those sources "
          "the figure is not a clean leave-one-source-out one. The sources of serving_external.json (other publishers) follow those "
          "of serving.json.\n\n"
          "| source | comparisons | in-sample median | leave-one-source-out median | in-sample p90 | leave-one-source-out p90 | "
          "output tokens/s in-sample median | leave-one-source-out | constants derived from it |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
    for (const auto& source : serving_order) {
      const auto& a = serving_all[source];
      if (a.empty()) {
        std::snprintf(line, sizeof line, "| `%s` | 0 | - | - | - | - | - | - | none (no row compared: see the rows left out) |\n", source.c_str());
        md += line;
        continue;
      }
      const auto it = serving_output.find(source);
      const std::string out = it == serving_output.end() ? std::string("-") : pct(median_of(it->second));
      std::snprintf(line, sizeof line, "| `%s` | %zu | %s | %s | %s | %s | %s | %s | ", source.c_str(), a.size(), pct(median_of(a)).c_str(),
                    pct(median_of(a)).c_str(), pct(percentile_of(a, 0.9)).c_str(), pct(percentile_of(a, 0.9)).c_str(), out.c_str(), out.c_str());
      md += line;
      md += serving_inputs_chosen_after(source) + " |\n";
    }
  }

  // Speed: the constants of throughput.hpp derived from particular sources.
  std::vector<std::string> speed_order;
  std::map<std::string, std::vector<double>> speed_abs;
  // The rows of the engines the serving step model covers, as it answers them and as the
  // single-stream path (throughput.cpp) does.
  std::map<std::string, std::vector<double>> step_abs, step_current_abs;
  // The same by engine and weight format: where the step model misses at batch 1.
  struct StepFormat {
    std::vector<double> current, step, step_signed;
  };
  std::map<std::string, StepFormat> step_by_format;
  for (const auto& r : report.rows) {
    if (r.kind != "speed" || !r.used) continue;
    if (!speed_abs.count(r.source)) speed_order.push_back(r.source);
    speed_abs[r.source].push_back(std::fabs(r.error));
    if (const auto step = step_model_speed_error(r)) {
      step_abs[r.source].push_back(std::fabs(*step));
      step_current_abs[r.source].push_back(std::fabs(r.error));
      const json request = json::parse(r.request);
      StepFormat& f = step_by_format[request.value("engine", "") + " | " + request.value("weights", "")];
      f.current.push_back(std::fabs(r.error));
      f.step.push_back(std::fabs(*step));
      f.step_signed.push_back(*step);
    }
  }
  if (!speed_order.empty()) {
    md += "\n### Speed\n\n"
          "Constants of the speed model (core/include/llmsizer/speed_calibration.hpp) were derived from the rows of these sources "
          "(each constant's comment cites the table it was read from), so a source's in-sample error is no leave-one-source-out "
          "figure. data/validation/speed_loso.json gives, per source, each such constant's value derived without that source's "
          "rows (from the other sources, a cited figure from outside the validation data, or the physics default) and how; the "
          "source's rows estimated again with those values give its leave-one-source-out median and p90. A source the file does "
          "not cover for every constant derived from it is marked \"not a leave-one-source-out figure\". "
          "litgpt's host time is counted from its own source: the operators lit_gpt/model.py launches per layer and "
          "token, each at the per-operator time of the PyTorch team's eager gpt-fast baseline (pytorch.org blog, 2023-11-30), and "
          "bitsandbytes' 4-bit wrapper from bitsandbytes 0.41.1's source; no constant was read from its tables, so its figure "
          "is a leave-one-source-out one.\n\n"
          "| source | rows | in-sample median | in-sample p90 | leave-one-source-out median | leave-one-source-out p90 |\n"
          "|---|---:|---:|---:|---|---:|\n";
    int honest = 0;
    for (const auto& source : speed_order) {
      const auto& a = speed_abs[source];
      const std::string derived = speed_constants_derived_from(source);
      const std::optional<std::vector<double>> left_out = derived.empty() ? std::optional<std::vector<double>>(a)
                                                                          : leave_one_source_out_speed_errors(source);
      std::string loso = "not a leave-one-source-out figure (constants derived from it: " + derived + ")";
      std::string loso_p90 = "-";
      if (left_out) {
        ++honest;
        loso = pct(median_of(*left_out));
        loso_p90 = pct(percentile_of(*left_out, 0.9));
      }
      std::snprintf(line, sizeof line, "| %s | %zu | %s | %s | %s | %s |\n", source.c_str(), a.size(), pct(median_of(a)).c_str(),
                    pct(percentile_of(a, 0.9)).c_str(), loso.c_str(), loso_p90.c_str());
      md += line;
    }
    std::snprintf(line, sizeof line, "\n%d of %zu speed sources have a leave-one-source-out figure.\n", honest, speed_order.size());
    md += line;
    md += "\n#### The serving step model at batch 1\n\n"
          "The rows of the engines the serving step model covers (vLLM, SGLang), each answered as a `task: \"serve\"` request of "
          "one request at concurrency 1 (its prompt's prefill, then a decode step per token; rate = output tokens / end-to-end "
          "time, counted as the source counts it), beside the single-stream path above (throughput.cpp) on the same rows; rows whose "
          "prompt and answer exceed the model's trained context are left out (the serving answer refuses them, as the engines do "
          "without a rope-scaling override). The "
          "step model has no constant read from these tables but the ones named in the last column, so its figure is close to a "
          "leave-one-source-out one; single-stream speed stays on the path above where the step model is worse.\n\n"
          "| source | rows | single-stream path median | p90 | step model median | p90 | step-model inputs derived from it |\n"
          "|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& source : speed_order) {
      const auto it = step_abs.find(source);
      if (it == step_abs.end()) continue;
      const auto& current = step_current_abs[source];
      const std::string derived = step_model_constants_derived_from(source);
      std::snprintf(line, sizeof line, "| %s | %zu | %s | %s | %s | %s | %s |\n", source.c_str(), it->second.size(), pct(median_of(current)).c_str(),
                    pct(percentile_of(current, 0.9)).c_str(), pct(median_of(it->second)).c_str(), pct(percentile_of(it->second, 0.9)).c_str(),
                    derived.empty() ? "none" : derived.c_str());
      md += line;
    }
    md += "\nBy engine and weight format (bias: the step model's median signed error; > 0: too fast):\n\n"
          "| engine | weights | rows | single-stream path median | step model median | step model bias |\n|---|---|---:|---:|---:|---:|\n";
    for (const auto& [key, f] : step_by_format) {
      std::snprintf(line, sizeof line, "| %s | %zu | %s | %s | %s |\n", key.c_str(), f.step.size(), pct(median_of(f.current)).c_str(),
                    pct(median_of(f.step)).c_str(), signed_pct(median_of(f.step_signed)).c_str());
      md += line;
    }
  }
  return md;
}

}  // namespace llmsizer
