// SPDX-License-Identifier: MIT
// Fuzzes the config.json importer: the input is wrapped as {"model": {"config": <input>}} so the
// importer sees arbitrary JSON values, then sized at a fixed context.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llmsizer/api.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string config(reinterpret_cast<const char*>(data), size);
  const std::string request = "{\"model\": {\"config\": " + config + "}, \"input_tokens\": 4096, \"engine\": \"transformers\"}";
  const std::string out = llmsizer::estimate(request);
  if (out.empty() || out.front() != '{') __builtin_trap();
  return 0;
}
