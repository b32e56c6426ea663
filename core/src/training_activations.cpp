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
#include "arithmetic.hpp"
#include "training_internal.hpp"

namespace llmsizer {
namespace {

/// Liger-Kernel's fused linear cross-entropy (src/liger_kernel/ops/fused_linear_cross_entropy.py):
/// chunk_size = next_power_of_2(ceil(BT / ceil(V / H))) tokens of logits at a time.
std::int64_t liger_chunk_tokens(std::int64_t tokens, std::int64_t vocab, std::int64_t hidden) {
  const std::int64_t inc = detail::ceil_div(vocab, hidden);
  const std::int64_t want = detail::ceil_div(tokens, inc);
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
  if (unsloth_fast_lora(s)) {
    // Unsloth (fast_lora.py, fast_rms_layernorm.py): each RMSNorm keeps its 16-bit input (and one
    // fp32 inverse RMS per token); LoRA_QKV keeps X (the norm output) and returns q, k, v, which
    // flash attention keeps with its output; LoRA_W (o_proj) keeps X, the attention output
    // already kept; LoRA_MLP keeps X and the gate and up outputs (e, g), recomputing the product.
    // The 4-bit base is dequantized inside the kernels: no copy of each input as bitsandbytes'
    // MatMul4Bit keeps, no per-adapter copies.
    const std::int64_t mlp = m.gated_mlp ? 2 * f : f;
    out.frozen = a * (h + h + q + 2 * kv + q + h + h + mlp) + 2 * 4 + score_bytes + lse_bytes;
    out.trainable = out.frozen;
    return out;
  }
  const bool litgpt = s.framework == TrainingFramework::litgpt;
  if (litgpt) {
    // litgpt's CausalSelfAttention (lit_gpt/model.py, 8641822 and later) runs one fused qkv
    // projection, splits it into views and keeps v as a view: attention's saved v holds the whole
    // fused output alive, and RoPE writes q and k into new tensors (torch.cat of the rotated
    // halves), so q and k are kept twice: a · (q + kv) beyond the q + 2·kv counted above.
    out.trainable += a * (q + kv);
    out.frozen += a * (q + kv);
  }
  if (s.method == TrainingMethod::qlora && s.quantized_base != QuantizedBase::gptq_int4) {
    // bitsandbytes MatMul4Bit.forward (bitsandbytes/autograd/_functions.py, 0.41-0.4x): `if
    // any(ctx.needs_input_grad[:2]): ctx.tensors = (A, B)` keeps every 4-bit linear's input A,
    // though the frozen weight needs no gradient: the q/k/v input, the o_proj input (a contiguous
    // copy of the attention output; in litgpt a view of the attention output, already kept), the
    // gate/up input and the down_proj input.
    out.frozen += a * (h + (litgpt ? 0 : q) + h + f);
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
  if (adapters && !unsloth_fast_lora(s)) {
    // PEFT's LoRA forward: result = base(x) + lora_B(lora_A(dropout(x.to(adapter dtype)))) ·
    // scaling. Each adapter keeps its input in the adapter dtype (a copy: the cast or the dropout
    // output) and, with dropout, a 1-byte mask; lora_A's output (r values) is kept for lora_B.
    const auto matrices = lora_target_matrices(m, resolve_lora_targets(s.lora_targets));
    const std::int64_t ab = s.adapter_fp32 ? 4 : a;
    std::int64_t inputs = lora_inputs_per_layer(m, matrices);
    std::int64_t modules = 0;
    std::int64_t outputs = 0;
    std::int64_t qkv_targets = 0;
    std::int64_t qkv_outputs = 0;
    for (const auto& mat : matrices) {
      if (mat.module == "lm_head" || mat.module == "embed_tokens" || mat.module == "router") continue;
      const std::int64_t per = mat.count / m.num_layers;
      modules += per;
      outputs += per * mat.d_out;
      if (mat.module == "q_proj" || mat.module == "k_proj" || mat.module == "v_proj") {
        ++qkv_targets;
        qkv_outputs += per * mat.d_out;
      }
    }
    std::int64_t extra = 0;
    if (s.framework == TrainingFramework::litgpt && qkv_targets > 0) {
      // litgpt's LoRAQKVLinear (lit_gpt/lora.py) is one module on the fused qkv projection: one
      // dropout of the shared input, not one per target (q, k and v count as one input). When
      // only some of q, k, v train, zero_pad scatters the enabled outputs into a zero tensor with
      // index_copy, whose backward keeps its source (derivatives.yaml index_copy: source:
      // grad.index_select(...).expand_as(source)): the enabled outputs in 16-bit.
      inputs -= (qkv_targets - 1) * h;
      if (qkv_targets < 3) extra += a * qkv_outputs;
    }
    per_layer += inputs * (ab + (s.lora_dropout > 0 ? 1 : 0)) + modules * s.lora_rank * ab + extra;
    // DoRA also keeps the base layer's output for the magnitude scaling.
    if (s.dora) per_layer += outputs * a;
  }
  act.per_layer_token_bytes = per_layer;

  // The residual stream between layers: with kbit_upcast the embedding output is fp32, and the
  // 4-bit linears return their input's dtype (bitsandbytes Linear4bit.forward: out.to(inp_dtype)),
  // so every layer input and output stays fp32.
  const std::int64_t r = kbit_upcast(s) ? 4 : a;
  // Output side: the final norm keeps its input; the lm_head keeps its input when it trains.
  const bool lm_head_trains = s.method == TrainingMethod::full || s.train_embeddings;
  const std::int64_t final_bytes = r * h * (lm_head_trains ? 2 : 1);

  if (s.checkpointing == Checkpointing::full) {
    // Hugging Face gradient checkpointing (torch.utils.checkpoint around each decoder layer)
    // keeps each checkpointed layer's input hidden state; backward recomputes one layer at a time
    // and holds its activations plus the gradients flowing in and out of it (2 × r·h).
    act.kept_bytes = tokens * (backward_layers * r * h + final_bytes);
    // The MLP's backward holds the gradients of its gate and up outputs (the SiLU-product
    // backward) while it forms its input gradient: 2 × a·f (a·f without a gate).
    const std::int64_t mlp_backward = a * active_mlp_width(m) * (m.gated_mlp ? 2 : 1);
    act.recompute_bytes = tokens * (per_layer + 2 * r * h + mlp_backward);
    if (s.framework == TrainingFramework::unsloth) {
      // Unsloth's offloaded gradient checkpointing: the layer inputs wait in host RAM, ~2 on the GPU.
      const std::int64_t on_gpu = std::min<std::int64_t>(backward_layers, kUnslothLayerInputsOnGpu);
      act.host_bytes = tokens * (backward_layers - on_gpu) * r * h;
      act.kept_bytes = tokens * (on_gpu * r * h + final_bytes);
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
  } else if (unsloth_cut_cross_entropy(s)) {
    // Unsloth (2025, unsloth/models/llama.py CausalLM_fast_forward) above 1024 tokens calls Apple's
    // Cut Cross-Entropy (cut_cross_entropy linear_cross_entropy; Wijmans et al. 2024, "Cut Your
    // Losses in Large-Vocabulary Language Models"): the logits are never stored, only one fp32
    // log-sum-exp per token, then backward writes the hidden states' gradient.
    act.loss_bytes = tokens * (4 + a * h);
  } else if (s.framework == TrainingFramework::unsloth) {
    // Unsloth's fused cross-entropy (Triton, unsloth/kernels/cross_entropy_loss.py): 16-bit
    // logits, one fp32 logsumexp per token, the gradient written into the logits in place.
    act.loss_bytes = tokens * (vocab * a + 4);
  } else {
    act.loss_bytes = tokens * vocab * (s.loss_fp32 || a == 4 ? 12 : 6);
    if (s.loss_fp32 && a < 4) {
      // What the driver holds is more: PyTorch's caching allocator serves a request from a freed
      // block of its own segment only when the block is at least as large
      // (c10/cuda/CUDACachingAllocator.cpp get_free_block), and never returns blocks to the
      // driver. The 16-bit logits and their shifted copy (2 × a bytes per entry) are freed before
      // backward asks for the fp32 gradients of the NLL and of the log-softmax (4 bytes each):
      // only one of those reuses the freed fp32 upcast, the other needs a new segment, so the two
      // 16-bit blocks stay reserved beside the 12 bytes in use (16 in all).
      act.loss_cached_bytes = tokens * vocab * 2 * a;
    }
  }

  if (adapters && s.adapter_fp32 && a < 4 && !s.chunked_loss && !unsloth_fast_lora(s)) {
    // fp32 adapters train under 16-bit autocast, which caches the 16-bit cast of every trainable
    // fp32 leaf for the whole forward and clears it when the outermost autocast exits
    // (torch.autocast docs; at::autocast cached_cast): the copies are still alive while the loss
    // of that forward is computed.
    const auto targets = lora_target_matrices(m, resolve_lora_targets(s.lora_targets));
    act.loss_bytes += lora_adapter_params(targets, s.lora_rank, s.dora) * a;
  }
  if (kbit_upcast(s)) {
    // The fp32 lm_head under bf16/fp16 autocast: each forward casts it to 16-bit, and the matmul
    // keeps that copy for the gradient of its input until backward reaches it (autocast caches
    // casts of trainable leaves only; this weight is frozen).
    act.loss_bytes += vocab * h * a;
  }

  // Transients: QLoRA dequantizes one weight matrix to 16-bit for each matmul (bitsandbytes
  // dequantize_4bit before the matmul in backward); DoRA forms W + B·A for the column norms.
  if (s.method == TrainingMethod::qlora) act.transient_bytes += largest_matrix_elements(m) * 2;
  if (s.dora && adapters) act.transient_bytes += largest_matrix_elements(m) * (s.adapter_fp32 ? 4 : a) * 2;
  return act;
}

}  // namespace llmsizer
