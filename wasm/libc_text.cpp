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
// snprintf: Emscripten's vsniprintf (musl's printf without its floating-point conversions,
// emscripten/system/lib/libc/musl/src/stdio/vsnprintf.c): a %e, %f or %g here would trap.
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "llmsizer/decimal_text.hpp"

extern "C" {

int vsniprintf(char* buffer, std::size_t size, const char* format, va_list arguments);

double strtod(const char* text, char** end) { return llmsizer::parse_double(text, end); }
float strtof(const char* text, char** end) { return static_cast<float>(llmsizer::parse_double(text, end)); }
long double strtold(const char* text, char** end) { return llmsizer::parse_double(text, end); }
double strtod_l(const char* text, char** end, struct __locale_struct*) { return llmsizer::parse_double(text, end); }
float strtof_l(const char* text, char** end, struct __locale_struct*) { return static_cast<float>(llmsizer::parse_double(text, end)); }
long double strtold_l(const char* text, char** end, struct __locale_struct*) { return llmsizer::parse_double(text, end); }

int snprintf(char* buffer, std::size_t size, const char* format, ...) {
  va_list arguments;
  va_start(arguments, format);
  const int written = vsniprintf(buffer, size, format, arguments);
  va_end(arguments);
  return written;
}

}  // extern "C"
