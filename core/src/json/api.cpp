// SPDX-License-Identifier: MIT
// The JSON edge (api.hpp): parse_request → answer → to_json, each entry point guarded so that
// nothing throws past it.
#include "llmsizer/api.hpp"

#include <nlohmann/json.hpp>

#include "embedded_catalog_docs.hpp"
#include "hardware_json.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/lora.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/training.hpp"
#include "parse_request.hpp"
#include "read.hpp"
#include "to_json.hpp"

namespace llmsizer {
namespace {

using json = nlohmann::ordered_json;
using edge::Api;

constexpr int kSchemaVersion = 1;

template <typename F>
std::string guarded(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return edge::error_json(e);
  } catch (const nlohmann::json::exception& e) {
    return edge::error_json(InputError("", Message("error.request.unreadable").text("detail", e.what())));
  } catch (const std::exception& e) {
    return edge::error_json(InputError("", Message("error.internal").text("detail", e.what())));
  }
}

}  // namespace

std::string estimate(const std::string& request_json) {
  return guarded([&] {
    const Catalog& catalog = embedded_catalog();
    const Request request = edge::parse_request(request_json, catalog, Api::estimate);
    return edge::to_json(request, answer(request, catalog));
  });
}

std::string recommend(const std::string& request_json) { return recommend(request_json, embedded_catalog()); }

std::string recommend(const std::string& request_json, const Catalog& catalog) {
  return guarded([&] {
    const Request request = edge::parse_request(request_json, catalog, Api::recommend);
    if (request.task == Task::training) {
      return edge::to_json(request, recommend_training(request.model, request.training, catalog.all_hardware(), request.goal, request.costs));
    }
    return edge::to_json(request, recommend(request, catalog));
  });
}

std::string list_models() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["models"] = json::array();
    for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
      if (doc->kind != "models") continue;
      // Every preset must parse: a broken one fails the whole listing (and presets_test).
      const std::optional<ModelSpec> preset = embedded_catalog().model(doc->id);
      if (!preset) throw InputError("model", Message("error.model.preset_unreadable").text("id", doc->id));
      const ModelSpec& m = *preset;
      const nlohmann::json d = edge::preset_document(doc->id);
      json j = edge::model_json(m, summarize_model(m));
      j["family"] = d.value("family", std::string());
      j["hf_repo"] = d.value("hf_repo", std::string());
      j["published_params"] = d.value("published_params", nlohmann::json());
      j["max_context"] = m.max_position_embeddings;
      j["experts"] = m.moe.num_experts;
      j["experts_per_token"] = m.moe.experts_per_token;
      j["sliding_window"] = m.sliding_window;
      j["source"] = d.value("source", std::string());
      out["models"].push_back(j);
    }
    return out.dump();
  });
  return listing;
}

std::string list_hardware() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    json out;
    out["hardware"] = json::array();
    for (const auto& h : hardware_catalog()) out["hardware"].push_back(edge::hardware_entry_json(h));
    out["schema_version"] = kSchemaVersion;
    return out.dump();
  });
  return listing;
}

/** The page's first view, and what its form starts from: Qwen2.5-7B-Instruct at bf16, 1,024 prompt +
 *  1,024 generated tokens, against a 24 GB budget (a 24 GB card, the article's reader's question),
 *  and for training a LoRA of all linear layers with gradient checkpointing (what fits one card).
 *  Every other value is the request's own default (request.hpp, training.hpp). */
json starting_view() {
  const Request r;
  const TrainingSettings t;
  json request = {{"model", "qwen2.5-7b-instruct"}, {"task", task_id(r.task)}, {"weights", "bf16"}, {"kv_cache", "bf16"},
                  {"engine", engine_id(r.engine)}, {"input_tokens", r.input_tokens}, {"output_tokens", r.output_tokens},
                  {"batch", r.batch}, {"gpus", r.gpus}, {"goal", goal_id(r.goal)}, {"budget_bytes", 24'000'000'000LL}};
  request["training"] = {{"method", method_id(TrainingMethod::lora)}, {"optimizer", optimizer_id(t.optimizer)},
                         {"precision", precision_id(t.precision)}, {"seq_len", t.seq_len}, {"micro_batch", t.micro_batch},
                         {"gradient_checkpointing", true}, {"lora_rank", t.lora_rank}, {"lora_targets", t.lora_targets},
                         {"zero_stage", t.zero_stage}, {"offload_optimizer", t.offload_optimizer},
                         {"quantization", quantization_id(t.quantized_base)}};
  // Engines llama.cpp and ollama: llama-server's and Ollama's own defaults (llama_cpp.hpp,
  // ollama.hpp); parallel / num_parallel null: the request's batch.
  const LlamaCppOptions l = r.llama_cpp;
  request["ubatch"] = l.ubatch;
  request["n_batch"] = l.n_batch;
  request["parallel"] = nullptr;
  request["kv_unified"] = l.kv_unified;
  request["mmap"] = l.mmap;
  request["n_gpu_layers"] = l.n_gpu_layers;
  request["cpu_family"] = llama_cpp_cpu_id(l.cpu_family);
  request["swa_full"] = l.swa_full;
  request["offload_kqv"] = l.offload_kqv;
  const OllamaOptions o = r.ollama;
  request["ollama"] = {{"num_parallel", nullptr}, {"num_batch", o.num_batch}, {"num_gpu", o.num_gpu}, {"use_mmap", o.use_mmap}};
  // The cost table's usage and electricity price (buy_or_rent.hpp, cost.hpp), and the CPU that
  // "CPU or GPU" compares with unless another is chosen.
  request["usage"] = {{"hours_per_day", kDefaultUsageHoursPerDay}};
  request["cost"] = {{"electricity_usd_per_kwh", r.costs.electricity_usd_per_kwh}};
  request["cpu"] = edge::kReferenceCpu;
  return request;
}

std::string list_options() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["weights"] = json::array();
    for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
      json w = {{"id", f->id}, {"name", f->name}, {"name_data", edge::message_json(Message("term.format." + std::string(f->id)))},
                {"ecosystem", ecosystem_id(f->ecosystem)}, {"bits_per_weight", f->bits_per_weight()}};
      if (f->scheme == QuantScheme::gptq || f->scheme == QuantScheme::awq || f->scheme == QuantScheme::mlx) w["group_size"] = f->group_size;
      out["weights"].push_back(w);
    }
    // The page's menu: formats grouped by ecosystem, in catalog order.
    const std::pair<Ecosystem, const char*> ecosystems[] = {
        {Ecosystem::generic, "Plain (the article's bytes per parameter)"}, {Ecosystem::transformers, "Transformers"},
        {Ecosystem::gguf, "GGUF/llama.cpp"}, {Ecosystem::vllm, "vLLM"}, {Ecosystem::mlx, "MLX"}};
    out["weight_groups"] = json::array();
    for (const auto& [ecosystem, label] : ecosystems) {
      json group = {{"ecosystem", ecosystem_id(ecosystem)}, {"label", label}, {"formats", json::array()}};
      for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
        if (f->ecosystem == ecosystem) group["formats"].push_back(f->id);
      }
      out["weight_groups"].push_back(group);
    }
    out["kv_cache"] = json::array();
    for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) {
      out["kv_cache"].push_back({{"id", f->id}, {"name", f->name}, {"name_data", edge::message_json(Message("term.kv_format." + std::string(f->id)))},
                                 {"bits_per_element", 8.0 * static_cast<double>(f->block_bytes) / static_cast<double>(f->block_elements)}});
    }
    out["engines"] = json::array();
    for (Engine e : kEngines) out["engines"].push_back(engine_id(e));
    // The llama.cpp and Ollama settings' choices and ranges (defaults: `defaults`).
    json& llama = out["llama_cpp"];
    for (LlamaCppCpu c : kLlamaCppCpus) llama["cpu_families"].push_back(llama_cpp_cpu_id(c));
    llama["ranges"] = {{"ubatch", {1, kLlamaCppMaxUbatch}}, {"n_batch", {1, kLlamaCppMaxBatch}}, {"parallel", {1, kLlamaCppMaxSequences}},
                       {"n_gpu_layers", {-1, nullptr}}, {"override_tensor", {0, kLlamaCppMaxPatterns}}};
    out["ollama"] = {{"kv_cache_types", {"f16", "q8_0", "q4_0"}},
                     {"ranges", {{"num_parallel", {1, kLlamaCppMaxSequences}}, {"num_batch", {1, kLlamaCppMaxUbatch}}, {"num_gpu", {-1, nullptr}}}}};
    out["tasks"] = {task_id(Task::inference), task_id(Task::training)};
    json& training = out["training"];
    for (TrainingMethod m : kTrainingMethods) training["methods"].push_back(method_id(m));
    for (Optimizer o : kOptimizers) training["optimizers"].push_back(optimizer_id(o));
    for (TrainingPrecision p : kTrainingPrecisions) training["precisions"].push_back(precision_id(p));
    for (QuantizedBase q : kQuantizedBases) training["quantizations"].push_back(quantization_id(q));
    out["goals"] = json::array();
    for (Goal g : {Goal::best_value, Goal::cheapest, Goal::fastest, Goal::local, Goal::laptop}) out["goals"].push_back(goal_id(g));
    out["lora_targets"] = {{"presets", json::object()}, {"modules", lora_target_modules()}};
    for (const auto& [name, modules] : lora_target_presets()) out["lora_targets"]["presets"][name] = modules;
    out["defaults"] = starting_view();
    return out.dump();
  });
  return listing;
}

std::string list_messages() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    json out;
    out["schema_version"] = kSchemaVersion;
    out["messages"] = json::object();
    for (const auto& t : edge::all_message_templates()) out["messages"][std::string(t.id)] = t.en;
    return out.dump();
  });
  return listing;
}

std::string inspect_model_file(std::string_view leading_bytes, double file_size_bytes) {
  const std::int64_t size = (file_size_bytes >= 0 && file_size_bytes < 9.0e18) ? static_cast<std::int64_t>(file_size_bytes) : -1;
  return edge::describe_model_file(leading_bytes, size);
}

std::string plan_repository(const std::string& listing_json, const std::string& chosen_file) {
  return guarded([&] { return edge::plan_repository(listing_json, chosen_file); });
}

std::string describe_repository_model(const std::string& parts_json) {
  return guarded([&] { return edge::describe_repository_model(parts_json); });
}

bool is_error_response(const std::string& response_json) {
  return response_json.rfind("{\"error\":", 0) == 0;
}

}  // namespace llmsizer
