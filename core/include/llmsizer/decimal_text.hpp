// SPDX-License-Identifier: MIT
#pragma once
/// Doubles as decimal text and back, exactly as C's printf("%.*f"), printf("%.*g") and strtod do
/// (ISO C 7.21.6.1, 7.22.1.3: the exact binary value rounded to the nearest, ties to even, in the
/// default rounding mode), written here so that the WebAssembly modules need not link musl's printf
/// and strtod, which do this with 128-bit long double arithmetic emulated in software (the page's
/// download is measured in bytes: tests/js/page_size.mjs). wasm/libc_text.cpp makes parse_double
/// the modules' strtod (nlohmann's JSON reader calls strtod). Natively glibc's are the reference:
/// tests/decimal_text_test.cpp compares these with them.
#include <string>

namespace llmsizer {

/// printf("%.*f", digits, value): "-0.50" for (-0.5, 2), "inf", "-nan".
std::string fixed_text(double value, int digits);

/// printf("%.*g", precision, value): "7.62e+09", "0.5625", "1e-05" (precision 0 is 1).
std::string general_text(double value, int precision);

/** strtod(text, end): leading white space, a sign, then decimal digits with an optional point and
 *  exponent, or "inf", "infinity", "nan" (any case); the nearest double, ties to even (±HUGE_VAL past
 *  the largest, 0 or a subnormal below the smallest). `end` (when not null) is set past the number,
 *  or to `text` when there is none. Hexadecimal floats ("0x1p3") are read as their leading "0", as
 *  nothing in the core writes or reads them; errno is not set. */
double parse_double(const char* text, char** end);

}  // namespace llmsizer
