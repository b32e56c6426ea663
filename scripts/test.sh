#!/usr/bin/env bash
# Every test: installs what is missing, builds native and WASM, then runs the native unit tests,
# the WASM-vs-native identity test and the browser tests (CTest), the unit tests again under
# ASan/UBSan, and each fuzz target for FUZZ_SECONDS (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
# Missing prerequisites fail here instead of skipping.
export LLMSIZER_REQUIRE_WASM=1 LLMSIZER_REQUIRE_BROWSER=1
# The real-llama.cpp test needs node-llama-cpp's prebuilt x86-64 Linux binary (installed by deps.sh).
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then export LLMSIZER_REQUIRE_LLAMA_CPP=1; fi
ctest --preset native
bash scripts/sanitize.sh
bash scripts/fuzz.sh
