// The page formats numbers for en-US and ja-JP without Intl (web/lib/i18n.js: a page's first
// Intl.NumberFormat costs 11-23 ms before the first result). This checks that the output is
// Intl.NumberFormat's, character for character, for each of the page's five formats over values of
// every magnitude and sign, rounding ties and carries (Node is built with full ICU, as Chromium is).
import { numberFormats, NUMBER_FORMATS } from '../../web/lib/i18n.js';

const values = [0, -0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.4, -0.4, -0.001, 0.005, 0.015, 1.005, 1.015, 1.045, 2.675, 9.995, 99.95,
  999.5, 9995, 99950, 0.995, 0.0995, 0.00999, 123456, 1234567.891, 1e6, 1e9, 1e12, 1e13, 1.2345e13, 9.995e12, 9.9951e13,
  1e20, 9.9999e20, 9.99999e20, 1e21, 5e21, 1e-7, 1.5e-7, 1.234e-7, 9.995e-7, 5e-324, 0.000123, 0.0001234, 0.1 + 0.2, 1 / 3,
  2 / 3, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity, 15.234, 14.3, 7.615616512, 1879.048192, 0.01, 0.009999, 4e-3];
// Pseudo-random values over 40 decades (a fixed seed: the same values each run).
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
for (let i = 0; i < 4000; i++) {
  const magnitude = 10 ** Math.floor(random() * 40 - 18);
  const digits = [1, 10, 100, 1000, 1e6][i % 5];
  const v = Math.round(random() * digits) / digits * magnitude * (random() < 0.3 ? -1 : 1);
  values.push(v, v * 10.005, Math.round(random() * 2000) / 2 / 10 ** (i % 4), random() * 10 ** (i % 25 - 8));
}

let passed = 0;
let failed = 0;
for (const locale of ['en-US', 'ja-JP']) {
  const ours = numberFormats(locale);
  for (const [name, options] of Object.entries(NUMBER_FORMATS)) {
    const intl = new Intl.NumberFormat(locale, options);
    for (const x of values) {
      const expected = intl.format(x);
      const got = ours[name].format(x);
      if (got === expected) passed++;
      else {
        failed++;
        if (failed <= 20) console.error(`FAIL ${locale} ${name}(${x}): got ${got}, Intl gives ${expected}`);
      }
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
