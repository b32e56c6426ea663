// SPDX-License-Identifier: MIT
#pragma once
/// Speculative decoding with a draft model: the draft's memory as each engine allocates it beside the
/// target, the set's fit on the device, and the speed it gives from an acceptance rate α and a draft
/// length k (Leviathan, Kalman, Matias 2023, "Fast Inference from Transformers via Speculative
/// Decoding", ICML, §3.1 eq. 1 and Theorem 3.8; Chen et al. 2023, "Accelerating Large Language Model
/// Decoding with Speculative Sampling", §2). Pure functions over plain structs.
#include <cstdint>
#include <string>

#include "llmsizer/hardware.hpp"
#include "llmsizer/memory.hpp"
#include "llmsizer/model.hpp"
#include "llmsizer/precision.hpp"
#include "llmsizer/throughput.hpp"
#include "llmsizer/verdict.hpp"

namespace llmsizer {

/// Draft tokens per target step when the request gives none: llama.cpp's `--draft-max` default
/// (v0.5.0 common/common.h common_params_speculative_draft: "int32_t n_max = 3;"; 16 in the builds
/// of 2024).
constexpr int kDefaultDraftMax = 3;
/// Most draft tokens a request may ask for (llama.cpp accepts any; past 64 the expected gain is flat
/// for every α < 0.95: α^65 < 0.04).
constexpr int kMaxDraftMax = 64;
/** Acceptance rate α when the request gives none: 0.7. Leviathan et al. 2023 Table 3 measure α of
 *  0.53-0.82 for T5-XXL with T5-small/base/large drafts (translation and summarization, greedy and
 *  sampled; median 0.685); llama.cpp's llama-speculative measured 72% of Llama-3.2-1B's drafts accepted
 *  by Llama-3.1-8B (ggml-org/llama.cpp issue 5877, comment by oxfighterjet). */
constexpr double kDefaultAcceptanceRate = 0.7;

/// Most tokens a draft's vocabulary may differ from the target's for llama.cpp to pair them
/// (common/speculative.cpp common_speculative_are_compatible, SPEC_VOCAB_MAX_SIZE_DIFFERENCE).
constexpr std::int64_t kDraftVocabMaxDifference = 128;
/// True when llama.cpp pairs `draft` with `target` by their vocabularies (unknown sizes pass).
bool draft_vocab_compatible(const ModelSpec& target, const ModelSpec& draft);

/** Acceptance rate α of a model's own multi-token-prediction layer when the request gives none: 0.85.
 *  DeepSeek-V3 Technical Report (arXiv 2412.19437) §5.4.3: "the acceptance rate of the second token
 *  prediction ranges between 85% and 90% across various generation topics", the lower end. */
constexpr double kDefaultMtpAcceptanceRate = 0.85;
/// Tokens drafted per step by the model's MTP layer when the request gives none: 1, vLLM's example
/// and advice ("A small value like 1 is a good default", docs/features/speculative_decoding/mtp.md)
/// and the one extra token DeepSeek-V3 predicts.
constexpr int kDefaultMtpDraftMax = 1;

/** The llama.cpp program whose loop runs the draft (the request's `draft.program`). */
enum class DraftProgram {
  /// llama-server (--model-draft): per target step k single-token draft decodes and one batch over
  /// the k + 1 verified tokens; one draft context made from the target's, its cache F16 (-ctkd/-ctvd).
  llama_server,
  /// examples/speculative (llama-speculative): per target step k + 1 single-token draft decodes and
  /// no batch; its draft context made from the target's parameters, the target's cache types
  /// included. One generated sequence.
  llama_speculative,
};
/// The request's name of a program: "llama-server", "llama-speculative".
const char* draft_program_id(DraftProgram program);

/// The draft as a request describes it.
struct DraftSettings {
  /// The model's own multi-token-prediction layers draft (`"method": "mtp"`) instead of a separate
  /// model: `model` is then mtp_draft_model of the target.
  bool mtp = false;
  ModelSpec model;
  const WeightFormat* weights = nullptr;  ///< required
  int group_size = 0;
  int draft_max = kDefaultDraftMax;       ///< k: tokens drafted per target step
  double acceptance_rate = kDefaultAcceptanceRate;  ///< α: probability the target accepts a drafted token
  bool acceptance_given = false;          ///< α came from the request (else the default above)
  int n_gpu_layers = -1;                  ///< llama.cpp -ngld: the draft's layers on the GPU (-1: all)
  /// llama.cpp: logit rows one micro-batch of the draft context may output; 0: llama-server's, one per
  /// slot. A program that makes the draft context with the library's defaults (node-llama-cpp's
  /// addon, llama_context_default_params: n_outputs_max 0) outputs up to n_batch.
  std::int64_t n_outputs_max = 0;
  DraftProgram program = DraftProgram::llama_server;  ///< llama.cpp: the program whose loop runs the draft
};

/** Expected tokens one target step produces: (1 − α^(k+1)) / (1 − α) (Leviathan et al. 2023 eq. 1:
 *  the accepted prefix of k drafted tokens plus the target's own token); k + 1 at α = 1. */
double tokens_per_target_step(double alpha, int k);

/** Smallest α at which speculation is not slower than plain decoding: the α whose
 *  tokens_per_target_step equals `cost_ratio` = (verify step + k draft steps) / plain target step.
 *  0 when cost_ratio ≤ 1 (any α gains), 1 when cost_ratio ≥ k + 1 (no α gains). */
double break_even_acceptance(int k, double cost_ratio);

/** The model a target's multi-token-prediction layers make as a draft: the target's shape with its
 *  `mtp_layers` as its decoder layers (full attention and the MoE or dense MLP of the target's
 *  layers, model.cpp mtp_layer_params), its own embedding and head only where the checkpoint stores
 *  copies (DeepSeek-V3; GLM-4.5's and Qwen3-Next's are the target's). Used for the draft's steps
 *  (its decoder layers and the head it reads) and its cache; its weights are the target's `mtp`
 *  parameters. */
ModelSpec mtp_draft_model(const ModelSpec& target);
/// Engines that run a model's own MTP layers as its draft: vLLM (`"method": "mtp"`) and SGLang
/// (EAGLE over the MTP layer). llama.cpp, transformers and the others load no MTP layer.
bool runs_mtp_draft(Engine engine);

/// The draft's memory beside the target's, as the engine allocates it.
struct DraftMemory {
  std::int64_t weights_bytes = 0;
  std::int64_t kv_cache_bytes = 0;  ///< every draft context's cache together
  std::int64_t compute_bytes = 0;   ///< compute (and llama.cpp output) buffers, or activations
  std::int64_t device_bytes = 0;    ///< of the above, per GPU
  std::int64_t host_bytes = 0;      ///< of the above, in RAM
  int contexts = 1;                 ///< llama.cpp: draft contexts (llama-server makes one for all slots)
  InferenceSettings settings;       ///< the draft's own settings (weights layout and counts not kept)
};

/** The draft's memory for a target run with `target` settings.
 *  - The model's own MTP layers (vLLM `{"method": "mtp"}`, SGLang's EAGLE over the MTP layer): their
 *    weights in the target's format (count_params().mtp), their cache for the same tokens, in the
 *    target's process and buffers.
 *  - llama.cpp (llama-server --model-draft): one draft model and one draft context made from the
 *    target's parameters (tools/server/server-context.cpp load_model: common_base_params_to_speculative,
 *    common_speculative_init_from_params): the target's n_ctx, slots, -b/-ub, -kvu and -fa, its cache
 *    F16 unless -ctkd/-ctvd say otherwise, one logit row per slot (n_outputs_max = n_parallel), its
 *    layers on the GPU as -ngld says. llama-speculative makes the same context but with the target's
 *    cache types (-ctk/-ctv).
 *  - vLLM and SGLang (speculative_config with a draft model; --speculative-draft-model-path): the
 *    draft runs in the target's process, on its GPUs, its KV cache for the same sequences and
 *    tokens in the same pool; CUDA context shared.
 *  - transformers (generate(assistant_model=...)): the same, in the same process.
 *  Throws InputError("draft", ...) for Ollama, which runs no draft model. */
DraftMemory draft_memory(const DraftSettings& draft, const InferenceSettings& target);

/// The speed speculation gives on a device.
struct DraftSpeed {
  bool known = false;               ///< false when the device's bandwidth is unknown
  double target_step_s = 0;         ///< one plain decode step of the target (llama.cpp: its row sampled)
  double verify_step_s = 0;         ///< the target verifying k + 1 tokens in one step (without the host's sampling)
  double draft_step_s = 0;          ///< one decode step of the draft (without the host's sampling)
  double draft_reeval_s = 0;        ///< llama-server: the draft's pass over the target's verified k + 1 tokens
  /// llama.cpp: per target step, the host reading back the target's k + 1 rows and the draft's rows
  /// and sampling the target's kept tokens and the draft's k (host_sampling in throughput.hpp).
  double host_sampling_s = 0;
  int draft_steps = 0;              ///< single-token draft decodes per target step (k; llama-speculative k + 1)
  double tokens_per_target_step = 0;
  double speedup = 0;               ///< tokens/s with the draft over tokens/s without
  double break_even_acceptance = 0;
  double decode_tokens_per_s = 0;   ///< one sequence, with the draft
  double decode_tokens_per_s_without = 0;
};

/** speedup = tokens_per_target_step × target step / (verify step + draft_steps × draft step + the
 *  draft's re-evaluation + the host's sampling) (Leviathan et al. 2023 Theorem 3.8 with the cost
 *  coefficient c taken from the step model instead of a constant). The draft's part is its program's
 *  loop: llama-server k single-token steps and a pass over the target's verified k + 1 tokens (timed
 *  as the verify step is); llama-speculative k + 1 single-token steps and no pass (speculative.cpp
 *  cites both loops). llama.cpp samples on the host between steps, the device waiting: the plain
 *  step reads back and samples one row; a target step reads back the verify step's k + 1 rows and
 *  samples the tokens it keeps (tokens_per_target_step: each accepted draft, then the one after),
 *  and the draft's decodes each read back a row, k of them sampled.
 *  Each step from throughput.hpp's decode_step at the middle of the generation, the draft's on the
 *  same device. The verify step runs k + 1 positions per sequence, its cache read once per sequence
 *  (what the context adds to a plain step), and its matrix products as the engine's kernel for that
 *  many columns runs them:
 *  - by default one pass over the weights for all columns, k + 1 times the FLOPs at the tensor rate
 *    (max of the two; llama.cpp's MMQ or dequantize + GEMM on CUDA, cuBLAS for 16-bit weights, the
 *    other engines' GEMMs, the CPU);
 *  - llama.cpp on CUDA/ROCm with quantized weights and at most 8 columns: MMVQ, one pass over the
 *    weights with the FLOPs at the vector (FP32) rate;
 *  - llama.cpp on Apple silicon (Metal) with at most 8 columns: one matrix-vector pass per column,
 *    k + 1 plain steps; above 8, mul_mm's tiles of 32 columns: the FLOPs of whole tiles.
 *  Left out: the draft's early stop below
 *  --draft-p-min (never at v0.5.0's default, common/common.h "float p_min = 0.0f;"), CUDA graphs
 *  (disabled by ggml-cuda above one token per step) for small models. */
DraftSpeed draft_speed(const ModelSpec& target_model, const InferenceSettings& target, const DraftSettings& draft,
                       const DraftMemory& memory, const HardwareSpec& hw, const SpeedPlacement& where,
                       const SpeedOptions& options = {});

/// The target and its draft together against the device the target's fit used.
struct DraftFit {
  std::int64_t required_bytes = 0;  ///< the target's required bytes plus the draft's on that memory
  std::int64_t usable_bytes = 0;
  std::int64_t headroom_bytes = 0;
  std::int64_t margin_bytes = 0;
  Verdict verdict = Verdict::no_fit;
};
/** The set's fit: on a GPU the draft's device bytes join the target's, on the CPU its host bytes.
 *  A target that already needs a partial offload stays an offload; one that does not fit, does not. */
DraftFit fit_with_draft(const FitResult& target_fit, const DraftMemory& draft);

/** The command that loads the model with its draft: llama-server's `model_command` (llama_cpp.hpp's
 *  command line; run by llama-speculative when the draft's program is that) with `-md DRAFT.gguf
 *  --draft-max k -ngld N`, or vLLM's `--speculative-config`
 *  (docs: "Speculative Decoding", `{"model", "num_speculative_tokens"}`); empty for other engines. */
std::string draft_command_line(Engine engine, const DraftSettings& draft, const std::string& model_command);

}  // namespace llmsizer
