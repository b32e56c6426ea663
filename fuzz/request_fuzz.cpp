// SPDX-License-Identifier: MIT
// Fuzzes the JSON edge with arbitrary request bytes: every input must come back as a response or an
// error JSON, never a crash, a hang or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llmsizer/api.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string request(reinterpret_cast<const char*>(data), size);
  const std::string out = llmsizer::estimate(request);
  if (out.empty() || out.front() != '{') __builtin_trap();
  llmsizer::recommend(request);
  return 0;
}
