#!/usr/bin/env bash
# Installs what LLM Sizer needs from Debian's packages (and playwright-core from npm, for the
# browser tests only), skipping whatever is already there. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# Build: cmake, ninja, g++, nlohmann-json, Catch2 v2, Emscripten (WASM). Tests: chromium (browser
# tests), clang + libclang-rt (fuzzing with sanitizers). Probe: OpenBLAS. Benchmarks: Google Benchmark.
# CLI: libcurl (reads Hugging Face models by id). Page: esbuild (minifies its JavaScript and CSS at
# build time, wasm/CMakeLists.txt).
packages=(cmake ninja-build g++ nlohmann-json3-dev catch2 emscripten chromium libopenblas-dev
          libbenchmark-dev clang libclang-rt-dev libcurl4-openssl-dev git ca-certificates esbuild)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Dev tools from npm (lock file pinned); the browser itself is Debian's chromium, never downloaded.
# node-llama-cpp (the real-llama.cpp test) comes with its prebuilt CPU binary as the direct dev
# dependency @node-llama-cpp/linux-x64; --omit=optional leaves out its GPU/other-platform binaries
# (hundreds of MB) and --ignore-scripts its postinstall, which could otherwise fetch or build llama.cpp.
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/node-llama-cpp ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NODE_LLAMA_CPP_SKIP_DOWNLOAD=true \
    npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error
fi
