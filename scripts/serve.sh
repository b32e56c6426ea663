#!/usr/bin/env bash
# The main job: install what is missing, build, and serve the page on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
echo "LLM Sizer: open http://127.0.0.1:8000/ (the CLI is build/native/llmsizer)"
exec node tests/js/static_server.mjs build/wasm/web "${PORT:-8000}"
