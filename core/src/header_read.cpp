// SPDX-License-Identifier: MIT
#include "llmsizer/header_read.hpp"

#include <algorithm>

namespace llmsizer {

HeaderRead next_header_read(std::int64_t read_bytes, std::int64_t needed_bytes, std::int64_t file_size_bytes) {
  const bool size_known = file_size_bytes > 0;
  if (read_bytes <= 0) return {HeaderReadStep::read, size_known ? std::min(kFirstHeaderReadBytes, file_size_bytes) : kFirstHeaderReadBytes};
  if (needed_bytes <= read_bytes || (size_known && read_bytes >= file_size_bytes)) return {HeaderReadStep::answered, 0};
  if (read_bytes >= kMaxHeaderReadBytes) return {HeaderReadStep::too_long, 0};
  std::int64_t bytes = std::min(std::max(needed_bytes, 2 * read_bytes), kMaxHeaderReadBytes);
  if (size_known) bytes = std::min(bytes, file_size_bytes);
  return {HeaderReadStep::read, bytes};
}

const char* header_read_step_name(HeaderReadStep step) {
  switch (step) {
    case HeaderReadStep::answered: return "answered";
    case HeaderReadStep::too_long: return "too_long";
    case HeaderReadStep::read: break;
  }
  return "read";
}

}  // namespace llmsizer
