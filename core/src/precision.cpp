// SPDX-License-Identifier: MIT
#include "llmsizer/precision.hpp"

#include <iterator>

#include "llmsizer/ggml_types.hpp"
#include "llmsizer/quantization.hpp"
#include "arithmetic.hpp"

namespace llmsizer {
namespace {

using S = QuantScheme;

/// A ggml block type from gguf.hpp's kGgmlTypes, the one table of block sizes (ggml-common.h).
constexpr GgmlTypeInfo G(std::string_view name) {
  for (const auto& t : kGgmlTypes) {
    if (t.name == name) return t;
  }
  return {-1, "", 1, 0};  // not reached for the names below (a 0-byte block would fail the tests)
}

// The catalog, grouped by ecosystem. block_elements/block_bytes: the layout of one quantized
// tensor's weights with their in-line scales (what `bits_per_weight` shows on the page); the
// bytes of a model come per tensor from weights_layout (quantization.cpp), which also keeps
// embeddings, output head and norms at 16 bits where the format's convention does.
constexpr WeightFormat kWeightFormats[] = {
    // --- The article's plain formats: every parameter at this many bytes. IEEE 754 binary32 and
    // binary16, bfloat16; the article's table: FP32 4, FP16/BF16 2, INT8 1, INT4 0.5 GB per 1B.
    {"fp32", "FP32 (single precision)", Ecosystem::generic, 1, 4, "IEEE 754 binary32; article table: 4 GB per 1B params", S::plain, 0, 0, false, GgufFileType::none, Dtype::f32},
    {"fp16", "FP16 (half precision)", Ecosystem::generic, 1, 2, "IEEE 754 binary16; article table: 2 GB per 1B params", S::plain, 0, 0, false, GgufFileType::none, Dtype::f16},
    {"bf16", "BF16 (bfloat16)", Ecosystem::generic, 1, 2, "bfloat16 (8-bit exponent, 7-bit mantissa); article table: 2 GB per 1B params", S::plain, 0, 0, false, GgufFileType::none},
    {"int8", "INT8 (nominal, every parameter)", Ecosystem::generic, 1, 1, "article table: 1 GB per 1B params", S::plain, 0, 0, false, GgufFileType::none},
    {"int4", "INT4 (nominal, every parameter)", Ecosystem::generic, 2, 1, "article table: 0.5 GB per 1B params", S::plain, 0, 0, false, GgufFileType::none},

    // --- Transformers quantizers. Linear layers quantized; embeddings, lm_head (transformers
    // get_keys_to_not_convert) and norms stay in the 16-bit dtype.
    // bitsandbytes LLM.int8(): Int8Params CB (int8, [out, in]) + SCB (fp32 absmax per output row);
    // outliers are handled in fp16 on the activation side, the stored weight is all int8
    // (Dettmers et al. 2022, arXiv:2208.07339; bitsandbytes nn/modules.py Linear8bitLt).
    {"llm-int8", "bitsandbytes LLM.int8() (8-bit)", Ecosystem::transformers, 1, 1, "bitsandbytes Linear8bitLt: int8 weight + fp32 row scale (SCB)", S::llm_int8, 8, 0, false, GgufFileType::none},
    // bitsandbytes 4-bit: two 4-bit codes per byte, one fp32 absmax per block of 64 weights
    // = 4 + 32/64 = 4.5 bits. Double quantization (QLoRA, arXiv:2305.14314 §3): the absmax values
    // quantized to 8 bits, one fp32 scale per 256 of them = 4 + 8/64 + 32/(64·256) ≈ 4.127 bits.
    // Block: 16384 weights = 8192 B codes + 256 B 8-bit absmax + 4 B second-level scale.
    {"nf4", "bitsandbytes NF4", Ecosystem::transformers, 64, 36, "bitsandbytes functional.quantize_4bit blocksize 64, fp32 absmax; QLoRA NF4", S::bnb_4bit, 4, 64, false, GgufFileType::none},
    {"nf4-dq", "bitsandbytes NF4 + double quantization", Ecosystem::transformers, 16384, 8452, "QLoRA double quantization: 8-bit absmax, fp32 scale per 256 blocks", S::bnb_4bit, 4, 64, true, GgufFileType::none},
    {"fp4", "bitsandbytes FP4", Ecosystem::transformers, 64, 36, "bitsandbytes functional.quantize_4bit quant_type fp4, blocksize 64", S::bnb_4bit, 4, 64, false, GgufFileType::none},
    {"fp4-dq", "bitsandbytes FP4 + double quantization", Ecosystem::transformers, 16384, 8452, "bitsandbytes compress_statistics=True", S::bnb_4bit, 4, 64, true, GgufFileType::none},
    // GPTQ (AutoGPTQ/GPTQModel/optimum packing): qweight int32 [in·bits/32, out], qzeros int32
    // [in/g, out·bits/32], scales fp16 [in/g, out], g_idx int32 [in] (saved with and without
    // desc_act). Per group of g inputs and one column: g·bits + bits + 16 bits; g = 128:
    // 4-bit 4 + 4/128 + 16/128 = 4.156 bits (+32/out for g_idx).
    {"gptq-int8", "GPTQ 8-bit (group 128)", Ecosystem::transformers, 128, 131, "AutoGPTQ qlinear packing: qweight/qzeros int32, scales fp16, g_idx int32", S::gptq, 8, 128, false, GgufFileType::none},
    {"gptq-int4", "GPTQ 4-bit (group 128)", Ecosystem::transformers, 256, 133, "AutoGPTQ qlinear packing: qweight/qzeros int32, scales fp16, g_idx int32", S::gptq, 4, 128, false, GgufFileType::none},
    {"gptq-int3", "GPTQ 3-bit (group 128)", Ecosystem::transformers, 1024, 403, "AutoGPTQ qlinear packing (3-bit across int32 words)", S::gptq, 3, 128, false, GgufFileType::none},
    {"gptq-int2", "GPTQ 2-bit (group 128)", Ecosystem::transformers, 1024, 274, "AutoGPTQ qlinear packing", S::gptq, 2, 128, false, GgufFileType::none},
    // AWQ GEMM packing (AutoAWQ WQLinear_GEMM): qweight int32 [in, out/8], qzeros int32
    // [in/g, out/8], scales fp16 [in/g, out]: 4 + 4/128 + 16/128 = 4.156 bits at g = 128.
    {"awq-int4", "AWQ 4-bit (group 128)", Ecosystem::transformers, 256, 133, "AutoAWQ WQLinear_GEMM: qweight/qzeros int32, scales fp16", S::awq, 4, 128, false, GgufFileType::none},

    // --- vLLM formats (compressed-tensors / llm-compressor; vLLM --quantization fp8): linear
    // weights in FP8 with fp32 scales; embeddings, lm_head and norms stay 16-bit.
    // OCP 8-bit Floating Point Specification (OFP8) rev 1.0, 2023: E4M3 and E5M2, 1 byte each.
    {"fp8", "FP8 E4M3 (per-tensor scale)", Ecosystem::vllm, 1, 1, "OCP OFP8 rev 1.0; compressed-tensors float-quantized, weight_scale fp32 per tensor", S::fp8, 8, 0, false, GgufFileType::none},
    {"fp8-channel", "FP8 E4M3 (per-channel scale)", Ecosystem::vllm, 1, 1, "OCP OFP8 rev 1.0; compressed-tensors strategy channel: fp32 scale per output row", S::fp8, 8, 0, true, GgufFileType::none},
    // Block-wise FP8 (DeepSeek-V3, Qwen3-*-FP8; transformers FineGrainedFP8): E4M3 weights + one fp32
    // weight_scale_inv per 128 × 128 block (quantization_config weight_block_size [128, 128]).
    {"fp8-block", "FP8 E4M3 (128x128 block scales)", Ecosystem::vllm, 16384, 16388, "DeepSeek-V3 / Qwen3-FP8 config: fmt e4m3, weight_block_size [128, 128], fp32 scale per block", S::fp8, 8, 128, false, GgufFileType::none},
    {"fp8-e5m2", "FP8 E5M2 (per-tensor scale)", Ecosystem::vllm, 1, 1, "OCP OFP8 rev 1.0 E5M2", S::fp8, 8, 0, false, GgufFileType::none},
    // OCP Microscaling Formats (MX) v1.0 spec, 2023: MXFP4 = 32 FP4 (E2M1) elements + one 8-bit
    // E8M0 shared scale = 17 bytes per 32 = 4.25 bits. gpt-oss checkpoints store only the MoE
    // experts in MXFP4 (*_blocks, *_scales); attention, router, embeddings, lm_head in bf16.
    {"mxfp4", "MXFP4 (gpt-oss: MoE experts)", Ecosystem::vllm, G("MXFP4").block_elements, G("MXFP4").block_bytes, "OCP MX spec v1.0 MXFP4; openai/gpt-oss model card", S::mxfp4, 4, 32, false, GgufFileType::none},
    // NVFP4, NVIDIA's FP4 as TensorRT Model Optimizer exports it and TensorRT-LLM, vLLM and SGLang
    // load it (quant_algo NVFP4; compressed-tensors "nvfp4"): FP4 E2M1 values in blocks of 16, each
    // block with one FP8 E4M3 scale, so 16 x 0.5 + 1 = 9 bytes per 16 weights = 4.5 bits, and per
    // tensor an fp32 global scale (weight_scale_2) and the activations' fp32 input_scale. The linear
    // layers of the decoder blocks only: embeddings, lm_head (ModelOpt's exclude_modules), norms and
    // MoE routers stay 16-bit, as in the FP8 formats. NVIDIA technical blog "Introducing NVFP4 for
    // Efficient and Accurate Low-Precision Inference" (developer.nvidia.com/blog, 2025): "a micro-block
    // scaling factor of FP8 E4M3 ... applied to every 16-value micro-block" plus "a second-level FP32
    // scalar" per tensor; TensorRT-Model-Optimizer docs, quantization formats (NVFP4).
    {"nvfp4", "NVFP4 (FP4 E2M1, FP8 scale per 16)", Ecosystem::vllm, 16, 9, "NVIDIA NVFP4 (TensorRT Model Optimizer quant_algo NVFP4): E2M1 x 16 + E4M3 block scale, fp32 per-tensor scales", S::nvfp4, 4, 16, false, GgufFileType::none},

    // --- MLX (mlx.nn.quantize, mlx-lm convert -q): affine quantization, group 64, a scale and a
    // bias per group in the model's dtype (2 + 2 bytes): 4-bit = 4 + 32/64 = 4.5 bits. "Both Linear
    // and Embedding layers will be quantized" (ml-explore.github.io/mlx mlx.nn.quantize docs), so the
    // embedding and lm_head are quantized too; norms stay 16-bit.
    {"mlx-3bit", "MLX 3-bit (group 64)", Ecosystem::mlx, 64, 28, "mlx.core.quantize: packed uint32, fp16 scale + bias per group", S::mlx, 3, 64, false, GgufFileType::none},
    {"mlx-4bit", "MLX 4-bit (group 64)", Ecosystem::mlx, 64, 36, "mlx.core.quantize: packed uint32, fp16 scale + bias per group", S::mlx, 4, 64, false, GgufFileType::none},
    {"mlx-6bit", "MLX 6-bit (group 64)", Ecosystem::mlx, 64, 52, "mlx.core.quantize: packed uint32, fp16 scale + bias per group", S::mlx, 6, 64, false, GgufFileType::none},
    {"mlx-8bit", "MLX 8-bit (group 64)", Ecosystem::mlx, 64, 68, "mlx.core.quantize: packed uint32, fp16 scale + bias per group", S::mlx, 8, 64, false, GgufFileType::none},

    // --- GGUF / llama.cpp file types (llama_ftype): a per-tensor mix chosen by
    // llama_tensor_get_type (src/llama-quant.cpp); block = the file type's main ggml type
    // (ggml/src/ggml-common.h block structs, sizes from kGgmlTypes in gguf.hpp).
    {"gguf-f32", "GGUF F32", Ecosystem::gguf, G("F32").block_elements, G("F32").block_bytes, "llama.cpp LLAMA_FTYPE_ALL_F32", S::gguf, 0, 0, false, GgufFileType::F32, Dtype::f16},
    {"gguf-f16", "GGUF F16", Ecosystem::gguf, G("F16").block_elements, G("F16").block_bytes, "llama.cpp LLAMA_FTYPE_MOSTLY_F16 (1-D tensors F32)", S::gguf, 0, 0, false, GgufFileType::F16, Dtype::f16},
    {"gguf-bf16", "GGUF BF16", Ecosystem::gguf, G("BF16").block_elements, G("BF16").block_bytes, "llama.cpp LLAMA_FTYPE_MOSTLY_BF16 (1-D tensors F32)", S::gguf, 0, 0, false, GgufFileType::BF16, Dtype::f16},
    {"q8_0", "GGUF Q8_0", Ecosystem::gguf, G("Q8_0").block_elements, G("Q8_0").block_bytes, "block_q8_0: fp16 d + 32 int8", S::gguf, 0, 0, false, GgufFileType::Q8_0, Dtype::f16},
    {"q6_k", "GGUF Q6_K", Ecosystem::gguf, G("Q6_K").block_elements, G("Q6_K").block_bytes, "block_q6_K: ql[128] qh[64] scales[16] fp16 d", S::gguf, 0, 0, false, GgufFileType::Q6_K, Dtype::f16},
    {"q5_k_m", "GGUF Q5_K_M", Ecosystem::gguf, G("Q5_K").block_elements, G("Q5_K").block_bytes, "block_q5_K; attn_v/ffn_down of use_more_bits layers Q6_K", S::gguf, 0, 0, false, GgufFileType::Q5_K_M, Dtype::f16},
    {"q5_k_s", "GGUF Q5_K_S", Ecosystem::gguf, G("Q5_K").block_elements, G("Q5_K").block_bytes, "block_q5_K: fp16 d, dmin, scales[12], qh[32], qs[128]", S::gguf, 0, 0, false, GgufFileType::Q5_K_S, Dtype::f16},
    {"q5_1", "GGUF Q5_1", Ecosystem::gguf, G("Q5_1").block_elements, G("Q5_1").block_bytes, "block_q5_1: fp16 d, m, qh[4], qs[16]", S::gguf, 0, 0, false, GgufFileType::Q5_1, Dtype::f16},
    {"q5_0", "GGUF Q5_0", Ecosystem::gguf, G("Q5_0").block_elements, G("Q5_0").block_bytes, "block_q5_0: fp16 d, qh[4], qs[16]", S::gguf, 0, 0, false, GgufFileType::Q5_0, Dtype::f16},
    {"q4_k_m", "GGUF Q4_K_M", Ecosystem::gguf, G("Q4_K").block_elements, G("Q4_K").block_bytes, "block_q4_K; attn_v/ffn_down of use_more_bits layers Q6_K", S::gguf, 0, 0, false, GgufFileType::Q4_K_M, Dtype::f16},
    {"q4_k_s", "GGUF Q4_K_S", Ecosystem::gguf, G("Q4_K").block_elements, G("Q4_K").block_bytes, "block_q4_K: fp16 d, dmin, scales[12], qs[128]", S::gguf, 0, 0, false, GgufFileType::Q4_K_S, Dtype::f16},
    {"q4_1", "GGUF Q4_1", Ecosystem::gguf, G("Q4_1").block_elements, G("Q4_1").block_bytes, "block_q4_1: fp16 d, m, qs[16]", S::gguf, 0, 0, false, GgufFileType::Q4_1, Dtype::f16},
    {"q4_0", "GGUF Q4_0", Ecosystem::gguf, G("Q4_0").block_elements, G("Q4_0").block_bytes, "block_q4_0: fp16 d, qs[16]", S::gguf, 0, 0, false, GgufFileType::Q4_0, Dtype::f16},
    {"iq4_nl", "GGUF IQ4_NL", Ecosystem::gguf, G("IQ4_NL").block_elements, G("IQ4_NL").block_bytes, "block_iq4_nl: fp16 d, qs[16] (non-linear 4-bit grid)", S::gguf, 0, 0, false, GgufFileType::IQ4_NL, Dtype::f16},
    {"iq4_xs", "GGUF IQ4_XS", Ecosystem::gguf, G("IQ4_XS").block_elements, G("IQ4_XS").block_bytes, "block_iq4_xs: fp16 d, scales_h, scales_l[4], qs[128]", S::gguf, 0, 0, false, GgufFileType::IQ4_XS, Dtype::f16},
    {"q3_k_l", "GGUF Q3_K_L", Ecosystem::gguf, G("Q3_K").block_elements, G("Q3_K").block_bytes, "block_q3_K; attn_v, attn_output, ffn_down Q5_K", S::gguf, 0, 0, false, GgufFileType::Q3_K_L, Dtype::f16},
    {"q3_k_m", "GGUF Q3_K_M", Ecosystem::gguf, G("Q3_K").block_elements, G("Q3_K").block_bytes, "block_q3_K; attn_v, attn_output, ffn_down Q4_K/Q5_K", S::gguf, 0, 0, false, GgufFileType::Q3_K_M, Dtype::f16},
    {"q3_k_s", "GGUF Q3_K_S", Ecosystem::gguf, G("Q3_K").block_elements, G("Q3_K").block_bytes, "block_q3_K: hmask[32], qs[64], scales[12], fp16 d", S::gguf, 0, 0, false, GgufFileType::Q3_K_S, Dtype::f16},
    {"iq3_m", "GGUF IQ3_M", Ecosystem::gguf, G("IQ3_S").block_elements, G("IQ3_S").block_bytes, "block_iq3_s mix (attn_v, attn_output Q4_K)", S::gguf, 0, 0, false, GgufFileType::IQ3_M, Dtype::f16},
    {"iq3_s", "GGUF IQ3_S", Ecosystem::gguf, G("IQ3_S").block_elements, G("IQ3_S").block_bytes, "block_iq3_s: fp16 d, qs[64], qh[8], signs[32], scales[4]", S::gguf, 0, 0, false, GgufFileType::IQ3_S, Dtype::f16},
    {"iq3_xs", "GGUF IQ3_XS", Ecosystem::gguf, G("IQ3_S").block_elements, G("IQ3_S").block_bytes, "block_iq3_s / iq3_xxs mix", S::gguf, 0, 0, false, GgufFileType::IQ3_XS, Dtype::f16},
    {"iq3_xxs", "GGUF IQ3_XXS", Ecosystem::gguf, G("IQ3_XXS").block_elements, G("IQ3_XXS").block_bytes, "block_iq3_xxs: fp16 d, qs[96]", S::gguf, 0, 0, false, GgufFileType::IQ3_XXS, Dtype::f16},
    {"q2_k", "GGUF Q2_K", Ecosystem::gguf, G("Q2_K").block_elements, G("Q2_K").block_bytes, "block_q2_K: scales[16], qs[64], fp16 d, dmin", S::gguf, 0, 0, false, GgufFileType::Q2_K, Dtype::f16},
    {"q2_k_s", "GGUF Q2_K_S", Ecosystem::gguf, G("Q2_K").block_elements, G("Q2_K").block_bytes, "block_q2_K (needs an importance matrix)", S::gguf, 0, 0, false, GgufFileType::Q2_K_S, Dtype::f16},
    // The Q2_K mix llama.cpp made from 2023-08 (PR #2707) until 2024-01 (PR #5060): "mostly a Q3_K
    // quantization" -- many Q2_K files on the Hub (e.g. Llama 2 ones) were made with it.
    {"q2_k_2023", "GGUF Q2_K (2023 mix)", Ecosystem::gguf, G("Q2_K").block_elements, G("Q2_K").block_bytes, "llama.cpp PR #2707 (2023-08): attn_q/attn_k Q2_K, other layer tensors Q3_K, output Q6_K; PR #2807: 70B attn_v Q5_K; replaced by PR #5060 (2024-01)", S::gguf, 0, 0, false, GgufFileType::Q2_K_2023, Dtype::f16},
    {"iq2_m", "GGUF IQ2_M", Ecosystem::gguf, G("IQ2_S").block_elements, G("IQ2_S").block_bytes, "block_iq2_s mix", S::gguf, 0, 0, false, GgufFileType::IQ2_M, Dtype::f16},
    {"iq2_s", "GGUF IQ2_S", Ecosystem::gguf, G("IQ2_XS").block_elements, G("IQ2_XS").block_bytes, "block_iq2_xs mix (ftype IQ2_S's main type is IQ2_XS)", S::gguf, 0, 0, false, GgufFileType::IQ2_S, Dtype::f16},
    {"iq2_xs", "GGUF IQ2_XS", Ecosystem::gguf, G("IQ2_XS").block_elements, G("IQ2_XS").block_bytes, "block_iq2_xs: fp16 d, qs[32] uint16, scales[8]", S::gguf, 0, 0, false, GgufFileType::IQ2_XS, Dtype::f16},
    {"iq2_xxs", "GGUF IQ2_XXS", Ecosystem::gguf, G("IQ2_XXS").block_elements, G("IQ2_XXS").block_bytes, "block_iq2_xxs: fp16 d, qs[32] uint16", S::gguf, 0, 0, false, GgufFileType::IQ2_XXS, Dtype::f16},
    {"iq1_m", "GGUF IQ1_M", Ecosystem::gguf, G("IQ1_M").block_elements, G("IQ1_M").block_bytes, "block_iq1_m: qs[32], qh[16], scales[8]", S::gguf, 0, 0, false, GgufFileType::IQ1_M, Dtype::f16},
    {"iq1_s", "GGUF IQ1_S", Ecosystem::gguf, G("IQ1_S").block_elements, G("IQ1_S").block_bytes, "block_iq1_s: fp16 d, qs[32], qh[8] uint16", S::gguf, 0, 0, false, GgufFileType::IQ1_S, Dtype::f16},
    {"tq2_0", "GGUF TQ2_0 (ternary)", Ecosystem::gguf, G("TQ2_0").block_elements, G("TQ2_0").block_bytes, "block_tq2_0: qs[64], fp16 d", S::gguf, 0, 0, false, GgufFileType::TQ2_0, Dtype::f16},
    {"tq1_0", "GGUF TQ1_0 (ternary)", Ecosystem::gguf, G("TQ1_0").block_elements, G("TQ1_0").block_bytes, "block_tq1_0: qs[48], qh[4], fp16 d", S::gguf, 0, 0, false, GgufFileType::TQ1_0, Dtype::f16},
    {"mxfp4_moe", "GGUF MXFP4_MOE", Ecosystem::gguf, G("MXFP4").block_elements, G("MXFP4").block_bytes, "block_mxfp4: e8m0 scale + qs[16]; experts MXFP4, rest Q8_0", S::gguf, 0, 0, false, GgufFileType::MXFP4_MOE, Dtype::f16},
};

// KV cache element types. fp8: vLLM --kv-cache-dtype fp8 (E4M3/E5M2, 1 byte). The quantized types
// are llama.cpp's -ctk/-ctv choices (common/arg.cpp kv_cache_types: f32, f16, bf16, q8_0, q4_0,
// q4_1, iq4_nl, q5_0, q5_1), stored as ggml blocks along the head dimension; sizes from the
// ggml-common.h block structs (kGgmlTypes in gguf.hpp).
constexpr KvCacheFormat kKvCacheFormats[] = {
    {"fp32", "FP32", 1, 4, "IEEE 754 binary32"},
    {"fp16", "FP16", 1, 2, "IEEE 754 binary16"},
    {"bf16", "BF16", 1, 2, "bfloat16"},
    {"fp8", "FP8 (E4M3/E5M2)", 1, 1, "OCP OFP8 spec rev 1.0; vLLM --kv-cache-dtype fp8"},
    {"q8_0", "Q8_0 (llama.cpp)", G("Q8_0").block_elements, G("Q8_0").block_bytes, "ggml block_q8_0: fp16 scale + 32 int8"},
    {"q5_1", "Q5_1 (llama.cpp)", G("Q5_1").block_elements, G("Q5_1").block_bytes, "ggml block_q5_1: fp16 d, m + 32 5-bit"},
    {"q5_0", "Q5_0 (llama.cpp)", G("Q5_0").block_elements, G("Q5_0").block_bytes, "ggml block_q5_0: fp16 d + 32 5-bit"},
    {"q4_1", "Q4_1 (llama.cpp)", G("Q4_1").block_elements, G("Q4_1").block_bytes, "ggml block_q4_1: fp16 d, m + 32 4-bit"},
    {"q4_0", "Q4_0 (llama.cpp)", G("Q4_0").block_elements, G("Q4_0").block_bytes, "ggml block_q4_0: fp16 scale + 32 4-bit"},
    {"iq4_nl", "IQ4_NL (llama.cpp)", G("IQ4_NL").block_elements, G("IQ4_NL").block_bytes, "ggml block_iq4_nl: fp16 scale + 32 4-bit (non-linear)"},
};

}  // namespace

const WeightFormat* weight_formats_begin() { return std::begin(kWeightFormats); }
const WeightFormat* weight_formats_end() { return std::end(kWeightFormats); }

const char* ecosystem_id(Ecosystem ecosystem) {
  switch (ecosystem) {
    case Ecosystem::generic: return "generic";
    case Ecosystem::transformers: return "transformers";
    case Ecosystem::gguf: return "gguf";
    case Ecosystem::vllm: return "vllm";
    case Ecosystem::mlx: return "mlx";
    case Ecosystem::file: return "file";
  }
  return "generic";
}

const WeightFormat* find_weight_format(std::string_view id) {
  for (const auto& format : kWeightFormats) {
    if (format.id == id) return &format;
  }
  return nullptr;
}

const KvCacheFormat* kv_cache_formats_begin() { return std::begin(kKvCacheFormats); }
const KvCacheFormat* kv_cache_formats_end() { return std::end(kKvCacheFormats); }

const KvCacheFormat* find_kv_cache_format(std::string_view id) {
  for (const auto& format : kKvCacheFormats) {
    if (format.id == id) return &format;
  }
  return nullptr;
}

const char* default_kv_cache_id(const WeightFormat& weights) {
  if (weights.compute == Dtype::f32) return "fp32";
  return weights.compute == Dtype::f16 ? "fp16" : "bf16";
}

std::int64_t bytes_for_elements(std::int64_t elements, std::int64_t block_elements, std::int64_t block_bytes) {
  const std::int64_t blocks = detail::ceil_div(elements, block_elements);
  return blocks * block_bytes;
}

std::int64_t weight_bytes(const ModelSpec& model, const WeightFormat& format) {
  return weights_layout(model, format).total_bytes;
}

}  // namespace llmsizer
