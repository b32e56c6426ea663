// SPDX-License-Identifier: MIT
#include "llmsizer/decimal_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace llmsizer {

namespace {

/// A non-negative integer of any size, 32 bits a word, least significant first: just the operations
/// that write a binary value's exact decimal digits.
class BigUint {
 public:
  explicit BigUint(std::uint64_t value) {
    while (value != 0) {
      words_.push_back(static_cast<std::uint32_t>(value));
      value >>= 32;
    }
  }

  void multiply(std::uint32_t factor) {
    std::uint64_t carry = 0;
    for (std::uint32_t& w : words_) {
      carry += static_cast<std::uint64_t>(w) * factor;
      w = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry != 0) words_.push_back(static_cast<std::uint32_t>(carry));
  }

  /// Times 5^n, 5^13 (the largest power of 5 in a word) at a time.
  void multiply_by_power_of_5(int n) {
    for (; n >= 13; n -= 13) multiply(1220703125u);
    std::uint32_t rest = 1;
    for (; n > 0; --n) rest *= 5;
    if (rest != 1) multiply(rest);
  }

  void shift_left(int bits) {
    if (words_.empty() || bits == 0) return;
    words_.insert(words_.begin(), static_cast<std::size_t>(bits / 32), 0u);
    const int rest = bits % 32;
    if (rest == 0) return;
    std::uint32_t carry = 0;
    for (std::uint32_t& w : words_) {
      const std::uint32_t next = w >> (32 - rest);
      w = (w << rest) | carry;
      carry = next;
    }
    if (carry != 0) words_.push_back(carry);
  }

  /// The decimal digits, most significant first ("" for zero).
  std::string decimal() && {
    std::vector<std::uint32_t> chunks;  // base 10^9, least significant first
    while (!words_.empty()) {
      std::uint64_t remainder = 0;
      for (std::size_t i = words_.size(); i-- > 0;) {
        const std::uint64_t current = (remainder << 32) | words_[i];
        words_[i] = static_cast<std::uint32_t>(current / 1000000000u);
        remainder = current % 1000000000u;
      }
      chunks.push_back(static_cast<std::uint32_t>(remainder));
      while (!words_.empty() && words_.back() == 0) words_.pop_back();
    }
    std::string out;
    for (std::size_t i = chunks.size(); i-- > 0;) {
      char nine[9];
      std::uint32_t chunk = chunks[i];
      for (int d = 8; d >= 0; --d, chunk /= 10) nine[d] = static_cast<char>('0' + chunk % 10);
      out.append(nine, 9);
    }
    const std::size_t first = out.find_first_not_of('0');
    return first == std::string::npos ? std::string() : out.substr(first);
  }

 private:
  std::vector<std::uint32_t> words_;
};

/// A value as `digits` × 10^`exponent`: no leading or trailing zeros ("" for zero).
struct Decimal {
  std::string digits;
  int exponent = 0;
  /// The power of ten of the leading digit plus one (the value is below 10^magnitude).
  int magnitude() const { return static_cast<int>(digits.size()) + exponent; }
};

void strip_trailing_zeros(Decimal& d) {
  const std::size_t last = d.digits.find_last_not_of('0');
  if (last == std::string::npos) {
    d = Decimal{};
    return;
  }
  d.exponent += static_cast<int>(d.digits.size() - 1 - last);
  d.digits.resize(last + 1);
}

/// mantissa × 2^binary_exponent exactly: for a negative exponent, mantissa × 5^-e / 10^-e.
Decimal exact_decimal(std::uint64_t mantissa, int binary_exponent) {
  BigUint big(mantissa);
  Decimal d;
  if (binary_exponent >= 0) {
    big.shift_left(binary_exponent);
  } else {
    big.multiply_by_power_of_5(-binary_exponent);
    d.exponent = binary_exponent;
  }
  d.digits = std::move(big).decimal();
  strip_trailing_zeros(d);
  return d;
}

/// A finite double's magnitude as mantissa × 2^exponent (the mantissa with its implicit bit).
void split(double value, std::uint64_t& mantissa, int& exponent) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  if (field == 0) {
    exponent = -1074;
  } else {
    mantissa |= std::uint64_t{1} << 52;
    exponent = field - 1075;
  }
}

Decimal exact_decimal(double magnitude) {
  std::uint64_t mantissa = 0;
  int exponent = 0;
  split(magnitude, mantissa, exponent);
  return exact_decimal(mantissa, exponent);
}

/** The first `keep` digits of `digits`, rounded to nearest, ties to even, by the digits after them
 *  (all of them: the value is exact). `keep` <= 0 rounds at a place above the leading digit. The
 *  result may have keep + 1 digits ("999" to 2: "100"), or none (rounded to zero). */
std::string round_digits(const std::string& digits, int keep) {
  if (keep >= static_cast<int>(digits.size())) return digits;
  if (keep < 0) return "";
  std::string kept = digits.substr(0, static_cast<std::size_t>(keep));
  const char first_dropped = digits[static_cast<std::size_t>(keep)];
  const bool below_dropped = digits.size() > static_cast<std::size_t>(keep) + 1;  // no trailing zeros: nonzero
  const bool odd = !kept.empty() && ((kept.back() - '0') % 2 == 1);
  if (first_dropped > '5' || (first_dropped == '5' && (below_dropped || odd))) {
    std::size_t i = kept.size();
    while (i > 0 && kept[i - 1] == '9') kept[--i] = '0';
    if (i == 0) kept.insert(kept.begin(), '1');
    else ++kept[i - 1];
  }
  return kept;
}

/// printf's text of an infinity or a NaN.
std::string not_finite_text(double value) {
  return std::string(std::signbit(value) ? "-" : "") + (std::isnan(value) ? "nan" : "inf");
}

}  // namespace

std::string fixed_text(double value, int digits) {
  if (!std::isfinite(value)) return not_finite_text(value);
  if (digits < 0) digits = 6;
  const Decimal d = exact_decimal(std::fabs(value));
  // The integer |value| × 10^digits, rounded.
  std::string whole;
  if (!d.digits.empty()) {
    if (d.exponent + digits >= 0) {
      whole = d.digits + std::string(static_cast<std::size_t>(d.exponent + digits), '0');
    } else {
      whole = round_digits(d.digits, d.magnitude() + digits);
    }
  }
  if (whole.size() < static_cast<std::size_t>(digits) + 1) whole.insert(0, static_cast<std::size_t>(digits) + 1 - whole.size(), '0');
  if (digits > 0) whole.insert(whole.size() - static_cast<std::size_t>(digits), 1, '.');
  return std::signbit(value) ? "-" + whole : whole;
}

std::string general_text(double value, int precision) {
  if (!std::isfinite(value)) return not_finite_text(value);
  if (precision < 0) precision = 6;
  if (precision == 0) precision = 1;
  const std::string sign = std::signbit(value) ? "-" : "";
  const Decimal d = exact_decimal(std::fabs(value));
  if (d.digits.empty()) return sign + "0";
  // The leading digit's power of ten after rounding to `precision` digits (C's X for style e).
  int x = d.magnitude() - 1;
  std::string rounded = round_digits(d.digits, precision);
  if (static_cast<int>(rounded.size()) > precision) {
    ++x;
    rounded.pop_back();
  }
  const std::size_t last = rounded.find_last_not_of('0');  // %g drops trailing zeros
  rounded.resize(last + 1);
  std::string out;
  if (x < precision && x >= -4) {
    if (x >= 0) {
      if (rounded.size() < static_cast<std::size_t>(x) + 1) rounded.append(static_cast<std::size_t>(x) + 1 - rounded.size(), '0');
      out = rounded.substr(0, static_cast<std::size_t>(x) + 1);
      if (rounded.size() > static_cast<std::size_t>(x) + 1) out += "." + rounded.substr(static_cast<std::size_t>(x) + 1);
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-x - 1), '0') + rounded;
    }
  } else {
    out = rounded.substr(0, 1);
    if (rounded.size() > 1) out += "." + rounded.substr(1);
    const int magnitude = x < 0 ? -x : x;
    out += x < 0 ? "e-" : "e+";
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
  }
  return sign + out;
}

namespace {

/// -1, 0 or 1 as a < b, a == b, a > b; both nonzero.
int compare(const Decimal& a, const Decimal& b) {
  if (a.magnitude() != b.magnitude()) return a.magnitude() < b.magnitude() ? -1 : 1;
  const int digits = a.digits.compare(b.digits);  // equal length prefixes; no trailing zeros
  return digits < 0 ? -1 : digits > 0 ? 1 : 0;
}

bool ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `text` starts with `word` in any case.
bool starts_with_word(const char* text, const char* word) {
  for (; *word != '\0'; ++text, ++word) {
    if (lower(*text) != *word) return false;
  }
  return true;
}

/// The powers of ten a double holds exactly: 10^k = 5^k × 2^k, and 5^22 < 2^53.
constexpr double kExactPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/** The double nearest `value` (nonzero), ties to even: from an estimate within a few units in the last
 *  place, each step compares the exact value with the exact midpoints to the neighbouring doubles. */
double nearest_double(const Decimal& value) {
  if (value.magnitude() > 310) return std::numeric_limits<double>::infinity();
  if (value.magnitude() < -324) return 0.0;  // below 10^-324, under half the least subnormal
  // The estimate: up to 17 leading digits (exact in a uint64), scaled in two steps so that neither
  // overflows nor underflows where the value does not.
  const std::size_t used = value.digits.size() < 17 ? value.digits.size() : 17;
  std::uint64_t leading = 0;
  for (std::size_t i = 0; i < used; ++i) leading = leading * 10 + static_cast<std::uint64_t>(value.digits[i] - '0');
  const int scale = value.exponent + static_cast<int>(value.digits.size() - used);
  double z = static_cast<double>(leading);
  if (scale > 300) z = z * std::pow(10.0, scale - 300) * 1e300;
  else if (scale < -300) z = z * std::pow(10.0, scale + 300) * 1e-300;
  else z = z * std::pow(10.0, scale);
  const double largest = std::numeric_limits<double>::max();
  if (!(z <= largest)) z = largest;
  for (;;) {
    std::uint64_t mantissa = 0;
    int exponent = 0;
    split(z, mantissa, exponent);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &z, sizeof bits);
    const bool even = (bits & 1) == 0;
    // Above the midpoint to the next double up (2^1024 past the largest: infinity).
    const int above = compare(value, exact_decimal(2 * mantissa + 1, exponent - 1));
    if (above > 0 || (above == 0 && !even)) {
      z = std::nextafter(z, std::numeric_limits<double>::infinity());
      if (above == 0 || std::isinf(z)) return z;
      continue;
    }
    if (above == 0 || z == 0.0) return z;
    // Below the midpoint to the next double down, whose gap is half as wide below a power of two.
    const bool power_of_two = mantissa == (std::uint64_t{1} << 52) && exponent > -1074;
    const Decimal low = power_of_two ? exact_decimal(4 * mantissa - 1, exponent - 2) : exact_decimal(2 * mantissa - 1, exponent - 1);
    const int below = compare(value, low);
    if (below < 0 || (below == 0 && !even)) {
      z = std::nextafter(z, 0.0);
      if (below == 0) return z;
      continue;
    }
    return z;
  }
}

}  // namespace

double parse_double(const char* text, char** end) {
  const char* p = text;
  while (ascii_space(*p)) ++p;
  const bool negative = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  const auto finish = [&](const char* stop, double magnitude) {
    if (end != nullptr) *end = const_cast<char*>(stop);
    return negative ? -magnitude : magnitude;
  };
  if (starts_with_word(p, "inf")) {
    p += starts_with_word(p, "infinity") ? 8 : 3;
    return finish(p, std::numeric_limits<double>::infinity());
  }
  if (starts_with_word(p, "nan")) {
    p += 3;
    if (*p == '(') {
      const char* q = p + 1;
      while ((*q >= '0' && *q <= '9') || (lower(*q) >= 'a' && lower(*q) <= 'z') || *q == '_') ++q;
      if (*q == ')') p = q + 1;
    }
    return finish(p, std::numeric_limits<double>::quiet_NaN());
  }
  // The significant digits (no leading zeros) and the power of ten of the last one read: every
  // digit is kept, so that a long number still rounds once, from its exact value.
  Decimal value;
  bool any_digit = false;
  bool after_point = false;
  for (;; ++p) {
    if (*p >= '0' && *p <= '9') {
      any_digit = true;
      if (!value.digits.empty() || *p != '0') value.digits += *p;
      if (after_point) --value.exponent;
    } else if (*p == '.' && !after_point) {
      after_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) {
    if (end != nullptr) *end = const_cast<char*>(text);
    return 0.0;
  }
  if (*p == 'e' || *p == 'E') {
    const char* q = p + 1;
    const bool negative_exponent = *q == '-';
    if (*q == '-' || *q == '+') ++q;
    if (*q >= '0' && *q <= '9') {
      long exponent = 0;
      for (; *q >= '0' && *q <= '9'; ++q) {
        if (exponent < 100000000) exponent = exponent * 10 + (*q - '0');
      }
      const long scaled = value.exponent + (negative_exponent ? -exponent : exponent);
      value.exponent = static_cast<int>(scaled < -200000000 ? -200000000 : scaled > 200000000 ? 200000000 : scaled);
      p = q;
    }
  }
  strip_trailing_zeros(value);
  if (value.digits.empty()) return finish(p, 0.0);
  // Clinger's fast path: at most 15 digits (below 2^53) times or over an exact power of ten is one
  // correctly rounded operation on exact operands.
  if (value.digits.size() <= 15 && value.exponent >= -22 && value.exponent <= 22) {
    double whole = 0;
    for (const char c : value.digits) whole = whole * 10 + (c - '0');
    return finish(p, value.exponent >= 0 ? whole * kExactPowersOf10[value.exponent] : whole / kExactPowersOf10[-value.exponent]);
  }
  return finish(p, nearest_double(value));
}

}  // namespace llmsizer
