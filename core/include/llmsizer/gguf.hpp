// SPDX-License-Identifier: MIT
#pragma once
/// GGUF (llama.cpp / ggml model file) header reader: metadata key/values and tensor infos from the
/// first bytes of a file, with exact per-tensor byte sizes from the ggml block layouts.
/// Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md (versions 2 and 3).
/// No I/O: the caller reads a prefix of the file and passes it in.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llmsizer/file_header.hpp"

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

/// The type with this ggml id, or nullptr (unknown or removed id).
const GgmlTypeInfo* ggml_type_info(int id);
/// The type with this name ("Q4_K", case-insensitive), or nullptr.
const GgmlTypeInfo* ggml_type_by_name(std::string_view name);
/** Bytes of a tensor of `type` with dims ne[0..n) (ne[0] is the row, the contiguous dimension):
 *  ne[0] / block_elements × block_bytes × ne[1] × ...; nullopt when ne[0] is not a whole number
 *  of blocks, a dim is negative, or the result overflows int64. */
std::optional<std::int64_t> ggml_tensor_bytes(const GgmlTypeInfo& type, const std::int64_t* dims, int n_dims);

/// GGUF metadata value types (gguf.md `enum gguf_metadata_value_type`).
enum class GgufValueType : std::uint32_t {
  uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, uint32 = 4, int32 = 5, float32 = 6,
  boolean = 7, string = 8, array = 9, uint64 = 10, int64 = 11, float64 = 12,
};
std::string_view gguf_value_type_name(GgufValueType type);

/** One metadata value. Integers and bools are in `int_value` (uint64 above INT64_MAX in
 *  `uint_value` with `int_value` = -1 and `uint_overflow`), floats in `float_value`, strings in
 *  `string_value` (invalid UTF-8 replaced by U+FFFD). Arrays keep their element type and count
 *  always; their values only when small (see kGgufMaxKeptArray): numbers and bools in
 *  `array_ints`/`array_floats`, strings in `array_strings`. Arrays of arrays keep only the count. */
struct GgufValue {
  GgufValueType type = GgufValueType::uint8;
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  bool uint_overflow = false;
  double float_value = 0.0;
  std::string string_value;
  GgufValueType element_type = GgufValueType::uint8;  ///< arrays only
  std::uint64_t array_count = 0;                      ///< arrays only
  bool array_values_kept = false;
  std::vector<std::int64_t> array_ints;
  std::vector<double> array_floats;
  std::vector<std::string> array_strings;

  bool is_integer() const;  ///< any integer type or bool
  /// The integer value (or, for an integer array with kept values, the largest element).
  std::optional<std::int64_t> as_int() const;
};

struct GgufKeyValue {
  std::string key;
  GgufValue value;
};

struct GgufTensorInfo {
  std::string name;
  int n_dims = 0;
  std::array<std::int64_t, 4> dims{{1, 1, 1, 1}};  ///< ne[0..3], ne[0] = row length; unused = 1
  int type_id = 0;
  std::uint64_t offset = 0;  ///< from the start of the tensor data section, a multiple of the alignment
  std::int64_t elements = 0;
  std::int64_t bytes = 0;    ///< exact, from the type's block layout
};

/** A parsed GGUF header. `metadata` and `tensors` are in file order. */
struct GgufHeader {
  std::uint32_t version = 0;
  std::uint64_t tensor_count = 0;
  std::uint64_t metadata_count = 0;
  std::vector<GgufKeyValue> metadata;
  std::vector<GgufTensorInfo> tensors;
  std::int64_t alignment = 32;       ///< `general.alignment`, 32 when absent (gguf.md)
  std::int64_t header_bytes = 0;     ///< end of the tensor infos: the prefix this reader needed
  std::int64_t data_offset = 0;      ///< header_bytes rounded up to the alignment: start of tensor data
  std::int64_t data_end = 0;         ///< data_offset + the furthest tensor end: the smallest valid file size
  std::int64_t weight_bytes = 0;     ///< sum of all tensors' bytes (padding between tensors excluded)
  std::int64_t parameter_count = 0;  ///< sum of all tensors' elements

  // Derived from metadata (0 / empty / -1 when absent).
  std::string name;                  ///< general.name
  int file_type = -1;                ///< general.file_type (llama.h enum llama_ftype)
  PartialArchitecture architecture;  ///< general.architecture and the `<arch>.` keys

  /// How many leading bytes of the file hold the header (= header_bytes).
  std::int64_t needed_bytes() const { return header_bytes; }
  /// The value of `key`, or nullptr.
  const GgufValue* find(std::string_view key) const;
};

/// Caps that keep a hostile header from using unbounded memory or time (documented limits).
inline constexpr std::uint64_t kGgufMaxTensors = 1u << 20;        ///< DeepSeek-V3 GGUF: ~1,100 tensors
inline constexpr std::uint64_t kGgufMaxMetadata = 1u << 16;       ///< real files: 20–60 keys
inline constexpr std::uint64_t kGgufMaxKeyBytes = 65535;          ///< gguf.md: keys at most 2^16−1 bytes
inline constexpr std::uint64_t kGgufMaxTensorNameBytes = 4096;    ///< ggml: GGML_MAX_NAME = 64; forks go longer
inline constexpr std::uint64_t kGgufMaxStringBytes = 64u << 20;   ///< one metadata string (chat templates: KBs)
inline constexpr std::uint64_t kGgufMaxArrayCount = 1u << 28;     ///< vocabularies: ~10^5–10^6 entries
inline constexpr int kGgufMaxArrayDepth = 3;                      ///< array nesting levels accepted
inline constexpr std::uint64_t kGgufMaxKeptArray = 4096;          ///< arrays longer than this keep only their count
inline constexpr std::int64_t kGgufMaxAlignment = 1 << 20;

/** Reads a GGUF header from `bytes`, the first bytes of the file (the whole file also works).
 *  `file_size_bytes`: the size of the whole file when known (a browser File.size, a stat), or -1.
 *  Throws TruncatedInputError when `bytes` ends inside the header and the file is longer (or its
 *  size unknown): read a longer prefix and call again. Throws InputError (field "file") for
 *  anything malformed: bad magic, big-endian or unsupported version, counts beyond the caps or
 *  beyond what the file could hold, strings running past the end of the file, a non-UTF-8 key or
 *  tensor name (rejected; invalid UTF-8 in string values is replaced by U+FFFD), more than 4 dims,
 *  dims whose product overflows, unknown or removed type ids, a row that is not a whole number of
 *  blocks, misaligned or overlapping tensor offsets, tensor data past the end of the file,
 *  duplicate keys or tensor names, bools other than 0/1, arrays nested deeper than 3. */
GgufHeader parse_gguf_header(std::string_view bytes, std::int64_t file_size_bytes = -1);

/** Summary for the CLI and the page: format, version, counts, alignment, header/weight bytes,
 *  parameter count, name, architecture, file type, per-type histogram (`dtypes`: tensors,
 *  elements, bytes), the derived partial architecture under `model` (config.json names), the kept
 *  metadata and every tensor. Always valid UTF-8. */
nlohmann::json gguf_header_to_json(const GgufHeader& header);

/// Name of a llama.h `llama_ftype` (general.file_type), e.g. 15 → "Q4_K_M"; empty if unknown.
std::string_view llama_file_type_name(int file_type);

}  // namespace llmsizer
