// SPDX-License-Identifier: MIT
// Activations of training: what autograd keeps per layer and token, after Korthikanti et al. 2022
// ("Reducing Activation Recomputation in Large Transformer Models", §4.1, eq. 1: s·b·h·(34 + 5·a·s/h)
// bytes per layer in 16-bit), re-derived for today's decoders: no dropout, RMSNorm, GQA (K and V
// of kv_heads × head_dim), gated MLPs (gate, up, SiLU and product kept), flash attention (no s²
// scores, only a log-sum-exp per head and token), frozen weights (no inputs kept for weight
// gradients), LoRA adapters (each keeps its own copy of its input).
#include <algorithm>
#include <cmath>

#include "llmsizer/training.hpp"
#include "training_internal.hpp"

namespace llmsizer {
namespace {

/// Liger-Kernel's fused linear cross-entropy (src/liger_kernel/ops/fused_linear_cross_entropy.py):
/// chunk_size = next_power_of_2(ceil(BT / ceil(V / H))) tokens of logits at a time.
std::int64_t liger_chunk_tokens(std::int64_t tokens, std::int64_t vocab, std::int64_t hidden) {
  const std::int64_t inc = (vocab + hidden - 1) / hidden;
  const std::int64_t want = (tokens + inc - 1) / inc;
  std::int64_t chunk = 1;
  while (chunk < want) chunk *= 2;
  return chunk;
}

/// Width of the MLP temporaries one token passes through (dense, or its top-k experts + shared).
std::int64_t active_mlp_width(const ModelSpec& m) {
  std::int64_t width = m.intermediate_size;
  if (m.moe.num_experts > 0) {
    width = std::max(width, m.moe.experts_per_token * m.moe.expert_intermediate_size +
                                m.moe.num_shared_experts * m.moe.shared_expert_intermediate_size);
  }
  return width;
}

}  // namespace

namespace training_detail {

LayerActivationBytes layer_activation_bytes(const ModelSpec& m, const TrainingSettings& s) {
  LayerActivationBytes out;
  if (!m.has_architecture()) return out;
  const std::int64_t a = activation_bytes(s.precision);
  const std::int64_t h = m.hidden_size;
  const std::int64_t q = static_cast<std::int64_t>(m.num_attention_heads) * m.head_dim;
  const std::int64_t kv = static_cast<std::int64_t>(m.num_kv_heads) * m.head_dim;
  const std::int64_t f = active_mlp_width(m);
  const std::int64_t heads = m.num_attention_heads;
  // Attention scores without flash attention or selective recomputation: Korthikanti's 5·a·s
  // bytes per token (QKᵀ output 2as, softmax output 2as, dropout mask as).
  const bool scores = !s.flash_attention && s.checkpointing != Checkpointing::selective;
  const std::int64_t score_bytes = scores ? 5 * heads * s.seq_len * a / 2 : 0;
  // Flash attention keeps one fp32 log-sum-exp per head and token.
  const std::int64_t lse_bytes = scores ? 0 : 4 * heads;
  // Kept by norms (their input), attention (q, k, v after RoPE, and its output), the activation
  // function and the gate product.
  const std::int64_t gated_kept = m.gated_mlp ? 3 * f : f;  // gate out, up out, SiLU out | GELU in
  // A layer whose weights train also keeps every matmul's input for the weight gradient:
  // q/k/v input (the norm output), o_proj input, gate/up input, down_proj input.
  out.trainable = a * (h + h + q + 2 * kv + q + h + h + gated_kept + f) + score_bytes + lse_bytes;
  // A frozen layer keeps no matmul input, but flash attention keeps its own output for its
  // backward (FlashAttention-2 saves q, k, v, out and the log-sum-exp).
  out.frozen = a * (h + q + 2 * kv + q + h + gated_kept) + score_bytes + lse_bytes;
  if (!m.gated_mlp) {
    // Non-gated MLP: up output (GELU input) and GELU output (down input): 2 f in a trainable layer.
    out.trainable = a * (h + h + q + 2 * kv + q + h + h + 2 * f) + score_bytes + lse_bytes;
    out.frozen = a * (h + q + 2 * kv + q + h + f) + score_bytes + lse_bytes;
  }
  if (!m.norm_has_bias && a < 4) {
    // RMSNorm computes in fp32 (transformers LlamaRMSNorm.forward: hidden_states.to(float32),
    // .pow(2), * torch.rsqrt(variance + eps); litgpt RMSNorm: x.float()): pow and the multiply keep
    // the fp32 input, not the 16-bit one — 4 bytes per element for each of the two norms.
    out.trainable += 2 * h * (4 - a);
    out.frozen += 2 * h * (4 - a);
  }
  if (s.method == TrainingMethod::qlora && s.quantized_base != QuantizedBase::gptq_int4) {
    // bitsandbytes MatMul4Bit.forward (bitsandbytes/autograd/_functions.py, 0.41-0.4x): `if
    // any(ctx.needs_input_grad[:2]): ctx.tensors = (A, B)` keeps every 4-bit linear's input A,
    // though the frozen weight needs no gradient: the q/k/v input, the o_proj input (a contiguous
    // copy of the attention output), the gate/up input and the down_proj input.
    out.frozen += a * (h + q + h + f);
  }
  return out;
}

}  // namespace training_detail

TrainingActivations training_activations(const ModelSpec& m, const TrainingSettings& s) {
  using namespace training_detail;
  TrainingActivations act;
  if (!m.has_architecture()) return act;
  const std::int64_t a = activation_bytes(s.precision);
  const std::int64_t h = m.hidden_size;
  const std::int64_t tokens = s.seq_len * s.micro_batch;
  const LayerActivationBytes layer = layer_activation_bytes(m, s);
  const bool adapters = s.method == TrainingMethod::lora || s.method == TrainingMethod::qlora;

  // Layers autograd goes back through: all for full and LoRA; the last N for freeze (the frozen
  // layers before them see no tensor that requires grad, so they keep nothing).
  const std::int64_t backward_layers = s.method == TrainingMethod::freeze ? std::min<std::int64_t>(s.trainable_layers, m.num_layers) : m.num_layers;
  std::int64_t per_layer = adapters ? layer.frozen : layer.trainable;
  if (adapters) {
    // PEFT's LoRA forward: result = base(x) + lora_B(lora_A(dropout(x.to(adapter dtype)))) ·
    // scaling. Each adapter keeps its input in the adapter dtype (a copy: the cast or the dropout
    // output) and, with dropout, a 1-byte mask; lora_A's output (r values) is kept for lora_B.
    const auto matrices = lora_target_matrices(m, resolve_lora_targets(s.lora_targets));
    const std::int64_t ab = s.adapter_fp32 ? 4 : a;
    const std::int64_t inputs = lora_inputs_per_layer(m, matrices);
    std::int64_t modules = 0;
    std::int64_t outputs = 0;
    for (const auto& mat : matrices) {
      if (mat.module == "lm_head" || mat.module == "embed_tokens" || mat.module == "router") continue;
      const std::int64_t per = mat.count / m.num_layers;
      modules += per;
      outputs += per * mat.d_out;
    }
    per_layer += inputs * (ab + (s.lora_dropout > 0 ? 1 : 0)) + modules * s.lora_rank * ab;
    // DoRA also keeps the base layer's output for the magnitude scaling.
    if (s.dora) per_layer += outputs * a;
  }
  act.per_layer_token_bytes = per_layer;

  // Output side: the final norm keeps its input; the lm_head keeps its input when it trains.
  const bool lm_head_trains = s.method == TrainingMethod::full || s.train_embeddings;
  const std::int64_t final_bytes = a * h * (lm_head_trains ? 2 : 1);

  if (s.checkpointing == Checkpointing::full) {
    // Hugging Face gradient checkpointing (torch.utils.checkpoint around each decoder layer)
    // keeps each checkpointed layer's input hidden state; backward recomputes one layer at a time
    // and holds its activations plus the gradients flowing in and out of it (2 × a·h).
    act.kept_bytes = tokens * (backward_layers * a * h + final_bytes);
    act.recompute_bytes = tokens * (per_layer + 2 * a * h);
    if (s.framework == TrainingFramework::unsloth) {
      // Unsloth's offloaded gradient checkpointing: the layer inputs wait in host RAM, ~2 on the GPU.
      const std::int64_t on_gpu = std::min<std::int64_t>(backward_layers, kUnslothLayerInputsOnGpu);
      act.host_bytes = tokens * (backward_layers - on_gpu) * a * h;
      act.kept_bytes = tokens * (on_gpu * a * h + final_bytes);
    }
  } else {
    act.kept_bytes = tokens * (backward_layers * per_layer + final_bytes);
  }

  // Logits and cross-entropy, Hugging Face causal-LM loss (logits in the compute dtype, shifted
  // with a copy, upcast to fp32, log-softmax kept for backward): forward peak 2 + 2 + 4 + 4 B per
  // token and vocabulary entry; backward peak 4 (the kept log-softmax) + 4 + 4 (the fp32
  // gradients of the NLL and of the log-softmax) = 12 B either way (with fp32 compute: 4 + 4 + 4).
  // Without the upcast everything stays 16-bit: 2 + 2 + 2 = 6 B.
  const std::int64_t vocab = m.vocab_size;
  if (s.chunked_loss) {
    const std::int64_t chunk = liger_chunk_tokens(tokens, vocab, h);
    // One chunk of logits (its gradient is written in place) in fp32, plus the gradient of
    // the hidden states for all tokens.
    act.loss_bytes = std::min(chunk, tokens) * vocab * 8 + tokens * h * 4;
  } else if (s.framework == TrainingFramework::unsloth) {
    // Unsloth's fused cross-entropy (Triton, unsloth/kernels/cross_entropy_loss.py): 16-bit
    // logits, one fp32 logsumexp per token, the gradient written into the logits in place.
    act.loss_bytes = tokens * (vocab * a + 4);
  } else {
    act.loss_bytes = tokens * vocab * (s.loss_fp32 || a == 4 ? 12 : 6);
  }

  // Transients: QLoRA dequantizes one weight matrix to 16-bit for each matmul (bitsandbytes
  // dequantize_4bit before the matmul in backward); DoRA forms W + B·A for the column norms.
  if (s.method == TrainingMethod::qlora) act.transient_bytes += largest_matrix_elements(m) * 2;
  if (s.dora && adapters) act.transient_bytes += largest_matrix_elements(m) * (s.adapter_fp32 ? 4 : a) * 2;
  return act;
}

}  // namespace llmsizer
