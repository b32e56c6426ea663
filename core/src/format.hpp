// SPDX-License-Identifier: MIT
#pragma once
// Number formatting for explanations. Deterministic (the same text natively and in WASM).
#include <cstdint>
#include <cstdio>
#include <string>

namespace llmsizer::fmt {

/// 7615616512 → "7.62e9"; 28 → "28"; 0.5 → "0.5".
inline std::string count(double value) {
  char buffer[48];
  if (value >= 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
    std::string s = buffer;
    const auto e = s.find("e+");
    if (e != std::string::npos) {
      std::string exponent = s.substr(e + 2);
      while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
      s = s.substr(0, e) + "e" + exponent;
    }
    return s;
  }
  if (value == static_cast<double>(static_cast<std::int64_t>(value))) {
    std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
  }
  return buffer;
}

inline std::string count(std::int64_t value) { return count(static_cast<double>(value)); }

/// Bytes in decimal GB with 2 decimals: "15.23 GB".
inline std::string gb(std::int64_t bytes) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.2f GB", static_cast<double>(bytes) / 1e9);
  return buffer;
}

/// Bytes per element: "2 B", "0.5 B", "0.5625 B".
inline std::string bytes_per(double bytes) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.4g B", bytes);
  return buffer;
}

}  // namespace llmsizer::fmt
