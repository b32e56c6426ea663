// SPDX-License-Identifier: MIT
#include "llmsizer/speculative.hpp"

#include <algorithm>
#include <cmath>

#include "llmsizer/error.hpp"

namespace llmsizer {
namespace {

/// How the target's matrix products take the k + 1 positions (columns) of one sequence's verify step.
enum class VerifyMatmul {
  shared_pass,   ///< one pass over the weights for all columns, FLOPs at the tensor rate (GEMM, MMQ, cuBLAS)
  vector_units,  ///< one pass over the weights, the columns' dot products on the vector units (CUDA MMVQ)
  per_column,    ///< each column one matrix-vector pass over the weights (Metal mul_mv, mul_mv_ext)
  padded_tiles,  ///< tiles of kMetalMulMmTileColumns columns: FLOPs of whole tiles (Metal mul_mm)
};

/// ggml-cuda runs quantized weights through MMVQ up to this many columns and MMQ (integer tensor
/// cores) or dequantize + cuBLAS above (ggml/src/ggml-cuda/mmvq.cuh: "#define MMVQ_MAX_BATCH_SIZE 8
/// // Max. batch size for which to use MMVQ kernels.").
constexpr std::int64_t kCudaMmvqMaxColumns = 8;
/// ggml-metal multiplies up to this many columns with its matrix-vector kernels and with mul_mm above
/// (ggml/src/ggml-metal/ggml-metal-ops.cpp ggml_metal_op_mul_mat: "const int ne11_mm_min = 8;" and
/// "first try to use small-batch mat-mv kernels / these should be efficient for BS [2, ~8]"). Those
/// kernels re-read the activation columns for every weight row, so each column costs about one n = 1
/// matrix-vector pass: q8_0 4096 × 14336 took 53.1 µs at n = 1, 108.8 at n = 2, 403.9 at n = 8
/// (ggml-org/llama.cpp pull request 29110, "Overview"); q4_0 on an M4 Pro 137.6 µs at n = 1, 249.7 at
/// n = 2 and 127.9 µs per token at n = 8 (ggml-org/llama.cpp issue 25250, "Measurements").
constexpr std::int64_t kMetalMatVecMaxColumns = 8;
/// ggml-metal's mul_mm computes 64 × 32 output tiles, 32 columns of the activations per threadgroup
/// (ggml/src/ggml-metal/ggml-metal.metal kernel_mul_mm: "#define BLOCK_SIZE_N 32 // 4 simdgroup
/// matrices from matrix B"): a batch of 17 columns computes 32 ("the 64x32 mul_mm tile zero-pads 75%
/// of the batch dimension at bs = 8", ggml-org/llama.cpp pull request 25377).
constexpr std::int64_t kMetalMulMmTileColumns = 32;

/// The kernel llama.cpp's GPU backend multiplies `columns` positions with; other engines and the CPU
/// take the shared pass their step model already times.
VerifyMatmul verify_matmul(const InferenceSettings& target, const HardwareSpec& hw, std::int64_t columns) {
  if (target.engine != Engine::llama_cpp && target.engine != Engine::ollama) return VerifyMatmul::shared_pass;
  if (columns < 2) return VerifyMatmul::shared_pass;
  if (is_apple(hw)) return columns <= kMetalMatVecMaxColumns ? VerifyMatmul::per_column : VerifyMatmul::padded_tiles;
  const WeightFormat& f = *target.weights;
  const bool quantized = f.ecosystem == Ecosystem::gguf && f.bits_per_weight() < 16.0;
  if (quantized && columns <= kCudaMmvqMaxColumns && hw.fp32_tflops > 0) return VerifyMatmul::vector_units;
  return VerifyMatmul::shared_pass;
}

/// `t`'s total with its compute part replaced by `compute_s`: the device takes the larger of its
/// memory and compute parts, and overlaps the host's launches as `t` did.
double with_compute(const StepTime& t, double compute_s) {
  const double device = std::max(t.memory_s, compute_s);
  const double overlapped = t.host_waits ? t.host_launch_s + device : std::max(device, t.host_launch_s);
  return t.total_s - t.overlapped_s + overlapped;
}

/** One forward of `columns` positions of each sequence of `s` on the device, its rows not sampled
 *  (`plain_device_s`: the plain step's device time at the context the answer times): the weights'
 *  part of a step of batch × columns tokens (taken at a context of one token), plus what the context
 *  adds to a plain step (the cache is read once per sequence, not once per position), the matrix
 *  products as the engine's kernel for that many columns runs them. */
double multi_token_step(const ModelSpec& model, const InferenceSettings& s, const HardwareSpec& hw, const SpeedPlacement& where,
                        int columns, double plain_device_s, const SpeedOptions& options) {
  InferenceSettings wide = s;
  wide.batch = s.batch * columns;
  const StepTime short_plain = device_decode_step(model, s, hw, where, 1, options);
  const double context_part = std::max(0.0, plain_device_s - short_plain.total_s);
  const StepTime shared = device_decode_step(model, wide, hw, where, 1, options);
  const bool gpu_only = where.gpus > 0 && (where.gpu_layers < 0 || where.gpu_layers >= model.num_layers);
  const VerifyMatmul matmul = gpu_only ? verify_matmul(s, hw, wide.batch) : VerifyMatmul::shared_pass;
  double weights_part = shared.total_s;
  if (matmul == VerifyMatmul::vector_units) {
    // MMVQ's integer dot products run on the CUDA cores: the FLOPs at the vector rate.
    const double vector = hw.fp32_tflops * kGpuMatmulEfficiency;
    weights_part = with_compute(shared, shared.compute_s * effective_tflops(hw, false) / vector);
  } else if (matmul == VerifyMatmul::per_column) {
    // Each position one matrix-vector pass: `columns` plain steps at a one-token context, in the one
    // forward whose graph is built once (fixed_s: llama.cpp's graph build before graph reuse).
    // The graph is dispatched once for every column: its kernels' fixed time (dispatch_s) once.
    weights_part = columns * (short_plain.total_s - short_plain.fixed_s - short_plain.dispatch_s) + short_plain.fixed_s + short_plain.dispatch_s;
  } else if (matmul == VerifyMatmul::padded_tiles) {
    const std::int64_t tiles = (wide.batch + kMetalMulMmTileColumns - 1) / kMetalMulMmTileColumns;
    const double padded = static_cast<double>(tiles * kMetalMulMmTileColumns) / static_cast<double>(wide.batch);
    weights_part = with_compute(shared, shared.compute_s * padded);
  }
  return weights_part + context_part;
}

}  // namespace

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

ModelSpec mtp_draft_model(const ModelSpec& target) {
  ModelSpec d = target;
  d.id = target.id + "-mtp";
  d.name = target.name + " MTP";
  d.num_layers = std::max(1, target.mtp_layers);
  // Kept: count_params(d).mtp is then the target's (the same shape), the draft's weights.
  d.mtp_layers = target.mtp_layers;
  // Every MTP layer is a full-attention layer with the model's routed MLP (DeepSeek's first dense
  // layers and per-layer overrides are the target's stack, not this one's).
  d.layer_mixers.clear();
  d.layer_attention.clear();
  d.layer_intermediate.clear();
  d.layer_mlp.clear();
  d.layer_norms.clear();
  d.moe.first_dense_layers = 0;
  d.moe.dense_layers.clear();
  d.moe.moe_layer_period = 1;
  d.moe.moe_layer_offset = 0;
  d.sliding_window = 0;
  d.attention_chunk_size = 0;
  d.recurrent = {};
  d.indexer = {};
  d.extra_params = 0;
  d.vision = {};
  d.params_override = 0;
  d.file_weight_bytes = 0;
  d.tensor_cache = nullptr;
  return d;
}

const char* draft_program_id(DraftProgram program) {
  return program == DraftProgram::llama_speculative ? "llama-speculative" : "llama-server";
}

bool runs_mtp_draft(Engine engine) { return engine == Engine::vllm || engine == Engine::sglang; }

DraftMemory draft_memory(const DraftSettings& draft, const InferenceSettings& target) {
  if (target.engine == Engine::ollama) throw InputError("draft", Message("error.draft.ollama"));
  DraftMemory out;
  InferenceSettings s = target;
  s.weights = draft.weights;
  s.group_size = draft.group_size;
  s.weights_layout = nullptr;
  s.model_counts = nullptr;
  if (target.engine == Engine::llama_cpp) {
    // llama-server: one draft context beside the target's, made from the target's parameters
    // (common/speculative.cpp common_base_params_to_speculative: "common_params result = params;"),
    // so the target's sequences, -b/-ub, -kvu, -fa and --swa-full, and "cparams.n_ctx =
    // llama_n_ctx(ctx_tgt)" (the draft context holds as many tokens per sequence as the target's);
    // its own cache types (-ctkd/-ctvd, common_params_speculative_draft cache_type_k/v default
    // GGML_TYPE_F16), one logit row per sequence ("result.n_outputs_max = params.n_parallel;"),
    // its layers on the GPU as -ngld says.
    s.llama_cpp.n_outputs_max = draft.n_outputs_max > 0 ? draft.n_outputs_max : llama_cpp_sequences_for(target.llama_cpp.parallel, target.batch);
    s.llama_cpp.n_gpu_layers = draft.n_gpu_layers;
    s.llama_cpp.override_tensor.clear();
    // llama-speculative (examples/speculative/speculative.cpp, ggml-org/llama.cpp at 007d7135) makes
    // its draft context from the target's own common_params, changing only the model, devices,
    // -ngld, threads, -ot and "params.n_outputs_max = params.n_parallel;" before
    // "auto llama_init_dft = common_init_from_params(params);": the target's -c, -b/-ub, -np (one
    // sequence at its default 1), -fa and, unlike llama-server, the target's cache types
    // (common/common.cpp common_context_params_to_llama: "cparams.type_k = params.cache_type_k;").
    if (draft.program == DraftProgram::llama_server) s.kv_cache = find_kv_cache_format("fp16");
  }
  const MemoryEstimate e = estimate_inference_memory(draft.model, s, EstimateDetail::full);
  const bool cpu_only = target.gpus == 0;
  if (draft.mtp) {
    // The MTP layers live in the target's process and buffers: their weights (the target's `mtp`
    // parameters, in the share of bytes per parameter the draft model's layout gives) and their
    // cache; the activations are the target's.
    const double draft_params = static_cast<double>(count_params(draft.model).total);
    const double mtp_params = static_cast<double>(count_params(draft.model).mtp);
    out.weights_bytes = draft_params > 0 ? static_cast<std::int64_t>(static_cast<double>(e.parts.weights) * mtp_params / draft_params) : 0;
    out.kv_cache_bytes = e.parts.kv_cache;
    out.compute_bytes = 0;
    out.device_bytes = cpu_only ? 0 : out.weights_bytes + out.kv_cache_bytes;
    out.host_bytes = cpu_only ? out.weights_bytes + out.kv_cache_bytes : 0;
    s.weights_layout = nullptr;
    s.model_counts = nullptr;
    out.settings = s;
    return out;
  }
  // The CUDA context is the target's: one process.
  const std::int64_t device = cpu_only ? 0 : e.device_bytes - e.parts.overhead;
  out.weights_bytes = e.parts.weights;
  out.kv_cache_bytes = e.parts.kv_cache;
  out.compute_bytes = e.parts.activations;
  out.device_bytes = device;
  out.host_bytes = e.host_bytes;
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
  const double sequences = static_cast<double>(target.batch);
  // The plain step samples every sequence's row (decode_step); the loop's steps are taken on the
  // device alone (device_decode_step) and their rows read back and sampled as the loop does, below
  // (llama.cpp's host_sampling, zero for the other engines).
  out.target_step_s = decode_step(target_model, target, hw, where, context, options).total_s;
  const double target_device_s = device_decode_step(target_model, target, hw, where, context, options).total_s;
  const HostSampling target_row = host_sampling(target_model, target, hw, where);
  // The verify step runs k + 1 positions of each sequence in one forward.
  out.verify_step_s = multi_token_step(target_model, target, hw, where, k + 1, target_device_s, options);
  SpeedPlacement draft_where = where;
  if (!cpu && target.engine == Engine::llama_cpp && draft.n_gpu_layers >= 0) {
    draft_where.gpu_layers = std::min(draft.n_gpu_layers, draft.model.num_layers);
  }
  InferenceSettings ds = memory.settings;
  ds.batch = target.batch;
  const HostSampling draft_row = host_sampling(draft.model, ds, hw, draft_where);
  out.draft_step_s = device_decode_step(draft.model, ds, hw, draft_where, context, options).total_s;
  // The draft's decodes per target step follow the program's loop.
  // llama-server's draft decodes k single tokens per target step (common/speculative.cpp
  // common_speculative_impl_draft_simple::draft: the last token the target kept, then each drafted
  // token but the last), and re-evaluates the target's verified batch of k + 1 tokens in its own
  // context after every target step (tools/server/server-context.cpp: "always re-evaluate for
  // simplicity", common_speculative_process → llama_decode(ctx_dft, batch)).
  // llama-speculative (examples/speculative/speculative.cpp at 007d7135, one sequence) decodes the
  // token the target kept ("common_batch_add  (batch_dft, token_id, n_past_dft, { 0 }, true);" then
  // "llama_decode(ctx_dft, batch_dft);"), then each drafted token, the last included ("llama_decode(
  // ctx_dft, batch_dft); ++n_past_cur; ++n_drafted;" before "if (batch_tgt.n_tokens > n_draft) {
  // break; }"): k + 1 single-token decodes, and never a batch of the verified tokens (the accepted
  // drafts are already in its cache); the target decodes the k + 1 tokens of batch_tgt once.
  const bool reevaluates = target.engine == Engine::llama_cpp && !draft.mtp && draft.program == DraftProgram::llama_server;
  out.draft_steps = draft.program == DraftProgram::llama_speculative ? k + 1 : k;
  out.draft_reeval_s = reevaluates ? multi_token_step(draft.model, ds, hw, draft_where, k + 1, out.draft_step_s, options) : 0.0;
  if (!(out.target_step_s > 0) || !(out.verify_step_s > 0)) return out;
  out.known = true;
  out.tokens_per_target_step = tokens_per_target_step(draft.acceptance_rate, k);
  // The host's part of a target step. The target: the verify step's k + 1 rows read back, then
  // sampled position by position until the first draft it rejects (examples/speculative/
  // speculative.cpp: "common_sampler_sample(smpl, ctx_tgt, drafts[s_keep].i_batch_tgt[i_dft], true);"
  // in the loop that ends at the first mismatch; llama-server common_sampler_sample_and_accept_n):
  // the tokens it keeps. The draft: one row per decode (its context outputs one, n_outputs_max 1),
  // its pass over the verified tokens included, and k sampled: llama-speculative samples before
  // each drafted token and never the last one's decode; llama-server's draft (common/speculative.cpp
  // common_speculative_gen_draft) samples each of its k tokens, its own chain (top-k 10) over the
  // whole vocabulary as well.
  const double draft_rows = out.draft_steps + (reevaluates ? 1 : 0);
  const double per_kept_token = sequences * target_row.sample_s;
  const double fixed_host = sequences * ((k + 1) * target_row.copy_s + draft_rows * draft_row.copy_s + k * draft_row.sample_s);
  out.host_sampling_s = fixed_host + out.tokens_per_target_step * per_kept_token;
  // A target step costs what does not depend on α, plus the target's sampling of each token it keeps.
  const double fixed_cost = out.verify_step_s + out.draft_steps * out.draft_step_s + out.draft_reeval_s + fixed_host;
  const double cost_ratio = (fixed_cost + out.tokens_per_target_step * per_kept_token) / out.target_step_s;
  out.speedup = out.tokens_per_target_step / cost_ratio;
  // Break-even: tokens × target step = fixed cost + tokens × per kept token, so the tokens per step
  // must reach fixed cost / (target step − per kept token); the plain step samples its one token too.
  out.break_even_acceptance = break_even_acceptance(k, fixed_cost / (out.target_step_s - per_kept_token));
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
  if (draft.mtp) {
    // vLLM docs/features/speculative_decoding/mtp.md; SGLang runs a model's MTP layer as EAGLE's
    // draft (docs/advanced_features/speculative_decoding.md: --speculative-algorithm EAGLE with
    // --speculative-num-steps, --speculative-eagle-topk and --speculative-num-draft-tokens).
    if (engine == Engine::vllm) {
      return "vllm serve MODEL --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": " + std::to_string(draft.draft_max) + "}'";
    }
    if (engine == Engine::sglang) {
      return "python -m sglang.launch_server --model-path MODEL --speculative-algorithm EAGLE --speculative-num-steps " +
             std::to_string(draft.draft_max) + " --speculative-eagle-topk 1 --speculative-num-draft-tokens " + std::to_string(draft.draft_max + 1);
    }
    return std::string();
  }
  if (engine == Engine::llama_cpp && !model_command.empty()) {
    std::string command = model_command;
    const std::string server = "llama-server ";
    if (draft.program == DraftProgram::llama_speculative && command.compare(0, server.size(), server) == 0) {
      // llama-speculative reads the same flags but -kvu, which common/arg.cpp offers to the server,
      // perplexity, batched, bench and parallel examples only (one sequence needs no unified cache).
      command = std::string(draft_program_id(draft.program)) + " " + command.substr(server.size());
      const std::string unified = " -kvu";
      if (const std::size_t at = command.find(unified + " "); at != std::string::npos) command.erase(at, unified.size());
    }
    return command + " -md DRAFT.gguf --draft-max " + std::to_string(draft.draft_max) + " -ngld " +
           (draft.n_gpu_layers < 0 ? std::string("all") : std::to_string(draft.n_gpu_layers));
  }
  if (engine == Engine::vllm) {
    return "vllm serve MODEL --speculative-config '{\"model\": \"DRAFT\", \"num_speculative_tokens\": " + std::to_string(draft.draft_max) + "}'";
  }
  return std::string();
}

}  // namespace llmsizer
