#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz/ (clang, ASan + UBSan; cmake option
# DLBENCH_BUILD_FUZZERS) and runs each for SECONDS, two at a time, at the lowest CPU priority.
#   scripts/dev/fuzz.sh SECONDS [TARGET...]      (default: every target; e.g. scripts/dev/fuzz.sh 600 npz)
# Each run starts from the committed seeds (tests/fuzz/corpus/<target>/) and keeps what it finds in
# build-fuzz/fuzz-corpus/<target>/; its log is build-fuzz/fuzz-logs/<target>.log and the input of
# a failure is saved as build-fuzz/fuzz-artifacts/<target>/{crash,leak,timeout,oom}-<sha1>.
# Prints one line per target (runs, execs/s, coverage, corpus, result) and exits 1 if any target
# crashed, leaked, hung (an input over 10 s) or ran out of memory (2 GiB).
# Environment: FUZZ_JOBS (targets at once, default 2), FUZZ_NICE (default 19), FUZZ_BUILD=0 (run
# the fuzzers already built, without building).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

all_targets=(config tfrecord npy npz hdf5 jpeg png csv parquet indexed_binary trace_summary compare)
seconds="${1:-}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  log "usage: scripts/dev/fuzz.sh SECONDS [TARGET...]   (targets: ${all_targets[*]})"
  exit 2
fi
shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || { log "unknown fuzz target '$target'"; exit 2; }
done
jobs="${FUZZ_JOBS:-2}"
niceness="${FUZZ_NICE:-19}"

ensure_packages "${DLBENCH_PACKAGES[@]}"
build="$DLBENCH_ROOT/build-fuzz"
if [ ! -f "$build/build.ninja" ]; then
  log "configuring $build (clang 16, libFuzzer, ASan + UBSan)"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CC=clang-16 CXX=clang++-16 cmake -S "$DLBENCH_ROOT" -B "$build" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLBENCH_BUILD_FUZZERS=ON -DDLBENCH_BUILD_TESTS=ON \
    -DDLBENCH_BUILD_BENCHMARKS=OFF >/dev/null
fi
if [ "${FUZZ_BUILD:-1}" != 0 ]; then
  log "building the fuzz targets"
  if ! nice -n "$niceness" cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" \
    >"$build/fuzz-build.log" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\] ' "$build/fuzz-build.log" | tail -n 40 >&2
    log "build failed (full log: $build/fuzz-build.log)"
    exit 1
  fi
fi

# ASan: leaks are failures (libFuzzer checks each input), but for the libraries' own
# (tests/fuzz/lsan.supp); UBSan: stop at the first report. Stacks named by llvm-symbolizer.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$DLBENCH_ROOT/tests/fuzz/lsan.supp}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
symbolizer=$(command -v llvm-symbolizer || true)
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$symbolizer}"

# Runs one target for $seconds; its log's last lines say how it ended.
fuzz_one() {
  local target=$1
  local corpus="$build/fuzz-corpus/$target" artifacts="$build/fuzz-artifacts/$target"
  mkdir -p "$corpus" "$artifacts" "$build/fuzz-logs"
  if [ ! -x "$build/tests/fuzz/fuzz_$target" ]; then
    echo "fuzz_$target is not built" >"$build/fuzz-logs/$target.log"
    return 127
  fi
  nice -n "$niceness" "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$DLBENCH_ROOT/tests/fuzz/corpus/$target" >"$build/fuzz-logs/$target.log" 2>&1
}

# One line for a finished target, from its log; returns 1 unless it ran clean.
report_one() {
  local target=$1 log_file="$build/fuzz-logs/$target.log" status=$2
  local runs rate cov corp result=ok
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log_file" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log_file" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log_file" | tail -n 1 || true)
  corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log_file" | tail -n 1 || true)
  if grep -q 'ERROR: LeakSanitizer' "$log_file"; then result=LEAK
  elif grep -q 'ERROR: libFuzzer: timeout' "$log_file"; then result=TIMEOUT
  elif grep -q 'ERROR: libFuzzer: out-of-memory' "$log_file"; then result=OOM
  elif [ "$status" -eq 127 ]; then result="NOT BUILT"
  elif [ "$status" -ne 0 ]; then result="CRASH (exit $status)"
  fi
  printf '%-14s runs %-10s execs/s %-7s %-20s %-16s %s\n' "$target" "${runs:-?}" "${rate:-?}" \
    "${cov:-cov ?}" "${corp:-corp ?}" "$result"
  [ "$result" = ok ]
}

log "fuzzing ${targets[*]} for ${seconds}s each, $jobs at a time"
declare -A pids=()
failed=0
finish_one() {  # waits for any running target and reports it
  local done_pid status=0 target
  wait -n -p done_pid "${!pids[@]}" || status=$?
  target="${pids[$done_pid]}"
  unset "pids[$done_pid]"
  report_one "$target" "$status" || failed=1
}
for target in "${targets[@]}"; do
  while [ ${#pids[@]} -ge "$jobs" ]; do finish_one; done
  fuzz_one "$target" &
  pids[$!]=$target
done
while [ ${#pids[@]} -gt 0 ]; do finish_one; done
[ "$failed" -eq 0 ] || log "a fuzz target failed: see $build/fuzz-logs/ and $build/fuzz-artifacts/"
exit "$failed"
