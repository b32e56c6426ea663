// SPDX-License-Identifier: MIT
#include "answer/json_writer.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

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

/// U+FFFD as written in place of invalid UTF-8.
constexpr char kReplacement[] = "\\ufffd";

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

/// An ASCII character that is written as itself (DEL, U+007F, is escaped as nlohmann escapes it
/// with ensure_ascii).
bool is_plain(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x20 && u < 0x7F && u != '"' && u != '\\';
}

/// Whether all eight bytes of `word` are written as themselves (is_plain), tested at once: the bit
/// tricks of "Bit Twiddling Hacks" (S. E. Anderson, "Determine if a word has a byte less than n" and
/// "has a zero byte"), each exact for "does any byte ...": a byte with its high bit set (not ASCII),
/// one below 0x20 (a control character), and one equal to '"', '\\' or DEL (a zero byte after XOR).
/// Escaping was 17% of a recommendation's instructions natively (callgrind) with one test per byte.
bool all_plain(std::uint64_t word) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const auto has_zero_byte = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  const std::uint64_t not_ascii = word & kHighs;
  const std::uint64_t control = (word - 0x20 * kOnes) & ~word & kHighs;
  const std::uint64_t quote = has_zero_byte(word ^ ('"' * kOnes));
  const std::uint64_t backslash = has_zero_byte(word ^ ('\\' * kOnes));
  const std::uint64_t del = has_zero_byte(word ^ (0x7F * kOnes));
  return (not_ascii | control | quote | backslash | del) == 0;
}

/// The end of the run of bytes written as themselves that starts at `begin`: eight at a time while
/// all eight are, then one at a time.
std::size_t plain_run_end(std::string_view s, std::size_t begin) {
  std::size_t end = begin;
  while (s.size() - end >= 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, s.data() + end, 8);
    if (!all_plain(word)) break;
    end += 8;
  }
  while (end < s.size() && is_plain(s[end])) ++end;
  return end;
}

/// `\uXXXX` with lowercase hex digits, as nlohmann writes it ("\\u%04x").
void append_u_escape(TextBuffer& out, std::uint32_t unit) {
  static constexpr char kHex[] = "0123456789abcdef";
  char escape[6] = {'\\', 'u', kHex[(unit >> 12) & 0xF], kHex[(unit >> 8) & 0xF], kHex[(unit >> 4) & 0xF], kHex[unit & 0xF]};
  out.append(escape, 6);
}

/// A decoded code point that is not written as itself: its short escape, or \uXXXX (a surrogate
/// pair above U+FFFF).
void append_escaped_code_point(TextBuffer& out, std::uint32_t code_point) {
  if (code_point < 0x80) {
    if (const char e = short_escape(static_cast<unsigned char>(code_point))) {
      out.push('\\');
      out.push(e);
      return;
    }
  }
  if (code_point <= 0xFFFF) {
    append_u_escape(out, code_point);
  } else {
    append_u_escape(out, 0xD7C0 + (code_point >> 10));
    append_u_escape(out, 0xDC00 + (code_point & 0x3FF));
  }
}

}  // namespace

void append_escaped(TextBuffer& out, std::string_view s) {
  // As serializer::dump_escaped with ensure_ascii: each code point the decoder accepts is written
  // as itself when it is printable ASCII other than '"' and '\', else escaped; on a byte the decoder
  // rejects, U+FFFD is written in place of the incomplete sequence, and the rejecting byte is read
  // again when it followed a sequence's start (it may begin a character of its own). A string that
  // ends inside a sequence ends with U+FFFD in place of it.
  std::uint8_t state = kUtf8Accept;
  std::uint32_t code_point = 0;
  bool inside_sequence = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (state == kUtf8Accept) {
      // A run of characters written as themselves goes in one append (per-character appends are
      // calls of their own in the -Oz WASM build).
      const std::size_t end = plain_run_end(s, i);
      if (end > i) {
        out.append(s.data() + i, end - i);
        i = end - 1;
        continue;
      }
    }
    const auto byte = static_cast<unsigned char>(s[i]);
    const std::uint8_t type = kUtf8Table[byte];
    code_point = state != kUtf8Accept ? (byte & 0x3Fu) | (code_point << 6u) : (0xFFu >> type) & byte;
    state = kUtf8Table[256u + state * 16u + type];
    if (state == kUtf8Accept) {
      append_escaped_code_point(out, code_point);
      inside_sequence = false;
    } else if (state == kUtf8Reject) {
      if (inside_sequence) --i;
      out.append(kReplacement, 6);
      inside_sequence = false;
      state = kUtf8Accept;
    } else {
      inside_sequence = true;
    }
  }
  if (state != kUtf8Accept) out.append(kReplacement, 6);
}

void append_double(TextBuffer& out, double number) {
  if (!std::isfinite(number)) {
    out.append("null", 4);
    return;
  }
  // A whole number below 10^15 (a price, hours, watts: many of an answer's doubles) is what Grisu2
  // prints for it, its digits and ".0" (format_buffer writes n <= 15 digits in fixed notation, and
  // below 2^53 every digit is needed to tell it from its neighbours), without Grisu2's work: its
  // doubles were 9% of a recommendation's instructions (callgrind). -0.0 goes to nlohmann.
  if (std::fabs(number) >= 1 && std::fabs(number) < 1e15 && std::trunc(number) == number) {
    std::array<char, 24> digits;  // NOLINT: written before it is read
    const auto result = std::to_chars(digits.data(), digits.data() + digits.size(), static_cast<std::int64_t>(number));
    out.append(digits.data(), static_cast<std::size_t>(result.ptr - digits.data()));
    out.append(".0", 2);
    return;
  }
  std::array<char, 64> buffer;  // nlohmann's number buffer, written before it is read
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), number);
  out.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

JsonWriter& JsonWriter::key(std::string_view name) {
  // Keys are the code's own short ASCII names: `,"name":` goes in one append when every byte of the
  // name is written as itself (a fifth of a recommendation's writing was its 36,000 keys).
  constexpr std::size_t kShortKey = 48;
  if (name.size() <= kShortKey && plain_run_end(name, 0) == name.size()) {
    char text[kShortKey + 4];
    std::size_t n = 0;
    if (need_comma_) text[n++] = ',';
    text[n++] = '"';
    std::memcpy(text + n, name.data(), name.size());
    n += name.size();
    text[n++] = '"';
    text[n++] = ':';
    out_.append(text, n);
    need_comma_ = false;
    return *this;
  }
  return key(name, std::string_view());
}

JsonWriter& JsonWriter::key(std::string_view name, std::string_view suffix) {
  separate();
  out_.push('"');
  append_escaped(out_, name);
  out_.append(suffix);  // the code's own plain ASCII ("_data")
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
  std::array<char, 24> buffer;  // written before it is read (zeroing it was a memset a number)
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

JsonWriter& JsonWriter::raw(std::string_view json_text) {
  separate();
  out_.append(json_text);
  return *this;
}

}  // namespace llmsizer::edge
