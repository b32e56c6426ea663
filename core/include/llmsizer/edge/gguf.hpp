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

#include "llmsizer/edge/file_header.hpp"
#include "llmsizer/ggml_types.hpp"

namespace llmsizer {

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
