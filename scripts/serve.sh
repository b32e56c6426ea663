#!/usr/bin/env bash
# The main job: install what is missing, build, and serve the page on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# Only what is served: the CLI, the module and the page (scripts/build.sh builds the tests too).
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"  # Debian's emscripten needs acorn from here
cmake --preset native >/dev/null
cmake --build --preset native --target llmsizer
cmake --preset wasm >/dev/null
cmake --build --preset wasm --target llmsizer_wasm llmsizer_wasm_tasks llmsizer_wasm_files llmsizer_web llmsizer_prerender llmsizer_precache
echo "LLM Sizer: open http://127.0.0.1:8000/ (the CLI is build/native/llmsizer)"
exec node tests/js/static_server.mjs build/wasm/web "${PORT:-8000}"
