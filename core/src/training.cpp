// SPDX-License-Identifier: MIT
#include "llmsizer/training.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "llmsizer/verdict.hpp"
#include "training_internal.hpp"

namespace llmsizer {
namespace {

using training_detail::activation_bytes;

/// bitsandbytes 8-bit optimizers quantize each state block-wise, one fp32 absmax per block of
/// 2048 values (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization", §2.1, B = 2048).
constexpr double kBnb8BitBlock = 2048.0;

/// DeepSpeed ZeRO-3 communication buckets. The Hugging Face DeepSpeed guide (transformers docs,
/// "ZeRO-2 config"): "overlap_comm uses 4.5x the allgather_bucket_size and reduce_bucket_size
/// values"; ZeRO-3 with the guide's "auto" values: reduce_bucket_size = h². (ZeRO-1/2 buffers
/// come from DeepSpeed's own allocations: training_frameworks.hpp zero12_buffers.)
constexpr double kOverlapCommFactor = 2.0 * 2.0 * 4.5;  // bytes per bucket element: 2 B × 2 buckets × 4.5
/// DeepSpeed ZeRO-3 converts gradients to fp32 one sub-group at a time: sub_group_size 1e9.
constexpr std::int64_t kZero3SubGroupElements = 1'000'000'000;

/// Bytes per parameter of the frozen 4-bit base of QLoRA, with its quantization constants.
double quantized_base_bytes(QuantizedBase base) {
  switch (base) {
    // NF4 with double quantization (Dettmers et al. 2023, "QLoRA", §3 "Double Quantization"):
    // 4 bits + an 8-bit absmax per 64 weights + an fp32 constant per 256 absmax blocks
    // = 0.5 + 1/64 + 4/(64·256) B = 4.127 bits.
    case QuantizedBase::nf4: return 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
    // NF4 alone: an fp32 absmax per 64 weights = 0.5 + 4/64 B (QLoRA §3: 32/64 = 0.5 bits).
    case QuantizedBase::nf4_single: return 0.5 + 4.0 / 64;
    // GPTQ (AutoGPTQ QuantLinear), group size 128: packed 4-bit weights, an fp16 scale and a
    // 4-bit zero point per group of 128 input rows = 0.5 + 2/128 + 0.5/128 B.
    case QuantizedBase::gptq_int4: return 0.5 + 2.5 / 128;
  }
  return 0.5;
}

/// The term naming the quantized base ("NF4 + double quantization").
const char* quantized_base_term(QuantizedBase base) {
  switch (base) {
    case QuantizedBase::nf4: return "quantized_base.nf4";
    case QuantizedBase::nf4_single: return "quantized_base.nf4_single";
    case QuantizedBase::gptq_int4: return "quantized_base.gptq_int4";
  }
  return "quantized_base.nf4";
}

bool is_mixed(TrainingPrecision p) { return p == TrainingPrecision::mixed_bf16 || p == TrainingPrecision::mixed_fp16; }

/// Bytes of a weight (and its gradient) in the training precision: fp32 4, otherwise 2.
int weight_bytes_for(TrainingPrecision p) { return p == TrainingPrecision::fp32 ? 4 : 2; }

/// Optimizer states are fp32 except in pure bf16, where PyTorch creates them like the parameter
/// (torch.optim.AdamW: state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)).
int state_bytes_for(TrainingPrecision p) { return p == TrainingPrecision::bf16 ? 2 : 4; }

bool is_paged(Optimizer o) { return o == Optimizer::paged_adamw || o == Optimizer::paged_adamw_8bit; }


/// Adafactor's factored second moment: one row and one column vector per matrix. For a whole
/// model the matrices are about hidden × something, so rows + cols ≈ 2/hidden of the elements;
/// for LoRA adapters (r × d_in and d_out × r) it is exact.
std::int64_t adafactor_state_elements(const ModelSpec& m, const TrainableParams& tp, const std::vector<LoraTargetMatrices>& adapters,
                                      std::int64_t rank) {
  if (!adapters.empty()) {
    std::int64_t e = 0;
    for (const auto& mat : adapters) e += mat.count * ((rank + mat.d_in) + (mat.d_out + rank));
    return e + 2 * (tp.trainable - tp.adapters);  // embedding copies: rows + cols ≈ 2/h of them
  }
  if (m.hidden_size <= 0) return 0;
  return 2 * tp.trainable / m.hidden_size;
}

}  // namespace

const char* optimizer_id(Optimizer o) {
  switch (o) {
    case Optimizer::adamw: return "adamw";
    case Optimizer::adamw_8bit: return "adamw-8bit";
    case Optimizer::paged_adamw_8bit: return "paged-adamw-8bit";
    case Optimizer::paged_adamw: return "paged-adamw";
    case Optimizer::sgd: return "sgd";
    case Optimizer::sgd_momentum: return "sgd-momentum";
    case Optimizer::adafactor: return "adafactor";
    case Optimizer::lion: return "lion";
  }
  return "adamw";
}

const char* method_id(TrainingMethod m) {
  switch (m) {
    case TrainingMethod::full: return "full";
    case TrainingMethod::freeze: return "freeze";
    case TrainingMethod::lora: return "lora";
    case TrainingMethod::qlora: return "qlora";
  }
  return "full";
}
const char* precision_id(TrainingPrecision p) {
  switch (p) {
    case TrainingPrecision::mixed_bf16: return "mixed-bf16";
    case TrainingPrecision::mixed_fp16: return "mixed-fp16";
    case TrainingPrecision::fp32: return "fp32";
    case TrainingPrecision::bf16: return "bf16";
  }
  return "mixed-bf16";
}
const char* quantization_id(QuantizedBase q) {
  switch (q) {
    case QuantizedBase::nf4: return "nf4";
    case QuantizedBase::nf4_single: return "nf4-no-double-quant";
    case QuantizedBase::gptq_int4: return "gptq-int4";
  }
  return "nf4";
}

double optimizer_state_bytes(Optimizer o, int state_bytes) {
  switch (o) {
    // Adam/AdamW (Loshchilov & Hutter 2019): first and second moment per parameter.
    case Optimizer::adamw:
    case Optimizer::paged_adamw: return 2.0 * state_bytes;
    // bitsandbytes AdamW8bit: both moments in 8 bits plus one fp32 absmax per 2048-value block.
    case Optimizer::adamw_8bit:
    case Optimizer::paged_adamw_8bit: return 2.0 * (1.0 + 4.0 / kBnb8BitBlock);
    case Optimizer::sgd: return 0.0;
    case Optimizer::sgd_momentum: return 1.0 * state_bytes;
    // Adafactor (Shazeer & Stern 2018) with beta1 = None (Hugging Face default): no first
    // moment; its factored second moment is counted per matrix by the caller.
    case Optimizer::adafactor: return 0.0;
    // Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms", Alg. 1): one momentum.
    case Optimizer::lion: return 1.0 * state_bytes;
  }
  return 2.0 * state_bytes;
}

StateBytesPerParam full_training_state_bytes(TrainingPrecision precision, Optimizer optimizer) {
  StateBytesPerParam b;
  b.weights = weight_bytes_for(precision);
  b.gradients = weight_bytes_for(precision);
  b.optimizer = optimizer_state_bytes(optimizer, state_bytes_for(precision));
  // Mixed precision keeps an fp32 master copy of the 16-bit weights (Micikevicius et al. 2018,
  // "Mixed Precision Training", §3.1); pure bf16 and fp32 do not.
  b.master_weights = is_mixed(precision) ? 4 : 0;
  return b;
}

TrainableParams trainable_params(const ModelSpec& m, const TrainingSettings& s) {
  TrainableParams tp;
  const ParamCounts c = count_params(m);
  tp.total = c.total;
  switch (s.method) {
    case TrainingMethod::full:
      tp.trainable = c.total;
      break;
    case TrainingMethod::freeze: {
      if (!m.has_architecture()) break;  // training_model_problem reports it
      // The last N decoder layers train (LLaMA-Factory finetuning_type=freeze); embeddings, the
      // final norm and the lm_head stay frozen.
      const std::int64_t decoder = c.per_layer_attention + c.per_layer_mlp + c.norms - (m.norm_has_bias ? 2 : 1) * m.hidden_size;
      const int n = std::min(s.trainable_layers, m.num_layers);
      tp.trainable = decoder / m.num_layers * n;
      break;
    }
    case TrainingMethod::lora:
    case TrainingMethod::qlora: {
      const auto targets = resolve_lora_targets(s.lora_targets);
      tp.adapters = lora_adapter_params(lora_target_matrices(m, targets), s.lora_rank, s.dora);
      if (s.train_embeddings) tp.embedding_copies = c.embedding + (c.lm_head > 0 ? c.lm_head : c.embedding);
      tp.trainable = tp.adapters + tp.embedding_copies;
      if (s.method == TrainingMethod::qlora) {
        // bitsandbytes / GPTQ quantize the decoder's Linear layers; embeddings, norms and the
        // lm_head stay 16-bit (transformers keeps the output layer unquantized).
        tp.quantized = m.has_architecture() ? c.per_layer_attention + c.per_layer_mlp : c.total;
        // litgpt (Lightning Fabric BitsandbytesPrecision) replaces every nn.Linear, the lm_head too.
        if (s.framework == TrainingFramework::litgpt && m.has_architecture()) tp.quantized += c.lm_head;
      }
      break;
    }
  }
  return tp;
}

std::optional<TrainingModelProblem> training_model_problem(const ModelSpec& m, const TrainingSettings& s) {
  if (s.method == TrainingMethod::freeze && !m.has_architecture()) {
    return TrainingModelProblem{"training.method", Message("error.training.freeze_needs_layers")};
  }
  if (s.method == TrainingMethod::lora || s.method == TrainingMethod::qlora) {
    if (std::optional<Message> problem = lora_targets_problem(m, s.lora_targets)) return TrainingModelProblem{"training.lora_targets", std::move(*problem)};
  }
  return std::nullopt;
}

TrainingEstimate estimate_training(const ModelSpec& m, const TrainingSettings& s, EstimateDetail detail) {
  TrainingEstimate out;
  MemoryEstimate& e = out.memory;
  const bool explain = detail == EstimateDetail::full;
  const TrainableParams tp = trainable_params(m, s);
  out.params = tp;
  const bool adapters_method = s.method == TrainingMethod::lora || s.method == TrainingMethod::qlora;
  const int wb = weight_bytes_for(s.precision);
  const int sb = state_bytes_for(s.precision);
  const bool mixed = is_mixed(s.precision);
  const int n = std::max(1, s.gpus);
  // PyTorch FSDP (FULL_SHARD) shards like ZeRO-3; litgpt runs FSDP on several GPUs.
  const bool fsdp = (s.framework == TrainingFramework::fsdp || s.framework == TrainingFramework::litgpt) && n > 1;
  const int stage = fsdp ? 3 : s.zero_stage;

  // ---- Model states on one device before sharding (doubles: 8-bit states are fractional) ----
  double weights = 0, gradients = 0, optimizer = 0, master = 0, adapters = 0;
  Message weights_values, states_values;
  std::vector<LoraTargetMatrices> matrices;
  if (!adapters_method) {
    // Full / freeze: every weight in the training precision; the trainable ones carry gradients,
    // optimizer states and (mixed precision) the fp32 master copy.
    weights = static_cast<double>(tp.total) * wb;
    gradients = static_cast<double>(tp.trainable) * wb;
    optimizer = static_cast<double>(tp.trainable) * optimizer_state_bytes(s.optimizer, sb);
    master = mixed ? static_cast<double>(tp.trainable) * 4 : 0;
    if (explain) {
      weights_values = Message("explain.training.weights.full.values").count("params", tp.total).integer("weight_size", wb);
      states_values = Message("explain.training.states.full.values").count("params", tp.trainable);
    }
  } else {
    matrices = lora_target_matrices(m, resolve_lora_targets(s.lora_targets));
    for (const auto& mat : matrices) {
      if (std::find(out.lora_modules.begin(), out.lora_modules.end(), mat.module) == out.lora_modules.end()) out.lora_modules.push_back(mat.module);
    }
    // The frozen base in 16-bit (QLoRA: its decoder linears in 4 bits with their constants).
    // Hugging Face QLoRA on bitsandbytes: the non-quantized parameters in fp32 (kbit_upcast).
    const double base_bytes = s.precision == TrainingPrecision::fp32 || training_detail::kbit_upcast(s) ? 4 : 2;
    if (s.method == TrainingMethod::qlora) {
      weights = static_cast<double>(tp.quantized) * quantized_base_bytes(s.quantized_base) +
                static_cast<double>(tp.total - tp.quantized) * base_bytes;
      if (explain) {
        weights_values = Message("explain.training.weights.qlora.values").count("quantized", tp.quantized).bytes_each("quantized", quantized_base_bytes(s.quantized_base))
                             .term("base", quantized_base_term(s.quantized_base)).count("rest", tp.total - tp.quantized).bytes_each("base", base_bytes);
        if (training_detail::kbit_upcast(s)) weights_values.then(Message("explain.training.weights.kbit_upcast"));
      }
    } else {
      weights = static_cast<double>(tp.total) * base_bytes;
      if (explain) weights_values = Message("explain.training.weights.lora.values").count("params", tp.total).bytes_each("base", base_bytes);
    }
    // Adapters: fp32 by default (PEFT ≥ 0.12: get_peft_model(autocast_adapter_dtype=True) upcasts
    // fp16/bf16 adapter weights to fp32, PeftModel docstring), else in the base's dtype.
    const int ab = s.adapter_fp32 ? 4 : wb;
    const int adapter_states = s.adapter_fp32 ? 4 : sb;
    adapters = static_cast<double>(tp.adapters) * ab;
    gradients = static_cast<double>(tp.adapters) * ab;
    optimizer = static_cast<double>(tp.adapters) * optimizer_state_bytes(s.optimizer, adapter_states);
    master = (!s.adapter_fp32 && mixed) ? static_cast<double>(tp.adapters) * 4 : 0;
    if (tp.embedding_copies > 0) {
      // PEFT modules_to_save: a trainable copy of the embedding and the lm_head (ModulesToSaveWrapper).
      weights += static_cast<double>(tp.embedding_copies) * wb;
      gradients += static_cast<double>(tp.embedding_copies) * wb;
      optimizer += static_cast<double>(tp.embedding_copies) * optimizer_state_bytes(s.optimizer, sb);
      master += mixed ? static_cast<double>(tp.embedding_copies) * 4 : 0;
    }
    if (explain) {
      states_values = Message("explain.training.states.adapters.values").count("params", tp.adapters);
      if (tp.embedding_copies > 0) states_values.then(Message("explain.training.states.plus_embedding_copies").count("params", tp.embedding_copies));
    }
  }
  if (s.optimizer == Optimizer::adafactor) {
    optimizer += static_cast<double>(adafactor_state_elements(m, tp, matrices, s.lora_rank)) * (adapters_method && s.adapter_fp32 ? 4 : sb);
  }

  // ---- Optimizer-step temporaries ----
  // torch.optim.AdamW (foreach, the default on CUDA) allocates sqrt(v) for all parameters at once
  // (_multi_tensor_adamw: exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs)); bitsandbytes and
  // DeepSpeed's fused Adam update in place.
  double step_temp = 0;
  std::optional<Message> step_text;
  const double trainable_state_bytes = adapters_method && s.adapter_fp32 ? 4 : sb;
  if (stage == 0 && s.optimizer == Optimizer::adamw) {
    step_temp = static_cast<double>(tp.trainable) * trainable_state_bytes;
    if (explain) step_text = Message("explain.training.step_temporary.foreach.formula").count("params", tp.trainable).bytes_each("state", trainable_state_bytes);
  }

  // ---- Sharding over GPUs (ZeRO) and offload ----
  double host = 0;
  double buffers = 0;
  std::optional<Message> zero_text;
  std::optional<Message> gradients_text;  // why the gradients are not the trainable params' alone
  const double trainable_fp32_grads = mixed ? static_cast<double>(tp.trainable) * 4 : 0;
  if (stage >= 1) {
    // DeepSpeed ZeRO (Rajbhandari et al. 2020 §5; DeepSpeed docs "Memory Requirements",
    // estimate_zero2_model_states_mem_needs: 4Ψ + 16Ψ/N bytes per GPU without offload): fp32
    // master, optimizer states and the fp32 gradient partition are split over the N GPUs; at
    // stages 1-2 every GPU keeps the 16-bit weights and produces the full 16-bit gradients; stage 3
    // splits those too and gathers a layer at a time.
    optimizer /= n;
    master /= n;
    double fp32_grads = trainable_fp32_grads / n;
    if (stage == 3) {
      weights /= n;
      gradients /= n;
      adapters /= n;
      fp32_grads = std::min(fp32_grads, static_cast<double>(kZero3SubGroupElements) * 4);
      // Gathered layer: DeepSpeed's estimate_zero3_model_states_mem_needs budgets
      // 4 × largest layer params (16-bit weights and gradients of the layer in flight).
      const ParamCounts c = count_params(m);
      const std::int64_t largest_layer = m.has_architecture()
                                             ? std::max(c.embedding, (c.per_layer_attention + c.per_layer_mlp) / m.num_layers)
                                             : 0;
      const double bucket = static_cast<double>(m.hidden_size) * static_cast<double>(m.hidden_size) * kOverlapCommFactor;
      if (fsdp) {
        // FSDP: the flat shards above, two unsharded blocks in flight (current + prefetched).
        const FsdpMemory f = fsdp_memory(0, largest_layer * wb, n);
        buffers += static_cast<double>(f.gathered_unit_bytes);
        zero_text = Message("explain.training.overhead.fsdp").integer("gpus", n).bytes("gathered", f.gathered_unit_bytes);
        // The root unit (embedding, final norm, lm_head) is not resharded after forward for
        // FULL_SHARD: torch FSDP _post_forward_reshard frees "not state._is_root" units only, as
        // the root's parameters are used again at once by backward.
        const double root = static_cast<double>(c.embedding + c.lm_head) * wb * (1.0 - 1.0 / n);
        buffers += root;
        zero_text->then(Message("explain.training.overhead.fsdp_root").bytes("root", static_cast<std::int64_t>(root)));
        // Which parameters get gradients: litgpt wraps each Block as one FlatParameter
        // (auto_wrap_policy={Block}, use_orig_params), so a block holding adapters computes the
        // gradients of its frozen weights too (torch FSDP docs: mixing frozen and non-frozen
        // parameters makes "the gradient memory usage ... equivalent to not freezing those
        // parameters"). Other FSDP setups wrap adapters apart (PEFT's fsdp_auto_wrap_policy).
        const bool frozen_grads = adapters_method && s.framework == TrainingFramework::litgpt;
        const double decoder = static_cast<double>(c.per_layer_attention + c.per_layer_mlp + c.norms);
        const double grads_unsharded = (frozen_grads ? decoder * wb : 0.0) + gradients * n;
        // Backward of a unit produces its unsharded gradient before the reduce-scatter.
        if (frozen_grads || !adapters_method) {
          const double block_grad = static_cast<double>(largest_layer) * wb;
          buffers += block_grad;
        }
        if (s.gradient_accumulation > 1) {
          // Accumulating micro-batches without syncing (FSDP.no_sync, which Lightning Fabric's
          // no_backward_sync and accelerate's accumulate use) keeps the gradients unsharded:
          // "FSDP will accumulate the full model gradients (instead of gradient shards) until the
          // eventual sync" (torch.distributed.fsdp FullyShardedDataParallel.no_sync docstring).
          gradients = grads_unsharded;
          gradients_text = Message("explain.training.gradients.no_sync").integer("micro_batches", s.gradient_accumulation);
          if (frozen_grads) gradients_text->then(Message("explain.training.gradients.frozen_in_flat").count("params", static_cast<std::int64_t>(decoder)));
          zero_text->then(Message("explain.training.overhead.fsdp_no_sync").integer("micro_batches", s.gradient_accumulation)
                              .bytes("gradients", static_cast<std::int64_t>(grads_unsharded)));
        }
      } else {
        buffers += static_cast<double>(largest_layer) * 4 + bucket;
        zero_text = Message("explain.training.overhead.zero3").integer("gpus", n).count("largest_layer", largest_layer).bytes("buckets", static_cast<std::int64_t>(bucket));
      }
      // The fp32 gradient partition exists while the optimizer steps.
      step_temp = fp32_grads;
    } else {
      const ZeroBuffers zb = zero12_buffers(tp.trainable, wb, n, s.zero);
      buffers += static_cast<double>(zb.bucket_bytes);
      Message zero = Message("explain.training.overhead.zero12").integer("stage", stage).integer("gpus", n).count("bucket", static_cast<std::int64_t>(s.zero.reduce_bucket_size)).integer("weight_size", wb);
      if (s.zero.overlap_comm) zero.then(Message("explain.training.overhead.overlap_comm"));
      zero.then(Message("explain.training.overhead.zero12_buckets").bytes("buckets", zb.bucket_bytes));
      zero_text = std::move(zero);
      // DeepSpeed's step flattens the 16-bit gradient partition and converts it to fp32.
      fp32_grads = static_cast<double>(zb.step_temporary_bytes);
      step_temp = fp32_grads;
    }
    step_text.reset();
    if (fp32_grads > 0) step_text = Message("explain.training.step_temporary.zero.formula").bytes("partition", static_cast<std::int64_t>(fp32_grads));
    if (s.offload_optimizer) {
      // ZeRO-Offload (Ren et al. 2021): fp32 master, optimizer states and fp32 gradients live in
      // host RAM and the step runs on the CPU; from stage 2 on, gradients stream to the host.
      host += (optimizer + master + trainable_fp32_grads / n) * n;
      optimizer = 0;
      master = 0;
      step_temp = 0;
      if (stage >= 2) gradients = 0;  // each bucket's gradients go to the host's fp32 partition
      step_text.reset();
    }
    if (s.offload_params) {
      // ZeRO-Infinity parameter offload (stage 3): the 16-bit weights live in host RAM.
      host += (weights + adapters) * n;
      weights = 0;
      adapters = 0;
    }
  } else if (s.gpus > 1) {
    // PyTorch DDP copies gradients into communication buckets of the same total size
    // (DistributedDataParallel docs, gradient_as_bucket_view=False by default: "the saved memory
    // size will be equal to the total gradients size" when it is True).
    gradients *= 2;
    zero_text = Message("explain.training.overhead.ddp");
  }

  // ---- Activations and the two peaks ----
  const TrainingActivations act = training_activations(m, s);
  out.activations = act;
  const double states = weights + gradients + optimizer + master + adapters + buffers;
  const std::int64_t backward_peak = static_cast<std::int64_t>(std::llround(states)) + act.peak_bytes();
  const std::int64_t step_peak = static_cast<std::int64_t>(std::llround(states + step_temp));
  out.backward_peak_bytes = backward_peak;
  out.step_peak_bytes = step_peak;
  out.model_states_bytes = static_cast<std::int64_t>(std::llround(weights + gradients + optimizer + master + adapters));
  out.step_temporary_bytes = static_cast<std::int64_t>(std::llround(step_temp));
  out.buffer_bytes = static_cast<std::int64_t>(std::llround(buffers));
  out.host_activation_bytes = act.host_bytes;
  if (fsdp) {
    // Loading a full state dict into the sharded model unshards every parameter on each rank.
    const double whole = static_cast<double>(tp.total) * wb;
    out.load_peak_bytes = fsdp_memory(static_cast<std::int64_t>(whole), 0, n).load_peak_bytes;
  }
  // DeepSpeed ZeRO-1/2 (optimizer on the GPU): the step's flat partitions are larger than any freed
  // activation block, so the caching allocator keeps those blocks reserved beside them (below): what
  // the driver holds peaks at the step, states + step partitions + activation blocks, whichever of
  // the two tensor peaks is higher. Taking the higher tensor peak instead would let a longer
  // sequence need less (its backward peak passing the step's drops the reserved blocks).
  const bool zero_step_keeps_blocks = stage >= 1 && stage <= 2 && !s.offload_optimizer && step_temp > 0;
  const bool step_is_peak = step_peak > backward_peak || zero_step_keeps_blocks;

  e.parts.weights = static_cast<std::int64_t>(std::llround(weights));
  e.parts.adapters = static_cast<std::int64_t>(std::llround(adapters));
  e.parts.gradients = static_cast<std::int64_t>(std::llround(gradients));
  e.parts.optimizer = static_cast<std::int64_t>(std::llround(optimizer));
  e.parts.master_weights = static_cast<std::int64_t>(std::llround(master));
  e.parts.overhead = static_cast<std::int64_t>(std::llround(buffers));
  e.parts.activations = step_is_peak ? 0 : act.peak_bytes();
  // The optimizer step's temporary (torch AdamW's foreach sqrt(v), ZeRO's fp32 gradient partition)
  // is a part of its own, so the states keep the article's bytes per parameter (optimizer 8 B).
  if (step_is_peak) e.parts.step_temporary = step_peak - static_cast<std::int64_t>(std::llround(states));

  // ---- Explanation ----
  if (explain) {
    const bool per_gpu = n > 1;
    auto equals = [&](Message values, std::int64_t bytes) {
      values.then(Message("explain.equals").bytes("total", bytes));
      if (per_gpu) values.then(Message("explain.per_gpu"));
      return values;
    };
    if (stage == 3) weights_values.then(Message("explain.divided_over_gpus").integer("gpus", n));
    weights_values.then(Message("explain.equals").bytes("total", e.parts.weights));
    e.explain.push_back({"weights", Message(adapters_method ? "explain.training.weights.frozen.formula" : "explain.training.weights.formula"),
                         std::move(weights_values), e.parts.weights});
    if (adapters_method) {
      Message values = s.adapter_fp32 ? Message("explain.training.adapters.fp32.values") : Message("explain.training.adapters.base.values").bytes_each("adapter", wb);
      values.count("params", tp.adapters).integer("rank", s.lora_rank).integer("kinds", static_cast<std::int64_t>(matrices.size()));
      values.then(Message("explain.equals").bytes("total", e.parts.adapters));
      e.explain.push_back({"adapters", Message(s.dora ? "explain.training.adapters_dora.formula" : "explain.training.adapters.formula"), std::move(values), e.parts.adapters});
    }
    {
      Message values = states_values;
      if (gradients_text) values.then(std::move(*gradients_text));
      e.explain.push_back({"gradients", Message("explain.training.gradients.formula"), equals(std::move(values), e.parts.gradients), e.parts.gradients});
    }
    Message opt_formula = Message("explain.training.optimizer.formula")
                              .bytes_each("state", optimizer_state_bytes(s.optimizer, adapters_method && s.adapter_fp32 ? 4 : sb))
                              .text("optimizer", optimizer_id(s.optimizer));
    if (is_paged(s.optimizer)) opt_formula.then(Message("explain.training.optimizer.paged"));
    e.explain.push_back({"optimizer", std::move(opt_formula), equals(states_values, e.parts.optimizer), e.parts.optimizer});
    if (step_text) {
      // Shown whether or not it makes the peak: the step adds it on top of the states.
      Message values = step_peak > backward_peak ? Message("explain.training.step_temporary.peak")
                       : step_is_peak              ? Message("explain.training.step_temporary.reserved_blocks")
                                                   : Message("explain.training.step_temporary.below_peak");
      values.bytes("step", step_peak).bytes("backward", backward_peak);
      values.then(Message("explain.equals").bytes("total", e.parts.step_temporary));
      e.explain.push_back({"step_temporary", std::move(*step_text), std::move(values), e.parts.step_temporary});
    }
    {
      Message values = Message("explain.training.master.values").bytes("master", e.parts.master_weights);
      if (per_gpu) values.then(Message("explain.per_gpu"));
      e.explain.push_back({"master_weights", Message("explain.training.master.formula"), std::move(values), e.parts.master_weights});
    }
    {
      const bool cut_ce = !s.chunked_loss && s.framework == TrainingFramework::unsloth && s.seq_len * s.micro_batch > kUnslothLogitsTokens;
      const char* loss = s.chunked_loss ? "loss.chunked" : cut_ce ? "loss.cut_cross_entropy"
                         : (s.loss_fp32 || s.precision == TrainingPrecision::fp32) ? "loss.fp32" : "loss.16_bit";
      Message formula = s.checkpointing == Checkpointing::full ? Message("explain.training.activations.checkpointed.formula")
                        : s.flash_attention                    ? Message("explain.training.activations.kept.formula")
                                                               : Message("explain.training.activations.kept_scores.formula");
      formula.count("per_token", act.per_layer_token_bytes).term("loss", loss);
      Message values = Message("explain.training.activations.values").count("seq_len", s.seq_len).count("micro_batch", s.micro_batch)
                           .bytes("kept", act.kept_bytes).bytes("recompute", act.recompute_bytes).bytes("loss", act.loss_bytes).bytes("transient", act.transient_bytes);
      if (step_peak > backward_peak) values.then(Message("explain.training.activations.step_is_peak").bytes("step", step_peak).bytes("backward", backward_peak));
      if (act.host_bytes > 0) values.then(Message("explain.training.activations.host_offload").bytes("host", act.host_bytes));
      e.explain.push_back({"activations", std::move(formula), std::move(values), e.parts.activations});
    }
  }

  if (out.load_peak_bytes > std::max(backward_peak, step_peak)) {
    // The load is the peak: the whole 16-bit model next to the shards, before any state exists.
    e.parts.overhead += out.load_peak_bytes - std::max(backward_peak, step_peak);
  }
  host += static_cast<double>(act.host_bytes);
  // What the driver sees keeps the caching allocator's freed blocks: PyTorch never returns them
  // (torch.cuda.memory_reserved stays at its high-water mark). DeepSpeed ZeRO-1/2's step allocates
  // flat partitions (16-bit copy, fp32 gradients) larger than any freed activation block, so
  // those blocks stay reserved beside the step's tensors.
  std::int64_t cached = 0;
  if (zero_step_keeps_blocks) {
    cached = std::min(act.peak_bytes(), backward_peak - static_cast<std::int64_t>(std::llround(states)));
  }
  if (act.loss_cached_bytes > 0) {
    // The loss's 16-bit logits blocks stay reserved from the backward on (training_activations):
    // what the driver holds is at least the backward peak plus them.
    const std::int64_t reserved_at_backward = backward_peak + act.loss_cached_bytes;
    const std::int64_t held = std::max(backward_peak, step_peak) + cached;
    if (reserved_at_backward > held) cached += reserved_at_backward - held;
  }
  out.allocator_cached_bytes = cached;
  if (s.gpus == 0) {
    e.host_bytes = e.parts.sum() + static_cast<std::int64_t>(std::llround(host));
    e.warnings.push_back(Message("warning.training.cpu"));
  } else {
    // Several GPUs reduce through an NCCL communicator whose buffers live outside PyTorch's
    // allocator: in what the driver holds, not in the tensor peak.
    const std::int64_t communicator = nccl_communicator_bytes(s.gpus);
    out.communicator_bytes = communicator;
    e.parts.overhead += kCudaContextBytes + cached + communicator;
    e.device_bytes = e.parts.sum();
    e.tensor_peak_bytes = e.device_bytes - kCudaContextBytes - cached - communicator;
    e.host_bytes = static_cast<std::int64_t>(std::llround(host));
    if (explain) {
      Message formula("explain.training.overhead.formula");
      if (zero_text) formula.then(std::move(*zero_text));
      if (out.load_peak_bytes > std::max(backward_peak, step_peak)) formula.then(Message("explain.training.overhead.load_peak").bytes("load", out.load_peak_bytes));
      if (cached > 0) formula.then(Message("explain.training.overhead.allocator_cached").bytes("cached", cached));
      if (communicator > 0) formula.then(Message("explain.training.overhead.nccl").integer("gpus", s.gpus).bytes("nccl", communicator));
      e.explain.push_back({"overhead", std::move(formula), Message("explain.training.overhead.values").bytes("overhead", e.parts.overhead), e.parts.overhead});
    }
  }
  if (training_detail::unsloth_cut_cross_entropy(s)) e.warnings.push_back(Message("warning.training.unsloth_cut_cross_entropy").grouped("tokens", kUnslothLogitsTokens));
  if (is_paged(s.optimizer)) e.warnings.push_back(Message("warning.training.paged_optimizer"));
  if (!s.packing) e.warnings.push_back(Message("warning.training.no_packing"));

  if (explain) out.time = training_time(m, s);  // a search compares bytes alone
  return out;
}

TrainingFit training_fit(const ModelSpec& m, const TrainingSettings& s, std::int64_t capacity_bytes, std::int64_t max_seq_len_limit,
                         std::int64_t max_micro_batch_limit) {
  TrainingFit fit;
  fit.device_bytes = estimate_training(m, s, EstimateDetail::bytes_only).memory.device_bytes;
  fit.fits = fit.device_bytes <= capacity_bytes;
  fit.max_seq_len = largest_fitting(max_seq_len_limit, capacity_bytes, [&](std::int64_t seq) {
    TrainingSettings t = s;
    t.seq_len = seq;
    return estimate_training(m, t, EstimateDetail::bytes_only).memory.device_bytes;
  });
  fit.max_micro_batch = largest_fitting(max_micro_batch_limit, capacity_bytes, [&](std::int64_t batch) {
    TrainingSettings t = s;
    t.micro_batch = batch;
    return estimate_training(m, t, EstimateDetail::bytes_only).memory.device_bytes;
  });
  // Searched up to the request's own length, as the fix searches: the same search, the same length.
  if (!fit.fits) fit.comfortable_seq_len = comfortable_seq_len(m, s, capacity_bytes, std::min(max_seq_len_limit, s.seq_len));
  return fit;
}

std::int64_t comfortable_seq_len(const ModelSpec& m, const TrainingSettings& s, std::int64_t capacity_bytes, std::int64_t max_seq_len_limit) {
  const std::int64_t room = capacity_bytes - fit_margin_bytes(capacity_bytes);
  if (room <= 0 || max_seq_len_limit < 1) return 0;
  std::int64_t seq = largest_fitting(max_seq_len_limit, room, [&](std::int64_t n) {
    TrainingSettings t = s;
    t.seq_len = n;
    return estimate_training(m, t, EstimateDetail::bytes_only).memory.device_bytes;
  });
  // A round length to set: whole 256-token steps from 512.
  if (seq >= 512) seq -= seq % 256;
  return seq >= 256 ? seq : 0;
}

}  // namespace llmsizer
