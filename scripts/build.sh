#!/usr/bin/env bash
# Builds the native core, CLI, tests and probe (build/native) and the WASM module with the page
# (build/wasm/web).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"  # Debian's emscripten needs acorn from here
cmake --preset native >/dev/null
cmake --build --preset native
cmake --preset wasm >/dev/null
cmake --build --preset wasm
