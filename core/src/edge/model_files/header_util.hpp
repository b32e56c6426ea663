// SPDX-License-Identifier: MIT
#pragma once
/// Private helpers of the model-file header readers (gguf.cpp, safetensors.cpp, and file_header.cpp and
/// model_file.cpp around them): UTF-8 checks and overflow-checked integer arithmetic on untrusted sizes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace llmsizer::detail {

/// The request field an error in a model file names (the readers and file_header/model_file report it as "file").
inline constexpr const char* kFileField = "file";
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

/// A size or count as decimal text, for message arguments.
inline std::string decimal(std::int64_t v) { return std::to_string(v); }
inline std::string decimal(std::uint64_t v) { return std::to_string(v); }

/// Length of the well-formed UTF-8 sequence (RFC 3629: no overlongs, surrogates or code points
/// above U+10FFFF) starting at `s[i]`, or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c == 0xE0) {
    n = 3, lo = 0xA0;
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    n = 3;
  } else if (c == 0xED) {
    n = 3, hi = 0x9F;
  } else if (c == 0xF0) {
    n = 4, lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3) {
    n = 4;
  } else if (c == 0xF4) {
    n = 4, hi = 0x8F;
  } else {
    return 0;
  }
  if (n > s.size() - i) return 0;
  const auto c1 = static_cast<unsigned char>(s[i + 1]);
  if (c1 < lo || c1 > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  return n;
}

/// Offset of the first byte that is not part of well-formed UTF-8, or nullopt if all is valid.
inline std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return std::nullopt;
}

/// `s` with every byte that is not part of well-formed UTF-8 replaced by U+FFFD.
inline std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

/// a × b, or nullopt when either is negative or the product exceeds INT64_MAX.
inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) return std::nullopt;
  if (a != 0 && b > kInt64Max / a) return std::nullopt;
  return a * b;
}

/// a + b, or nullopt when either is negative or the sum exceeds INT64_MAX.
inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) return std::nullopt;
  if (b > kInt64Max - a) return std::nullopt;
  return a + b;
}

/// `s` shortened to at most `max_bytes` (on a UTF-8 boundary) with "…" appended, for messages.
inline std::string quote_for_message(std::string_view s, std::size_t max_bytes = 80) {
  std::string clean = sanitize_utf8(s.substr(0, std::min(s.size(), max_bytes + 4)));
  if (clean.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80) --cut;
    clean = clean.substr(0, cut) + "\xE2\x80\xA6";
  }
  return "\"" + clean + "\"";
}

}  // namespace llmsizer::detail
