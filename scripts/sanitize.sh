#!/usr/bin/env bash
# The unit tests under AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset, at -O1 with
# line tables: its build was half of CI's time at -O2 -g).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan >/dev/null
cmake --build --preset asan --target llmsizer_tests llmsizer llmsizer_corpus
ctest --preset asan
