// SPDX-License-Identifier: MIT
#include "llmsizer/speculative.hpp"

#include <algorithm>
#include <cmath>

#include "llmsizer/error.hpp"

namespace llmsizer {

double tokens_per_target_step(double alpha, int k) {
  const double a = std::clamp(alpha, 0.0, 1.0);
  const int n = std::max(0, k);
  if (a >= 1.0) return n + 1.0;
  return (1.0 - std::pow(a, n + 1)) / (1.0 - a);
}

double break_even_acceptance(int k, double cost_ratio) {
  if (!(cost_ratio > 1.0)) return 0.0;
  if (cost_ratio >= k + 1.0) return 1.0;
  // tokens_per_target_step rises monotonically in α from 1 (α = 0) to k + 1 (α = 1): bisection.
  double lo = 0.0;
  double hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (tokens_per_target_step(mid, k) < cost_ratio ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

DraftMemory draft_memory(const DraftSettings& draft, const InferenceSettings& target) {
  if (target.engine == Engine::ollama) throw InputError("draft", Message("error.draft.ollama"));
  DraftMemory out;
  InferenceSettings s = target;
  s.weights = draft.weights;
  s.group_size = draft.group_size;
  s.weights_layout = nullptr;
  s.model_counts = nullptr;
  const bool llama = target.engine == Engine::llama_cpp;
  int contexts = 1;
  if (llama) {
    // llama-server: one draft context per slot, each of one sequence over the slot's context; its
    // cache F16 (common_params_speculative cache_type_k/v default GGML_TYPE_F16), -ngld layers on the GPU.
    contexts = target.llama_cpp.parallel > 0 ? target.llama_cpp.parallel
                                             : static_cast<int>(std::clamp<std::int64_t>(target.batch, 1, kLlamaCppMaxSequences));
    s.batch = 1;
    s.llama_cpp.parallel = 1;
    s.llama_cpp.kv_unified = false;
    s.llama_cpp.n_gpu_layers = draft.n_gpu_layers;
    s.llama_cpp.override_tensor.clear();
    s.kv_cache = find_kv_cache_format("fp16");
  }
  const MemoryEstimate e = estimate_inference_memory(draft.model, s, EstimateDetail::full);
  const bool cpu_only = target.gpus == 0;
  // The CUDA context is the target's: one process.
  const std::int64_t device = cpu_only ? 0 : e.device_bytes - e.parts.overhead;
  std::int64_t device_weights = 0;
  std::int64_t host_weights = e.parts.weights;
  if (!cpu_only) {
    if (e.llama_cpp) {
      const LlamaCppMemory& b = e.llama_cpp->memory;
      host_weights = b.weights_mapped + b.weights_cpu + b.weights_repack;
      device_weights = e.parts.weights - host_weights;
    } else {
      device_weights = e.parts.weights;
      host_weights = 0;
    }
  }
  out.contexts = contexts;
  out.weights_bytes = e.parts.weights;
  out.kv_cache_bytes = e.parts.kv_cache * contexts;
  out.compute_bytes = e.parts.activations * contexts;
  out.device_bytes = device_weights + (device - device_weights) * contexts;
  out.host_bytes = host_weights + (e.host_bytes - host_weights) * contexts;
  s.weights_layout = nullptr;
  s.model_counts = nullptr;
  out.settings = s;
  return out;
}

DraftSpeed draft_speed(const ModelSpec& target_model, const InferenceSettings& target, const DraftSettings& draft,
                       const DraftMemory& memory, const HardwareSpec& hw, const SpeedPlacement& where, const SpeedOptions& options) {
  DraftSpeed out;
  const bool cpu = where.gpus == 0;
  if (effective_bandwidth_gb_per_s(hw, cpu) <= 0) return out;
  // The middle of the generation, as estimate_throughput's decode speed.
  const std::int64_t context = target.input_tokens + target.output_tokens / 2;
  const int k = draft.draft_max;
  out.target_step_s = decode_step(target_model, target, hw, where, context, options).total_s;
  // The verify step runs k + 1 positions of each sequence in one forward: the weights' part of a step
  // of batch × (k + 1) tokens (taken at a context of one token), plus what the context adds to a plain
  // step (the cache is read once per sequence, not once per position).
  InferenceSettings verify = target;
  verify.batch = target.batch * (k + 1);
  const double context_part = out.target_step_s - decode_step(target_model, target, hw, where, 1, options).total_s;
  out.verify_step_s = decode_step(target_model, verify, hw, where, 1, options).total_s + std::max(0.0, context_part);
  SpeedPlacement draft_where = where;
  if (!cpu && target.engine == Engine::llama_cpp && draft.n_gpu_layers >= 0) {
    draft_where.gpu_layers = std::min(draft.n_gpu_layers, draft.model.num_layers);
  }
  InferenceSettings ds = memory.settings;
  ds.batch = target.batch;
  out.draft_step_s = decode_step(draft.model, ds, hw, draft_where, context, options).total_s;
  if (!(out.target_step_s > 0) || !(out.verify_step_s > 0)) return out;
  out.known = true;
  out.tokens_per_target_step = tokens_per_target_step(draft.acceptance_rate, k);
  const double cost_ratio = (out.verify_step_s + k * out.draft_step_s) / out.target_step_s;
  out.speedup = out.tokens_per_target_step / cost_ratio;
  out.break_even_acceptance = break_even_acceptance(k, cost_ratio);
  out.decode_tokens_per_s_without = 1.0 / out.target_step_s;
  out.decode_tokens_per_s = out.decode_tokens_per_s_without * out.speedup;
  return out;
}

DraftFit fit_with_draft(const FitResult& f, const DraftMemory& draft) {
  DraftFit out;
  const bool host = f.placement == Placement::cpu;
  out.required_bytes = f.required_bytes + (host ? draft.host_bytes + draft.device_bytes : draft.device_bytes);
  out.usable_bytes = f.usable_bytes;
  out.headroom_bytes = out.usable_bytes - out.required_bytes;
  out.margin_bytes = fit_margin_bytes(out.usable_bytes);
  if (f.placement == Placement::none) {
    out.verdict = Verdict::no_fit;
  } else if (f.placement == Placement::offload) {
    out.verdict = Verdict::offload;
  } else {
    out.verdict = out.headroom_bytes < 0 ? Verdict::no_fit : memory_verdict(out.headroom_bytes, out.margin_bytes);
  }
  return out;
}

bool draft_vocab_compatible(const ModelSpec& target, const ModelSpec& draft) {
  if (target.vocab_size <= 0 || draft.vocab_size <= 0) return true;
  const std::int64_t gap = draft.vocab_size - target.vocab_size;
  return gap <= kDraftVocabMaxDifference && gap >= -kDraftVocabMaxDifference;
}

std::string draft_command_line(Engine engine, const DraftSettings& draft, const std::string& model_command) {
  if (engine == Engine::llama_cpp && !model_command.empty()) {
    return model_command + " -md DRAFT.gguf --draft-max " + std::to_string(draft.draft_max) + " -ngld " +
           (draft.n_gpu_layers < 0 ? std::string("all") : std::to_string(draft.n_gpu_layers));
  }
  if (engine == Engine::vllm) {
    return "vllm serve MODEL --speculative-config '{\"model\": \"DRAFT\", \"num_speculative_tokens\": " + std::to_string(draft.draft_max) + "}'";
  }
  return std::string();
}

}  // namespace llmsizer
