// SPDX-License-Identifier: MIT
#include "llmsizer/fixes.hpp"

#include <algorithm>

#include "llmsizer/largest_fitting.hpp"
#include "llmsizer/precision.hpp"
#include "stable_order.hpp"

namespace llmsizer {

const char* fix_cost_id(FixCost cost) {
  switch (cost) {
    case FixCost::setting: return "setting";
    case FixCost::near_lossless: return "near_lossless";
    case FixCost::less: return "less";
    case FixCost::lossy: return "lossy";
    case FixCost::money: return "money";
  }
  return "setting";
}

FixChange FixChange::of_text(std::string field, std::string value) {
  FixChange c;
  c.field = std::move(field);
  c.type = Type::text;
  c.text = std::move(value);
  return c;
}
FixChange FixChange::of_integer(std::string field, std::int64_t value) {
  FixChange c;
  c.field = std::move(field);
  c.type = Type::integer;
  c.integer = value;
  return c;
}
FixChange FixChange::of_boolean(std::string field, bool value) {
  FixChange c;
  c.field = std::move(field);
  c.type = Type::boolean;
  c.boolean = value;
  return c;
}

Verdict training_verdict(std::int64_t device_bytes, std::int64_t capacity_bytes) {
  return memory_verdict(capacity_bytes - device_bytes, fit_margin_bytes(capacity_bytes));
}

FitTarget fit_target(const HardwareSpec& hw, const FitResult& fit) {
  FitTarget t;
  t.gpus = hw.is_cpu() ? 0 : std::max(1, fit.gpus_used);
  t.usable_bytes = fit.usable_bytes;
  t.unified = hw.unified_memory;
  t.cuda_device = hw.is_cuda_gpu();
  t.max_gpus = max_devices(hw);
  if (hw.unified_memory) {
    t.hardware = &hw;
    t.memory_option_bytes = fit.memory_option_bytes;
  }
  return t;
}

namespace {

/// The clause every fix ends with: how much it leaves.
Message result_clause(Verdict v, std::int64_t headroom) {
  return Message(v == Verdict::comfortable ? "fix.result.comfortable" : "fix.result.tight").bytes("headroom", headroom);
}


/// The request's memory against one device (or RAM, or the budget) of the target.
struct InferenceCheck {
  const ModelSpec& model;
  const FitTarget& target;

  /// The request on `gpus` devices of `usable` bytes each: its verdict, and in `headroom` what is left.
  /// Bytes only: a check says none of its estimate's sentences. On CUDA GPUs the bytes fitting is not
  /// enough where PyTorch's caching allocator runs out (as fit_request decides).
  Verdict verdict(const InferenceSettings& s, int gpus, std::int64_t usable, std::int64_t& headroom) const {
    const Verdict v = bytes_verdict(s, gpus, usable, headroom);
    return verdict_fits(v) && !allocator_holds(s, gpus, usable) ? Verdict::no_fit : v;
  }
  bool comfortable(const InferenceSettings& s, int gpus) const { return comfortable_bytes(s, gpus) && allocator_holds(s, gpus, target.usable_bytes); }

  /// The verdict of the bytes alone.
  Verdict bytes_verdict(const InferenceSettings& s, int gpus, std::int64_t usable, std::int64_t& headroom) const {
    headroom = usable - required_bytes(s, gpus);
    return memory_verdict(headroom, fit_margin_bytes(usable));
  }
  /// What the request needs where it runs: RAM at 0 GPUs, the GPU's share of unified memory (no
  /// CUDA context), else the device's bytes.
  std::int64_t required_bytes(const InferenceSettings& s, int gpus) const {
    const MemoryEstimate e = estimate(s, gpus);
    return gpus == 0 ? e.host_bytes : target.unified ? e.device_bytes - e.parts.overhead : e.device_bytes;
  }
  /// The most bytes that fit comfortably (memory_verdict: a headroom of at least the margin).
  std::int64_t comfortable_budget() const { return target.usable_bytes - fit_margin_bytes(target.usable_bytes); }
  bool comfortable_bytes(const InferenceSettings& s, int gpus) const { return required_bytes(s, gpus) <= comfortable_budget(); }
  /// Where the bytes fit: on CUDA GPUs PyTorch's caching allocator does not run out either.
  bool allocator_holds(const InferenceSettings& s, int gpus, std::int64_t usable) const {
    if (!target.cuda_device || gpus < 1) return true;
    InferenceSettings on = s;
    on.gpus = gpus;
    return !allocator_replay_applies(model, on) || !allocator_runs_out(model, on, estimate(s, gpus), usable);
  }
  MemoryEstimate estimate(const InferenceSettings& s, int gpus) const {
    InferenceSettings on = s;
    on.gpus = gpus;
    return estimate_inference_memory(model, on, EstimateDetail::bytes_only);
  }
};

/// The weight formats a request in `format` may move to, most bits first: the same ecosystem's
/// usual steps down (the article's plain formats; GGUF's K-quants; bitsandbytes; vLLM's FP8 and
/// AWQ; MLX's group quantization).
std::vector<const char*> smaller_formats(const WeightFormat& format) {
  switch (format.ecosystem) {
    case Ecosystem::gguf: return {"q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m"};
    case Ecosystem::transformers: return {"llm-int8", "nf4"};
    case Ecosystem::vllm: return {"fp8", "awq-int4"};
    case Ecosystem::mlx: return {"mlx-8bit", "mlx-6bit", "mlx-4bit"};
    default: return {"bf16", "int8", "int4"};
  }
}

/// The 8-bit KV cache the engine offers: llama.cpp's (and the generic formula's) q8_0, vLLM's and
/// SGLang's fp8 (--kv-cache-dtype fp8); none for engines without one in this catalog.
const char* eight_bit_cache(Engine engine) {
  switch (engine) {
    case Engine::generic:
    case Engine::llama_cpp: return "q8_0";
    case Engine::vllm:
    case Engine::sglang: return "fp8";
    default: return nullptr;
  }
}

void rank(std::vector<Fix>& fixes) {
  stable_sort_by(fixes, [](const Fix& a, const Fix& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    return a.headroom_bytes > b.headroom_bytes;
  });
}

}  // namespace

std::optional<Fix> trained_context_fix(const ModelSpec& model, const InferenceSettings& settings, const FitTarget& target,
                                       std::int64_t trained_tokens) {
  const std::int64_t input = trained_tokens - settings.output_tokens;
  if (input < 1) return std::nullopt;
  InferenceSettings s = settings;
  s.input_tokens = input;
  std::int64_t headroom = 0;
  const Verdict v = InferenceCheck{model, target}.verdict(s, target.gpus, target.usable_bytes, headroom);
  if (!verdict_fits(v)) return std::nullopt;
  Message message = Message("fix.trained_context").grouped("tokens", trained_tokens);
  message.then(result_clause(v, headroom));
  return Fix{FixCost::less, {FixChange::of_integer("input_tokens", input)}, v, headroom, std::move(message)};
}

std::vector<Fix> inference_fixes(const ModelSpec& model, const InferenceSettings& settings, const FitTarget& target) {
  std::vector<Fix> fixes;
  const InferenceCheck check{model, target};
  const int gpus = target.gpus;
  auto add = [&](FixCost cost, std::vector<FixChange> changes, Message message, const InferenceSettings& s, int at_gpus,
                 std::int64_t usable) {
    std::int64_t headroom = 0;
    const Verdict v = check.verdict(s, at_gpus, usable, headroom);
    if (!verdict_fits(v)) return false;
    message.then(result_clause(v, headroom));
    fixes.push_back(Fix{cost, std::move(changes), v, headroom, std::move(message)});
    return true;
  };

  // An 8-bit KV cache.
  const char* cache = eight_bit_cache(settings.engine);
  const KvCacheFormat* eight = cache != nullptr ? find_kv_cache_format(cache) : nullptr;
  if (eight != nullptr && settings.kv_cache != nullptr &&
      eight->block_bytes * settings.kv_cache->block_elements < settings.kv_cache->block_bytes * eight->block_elements) {
    InferenceSettings s = settings;
    s.kv_cache = eight;
    add(FixCost::near_lossless, {FixChange::of_text("kv_cache", cache)}, Message("fix.kv_cache").term("format", std::string("kv_format.") + cache), s, gpus,
        target.usable_bytes);
  }

  // A smaller weight format of the same ecosystem: the first that fits comfortably, else the first that fits.
  {
    std::vector<Fix> tight;
    bool comfortable = false;
    for (const char* id : smaller_formats(*settings.weights)) {
      const WeightFormat* f = find_weight_format(id);
      if (f == nullptr || f->bits_per_weight() >= settings.weights->bits_per_weight()) continue;
      InferenceSettings s = settings;
      s.weights = f;
      s.weights_layout = nullptr;  // laid out again in the new format
      s.group_size = 0;
      std::int64_t headroom = 0;
      const Verdict v = check.verdict(s, gpus, target.usable_bytes, headroom);
      if (!verdict_fits(v)) continue;
      const FixCost cost = f->bits_per_weight() >= 7.9 ? FixCost::near_lossless : FixCost::lossy;
      Fix fix{cost, {FixChange::of_text("weights", id)}, v, headroom,
              Message("fix.weights").term("format", std::string("format.") + id).then(result_clause(v, headroom))};
      if (v == Verdict::comfortable) {
        fixes.push_back(std::move(fix));
        comfortable = true;
        break;
      }
      if (tight.empty()) tight.push_back(std::move(fix));
    }
    if (!comfortable && !tight.empty()) fixes.push_back(std::move(tight.front()));
  }

  // A shorter context: the longest that fits comfortably, in whole 1024-token steps above 2048.
  {
    const std::int64_t context = settings.input_tokens + settings.output_tokens;
    InferenceSettings s = settings;
    auto required = [&](std::int64_t input) {
      s.input_tokens = input;
      return check.required_bytes(s, gpus);
    };
    auto allocator_ok = [&](std::int64_t input) {
      s.input_tokens = input;
      return check.allocator_holds(s, gpus, target.usable_bytes);
    };
    const auto last_alike = [&](std::int64_t input) { return last_input_of_same_cache(s, input); };
    const std::int64_t input = context > 512 && settings.input_tokens > 1
                                   ? largest_within_both(1, settings.input_tokens - 1, check.comfortable_budget(), required, allocator_ok,
                                                         kAllocatorSearchStepTokens, last_alike)
                                   : 0;
    if (input >= 1) {
      std::int64_t best = input + settings.output_tokens;
      if (best >= 2048) best -= best % 1024;
      if (best >= 512 && best < context && best > settings.output_tokens) {
        s.input_tokens = best - settings.output_tokens;
        add(FixCost::less, {FixChange::of_integer("input_tokens", s.input_tokens)},
            Message("fix.context").count("tokens", best).count("current", context), s, gpus, target.usable_bytes);
      }
    }
  }

  // A smaller batch.
  if (settings.batch > 1) {
    InferenceSettings s = settings;
    auto required = [&](std::int64_t batch) {
      s.batch = batch;
      return check.required_bytes(s, gpus);
    };
    auto allocator_ok = [&](std::int64_t batch) {
      s.batch = batch;
      return check.allocator_holds(s, gpus, target.usable_bytes);
    };
    const std::int64_t batch = largest_within_both(1, settings.batch - 1, check.comfortable_budget(), required, allocator_ok);
    if (batch >= 1) {
      s.batch = batch;
      add(FixCost::less, {FixChange::of_integer("batch", s.batch)}, Message("fix.batch").count("batch", s.batch).count("current", settings.batch), s, gpus,
          target.usable_bytes);
    }
  }

  // A larger unified-memory configuration of the same machine.
  if (target.hardware != nullptr) {
    std::vector<std::int64_t> configs = target.hardware->memory_options_bytes;
    std::sort(configs.begin(), configs.end());
    for (std::int64_t c : configs) {
      if (c <= target.memory_option_bytes) continue;
      const std::int64_t usable = usable_device_bytes(*target.hardware, c);
      if (add(FixCost::money, {FixChange::of_integer("machine.ram_bytes", c)}, Message("fix.memory_option").memory_size("memory", c), settings, 1, usable)) {
        break;
      }
    }
  }

  // More GPUs: the fewest that fit comfortably, tensor parallel (or, for transformers and AutoAWQ,
  // whole layers per GPU under device_map).
  if (gpus >= 1 && target.max_gpus > gpus) {
    const bool layers = splits_layers(settings.engine);
    for (int n = gpus + 1; n <= target.max_gpus; ++n) {
      if (!gpus_ok(model, settings.engine, n) || !check.comfortable(settings, n)) continue;
      add(FixCost::money, {FixChange::of_integer("gpus", n)}, Message(layers ? "fix.gpus_device_map" : "fix.gpus").integer("gpus", n), settings, n, target.usable_bytes);
      break;
    }
  }
  rank(fixes);
  return fixes;
}

std::vector<Fix> training_fixes(const ModelSpec& model, const TrainingSettings& settings, std::int64_t capacity_bytes, int max_gpus) {
  std::vector<Fix> fixes;
  const std::int64_t margin = fit_margin_bytes(capacity_bytes);
  auto add = [&](FixCost cost, std::vector<FixChange> changes, Message message, const TrainingSettings& s) {
    const std::int64_t peak = estimate_training(model, s, EstimateDetail::bytes_only).memory.device_bytes;
    const std::int64_t headroom = capacity_bytes - peak;
    const Verdict v = memory_verdict(headroom, margin);
    if (!verdict_fits(v)) return false;
    message.then(result_clause(v, headroom));
    fixes.push_back(Fix{cost, std::move(changes), v, headroom, std::move(message)});
    return true;
  };

  if (settings.checkpointing == Checkpointing::none) {
    TrainingSettings s = settings;
    s.checkpointing = Checkpointing::full;
    add(FixCost::setting, {FixChange::of_boolean("training.gradient_checkpointing", true)}, Message("fix.checkpointing"), s);
  }
  if (settings.micro_batch > 1) {
    TrainingSettings s = settings;
    s.micro_batch = 1;
    s.gradient_accumulation = settings.gradient_accumulation * settings.micro_batch;
    add(FixCost::setting,
        {FixChange::of_integer("training.micro_batch", 1), FixChange::of_integer("training.gradient_accumulation", s.gradient_accumulation)},
        Message("fix.micro_batch").count("accumulation", s.gradient_accumulation), s);
  }
  if (settings.optimizer == Optimizer::adamw || settings.optimizer == Optimizer::paged_adamw) {
    TrainingSettings s = settings;
    s.optimizer = Optimizer::adamw_8bit;
    add(FixCost::near_lossless, {FixChange::of_text("training.optimizer", optimizer_id(Optimizer::adamw_8bit))}, Message("fix.optimizer_8bit"), s);
  }
  // The longest sequence that fits comfortably, in whole 256-token steps: the length the answer's
  // sentence names (training.hpp: comfortable_seq_len, one rule for both).
  if (settings.seq_len > 256 && capacity_bytes > margin) {
    const std::int64_t seq = comfortable_seq_len(model, settings, capacity_bytes, settings.seq_len);
    if (seq >= 256 && seq < settings.seq_len) {
      TrainingSettings s = settings;
      s.seq_len = seq;
      add(FixCost::less, {FixChange::of_integer("training.seq_len", seq)}, Message("fix.seq_len").count("tokens", seq).count("current", settings.seq_len), s);
    }
  }
  // LoRA instead of full training; QLoRA's 4-bit base instead of a 16-bit one.
  if (settings.method == TrainingMethod::full || settings.method == TrainingMethod::freeze) {
    TrainingSettings s = settings;
    s.method = TrainingMethod::lora;
    if (!add(FixCost::lossy, {FixChange::of_text("training.method", method_id(TrainingMethod::lora))}, Message("fix.method_lora"), s)) {
      s.method = TrainingMethod::qlora;
      add(FixCost::lossy, {FixChange::of_text("training.method", method_id(TrainingMethod::qlora))}, Message("fix.method_qlora"), s);
    }
  } else if (settings.method == TrainingMethod::lora) {
    TrainingSettings s = settings;
    s.method = TrainingMethod::qlora;
    add(FixCost::lossy, {FixChange::of_text("training.method", method_id(TrainingMethod::qlora))}, Message("fix.method_qlora"), s);
  }
  // More GPUs with ZeRO-3: parameters, gradients and optimizer states sharded over them.
  const int gpus = std::max(1, settings.gpus);
  for (int n = gpus * 2; n <= max_gpus; n *= 2) {
    TrainingSettings s = settings;
    s.gpus = n;
    s.zero_stage = 3;
    if (add(FixCost::money, {FixChange::of_integer("gpus", n), FixChange::of_integer("training.zero_stage", 3)}, Message("fix.zero3").integer("gpus", n), s)) break;
  }
  rank(fixes);
  return fixes;
}

}  // namespace llmsizer
