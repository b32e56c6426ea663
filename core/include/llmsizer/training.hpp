// SPDX-License-Identifier: MIT
#pragma once
/// Training memory: model states (weights, gradients, optimizer states, fp32 master copy, LoRA
/// adapters) sharded by ZeRO stage, plus activations, at the two moments that can be the peak:
/// the start of backward (activations and loss buffers alive) and the optimizer step
/// (optimizer temporaries alive). The source article's rule: full fine-tuning with Adam in mixed
/// precision needs 2 + 2 + 8 + 4 = 16 bytes per parameter before activations.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llmsizer/lora.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/training_frameworks.hpp"

namespace llmsizer {

enum class TrainingMethod { full, freeze, lora, qlora };
enum class Optimizer { adamw, adamw_8bit, paged_adamw_8bit, paged_adamw, sgd, sgd_momentum, adafactor, lion };
enum class TrainingPrecision { mixed_bf16, mixed_fp16, fp32, bf16 };
/// none: every layer keeps its activations; selective: the attention core is recomputed
/// (Korthikanti et al. 2022 §4.2: no s² terms); full: only each layer's input is kept.
enum class Checkpointing { none, selective, full };
/// The frozen 4-bit base of QLoRA.
enum class QuantizedBase {
  nf4,              ///< bitsandbytes NF4, blocks of 64, double quantization (QLoRA paper default)
  nf4_single,       ///< NF4 without double quantization (one fp32 absmax per 64 weights)
  gptq_int4,        ///< GPTQ 4-bit, group size 128 (fp16 scale + 4-bit zero per group)
};

const char* optimizer_id(Optimizer optimizer);
const char* method_id(TrainingMethod method);
const char* precision_id(TrainingPrecision precision);
const char* quantization_id(QuantizedBase base);

/// Every value of each choice, in the order requests and menus list them.
inline constexpr TrainingMethod kTrainingMethods[] = {TrainingMethod::full, TrainingMethod::freeze, TrainingMethod::lora, TrainingMethod::qlora};
inline constexpr Optimizer kOptimizers[] = {Optimizer::adamw, Optimizer::adamw_8bit, Optimizer::paged_adamw_8bit, Optimizer::paged_adamw,
                                            Optimizer::sgd, Optimizer::sgd_momentum, Optimizer::adafactor, Optimizer::lion};
inline constexpr TrainingPrecision kTrainingPrecisions[] = {TrainingPrecision::mixed_bf16, TrainingPrecision::mixed_fp16, TrainingPrecision::bf16,
                                                            TrainingPrecision::fp32};
inline constexpr QuantizedBase kQuantizedBases[] = {QuantizedBase::nf4, QuantizedBase::nf4_single, QuantizedBase::gptq_int4};

struct TrainingSettings {
  TrainingMethod method = TrainingMethod::full;
  Optimizer optimizer = Optimizer::adamw;
  TrainingPrecision precision = TrainingPrecision::mixed_bf16;
  std::int64_t seq_len = 2048;
  std::int64_t micro_batch = 1;
  std::int64_t gradient_accumulation = 1;
  Checkpointing checkpointing = Checkpointing::none;
  bool flash_attention = true;
  bool packing = false;
  bool chunked_loss = false;            ///< fused linear + cross-entropy in chunks (Liger-Kernel)
  /// The loss in fp32: transformers ≥ 4.46 ForCausalLMLoss upcasts (logits.float()) and torch
  /// autocast runs cross_entropy in fp32; false: on the 16-bit logits (e.g. older remote-code
  /// models under DeepSpeed, which trains without autocast).
  bool loss_fp32 = true;
  // LoRA / QLoRA
  std::int64_t lora_rank = 16;
  std::vector<std::string> lora_targets = {"all-linear"};  ///< module names or presets
  double lora_dropout = 0.0;            ///< PEFT LoraConfig default 0.0; > 0 keeps a mask and a copy
  bool dora = false;
  bool adapter_fp32 = true;             ///< PEFT ≥ 0.12 autocast_adapter_dtype=True upcasts adapters to fp32
  bool train_embeddings = false;        ///< PEFT modules_to_save = embedding + lm_head (trainable copies)
  QuantizedBase quantized_base = QuantizedBase::nf4;
  // freeze
  int trainable_layers = 2;             ///< LLaMA-Factory freeze_trainable_layers default: 2
  // several GPUs
  int gpus = 1;                         ///< 0: CPU only
  int zero_stage = 0;                   ///< 0: DDP (replicas); 1-3: DeepSpeed ZeRO / FSDP
  TrainingFramework framework = TrainingFramework::trainer;  ///< whose own buffers and habits apply
  ZeroConfig zero;                      ///< DeepSpeed bucket settings (stages 1-2)
  bool offload_optimizer = false;
  bool offload_params = false;
  // time and cost
  double dataset_tokens = 0;            ///< tokens in one epoch
  double epochs = 1;
  double peak_tflops = 0;               ///< dense 16-bit peak of one GPU; 0: unknown
  double usd_per_gpu_hour = 0;          ///< price of one GPU for an hour; 0: unknown
  double mfu = 0;                       ///< model FLOPs utilisation; 0: the default for the method
};

/** Bytes per trainable parameter of the model states for full training. Mixed precision with
 *  Adam: 2 + 2 + 8 + 4 = 16 (the article's table; ZeRO paper, Rajbhandari et al. 2020, §3.1:
 *  "2Ψ + 2Ψ + 12Ψ"). Fractional for 8-bit optimizers (block-wise quantization constants). */
struct StateBytesPerParam {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double master_weights = 0;
  double total() const { return weights + gradients + optimizer + master_weights; }
};
StateBytesPerParam full_training_state_bytes(TrainingPrecision precision, Optimizer optimizer);

/** Optimizer state bytes per trainable parameter whose states are kept in `state_bytes`-byte
 *  floats (4: fp32, 2: bf16). Adafactor's factored states are counted per matrix elsewhere. */
double optimizer_state_bytes(Optimizer optimizer, int state_bytes);

/** Activations kept for backward, per device, and what is alive at the backward peak. */
struct TrainingActivations {
  std::int64_t kept_bytes = 0;       ///< saved across the whole forward (all layers, or layer inputs with checkpointing)
  std::int64_t recompute_bytes = 0;  ///< one layer's activations while it is recomputed and back-propagated
  std::int64_t loss_bytes = 0;       ///< logits and cross-entropy buffers at their peak
  std::int64_t transient_bytes = 0;  ///< QLoRA dequantized matrix, DoRA weight-norm temporaries
  std::int64_t per_layer_token_bytes = 0;  ///< one layer's saved bytes per token (for the explanation)
  std::int64_t host_bytes = 0;       ///< checkpointed layer inputs offloaded to host RAM (Unsloth)
  /// 16-bit logits blocks the caching allocator keeps reserved but cannot reuse for the loss's
  /// larger fp32 gradient buffers (device memory only, not a tensor).
  std::int64_t loss_cached_bytes = 0;
  std::int64_t peak_bytes() const { return kept_bytes + std::max(recompute_bytes, loss_bytes) + transient_bytes; }
};
TrainingActivations training_activations(const ModelSpec& model, const TrainingSettings& settings);

/** Parameters that receive gradients, and the LoRA adapter parameters among them. */
struct TrainableParams {
  std::int64_t total = 0;         ///< all parameters of the model
  std::int64_t trainable = 0;     ///< parameters with gradients and optimizer states
  std::int64_t adapters = 0;      ///< LoRA/DoRA adapter parameters (0 for full/freeze)
  std::int64_t quantized = 0;     ///< QLoRA: base parameters stored in 4 bits
  std::int64_t embedding_copies = 0;  ///< PEFT modules_to_save copies (embedding + lm_head)
};
TrainableParams trainable_params(const ModelSpec& model, const TrainingSettings& settings);

/// What a training method cannot do with a model, and the request field that asked for it.
struct TrainingModelProblem {
  std::string field;  ///< "training.lora_targets" or "training.method"
  Message message;
};
/** What the method needs of the model: LoRA target names that exist in it, layers for freeze
 *  training. None when the request can be estimated. */
std::optional<TrainingModelProblem> training_model_problem(const ModelSpec& model, const TrainingSettings& settings);

/** Training time and cost. FLOPs per token: 6·N + 12·L·q·s (PaLM, Chowdhery et al. 2022,
 *  Appendix B: N the non-embedding parameters, L layers, q = heads × head_dim, s sequence length);
 *  frozen weights skip their weight-gradient matmul (4·N instead of 6·N); full recomputation adds
 *  one forward (8·N). time = FLOPs / (GPUs × peak × MFU). */
struct TrainingTime {
  double flops_per_token = 0;
  double tokens = 0;              ///< dataset_tokens × epochs
  std::int64_t tokens_per_step = 0;  ///< seq_len × micro_batch × gradient_accumulation × data-parallel GPUs
  double flops = 0;
  double mfu = 0;
  double tokens_per_s = 0;        ///< 0 when the GPU's peak is unknown
  double hours = 0;               ///< 0 when unknown
  double usd = 0;                 ///< 0 when the price is unknown
  std::string mfu_source;
};
TrainingTime training_time(const ModelSpec& model, const TrainingSettings& settings);

/** The whole estimate, with both candidate peaks kept for the explanation. */
struct TrainingEstimate {
  MemoryEstimate memory;
  TrainableParams params;
  TrainingActivations activations;
  TrainingTime time;
  std::int64_t backward_peak_bytes = 0;  ///< tensors at the start of backward (per device)
  std::int64_t step_peak_bytes = 0;      ///< tensors during the optimizer step (per device)
  std::int64_t model_states_bytes = 0;   ///< weights + gradients + optimizer + master + adapters (persistent)
  std::int64_t step_temporary_bytes = 0; ///< alive only during the optimizer step (ZeRO fp32 gradients, foreach temporaries)
  std::int64_t buffer_bytes = 0;         ///< ZeRO communication buckets and gathered layers
  std::vector<std::string> lora_modules; ///< LoRA/QLoRA: the module names that matched matrices of the model
  std::int64_t load_peak_bytes = 0;      ///< tensors while the checkpoint loads (FSDP full state dict), per device
  std::int64_t host_activation_bytes = 0;  ///< checkpointed layer inputs offloaded to host RAM (Unsloth)
  std::int64_t communicator_bytes = 0;   ///< NCCL's buffers on each GPU of a multi-GPU run (device_bytes only)
  std::int64_t allocator_cached_bytes = 0; ///< freed activation blocks still reserved when the step peaks (device_bytes only)
};
/** `detail` bytes_only: the memory's bytes alone (what a search or a fix compares), without the
 *  explanation's lines and without the time (`time` left empty); every byte the same as full's. */
TrainingEstimate estimate_training(const ModelSpec& model, const TrainingSettings& settings, EstimateDetail detail = EstimateDetail::full);

/** Whether training fits a device of `capacity_bytes` (what it can hold, as nvidia-smi counts:
 *  memory.device_bytes is compared), and the longest sequence and the largest micro-batch that
 *  fit with the other settings unchanged (0: not even 1). Monotone searches over
 *  estimate_training. */
struct TrainingFit {
  bool fits = false;
  std::int64_t device_bytes = 0;
  std::int64_t max_seq_len = 0;       ///< the longest seq_len whose peak fits the capacity (none to spare)
  std::int64_t max_micro_batch = 0;
  /// When it does not fit: comfortable_seq_len, the length the answer's sentence and the fix both
  /// name (0: none, or it fits).
  std::int64_t comfortable_seq_len = 0;
};
TrainingFit training_fit(const ModelSpec& model, const TrainingSettings& settings, std::int64_t capacity_bytes,
                         std::int64_t max_seq_len_limit = 1'048'576, std::int64_t max_micro_batch_limit = 4096);

/** The longest seq_len at this micro-batch (up to `max_seq_len_limit`) that fits `capacity_bytes`
 *  with the margin to spare (verdict.hpp: comfortable), in whole 256-token steps from 512; 0: none.
 *  One rule for the sentence that says how long a sequence fits and for the fix that shortens the
 *  sequences (fixes.cpp), so that the two name the same length. */
std::int64_t comfortable_seq_len(const ModelSpec& model, const TrainingSettings& settings, std::int64_t capacity_bytes,
                                 std::int64_t max_seq_len_limit);

/// The searches' upper ends in an answer: the request's own limits on seq_len (10 M tokens) would
/// cost ~24 estimates; 4 M tokens (22) covers every published long-context run, and micro-batches
/// above 65,536 are not trained.
constexpr std::int64_t kMaxTrainingFitTokens = 4'194'304;
constexpr std::int64_t kMaxTrainingFitBatch = 65'536;

}  // namespace llmsizer
