// SPDX-License-Identifier: MIT
// libFuzzer entry point for the safetensors header and index readers. Not built by default; by hand:
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include -Icore/src \
//     fuzz/safetensors_fuzz.cpp core/src/edge/model_files/safetensors.cpp core/src/edge/model_files/file_header.cpp -o safetensors_fuzz
//   ./safetensors_fuzz -max_len=65536 fuzz/corpus/safetensors
// Each input is read as a header prefix, as a whole file, and (from byte 8 on) as an index JSON.
// Any exception other than InputError, any crash or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const std::int64_t file_size : {std::int64_t{-1}, static_cast<std::int64_t>(size)}) {
    try {
      const llmsizer::SafetensorsHeader header = llmsizer::parse_safetensors_header(bytes, file_size);
      (void)llmsizer::safetensors_header_to_json(header).dump();
    } catch (const llmsizer::InputError& e) {
      (void)llmsizer::header_error_to_json(e).dump();
    }
  }
  try {
    const llmsizer::SafetensorsIndex index = llmsizer::parse_safetensors_index(bytes.substr(size < 8 ? size : 8));
    (void)llmsizer::safetensors_index_to_json(index).dump();
  } catch (const llmsizer::InputError&) {
  }
  return 0;
}
