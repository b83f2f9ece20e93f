#!/usr/bin/env bash
# The test suite beside a CPU and disk load, to find the tests that only pass on a quiet machine
# (a timeout too tight, a timing assumption, a race the idle machine hides). Starts stress-ng with
# CPU hogs and a disk writer (its files in a scratch folder on the disk /tmp is on, where the tests
# write), runs scripts/test.sh RUNS times in a row beside it, stops the load and prints, per run,
# the exit status, the wall time and the tests that failed.
#   scripts/dev/test-under-load.sh [--runs N] [--cpu N] [--hdd N] [--log-dir DIR] [-- TEST_ARGS...]
# Defaults: 3 runs, 2 CPU hogs, 1 disk writer, logs in /tmp/dlbench-under-load. TEST_ARGS go to
# scripts/test.sh (which passes them to ctest, e.g. -R cli). The first run builds what is not built
# yet (beside the load too); later runs only test. Installs stress-ng (Debian) when missing.
# Exit status 1 when any run failed.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

runs=3 cpu=2 hdd=1 log_dir=/tmp/dlbench-under-load
test_args=()
for ((i = 1; i <= $#; i++)); do
  if [ "${!i}" = -- ]; then
    test_args=("${@:i+1}")
    set -- "${@:1:i-1}"
    break
  fi
done
parse_options "runs cpu hdd log-dir" "$@"
ensure_packages stress-ng

mkdir -p "$log_dir"
scratch=$(mktemp -d /tmp/dlbench-load-XXXXXX)
stress-ng --cpu "$cpu" --hdd "$hdd" --hdd-bytes 1G --temp-path "$scratch" --timeout 0 \
  >"$log_dir/stress-ng.log" 2>&1 &
load=$!
trap 'kill "$load" 2>/dev/null; wait "$load" 2>/dev/null; rm -rf "$scratch"' EXIT
log "load: stress-ng --cpu $cpu --hdd $hdd (pid $load), logs in $log_dir"

status=0
for ((run = 1; run <= runs; run++)); do
  out="$log_dir/run-$run.log"
  start=$SECONDS
  rc=0
  bash "$DLBENCH_ROOT/scripts/test.sh" "${test_args[@]}" >"$out" 2>&1 </dev/null || rc=$?
  [ $rc = 0 ] || status=1
  # ctest's list of failures: "<tab> 87 - cli.name (Failed)", one per build folder's run.
  kinds='Failed|Timeout|SEGFAULT|Subprocess aborted|Exception'
  failed=$(grep -E "^[[:space:]]*[0-9]+ - .* \\(($kinds)" "$out" |
    sed -E 's/^[[:space:]]*[0-9]+ - //' | tr '\n' ' ' || true)
  log "run $run of $runs: exit $rc, $((SECONDS - start)) s wall, load $(cut -d' ' -f1-3 \
/proc/loadavg); failed: ${failed:-none} ($out)"
done
exit $status
