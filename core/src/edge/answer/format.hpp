// SPDX-License-Identifier: MIT
#pragma once
// Number formatting for explanations. Deterministic (the same text natively and in WASM).
#include <cstdint>
#include <string>

#include "llmsizer/decimal_text.hpp"

namespace llmsizer::fmt {

/// 7615616512 → "7.62e9"; 28 → "28"; 0.5 → "0.5".
inline std::string count(double value) {
  if (value >= 1e6) {
    std::string s = general_text(value, 3);
    const auto e = s.find("e+");
    if (e != std::string::npos) {
      std::string exponent = s.substr(e + 2);
      while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
      s = s.substr(0, e) + "e" + exponent;
    }
    return s;
  }
  if (value == static_cast<double>(static_cast<std::int64_t>(value))) return std::to_string(static_cast<long long>(value));
  return general_text(value, 4);
}

/// Whole counts in integer arithmetic (the explanation is built on every estimate, so no printf):
/// below a million as is; above, three significant digits rounded half up: 7615616512 → "7.62e9".
inline std::string count(std::int64_t value) {
  if (value < 0) return "-" + count(-value);
  if (value < 1'000'000) return std::to_string(value);
  int exponent = 0;
  std::int64_t scale = 1;
  while (value / scale >= 1000) {
    scale *= 10;
    ++exponent;
  }
  std::int64_t digits = (value + scale / 2) / scale;  // 100..1000
  exponent += 2;
  if (digits >= 1000) {
    digits /= 10;
    ++exponent;
  }
  std::string s = std::to_string(digits / 100);
  const std::int64_t rest = digits % 100;
  if (rest != 0) {
    s += '.';
    s += static_cast<char>('0' + rest / 10);
    if (rest % 10 != 0) s += static_cast<char>('0' + rest % 10);
  }
  return s + "e" + std::to_string(exponent);
}

/// Bytes in decimal GB with 2 decimals, rounded half up: "15.23 GB".
inline std::string gb(std::int64_t bytes) {
  if (bytes < 0) return "-" + gb(-bytes);
  const std::int64_t hundredths = (bytes + 5'000'000) / 10'000'000;
  const std::int64_t cents = hundredths % 100;
  return std::to_string(hundredths / 100) + (cents < 10 ? ".0" : ".") + std::to_string(cents) + " GB";
}

/// Bytes per element: "2 B", "0.5 B", "0.5625 B".
inline std::string bytes_per(double bytes) {
  return general_text(bytes, 4) + " B";
}

}  // namespace llmsizer::fmt
