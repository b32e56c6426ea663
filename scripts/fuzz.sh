#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for FUZZ_SECONDS (default 30)
# from the seed corpus in fuzz/corpus/<target>/ (copied, so the repository is not changed). A crash
# fails the run; the crashing input is left in build/fuzz/crashes/ to add to the corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mkdir -p build/fuzz/crashes
status=0
for target in build/fuzz/fuzz/*_fuzz; do
  name=$(basename "$target" _fuzz)
  work=$(mktemp -d)
  [ -d "fuzz/corpus/$name" ] && cp -r "fuzz/corpus/$name/." "$work/"
  log=$(mktemp)
  if "$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix=build/fuzz/crashes/"$name"- "$work" >"$log" 2>&1; then
    echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1), 0 crashes"
  else
    echo "fuzz $name: FAILED"; tail -40 "$log"; status=1
  fi
  rm -rf "$work" "$log"
done
exit $status
