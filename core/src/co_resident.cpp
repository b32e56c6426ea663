// SPDX-License-Identifier: MIT
#include "llmsizer/co_resident.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace llmsizer {

CoResidentModel co_resident_memory(const AlsoLoadedSettings& other, const InferenceSettings& main, bool unified_memory) {
  InferenceSettings s = main;
  s.weights = other.weights;
  s.group_size = other.group_size;
  s.weights_layout = nullptr;
  s.model_counts = nullptr;
  if (other.kv_cache != nullptr) s.kv_cache = other.kv_cache;
  if (other.context > 0) {
    // The context is what the engine reserves (-c, num_ctx, --max-model-len): sized as a prompt of
    // that length, as the request's own input + output is.
    s.input_tokens = other.context;
    s.output_tokens = 0;
  }
  s.llama_cpp.n_gpu_layers = other.n_gpu_layers;
  s.llama_cpp.override_tensor.clear();
  s.ollama.num_gpu = other.n_gpu_layers;
  MemoryEstimate e = estimate_inference_memory(other.model, s, EstimateDetail::bytes_only);
  if (unified_memory) e = without_cuda_context(std::move(e));
  CoResidentModel m;
  m.model_id = other.model.id;
  m.weights_id = other.weights->id;
  m.context = s.input_tokens + s.output_tokens;
  m.device_bytes = e.device_bytes;
  m.host_bytes = e.host_bytes;
  m.needed_bytes = e.device_bytes;
  m.gpu_memory_utilization = other.gpu_memory_utilization;
  m.n_gpu_layers = other.n_gpu_layers;
  return m;
}

namespace {

bool splits_gpu_by_share(Engine engine) { return engine == Engine::vllm || engine == Engine::sglang; }

/// What a model holds where the set is compared: the GPU's bytes, or RAM on the CPU.
std::int64_t held_bytes(const CoResidentModel& m, bool cpu) { return cpu ? m.host_bytes + m.device_bytes : m.device_bytes; }

Message model_line(const CoResidentModel& m) {
  return Message("co_resident.model").text("model", m.model_id).text("weights", m.weights_id).grouped("context", m.context)
      .bytes("device", m.device_bytes).bytes("host", m.host_bytes);
}

/// Ollama: the models load in order; each waits for a free runner slot and for room beside those
/// loaded, an idle one unloaded to make either (server/sched.go processPending, findRunnerToUnload).
void place_ollama(CoResidentSet& set, bool cpu) {
  std::vector<int> loaded = {0};
  std::int64_t used = held_bytes(set.models[0], cpu);
  bool by_count = false;
  const auto evict = [&](int loading, bool count_rule) {
    // The request's own model is the one in use; of the idle models the earliest listed goes.
    auto it = std::find_if(loaded.begin(), loaded.end(), [](int i) { return i != 0; });
    if (it == loaded.end()) it = loaded.begin();
    const int out = *it;
    set.models[static_cast<std::size_t>(out)].resident = false;
    used -= held_bytes(set.models[static_cast<std::size_t>(out)], cpu);
    loaded.erase(it);
    if (set.first_out < 0) {
      set.first_out = out;
      set.loading = loading;
      by_count = count_rule;
    }
  };
  for (int k = 1; k < static_cast<int>(set.models.size()); ++k) {
    const std::int64_t need = held_bytes(set.models[static_cast<std::size_t>(k)], cpu);
    while (!loaded.empty()) {
      if (static_cast<int>(loaded.size()) >= set.max_loaded) {
        evict(k, true);
      } else if (used + need > set.usable_bytes) {
        evict(k, false);
      } else {
        break;
      }
    }
    loaded.push_back(k);
    used += need;
  }
  set.required_bytes = used;
  set.headroom_bytes = set.usable_bytes - used;
  if (set.first_out >= 0) {
    set.verdict = Verdict::no_fit;
    const CoResidentModel& out = set.models[static_cast<std::size_t>(set.first_out)];
    const CoResidentModel& in = set.models[static_cast<std::size_t>(set.loading)];
    set.summary = by_count ? Message("co_resident.ollama.evicted_max_loaded").integer("max", set.max_loaded).text("loading", in.model_id).text("evicted", out.model_id)
                           : Message("co_resident.ollama.evicted_memory").text("loading", in.model_id).text("evicted", out.model_id);
  }
}

/// vLLM and SGLang: each instance its share of the GPU; the instances that give none share evenly
/// what is left of the default utilization.
void place_shares(CoResidentSet& set) {
  double given = 0;
  int without = 0;
  for (const CoResidentModel& m : set.models) {
    if (m.gpu_memory_utilization > 0) given += m.gpu_memory_utilization;
    else ++without;
  }
  const double even = without > 0 ? (kVllmSharedUtilization - given) / without : 0.0;
  set.required_bytes = 0;
  Verdict worst = Verdict::comfortable;
  for (std::size_t i = 0; i < set.models.size(); ++i) {
    CoResidentModel& m = set.models[i];
    if (!(m.gpu_memory_utilization > 0)) m.gpu_memory_utilization = std::max(0.0, even);
    const std::int64_t share = static_cast<std::int64_t>(std::floor(m.gpu_memory_utilization * static_cast<double>(set.usable_bytes)));
    m.device_bytes = share;
    set.required_bytes += share;
    const std::int64_t spare = share - m.needed_bytes;
    if (spare < 0) {
      m.resident = false;
      if (set.first_out < 0) {
        set.first_out = static_cast<int>(i);
        set.summary = Message("co_resident.share_short").text("model", m.model_id).decimal("share", m.gpu_memory_utilization, 2).bytes("share", share)
                          .bytes("needed", m.needed_bytes);
      }
      worst = Verdict::no_fit;
    } else if (worst != Verdict::no_fit && memory_verdict(spare, fit_margin_bytes(share)) == Verdict::tight) {
      worst = Verdict::tight;
    }
  }
  set.headroom_bytes = set.usable_bytes - set.required_bytes;
  if (set.first_out >= 0) set.verdict = Verdict::no_fit;
  else if (worst == Verdict::tight) set.verdict = Verdict::tight;
}

/// One process per model: the memory adds up; past the device the last started is the one that
/// runs short (llama.cpp: keeps layers in RAM when RAM holds them).
void place_processes(CoResidentSet& set, Engine engine, bool cpu, std::int64_t host_usable_bytes) {
  std::int64_t device = 0;
  std::int64_t everything = 0;
  for (const CoResidentModel& m : set.models) {
    device += held_bytes(m, cpu);
    everything += m.device_bytes + m.host_bytes;
  }
  set.required_bytes = device;
  set.headroom_bytes = set.usable_bytes - device;
  if (set.headroom_bytes >= 0) return;
  const int last = static_cast<int>(set.models.size()) - 1;
  set.first_out = last;
  CoResidentModel& m = set.models[static_cast<std::size_t>(last)];
  const bool ram_holds = host_usable_bytes <= 0 || everything <= set.usable_bytes + host_usable_bytes;
  if (engine == Engine::llama_cpp && !cpu && ram_holds) {
    set.verdict = Verdict::offload;
    set.summary = Message("co_resident.offloaded").bytes("short", -set.headroom_bytes).text("model", m.model_id);
    return;
  }
  m.resident = false;
  set.verdict = Verdict::no_fit;
  set.summary = Message("co_resident.not_started").bytes("short", -set.headroom_bytes).text("model", m.model_id);
}

}  // namespace

CoResidentSet place_co_resident(std::vector<CoResidentModel> models, Engine engine, int gpus, const FitResult& main_fit,
                                std::int64_t host_usable_bytes) {
  CoResidentSet set;
  set.models = std::move(models);
  set.placed = true;
  const bool cpu = main_fit.placement == Placement::cpu;
  set.usable_bytes = main_fit.usable_bytes;
  set.margin_bytes = fit_margin_bytes(set.usable_bytes);
  set.verdict = Verdict::comfortable;
  if (engine == Engine::ollama) {
    set.max_loaded = kOllamaModelsPerGpu * (cpu ? 1 : std::max(1, gpus));
    set.explain.push_back(Message("co_resident.rule.ollama").integer("max", set.max_loaded));
    place_ollama(set, cpu);
  } else if (splits_gpu_by_share(engine) && !cpu) {
    set.explain.push_back(Message("co_resident.rule.shares").text("engine", engine_id(engine)).decimal("utilization", kVllmSharedUtilization, 2));
    place_shares(set);
  } else {
    set.explain.push_back(Message(engine == Engine::llama_cpp ? "co_resident.rule.llama_cpp" : "co_resident.rule.processes").text("engine", engine_id(engine)));
    place_processes(set, engine, cpu, host_usable_bytes);
  }
  // The request's own model already offloaded or not fitting leaves the set so at best.
  if (main_fit.placement == Placement::none) set.verdict = Verdict::no_fit;
  else if (main_fit.placement == Placement::offload && verdict_fits(set.verdict)) set.verdict = Verdict::offload;
  if (set.first_out < 0 && set.verdict != Verdict::no_fit && set.verdict != Verdict::offload && !splits_gpu_by_share(engine)) {
    set.verdict = set.headroom_bytes < 0 ? Verdict::no_fit : memory_verdict(set.headroom_bytes, set.margin_bytes);
  }
  if (set.summary.id.empty()) {
    switch (set.verdict) {
      case Verdict::comfortable: set.summary = Message("verdict.comfortable").bytes("headroom", set.headroom_bytes).bytes("margin", set.margin_bytes); break;
      case Verdict::tight: set.summary = Message("verdict.tight").bytes("headroom", set.headroom_bytes).bytes("margin", set.margin_bytes); break;
      case Verdict::offload: set.summary = Message("co_resident.main_offloaded").text("model", set.models[0].model_id); break;
      case Verdict::no_fit: set.summary = Message("verdict.no_fit").bytes("short", std::max<std::int64_t>(0, -set.headroom_bytes)); break;
    }
  }
  for (const CoResidentModel& m : set.models) set.explain.push_back(model_line(m));
  set.command_line = co_resident_command_line(engine, set);
  return set;
}

namespace {

/// A share as the engines' flags take it: two decimals ("0.70").
std::string share_text(double share) {
  const long hundredths = std::lround(share * 100.0);
  std::string digits = std::to_string(hundredths % 100);
  if (digits.size() < 2) digits.insert(0, "0");
  return std::to_string(hundredths / 100) + "." + digits;
}

}  // namespace

std::string co_resident_command_line(Engine engine, const CoResidentSet& set) {
  std::string out;
  const auto line = [&out](const std::string& text) { out += (out.empty() ? "" : "\n") + text; };
  int port = 0;
  for (const CoResidentModel& m : set.models) {
    const std::string ctx = std::to_string(m.context);
    switch (engine) {
      case Engine::ollama:
        if (out.empty()) line("OLLAMA_MAX_LOADED_MODELS=" + std::to_string(set.models.size()) + " OLLAMA_KEEP_ALIVE=-1 OLLAMA_CONTEXT_LENGTH=" + ctx + " ollama serve");
        line("ollama run " + m.model_id + " \"\"");
        break;
      case Engine::vllm:
        line("vllm serve " + m.model_id + " --gpu-memory-utilization " + share_text(m.gpu_memory_utilization) + " --max-model-len " + ctx +
             " --port " + std::to_string(8000 + port));
        break;
      case Engine::sglang:
        line("python -m sglang.launch_server --model-path " + m.model_id + " --mem-fraction-static " + share_text(m.gpu_memory_utilization) +
             " --context-length " + ctx + " --port " + std::to_string(30000 + port));
        break;
      case Engine::llama_cpp:
        line("llama-server -m " + m.model_id + ".gguf -c " + ctx + " -ngl " + (m.n_gpu_layers < 0 ? std::string("all") : std::to_string(m.n_gpu_layers)) +
             " --port " + std::to_string(8080 + port));
        break;
      default: return std::string();
    }
    ++port;
  }
  return out;
}

}  // namespace llmsizer
