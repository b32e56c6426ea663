#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for FUZZ_SECONDS (default 30)
# from the seed corpus in fuzz/corpus/<target>/ (copied, so the repository is not changed). A crash
# fails the run; the crashing input is left in build/fuzz/crashes/ to add to the corpus.
# Only the targets are built (not the CLI and the validation library they do not link), and two run
# at a time (CI has two cores): the stage's wall time is what CI's 30 minutes are spent on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target llmsizer_fuzz_targets
mkdir -p build/fuzz/crashes

# Runs one target; prints its line (and the log's tail on a crash); exits 1 on a crash.
run_target() {
  local target=$1 name work log
  name=$(basename "$target" _fuzz)
  work=$(mktemp -d)
  [ -d "fuzz/corpus/$name" ] && cp -r "fuzz/corpus/$name/." "$work/"
  log=$(mktemp)
  local status=0
  if "$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix=build/fuzz/crashes/"$name"- "$work" >"$log" 2>&1; then
    echo "fuzz $name: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1), 0 crashes"
  else
    echo "fuzz $name: FAILED"; tail -40 "$log"; status=1
  fi
  rm -rf "$work" "$log"
  return $status
}

status=0
pids=()
for target in build/fuzz/fuzz/*_fuzz; do
  run_target "$target" &
  pids+=($!)
  if [ "${#pids[@]}" -eq 2 ]; then
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    pids=()
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
