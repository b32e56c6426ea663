// SPDX-License-Identifier: MIT
#pragma once
// log, exp and pow from additions, multiplications and divisions only (and frexp/ldexp, which are
// exact), so that the native build and the WebAssembly module compute the same bits: glibc's and
// the module's libm may round log and exp differently in the last place, and the serving
// simulation feeds such values back into its own timeline (Poisson arrivals), so a last-place
// difference could become a different answer. Accurate to a few units in the last place — the
// same for every build, which is what the CLI/WASM byte identity needs.
#include <cmath>

namespace llmsizer::exact {

/// Natural logarithm of x > 0: x = m × 2^e with m in [√½, √2), ln m = 2 atanh((m − 1)/(m + 1)) by its series.
inline double log(double x) {
  if (!(x > 0)) return -HUGE_VAL;
  int e = 0;
  double m = std::frexp(x, &e);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double t = (m - 1.0) / (m + 1.0);  // |t| <= 0.1716
  const double t2 = t * t;
  double term = t;
  double sum = 0;
  for (int k = 1; k <= 41; k += 2) {  // t^43 / 43 < 1e-34
    sum += term / k;
    term *= t2;
  }
  return 2.0 * sum + e * 0.69314718055994530942;
}

/// e^x: x = k ln 2 + r with |r| <= ln 2 / 2, e^r by its Taylor series, times 2^k.
inline double exp(double x) {
  if (x > 709.0) return HUGE_VAL;
  if (x < -745.0) return 0.0;
  // ln 2 split in two (fdlibm's e_exp.c: ln2HI, ln2LO) so that k × ln2HI is exact.
  const double k = std::floor(x / 0.69314718055994530942 + 0.5);
  const double r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
  double term = 1.0;
  double sum = 1.0;
  for (int n = 1; n <= 24; ++n) {  // 0.35^25 / 25! < 1e-35
    term *= r / n;
    sum += term;
  }
  return std::ldexp(sum, static_cast<int>(k));
}

/// base^power for base > 0.
inline double pow(double base, double power) {
  if (base == 1.0 || power == 0.0) return 1.0;
  if (!(base > 0)) return 0.0;
  return exact::exp(power * exact::log(base));
}

}  // namespace llmsizer::exact
