// SPDX-License-Identifier: MIT
#pragma once
/// ASCII text tests the core and its fronts share: ids, file names, tensor names and HTTP header
/// names are ASCII, and matching them ignores the locale (std::tolower on an unsigned char, never
/// on a plain char, whose negative values are undefined behaviour).
#include <cctype>
#include <string>
#include <string_view>

namespace llmsizer {

/// `text` with A-Z turned to a-z; every other byte as it is.
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// True when `text` begins with `prefix`, byte for byte.
inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

/// True when `text` ends with `suffix`, byte for byte.
inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// True when `text` ends with `lower_suffix` (given in lower case) in any case: "X.GGUF" ends with ".gguf".
inline bool ends_with_any_case(std::string_view text, std::string_view lower_suffix) {
  return text.size() >= lower_suffix.size() && ascii_lower(text.substr(text.size() - lower_suffix.size())) == lower_suffix;
}

}  // namespace llmsizer
