// SPDX-License-Identifier: MIT
#pragma once
/// The ggml tensor storage types (block layouts): the one table of block sizes, shared by the GGUF
/// header reader and the quantization mixes. Pure data.
#include <string_view>

namespace llmsizer {

/** One ggml tensor storage type: `block_bytes` bytes hold `block_elements` elements, so a row of
 *  n elements (n a multiple of `block_elements`) takes n / block_elements × block_bytes bytes.
 *  `id` is the value stored in GGUF tensor infos (enum ggml_type). */
struct GgmlTypeInfo {
  int id;
  std::string_view name;
  int block_elements;
  int block_bytes;
};

/** Every ggml type a GGUF file may hold, by id. Ids and names: ggml/include/ggml.h `enum ggml_type`
 *  (ggml-org/ggml docs/gguf.md lists 0–39; NVFP4 = 40 and Q1_0 = 41 from later ggml.h). Sizes:
 *  ggml/src/ggml.c `type_traits[]` (`.blck_size`, `.type_size = sizeof(block_x)`), each checked
 *  against the block structs in ggml/src/ggml-common.h, whose static_asserts give the bytes:
 *    Q4_0  = 2 (fp16 d) + 32/2                      = 18 per 32
 *    Q4_1  = 2·2 + 32/2                             = 20 per 32
 *    Q5_0  = 2 + 4 (qh) + 32/2                      = 22 per 32
 *    Q5_1  = 2·2 + 4 + 32/2                         = 24 per 32
 *    Q8_0  = 2 + 32                                 = 34 per 32
 *    Q8_1  = 2·2 + 32                               = 36 per 32
 *    Q2_K  = 2·2 + 256/16 + 256/4                   = 84 per 256
 *    Q3_K  = 2 + 256/4 + 256/8 + 12                 = 110 per 256
 *    Q4_K  = 2·2 + 12 + 256/2                       = 144 per 256
 *    Q5_K  = 2·2 + 12 + 256/2 + 256/8               = 176 per 256
 *    Q6_K  = 2 + 256/16 + 3·256/4                   = 210 per 256
 *    Q8_K  = 4 (f32 d) + 256 + 256/16·2             = 292 per 256
 *    IQ2_XXS = 2 + 256/8·2                          = 66 per 256
 *    IQ2_XS  = 2 + 256/8·2 + 256/32                 = 74 per 256
 *    IQ3_XXS = 2 + 3·256/8                          = 98 per 256
 *    IQ1_S   = 2 + 256/8 + 256/16                   = 50 per 256
 *    IQ4_NL  = 2 + 32/2                             = 18 per 32
 *    IQ3_S   = 2 + 13·256/32 + 256/64               = 110 per 256
 *    IQ2_S   = 2 + 256/4 + 256/16                   = 82 per 256
 *    IQ4_XS  = 2 + 2 + 256/64 + 256/2               = 136 per 256
 *    IQ1_M   = 256/8 + 256/16 + 256/32              = 56 per 256
 *    TQ1_0   = 2 + 256/64 + (256 − 4·256/64)/5      = 54 per 256
 *    TQ2_0   = 2 + 256/4                            = 66 per 256
 *    MXFP4   = 1 (E8M0 scale) + 32/2                = 17 per 32
 *    NVFP4   = 64/16 (E4M3 scales) + 64/2           = 36 per 64
 *    Q1_0    = 2 + 128/8                            = 18 per 128
 *  Ids 4, 5 (Q4_2, Q4_3), 31–33 (Q4_0_4_4, ...) and 36–38 (IQ4_NL_4_4, ...) were removed from
 *  ggml and from GGUF files; the reader rejects them with a message that says so. */
inline constexpr GgmlTypeInfo kGgmlTypes[] = {
    {0, "F32", 1, 4},          {1, "F16", 1, 2},          {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},       {6, "Q5_0", 32, 22},       {7, "Q5_1", 32, 24},
    {8, "Q8_0", 32, 34},       {9, "Q8_1", 32, 36},       {10, "Q2_K", 256, 84},
    {11, "Q3_K", 256, 110},    {12, "Q4_K", 256, 144},    {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},    {15, "Q8_K", 256, 292},    {16, "IQ2_XXS", 256, 66},
    {17, "IQ2_XS", 256, 74},   {18, "IQ3_XXS", 256, 98},  {19, "IQ1_S", 256, 50},
    {20, "IQ4_NL", 32, 18},    {21, "IQ3_S", 256, 110},   {22, "IQ2_S", 256, 82},
    {23, "IQ4_XS", 256, 136},  {24, "I8", 1, 1},          {25, "I16", 1, 2},
    {26, "I32", 1, 4},         {27, "I64", 1, 8},         {28, "F64", 1, 8},
    {29, "IQ1_M", 256, 56},    {30, "BF16", 1, 2},        {34, "TQ1_0", 256, 54},
    {35, "TQ2_0", 256, 66},    {39, "MXFP4", 32, 17},     {40, "NVFP4", 64, 36},
    {41, "Q1_0", 128, 18},
};

/// ggml's storage types by their GGUF ids (ggml.h `enum ggml_type`), for code that picks a type.
enum class GgmlType : int {
  F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9, Q2_K = 10, Q3_K = 11, Q4_K = 12,
  Q5_K = 13, Q6_K = 14, Q8_K = 15, IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21,
  IQ2_S = 22, IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30, TQ1_0 = 34,
  TQ2_0 = 35, MXFP4 = 39, NVFP4 = 40, Q1_0 = 41,
};
/// The block layout of `type` (every GgmlType is in kGgmlTypes).
const GgmlTypeInfo& ggml_type(GgmlType type);

/** llama.cpp's file types (llama.h `enum llama_ftype`, as llama-quantize names them), plus the 2023
 *  Q2_K mix (llama.cpp PR #2707 to #5060). `none`: not a GGUF file type. */
enum class GgufFileType {
  none, F32, F16, BF16, Q8_0, Q6_K, Q5_K_M, Q5_K_S, Q5_1, Q5_0, Q4_K_M, Q4_K_S, Q4_1, Q4_0, IQ4_NL, IQ4_XS,
  Q3_K_L, Q3_K_M, Q3_K_S, IQ3_M, IQ3_S, IQ3_XS, IQ3_XXS, Q2_K, Q2_K_S, Q2_K_2023, IQ2_M, IQ2_S, IQ2_XS,
  IQ2_XXS, IQ1_M, IQ1_S, TQ2_0, TQ1_0, MXFP4_MOE,
};

/// The type with this ggml id, or nullptr (unknown or removed id).
const GgmlTypeInfo* ggml_type_info(int id);
/// The type with this name ("Q4_K", case-insensitive), or nullptr.
const GgmlTypeInfo* ggml_type_by_name(std::string_view name);

}  // namespace llmsizer
