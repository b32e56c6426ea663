// SPDX-License-Identifier: MIT
// The core's decimal text of doubles (core/src/decimal_text.cpp), which the WebAssembly modules use in
// place of musl's printf and strtod, against glibc's printf and strtod natively: the same text and
// the same doubles for chosen hard cases (ties, carries, subnormals, the largest double, long
// inputs) and for random doubles and random decimal texts.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "llmsizer/decimal_text.hpp"

// The whole file in its own namespace: the test files are compiled in unity batches (tests/CMakeLists.txt).
namespace decimal_text_test {

namespace {

std::string printf_text(const char* format, int digits, double value) {
  char buffer[2048];
  std::snprintf(buffer, sizeof buffer, format, digits, value);
  return buffer;
}

std::uint64_t bits_of(double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double from_bits(std::uint64_t bits) {
  double value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void check_formats(double value) {
  for (int digits = 0; digits <= 6; ++digits) {
    INFO("value bits " << bits_of(value) << ", digits " << digits);
    CHECK(llmsizer::fixed_text(value, digits) == printf_text("%.*f", digits, value));
    CHECK(llmsizer::general_text(value, digits) == printf_text("%.*g", digits, value));
  }
}

void check_parse(const std::string& text) {
  char* glibc_end = nullptr;
  char* our_end = nullptr;
  const double expected = std::strtod(text.c_str(), &glibc_end);
  const double got = llmsizer::parse_double(text.c_str(), &our_end);
  INFO("text " << text);
  if (std::isnan(expected)) {
    CHECK(std::isnan(got));
    CHECK(std::signbit(got) == std::signbit(expected));
  } else {
    CHECK(bits_of(got) == bits_of(expected));
  }
  CHECK(our_end - text.c_str() == glibc_end - text.c_str());
}

}  // namespace

TEST_CASE("fixed and general text equal printf's for ties, carries and extremes", "[decimal_text]") {
  const double max = std::numeric_limits<double>::max();
  const double least = std::numeric_limits<double>::denorm_min();
  for (const double v : {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 9.5, 99.5, 999.5, 9999.5, 0.05, 0.15, 0.25, 0.35,
                         1.005, 2.675, 1e-5, 0.0001, 0.00001234, 123456.0, 1234567.0, 7615616512.0, 3353032704.0 / 1e9,
                         30532122624.0 / 1e9, 544997376.0 / 1e6, 0.5625, 1e21, 1e22, 1e23, 9.999e15, 99999.95, 0.99995,
                         max, -max, least, std::numeric_limits<double>::min(), 1.0 / 3.0, 2.0 / 3.0}) {
    check_formats(v);
  }
  CHECK(llmsizer::fixed_text(std::numeric_limits<double>::infinity(), 2) == printf_text("%.*f", 2, std::numeric_limits<double>::infinity()));
  CHECK(llmsizer::general_text(-std::numeric_limits<double>::infinity(), 3) == printf_text("%.*g", 3, -std::numeric_limits<double>::infinity()));
  CHECK(llmsizer::fixed_text(std::nan(""), 1) == printf_text("%.*f", 1, std::nan("")));
  CHECK(llmsizer::fixed_text(1234.5678, 20) == printf_text("%.*f", 20, 1234.5678));
  CHECK(llmsizer::general_text(1234.5678, 17) == printf_text("%.*g", 17, 1234.5678));
}

TEST_CASE("fixed and general text equal printf's for random doubles", "[decimal_text]") {
  std::mt19937_64 random(20261207);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 3000; ++i) {
    // Any bit pattern, and values of the sizes messages print (a few significant digits, ties).
    const double any = from_bits(random());
    if (std::isfinite(any)) check_formats(any);
    const double everyday = std::pow(10.0, unit(random) * 24 - 8) * (random() % 2 ? 1 : -1);
    check_formats(everyday);
    check_formats(static_cast<double>(random() % 100000) / 1000.0);
    check_formats(static_cast<double>(random() % 200001) / 8.0);
  }
}

TEST_CASE("parse_double reads what glibc's strtod reads, rounded the same", "[decimal_text]") {
  for (const char* text : {"0", "-0", "+0.0", "1", "0.1", "0.3", "  \t42.5xyz", "1e", "1e+", "1e-x", "1.e3", ".5", "-.5e-1",
                           ".", "-", "+", "", "abc", "e5", "1e400", "-1e400", "1e-400", "2.4703282292062327e-324",
                           "2.4703282292062328e-324", "4.9406564584124654e-324", "2.2250738585072011e-308",
                           "2.2250738585072012e-308", "1.7976931348623157e308", "1.7976931348623158e308",
                           "1.7976931348623159e308", "9007199254740993", "9007199254740992.5", "9007199254740993.0000000001",
                           "0.30000000000000004", "2.0299997329711914", "0.041666666666666664", "674733024499207168",
                           "1e22", "1e23", "123456789012345678901234567890", "0.000000000000000000000000000001",
                           "inf", "-Infinity", "INFINITY", "infinit", "nan", "-NaN", "nan(123)", "nan(", "1e99999999999",
                           "1e-99999999999", "00000000000000000000001.5", "7.38e12", "1.0000000000000002", "1.00000000000000011102230246251565404236316680908203125",
                           "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126"}) {
    check_parse(text);
  }
}

TEST_CASE("parse_double rounds random decimal texts as glibc's strtod does", "[decimal_text]") {
  std::mt19937_64 random(7);
  for (int i = 0; i < 20000; ++i) {
    // Every double's shortest and longer texts, and texts of random digits and exponents.
    const double any = from_bits(random());
    if (std::isfinite(any)) {
      check_parse(printf_text("%.*g", 17, any));
      check_parse(printf_text("%.*e", static_cast<int>(random() % 25), any));
    }
    std::string digits;
    const int length = 1 + static_cast<int>(random() % 30);
    for (int d = 0; d < length; ++d) digits += static_cast<char>('0' + random() % 10);
    const int point = static_cast<int>(random() % (length + 1));
    digits.insert(static_cast<std::size_t>(point), 1, '.');
    check_parse(digits + "e" + std::to_string(static_cast<int>(random() % 700) - 350));
    check_parse(digits);
  }
}

}  // namespace decimal_text_test
