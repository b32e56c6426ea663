// SPDX-License-Identifier: MIT
// The JSON edge (api.hpp): parse_request → answer → to_json, each entry point guarded so that
// nothing throws past it.
#include "llmsizer/api.hpp"

#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/embedded_catalog_docs.hpp"
#include "catalog/hardware_json.hpp"
#include "llmsizer/answer.hpp"
#include "llmsizer/ascii.hpp"
#include "llmsizer/embedded_catalog.hpp"
#include "llmsizer/embedded_data.hpp"
#include "llmsizer/error.hpp"
#include "llmsizer/message_text.hpp"
#include "llmsizer/llama_cpp.hpp"
#include "llmsizer/lora.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/training.hpp"
#include "answer/message_json.hpp"
#include "request/parse_request.hpp"
#include "request/read.hpp"
#include "answer/to_json.hpp"
#include "json_text.hpp"

namespace llmsizer {
namespace {

using edge::Api;
using edge::JsonWriter;

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

/** What an entry point answers: inference always, the other tasks through these (null in
 *  kInferenceOnly), so that a program calling only the *_inference entry points links none of
 *  serving's and training's code (api.hpp). */
struct TaskSet {
  const edge::TaskReaders* read;
  Answer (*answer)(const Request&, const Catalog&);
  std::string (*write)(const Request&, const Answer&);
  std::string (*rank_other)(const Request&, const Catalog&);  ///< recommend for task serve or training
};

/// recommend's answer for task serve or training.
std::string rank_other_task(const Request& request, const Catalog& catalog) {
  if (request.task == Task::serve) return edge::to_json(request, recommend_serving(request, catalog));
  return edge::to_json(request, recommend_training(request.model, request.training, catalog.all_hardware(), request.goal, request.costs,
                                                   kNearMisses, request.max_options, request.usage));
}

constexpr edge::TaskReaders kNoOtherTaskReader{};
constexpr TaskSet kEveryTask{&edge::kEveryTaskReader, &answer, &edge::to_json, &rank_other_task};
constexpr TaskSet kInferenceOnly{&kNoOtherTaskReader, &answer_inference, &edge::to_json_inference, nullptr};

/// `estimate`'s answer; `search_limits` false leaves out the fit's searches and fixes, and writes only
/// the members a row is read for (a chart point, a format row: Request::search_limits).
/// `calibration`: the speed constants to use in place of the cited ones (nullptr: the cited ones).
std::string estimate_json(const std::string& request_json, bool search_limits, const TaskSet& tasks,
                          const SpeedCalibration* calibration = nullptr) {
  return guarded([&] {
    const Catalog& catalog = embedded_catalog();
    Request request = edge::parse_request(request_json, catalog, Api::estimate, *tasks.read);
    request.search_limits = search_limits;
    if (calibration != nullptr) request.speed_calibration = calibration;
    return tasks.write(request, tasks.answer(request, catalog));
  });
}

std::string recommend_json(const std::string& request_json, const Catalog& catalog, const TaskSet& tasks) {
  return guarded([&] {
    const Request request = edge::parse_request(request_json, catalog, Api::recommend, *tasks.read);
    // A task other than inference was refused by the readers unless `tasks` ranks it.
    if (request.task != Task::inference) return tasks.rank_other(request, catalog);
    return edge::to_json(request, recommend(request, catalog));
  });
}

std::string page_answer_json(const std::string& request_json, const TaskSet& tasks) {
  return guarded([&] {
    if (request_json.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError("", Message("error.request.empty"));
    const nlohmann::json body = edge::parse_json(request_json);
    if (!body.is_object()) throw InputError("", Message("error.request.not_object").text("type", body.type_name()));
    if (!body.contains("estimate")) throw InputError("estimate", Message("error.request.empty"));
    // A row: estimate's answer without the searches, of the members a row is read for (Request::search_limits).
    const auto row = [&](const nlohmann::json& part) { return estimate_json(part.dump(), false, tasks); };
    std::string out = "{\"schema_version\":" + std::to_string(kSchemaVersion) + ",\"estimate\":" + estimate_json(body["estimate"].dump(), true, tasks);
    for (const char* list : {"chart", "formats"}) {
      out += ",\"";
      out += list;
      out += "\":[";
      const auto it = body.find(list);
      if (it != body.end() && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) out += (i > 0 ? "," : "") + row((*it)[i]);
      }
      out += "]";
    }
    const auto rec = body.find("recommend");
    out += ",\"recommend\":" + (rec != body.end() && !rec->is_null() ? recommend_json(rec->dump(), embedded_catalog(), tasks) : std::string("null")) + "}";
    return out;
  });
}

}  // namespace

std::string estimate(const std::string& request_json) { return estimate_json(request_json, true, kEveryTask); }
std::string estimate(const std::string& request_json, const SpeedCalibration& calibration) {
  return estimate_json(request_json, true, kEveryTask, &calibration);
}
std::string estimate_inference(const std::string& request_json) { return estimate_json(request_json, true, kInferenceOnly); }

std::string recommend(const std::string& request_json) { return recommend_json(request_json, embedded_catalog(), kEveryTask); }
std::string recommend(const std::string& request_json, const Catalog& catalog) { return recommend_json(request_json, catalog, kEveryTask); }
std::string recommend_inference(const std::string& request_json) { return recommend_json(request_json, embedded_catalog(), kInferenceOnly); }

std::string page_answer(const std::string& request_json) { return page_answer_json(request_json, kEveryTask); }
std::string page_answer_inference(const std::string& request_json) { return page_answer_json(request_json, kInferenceOnly); }

std::string list_models() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    JsonWriter w;
    w.begin_object().field("schema_version", kSchemaVersion).key("models").begin_array();
    for (auto* doc = embedded_documents_begin(); doc != embedded_documents_end(); ++doc) {
      if (doc->kind != "models") continue;
      // Every preset must parse: a broken one fails the whole listing (and presets_test). Each
      // document is parsed once, and no preset's tensor list is made (the catalog makes one for each
      // preset a request names): making them was most of the first listing's time.
      const nlohmann::json d = edge::parse_json(doc->json);
      const ModelSpec m = edge::preset_from_document(d);
      edge::open_model_json(w, m, summarize_model(m));
      w.field("family", d.value("family", std::string())).field("hf_repo", d.value("hf_repo", std::string()));
      w.key("published_params").raw(d.value("published_params", nlohmann::json()).dump());
      w.field("max_context", m.max_position_embeddings).field("experts", m.moe.num_experts);
      w.field("experts_per_token", m.moe.experts_per_token).field("sliding_window", m.sliding_window);
      w.field("source", d.value("source", std::string()));
      w.end_object();
    }
    w.end_array().end_object();
    return w.take();
  });
  return listing;
}

std::string list_hardware() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    JsonWriter w;
    w.begin_object().key("hardware").begin_array();
    for (const auto& h : hardware_catalog()) {
      if (is_offered(h)) edge::hardware_entry_json(w, h);
    }
    w.end_array().field("schema_version", kSchemaVersion).end_object();
    return w.take();
  });
  return listing;
}

/** The page's first view, and what its form starts from: Qwen2.5-7B-Instruct at bf16, 1,024 prompt +
 *  1,024 generated tokens, against a 24 GB budget (a 24 GB card, the article's reader's question),
 *  and for training a LoRA of all linear layers with gradient checkpointing (what fits one card).
 *  Every other value is the request's own default (request.hpp, training.hpp). */
void starting_view(JsonWriter& w) {
  const Request r;
  const TrainingSettings t;
  w.begin_object();
  w.field("model", "qwen2.5-7b-instruct").field("task", task_id(r.task)).field("weights", "bf16").field("kv_cache", "bf16");
  w.field("engine", engine_id(r.engine)).field("input_tokens", r.input_tokens).field("output_tokens", r.output_tokens);
  w.field("batch", r.batch).field("gpus", r.gpus).field("goal", goal_id(r.goal)).field("budget_bytes", 24'000'000'000LL);
  w.key("training").begin_object();
  w.field("method", method_id(TrainingMethod::lora)).field("optimizer", optimizer_id(t.optimizer));
  w.field("precision", precision_id(t.precision)).field("seq_len", t.seq_len).field("micro_batch", t.micro_batch);
  w.field("gradient_checkpointing", true).field("lora_rank", t.lora_rank).field("lora_targets", t.lora_targets);
  w.field("zero_stage", t.zero_stage).field("offload_optimizer", t.offload_optimizer);
  w.field("quantization", quantization_id(t.quantized_base));
  w.end_object();
  // Engines llama.cpp and ollama: llama-server's and Ollama's own defaults (llama_cpp.hpp,
  // ollama.hpp); parallel / num_parallel null: the request's batch.
  const LlamaCppOptions l = r.llama_cpp;
  w.field("ubatch", l.ubatch).field("n_batch", l.n_batch).field("parallel", nullptr).field("kv_unified", l.kv_unified);
  w.field("mmap", l.mmap).field("n_gpu_layers", l.n_gpu_layers).field("cpu_family", llama_cpp_cpu_id(l.cpu_family));
  w.field("swa_full", l.swa_full).field("offload_kqv", l.offload_kqv);
  const OllamaOptions o = r.ollama;
  w.key("ollama").begin_object();
  w.field("num_parallel", nullptr).field("num_batch", o.num_batch).field("num_gpu", o.num_gpu).field("use_mmap", o.use_mmap);
  w.end_object();
  // The cost table's usage and electricity price (buy_or_rent.hpp, cost.hpp), and the CPU that
  // "CPU or GPU" compares with unless another is chosen.
  w.key("usage").begin_object().field("hours_per_day", kDefaultUsageHoursPerDay).end_object();
  w.key("cost").begin_object().field("electricity_usd_per_kwh", r.costs.electricity_usd_per_kwh);
  w.field("lifetime_years", r.costs.lifetime_years).field("utilization", r.costs.utilization).field("pue", r.costs.pue);
  w.field("upkeep_usd_per_year", r.costs.upkeep_usd_per_year).end_object();
  w.field("cpu", edge::kReferenceCpu);
  w.end_object();
}

/// [low, high]: a setting's range as the page's form limits it; high null: no limit.
template <typename High>
void range(JsonWriter& w, const char* name, int low, High high) {
  w.key(name).begin_array().value(low).value(high).end_array();
}

std::string list_options() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    JsonWriter w;
    w.begin_object().field("schema_version", kSchemaVersion);
    w.key("weights").begin_array();
    for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
      w.begin_object().field("id", f->id).field("name", f->name).key("name_data");
      edge::write_message_json(w, Message("term.format." + std::string(f->id)));
      w.field("ecosystem", ecosystem_id(f->ecosystem)).field("bits_per_weight", f->bits_per_weight());
      if (f->scheme == QuantScheme::gptq || f->scheme == QuantScheme::awq || f->scheme == QuantScheme::mlx) w.field("group_size", f->group_size);
      w.end_object();
    }
    w.end_array();
    // The page's menu: formats grouped by ecosystem, in catalog order.
    const std::pair<Ecosystem, const char*> ecosystems[] = {
        {Ecosystem::generic, "Plain (the article's bytes per parameter)"}, {Ecosystem::transformers, "Transformers"},
        {Ecosystem::gguf, "GGUF/llama.cpp"}, {Ecosystem::vllm, "vLLM"}, {Ecosystem::mlx, "MLX"}};
    w.key("weight_groups").begin_array();
    for (const auto& [ecosystem, label] : ecosystems) {
      w.begin_object().field("ecosystem", ecosystem_id(ecosystem)).field("label", label).key("formats").begin_array();
      for (auto* f = weight_formats_begin(); f != weight_formats_end(); ++f) {
        if (f->ecosystem == ecosystem) w.value(f->id);
      }
      w.end_array().end_object();
    }
    w.end_array();
    // The formats a precision table leads with, per engine (memory.hpp suggested_weight_formats).
    w.key("suggested_weights").begin_object();
    for (Engine e : kEngines) {
      w.key(engine_id(e)).begin_array();
      for (std::string_view id : suggested_weight_formats(e)) w.value(id);
      w.end_array();
    }
    w.end_object();
    w.key("kv_cache").begin_array();
    for (auto* f = kv_cache_formats_begin(); f != kv_cache_formats_end(); ++f) {
      w.begin_object().field("id", f->id).field("name", f->name).key("name_data");
      edge::write_message_json(w, Message("term.kv_format." + std::string(f->id)));
      w.field("bits_per_element", 8.0 * static_cast<double>(f->block_bytes) / static_cast<double>(f->block_elements));
      w.end_object();
    }
    w.end_array();
    w.key("engines").begin_array();
    for (Engine e : kEngines) w.value(engine_id(e));
    w.end_array();
    // The llama.cpp and Ollama settings' choices and ranges (defaults: `defaults`).
    w.key("llama_cpp").begin_object().key("cpu_families").begin_array();
    for (LlamaCppCpu c : kLlamaCppCpus) w.value(llama_cpp_cpu_id(c));
    w.end_array().key("ranges").begin_object();
    range(w, "ubatch", 1, kLlamaCppMaxUbatch);
    range(w, "n_batch", 1, kLlamaCppMaxBatch);
    range(w, "parallel", 1, kLlamaCppMaxSequences);
    range(w, "n_gpu_layers", -1, nullptr);
    range(w, "override_tensor", 0, kLlamaCppMaxPatterns);
    w.end_object().end_object();
    w.key("ollama").begin_object().key("kv_cache_types").begin_array().value("f16").value("q8_0").value("q4_0").end_array();
    w.key("ranges").begin_object();
    range(w, "num_parallel", 1, kLlamaCppMaxSequences);
    range(w, "num_batch", 1, kLlamaCppMaxUbatch);
    range(w, "num_gpu", -1, nullptr);
    w.end_object().end_object();
    w.key("tasks").begin_array().value(task_id(Task::inference)).value(task_id(Task::training)).value(task_id(Task::serve)).end_array();
    // Task serve's engines (serve_engine.hpp), in the order menus list them.
    w.key("serve").begin_object().key("engines").begin_array();
    for (ServeEngine e : kServeEngines) w.value(serve_engine_id(e));
    w.end_array().end_object();
    w.key("training").begin_object();
    w.key("methods").begin_array();
    for (TrainingMethod m : kTrainingMethods) w.value(method_id(m));
    w.end_array().key("optimizers").begin_array();
    for (Optimizer o : kOptimizers) w.value(optimizer_id(o));
    w.end_array().key("precisions").begin_array();
    for (TrainingPrecision p : kTrainingPrecisions) w.value(precision_id(p));
    w.end_array().key("quantizations").begin_array();
    for (QuantizedBase q : kQuantizedBases) w.value(quantization_id(q));
    w.end_array().end_object();
    w.key("goals").begin_array();
    for (Goal g : {Goal::best_value, Goal::cheapest, Goal::fastest, Goal::local, Goal::laptop}) w.value(goal_id(g));
    w.end_array();
    w.key("lora_targets").begin_object().key("presets").begin_object();
    for (const auto& [name, modules] : lora_target_presets()) w.field(name, modules);
    w.end_object().field("modules", lora_target_modules()).end_object();
    w.key("defaults");
    starting_view(w);
    w.end_object();
    return w.take();
  });
  return listing;
}

std::string list_messages() {
  // Made once: the compiled-in data never change, so every later call costs only a copy.
  static const std::string listing = guarded([] {
    JsonWriter w;
    w.begin_object().field("schema_version", kSchemaVersion).key("messages").begin_object();
    // Sorted by id; an id given twice (a written template and a catalog name) keeps its first place
    // and its last text, as the object this listing was built as did.
    const std::vector<edge::MessageTemplate> templates = edge::all_message_templates();
    for (std::size_t i = 0; i < templates.size(); ++i) {
      if (i > 0 && templates[i].id == templates[i - 1].id) continue;
      std::size_t last = i;
      while (last + 1 < templates.size() && templates[last + 1].id == templates[i].id) ++last;
      w.field(templates[i].id, templates[last].en);
    }
    w.end_object().end_object();
    return w.take();
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
  return starts_with(response_json, "{\"error\":");
}

}  // namespace llmsizer
