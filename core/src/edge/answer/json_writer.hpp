// SPDX-License-Identifier: MIT
#pragma once
// A streaming JSON writer: objects, arrays, keys and values appended straight into one string, in
// the order they are written, with the commas put in. The edge writes its responses with it instead
// of building a DOM and dumping it (building and dumping nlohmann::ordered_json was most of a
// recommendation's time, and a large part of the WASM module).
//
// The text is byte-identical to nlohmann's dump(-1, ' ', true, error_handler_t::replace): compact,
// doubles as nlohmann prints them (non-finite as null), strings escaped as its serializer does with
// ensure_ascii (every character outside printable ASCII as \uXXXX, a surrogate pair above U+FFFF),
// with invalid UTF-8 replaced by U+FFFD as its decoder does (tests/json_writer_test.cpp compares the
// two). The responses are ASCII because the page's module hands each answer to JavaScript through
// TextDecoder, which decodes pure ASCII far faster than UTF-8 with a few non-ASCII characters in it
// (a whole-catalog recommendation's "×", "—", "≈"; bench/results/wasm-build-options.md has the measurement).
// The JSON value is the same: any parser reads "\u00d7" as "×". The request corpus hashes its
// responses after parsing them.
// It checks nothing about structure: a key inside an array or an unclosed object is the caller's bug.
// A key written twice is written twice (ordered_json kept the first position with the last value):
// write each key once.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace llmsizer::edge {

/// The writer's text: a growable run of bytes whose appends compile inline even in the -Oz WASM build.
/// std::string's do not there: its size(), __is_long(), __get_pointer(), operator+=(char) and
/// char_traits calls were a large part of a recommendation's time in a profile, because -Oz keeps
/// libc++'s one shared copy of each out of line.
class TextBuffer {
 public:
  TextBuffer() = default;
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;
  ~TextBuffer() { std::free(data_); }

  [[gnu::always_inline]] void push(char c) {
    if (size_ == capacity_) grow(1);
    data_[size_++] = c;
  }
  [[gnu::always_inline]] void append(const char* bytes, std::size_t count) {
    if (count == 0) return;
    if (capacity_ - size_ < count) grow(count);
    std::memcpy(data_ + size_, bytes, count);
    size_ += count;
  }
  [[gnu::always_inline]] void append(std::string_view text) { append(text.data(), text.size()); }
  std::size_t size() const { return size_; }
  /// Room for `capacity` bytes in all, so that a large answer is not copied as it grows.
  void reserve(std::size_t capacity) {
    if (capacity > capacity_) grow(capacity - size_);
  }
  /// Drops what was appended after the first `size` bytes.
  void truncate(std::size_t size) { size_ = std::min(size, size_); }
  std::string_view view() const { return size_ == 0 ? std::string_view() : std::string_view(data_, size_); }

 private:
  /// Room for `extra` more bytes: at least doubles, and starts at 4 KiB (a response is 1-130 KB).
  void grow(std::size_t extra) {
    std::size_t capacity = std::max<std::size_t>(capacity_ * 2, 4096);
    while (capacity - size_ < extra) capacity *= 2;
    void* data = std::realloc(data_, capacity);
    if (data == nullptr) throw std::bad_alloc();
    data_ = static_cast<char*>(data);
    capacity_ = capacity;
  }

  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  /// An object's key; the value written next is its value.
  JsonWriter& key(std::string_view name);
  /// The key `name` then `suffix` ("reason" "_data", without a string made for it; the suffix is
  /// the code's own plain ASCII, written as is).
  JsonWriter& key(std::string_view name, std::string_view suffix);

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(std::nullptr_t);
  /// Non-finite: null (as nlohmann writes it).
  JsonWriter& value(double number);
  /// Every integer type but bool (and the character types, which are not numbers here).
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
  JsonWriter& value(T number) {
    if constexpr (std::is_signed_v<T>) return signed_integer(number);
    else return unsigned_integer(number);
  }
  /// float is written as the double it converts to, as nlohmann stores it.
  JsonWriter& value(float number) { return value(static_cast<double>(number)); }
  /// An array of the values.
  template <typename T>
  JsonWriter& value(const std::vector<T>& values) {
    begin_array();
    for (const auto& v : values) value(v);
    return end_array();
  }

  /// key(name).value(v): one member of an object.
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  JsonWriter& field(std::string_view name, const char* v) {
    key(name);
    return value(v);
  }

  /// Splices `json_text`, already serialized (one complete value), as the next value.
  JsonWriter& raw(std::string_view json_text);

  /// Whether the answer's messages carry their English text beside their data (the request's
  /// `english_text`; to_json's message writers ask). The writer itself writes what it is told.
  void set_english_text(bool english_text) { english_text_ = english_text; }
  bool english_text() const { return english_text_; }
  /// Room for about `bytes` of text before the first append (TextBuffer::reserve).
  void reserve(std::size_t bytes) { out_.reserve(bytes); }

  std::string_view text() const { return out_.view(); }
  std::string take() const { return std::string(out_.view()); }

 private:
  /// The comma before a value or key that follows another in the same object or array.
  void separate() {
    if (need_comma_) out_.push(',');
    need_comma_ = true;
  }
  JsonWriter& open(char c) {
    separate();
    out_.push(c);
    need_comma_ = false;
    return *this;
  }
  JsonWriter& close(char c) {
    out_.push(c);
    need_comma_ = true;
    return *this;
  }
  JsonWriter& signed_integer(std::int64_t number);
  JsonWriter& unsigned_integer(std::uint64_t number);

  TextBuffer out_;
  bool need_comma_ = false;
  bool english_text_ = true;
};

/// Calls `write(item)` once per distinct name in `items` (`name_of(item)`), in the order each name first
/// appears, with the LAST item of that name: how the ordered_json objects the responses were built as
/// kept a key set twice (its first place, its last value). Message arguments and fix changes use it.
template <typename T, typename NameOf, typename Write>
void for_each_last_by_name(const std::vector<T>& items, NameOf name_of, Write write) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto same_name = [&](const T& other) { return name_of(other) == name_of(items[i]); };
    if (std::any_of(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(i), same_name)) continue;
    write(*std::find_if(items.rbegin(), items.rend(), same_name));
  }
}

/// Appends `text` to `out` escaped as nlohmann's serializer escapes a string (ensure_ascii true,
/// error_handler_t::replace), without the quotes: ASCII only.
void append_escaped(TextBuffer& out, std::string_view text);

/// `number` as nlohmann dumps a double: null when not finite, else its shortest round-trip form
/// ("7.0", "1e-05", "0.1").
void append_double(TextBuffer& out, double number);

}  // namespace llmsizer::edge
