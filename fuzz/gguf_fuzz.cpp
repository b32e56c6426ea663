// SPDX-License-Identifier: MIT
// libFuzzer entry point for the GGUF header reader. Not built by default; by hand:
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include -Icore/src \
//     fuzz/gguf_fuzz.cpp core/src/edge/model_files/gguf.cpp core/src/edge/model_files/file_header.cpp -o gguf_fuzz
//   ./gguf_fuzz -max_len=65536 fuzz/corpus/gguf
// Each input is read twice: as a prefix of unknown length and as a whole file. Any exception
// other than InputError, any crash or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "llmsizer/edge/gguf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const std::int64_t file_size : {std::int64_t{-1}, static_cast<std::int64_t>(size)}) {
    try {
      const llmsizer::GgufHeader header = llmsizer::parse_gguf_header(bytes, file_size);
      (void)llmsizer::gguf_header_to_json(header).dump();
    } catch (const llmsizer::InputError& e) {
      (void)llmsizer::header_error_to_json(e).dump();
    }
  }
  return 0;
}
