// SPDX-License-Identifier: MIT
#include "json_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>

// Only the double formatting of nlohmann (Grisu2, header-only): the numbers must print as before.
#include <nlohmann/detail/conversions/to_chars.hpp>

namespace llmsizer::edge {
namespace {

constexpr std::uint8_t kUtf8Accept = 0;
constexpr std::uint8_t kUtf8Reject = 1;

/// Björn Höhrmann's UTF-8 decoder, the table nlohmann's serializer decodes strings with
/// (serializer::decode): bytes 0-255 to character classes, then the states' transitions.
constexpr std::array<std::uint8_t, 400> kUtf8Table = {{
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 00..1F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 20..3F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 40..5F
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // 60..7F
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  // 80..9F
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  // A0..BF
    8, 8, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // C0..DF
    0xA, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x3, 0x4, 0x3, 0x3,                  // E0..EF
    0xB, 0x6, 0x6, 0x6, 0x5, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8, 0x8,                  // F0..FF
    0x0, 0x1, 0x2, 0x3, 0x5, 0x8, 0x7, 0x1, 0x1, 0x1, 0x4, 0x6, 0x1, 0x1, 0x1, 0x1,                  // s0..s0
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1,  // s1..s2
    1, 2, 1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1,  // s3..s4
    1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1,  // s5..s6
    1, 3, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  // s7..s8
}};

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

/// The escape of an ASCII character, or 0 when it is written as itself.
char short_escape(unsigned char c) {
  switch (c) {
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\f': return 'f';
    case '\r': return 'r';
    case '"': return '"';
    case '\\': return '\\';
    default: return 0;
  }
}

/// An ASCII character that is written as itself.
bool is_plain(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x80 && u != '"' && u != '\\';
}

void append_ascii(TextBuffer& out, unsigned char c) {
  if (c >= 0x20 && c != '"' && c != '\\') {
    out.push(static_cast<char>(c));
  } else if (const char e = short_escape(c)) {
    out.push('\\');
    out.push(e);
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    out.append("\\u00", 4);
    out.push(kHex[c >> 4]);
    out.push(kHex[c & 0xF]);
  }
}

}  // namespace

void append_escaped(TextBuffer& out, std::string_view s) {
  // As serializer::dump_escaped: each code point the decoder accepts is written (characters below
  // U+0020, '"' and '\' escaped, the rest as their bytes); on a byte the decoder rejects, what was
  // written of the incomplete sequence is taken back and U+FFFD written instead, and the rejecting
  // byte is read again when it followed a sequence's start (it may begin a character of its own).
  // A string that ends inside a sequence ends with U+FFFD in place of it.
  std::uint8_t state = kUtf8Accept;
  std::size_t after_last_accept = out.size();
  bool inside_sequence = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (state == kUtf8Accept) {
      // A run of characters written as themselves goes in one append (per-character appends are
      // calls of their own in the -Oz WASM build).
      std::size_t end = i;
      while (end < s.size() && is_plain(s[end])) ++end;
      if (end > i) {
        out.append(s.data() + i, end - i);
        after_last_accept = out.size();
        i = end - 1;
        continue;
      }
    }
    const auto byte = static_cast<unsigned char>(s[i]);
    if (state == kUtf8Accept && byte < 0x80) {
      append_ascii(out, byte);
      after_last_accept = out.size();
      continue;
    }
    state = kUtf8Table[256u + state * 16u + kUtf8Table[byte]];
    if (state == kUtf8Accept) {
      out.push(static_cast<char>(byte));  // the last byte of a multi-byte character
      after_last_accept = out.size();
      inside_sequence = false;
    } else if (state == kUtf8Reject) {
      if (inside_sequence) --i;
      out.truncate(after_last_accept);
      out.append(kReplacement, 3);
      after_last_accept = out.size();
      inside_sequence = false;
      state = kUtf8Accept;
    } else {
      out.push(static_cast<char>(byte));
      inside_sequence = true;
    }
  }
  if (state != kUtf8Accept) {
    out.truncate(after_last_accept);
    out.append(kReplacement, 3);
  }
}

void append_double(TextBuffer& out, double number) {
  if (!std::isfinite(number)) {
    out.append("null", 4);
    return;
  }
  std::array<char, 64> buffer{};  // nlohmann's number buffer
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_.push('"');
  append_escaped(out_, name);
  out_.append("\":", 2);
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  out_.push('"');
  append_escaped(out_, text);
  out_.push('"');
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  separate();
  if (flag) out_.append("true", 4);
  else out_.append("false", 5);
  return *this;
}

JsonWriter& JsonWriter::value(std::nullptr_t) {
  separate();
  out_.append("null", 4);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  separate();
  append_double(out_, number);
  return *this;
}

namespace {
/// `number` in decimal (what nlohmann writes for its integer types).
template <typename Integer>
void append_integer(TextBuffer& out, Integer number) {
  std::array<char, 24> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out.append(buffer.data(), static_cast<std::size_t>(result.ptr - buffer.data()));
}
}  // namespace

JsonWriter& JsonWriter::signed_integer(std::int64_t number) {
  separate();
  append_integer(out_, number);
  return *this;
}

JsonWriter& JsonWriter::unsigned_integer(std::uint64_t number) {
  separate();
  append_integer(out_, number);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_.append(json);
  return *this;
}

}  // namespace llmsizer::edge
