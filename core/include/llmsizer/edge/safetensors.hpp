// SPDX-License-Identifier: MIT
#pragma once
/// safetensors header reader: every tensor's dtype, shape and byte range from the first bytes of a
/// `.safetensors` file (u64 little-endian header length N, then N bytes of JSON), and the shard map
/// of a `model.safetensors.index.json`. Format: https://github.com/huggingface/safetensors (README,
/// "Format"; validation rules as in safetensors/src/tensor.rs `read_metadata` / `validate`).
/// No I/O: the caller reads a prefix of the file and passes it in.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "llmsizer/edge/file_header.hpp"

namespace llmsizer {

/** One safetensors element type. `bits` per element (sub-byte types pack several elements per
 *  byte). Names and sizes: safetensors/src/tensor.rs `enum Dtype` and `Dtype::bitsize()`. */
struct SafetensorsDtypeInfo {
  std::string_view name;
  int bits;
};

inline constexpr SafetensorsDtypeInfo kSafetensorsDtypes[] = {
    {"BOOL", 8},     {"U8", 8},       {"I8", 8},       {"F8_E5M2", 8},  {"F8_E4M3", 8},
    {"F8_E8M0", 8},  {"F4", 4},       {"F6_E2M3", 6},  {"F6_E3M2", 6},  {"I16", 16},
    {"U16", 16},     {"F16", 16},     {"BF16", 16},    {"I32", 32},     {"U32", 32},
    {"F32", 32},     {"C64", 64},     {"F64", 64},     {"I64", 64},     {"U64", 64},
};

/// The dtype with this exact name ("BF16"), or nullptr.
const SafetensorsDtypeInfo* safetensors_dtype(std::string_view name);

struct SafetensorsTensor {
  std::string name;
  std::string dtype;                ///< one of kSafetensorsDtypes
  std::vector<std::int64_t> shape;  ///< outermost first, as in PyTorch; empty for a scalar
  std::int64_t data_begin = 0;      ///< data_offsets[0], from the start of the data section
  std::int64_t data_end = 0;        ///< data_offsets[1]
  std::int64_t elements = 0;        ///< product of shape (1 for a scalar)
  std::int64_t bytes() const { return data_end - data_begin; }
};

/** A parsed safetensors header. Tensors are sorted by data offset (the JSON object's order is
 *  not meaningful). */
struct SafetensorsHeader {
  std::int64_t header_length = 0;  ///< N, the JSON length in bytes
  std::vector<SafetensorsTensor> tensors;
  std::map<std::string, std::string> metadata;  ///< `__metadata__` (string → string)
  /// Sum of elements over all tensors, counted as stored: a GPTQ/AWQ `qweight` I32 element holds
  /// 32 / bits packed weights and still counts as 1 here (see packed_quantization).
  std::int64_t parameter_count = 0;
  std::int64_t weight_bytes = 0;  ///< sum of data_offsets spans = size of the data section
  /// True when tensor names look like GPTQ/AWQ-style packed quantization (`*.qweight` with
  /// `*.qzeros` / `*.scales`, or compressed-tensors `*.weight_packed`): then parameter_count
  /// undercounts the model's weights; a caller that knows the bit width (quantization_config)
  /// can use: params = parameter_count − packed_weight_elements − quant_aux_elements
  ///                   + packed_weight_elements × 32 / bits.
  bool packed_quantization = false;
  std::int64_t packed_weight_elements = 0;  ///< elements of `*.qweight` / `*.weight_packed` tensors
  std::int64_t quant_aux_elements = 0;      ///< elements of `*.qzeros`, `*.scales`, `*.g_idx`, `*.weight_scale`, ...
  PartialArchitecture architecture;         ///< from Hugging Face tensor names (see safetensors.cpp)

  /// Leading bytes of the file the header occupies: 8 + header_length. Tensor data starts here.
  std::int64_t needed_bytes() const { return 8 + header_length; }
};

/// Largest JSON header accepted, in bytes: 100,000,000, the limit of the reference reader
/// (safetensors/src/tensor.rs MAX_HEADER_SIZE). Real headers are KBs to a few MB.
inline constexpr std::int64_t kSafetensorsMaxHeaderBytes = 100'000'000;
/// Largest tensor rank accepted (PyTorch allows 64 dims; real weights have ≤ 5).
inline constexpr std::size_t kSafetensorsMaxRank = 64;

/** From the first 8 bytes alone: how many leading bytes hold the header (8 + N). Lets a browser
 *  read 8 bytes, then exactly the header. Throws TruncatedInputError if fewer than 8 bytes are
 *  given, InputError if N exceeds kSafetensorsMaxHeaderBytes (or the file size, when known). */
std::int64_t safetensors_needed_bytes(std::string_view first_bytes, std::int64_t file_size_bytes = -1);

/** Reads the header from `bytes`, the first bytes of the file (at least needed_bytes(); the whole
 *  file also works). `file_size_bytes`: size of the whole file when known, or -1.
 *  Throws TruncatedInputError (needed_bytes() = 8 + N, exact) when `bytes` ends inside the header
 *  and the file may be longer. Throws InputError (field "file") for: a file shorter than 8 bytes;
 *  a header length over the 100 MB cap or past the end of the file; a header that is not UTF-8 or
 *  not JSON; a top level that is not an object; wrong types (dtype not a string, shape not an
 *  array of whole numbers, data_offsets not two whole numbers, __metadata__ values not strings);
 *  negative dims or offsets; an element count or byte size that overflows int64; an unknown
 *  dtype; a byte span that differs from dtype × shape; overlapping, out-of-order or gapped
 *  offsets (the reference reader requires the tensors to tile the data section from 0); a data
 *  section that does not end where the file does (when the file size is known); duplicate names.
 *  Memory use is proportional to the number of tensors; nothing is allocated from a count that
 *  was not checked against the bytes given. */
SafetensorsHeader parse_safetensors_header(std::string_view bytes, std::int64_t file_size_bytes = -1);

/** A `model.safetensors.index.json` (sharded checkpoints). */
struct SafetensorsIndex {
  std::int64_t total_size = 0;                    ///< metadata.total_size: bytes of all tensor data (0 if absent)
  std::map<std::string, std::string> weight_map;  ///< tensor name → shard file name
  std::vector<std::string> shards;                ///< distinct shard file names, sorted
};

/** Parses the index JSON. Throws InputError (field "file") when it is not UTF-8 JSON, has no
 *  `weight_map` object, a weight_map value is not a string, or total_size is not a non-negative
 *  whole number. Other metadata fields are ignored. Input over 100 MB is rejected. */
SafetensorsIndex parse_safetensors_index(std::string_view json_text);

/** Summary for the CLI and the page: format, header bytes, counts, parameter count, weight bytes,
 *  dtype histogram, packed-quantization flag, `__metadata__`, the derived partial architecture
 *  under `model` (config.json names), and every tensor. */
nlohmann::json safetensors_header_to_json(const SafetensorsHeader& header);
/// Summary of an index: total_size, tensor count, shards and tensors per shard.
nlohmann::json safetensors_index_to_json(const SafetensorsIndex& index);

}  // namespace llmsizer
