// SPDX-License-Identifier: MIT
// The WebAssembly modules' strtod and snprintf, in place of musl's, whose floating-point halves
// (strtod's reading, printf's %e/%f/%g) work in 128-bit long double arithmetic emulated in software,
// which the modules need for nothing else. The core writes its decimal text with
// llmsizer::fixed_text and general_text (core/include/llmsizer/decimal_text.hpp), so what still calls
// these is nlohmann's JSON code: strtod for every number with a point or an exponent, snprintf for
// integers only ("\u%04x" escapes, "<U+%.4X>" in a parse error's token).
// strtod: llmsizer::parse_double, which rounds as glibc's strtod does natively
// (tests/decimal_text_test.cpp). Defining each symbol of musl's strtod.o here keeps that object out
// of the link altogether (libc++'s string.o names strtof and strtold for std::stof and std::stold,
// which the modules never call): the float and long double forms return the double, converted.
// snprintf: C's conversions of integers, characters and strings (ISO C 7.21.6.1: flags, width,
// precision, length modifiers), and abort() for any other (a floating-point one has no caller here).
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "llmsizer/decimal_text.hpp"

extern "C" {

double strtod(const char* text, char** end) { return llmsizer::parse_double(text, end); }
float strtof(const char* text, char** end) { return static_cast<float>(llmsizer::parse_double(text, end)); }
long double strtold(const char* text, char** end) { return llmsizer::parse_double(text, end); }
double strtod_l(const char* text, char** end, struct __locale_struct*) { return llmsizer::parse_double(text, end); }
float strtof_l(const char* text, char** end, struct __locale_struct*) { return static_cast<float>(llmsizer::parse_double(text, end)); }
long double strtold_l(const char* text, char** end, struct __locale_struct*) { return llmsizer::parse_double(text, end); }

int snprintf(char* buffer, std::size_t size, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  std::string out;
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    ++p;
    bool left = false, zero = false, plus = false, space = false, alternate = false;
    for (;; ++p) {
      if (*p == '-') left = true;
      else if (*p == '0') zero = true;
      else if (*p == '+') plus = true;
      else if (*p == ' ') space = true;
      else if (*p == '#') alternate = true;
      else break;
    }
    int width = 0;
    if (*p == '*') {
      width = va_arg(arguments, int);
      if (width < 0) {
        left = true;
        width = -width;
      }
      ++p;
    } else {
      for (; *p >= '0' && *p <= '9'; ++p) width = width * 10 + (*p - '0');
    }
    int precision = -1;  // none given, or a negative one given (ISO C: as if none)
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        precision = va_arg(arguments, int);
        ++p;
      } else {
        precision = 0;
        for (; *p >= '0' && *p <= '9'; ++p) precision = precision * 10 + (*p - '0');
      }
    }
    int length = 0;  // -2 hh, -1 h, 0 none, 1 l, 2 ll (and j, z, t: 64 or 32 bits as long long or long)
    for (;; ++p) {
      if (*p == 'h') --length;
      else if (*p == 'l' || *p == 'j' || *p == 'z' || *p == 't') length += (*p == 'l' ? 1 : *p == 'j' ? 2 : 1);
      else break;
    }
    std::string field;
    std::string prefix;
    const char conversion = *p;
    if (conversion == '%') {
      field = "%";
    } else if (conversion == 'c') {
      field = std::string(1, static_cast<char>(va_arg(arguments, int)));
    } else if (conversion == 's') {
      const char* text = va_arg(arguments, const char*);
      field = precision >= 0 ? std::string(text, strnlen(text, static_cast<std::size_t>(precision))) : std::string(text);
    } else if (conversion == 'd' || conversion == 'i' || conversion == 'u' || conversion == 'x' || conversion == 'X' || conversion == 'o') {
      const bool is_signed = conversion == 'd' || conversion == 'i';
      unsigned long long magnitude = 0;
      if (is_signed) {
        long long value = length >= 2 ? va_arg(arguments, long long) : length == 1 ? va_arg(arguments, long) : va_arg(arguments, int);
        if (length == -1) value = static_cast<short>(value);
        if (length <= -2) value = static_cast<signed char>(value);
        if (value < 0) prefix = "-";
        else if (plus) prefix = "+";
        else if (space) prefix = " ";
        magnitude = value < 0 ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
      } else {
        magnitude = length >= 2 ? va_arg(arguments, unsigned long long) : length == 1 ? va_arg(arguments, unsigned long) : va_arg(arguments, unsigned);
        if (length == -1) magnitude = static_cast<unsigned short>(magnitude);
        if (length <= -2) magnitude = static_cast<unsigned char>(magnitude);
      }
      const unsigned base = conversion == 'o' ? 8 : (conversion == 'x' || conversion == 'X') ? 16 : 10;
      const char* digits = conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
      for (unsigned long long v = magnitude; v != 0; v /= base) field.insert(field.begin(), digits[v % base]);
      const bool zero_pads = zero && !left && precision < 0;  // a precision turns the 0 flag off
      if (precision < 0) precision = 1;
      if (field.size() < static_cast<std::size_t>(precision)) field.insert(0, static_cast<std::size_t>(precision) - field.size(), '0');
      if (alternate && base == 16 && magnitude != 0) prefix = conversion == 'X' ? "0X" : "0x";
      if (alternate && base == 8 && field[0] != '0') field.insert(field.begin(), '0');
      if (zero_pads && field.size() + prefix.size() < static_cast<std::size_t>(width)) {
        field.insert(0, static_cast<std::size_t>(width) - field.size() - prefix.size(), '0');
      }
    } else {
      std::abort();  // a conversion these modules never ask for (%e, %f, %g, %a, %p, %n)
    }
    field = prefix + field;
    if (field.size() < static_cast<std::size_t>(width)) {
      const std::string padding(static_cast<std::size_t>(width) - field.size(), ' ');
      field = left ? field + padding : padding + field;
    }
    out += field;
  }
  va_end(arguments);
  if (size > 0) {
    const std::size_t copied = out.size() < size - 1 ? out.size() : size - 1;
    std::memcpy(buffer, out.data(), copied);
    buffer[copied] = '\0';
  }
  return static_cast<int>(out.size());
}

}  // extern "C"
