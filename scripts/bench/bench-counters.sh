#!/usr/bin/env bash
# The cost of the always-on POSIX counters (docs/counters.md) on the read path: the read
# benchmark's pipeline-ceiling run (bench-read.sh (a): 8192 npy files of one 4 KiB sample on
# tmpfs, 2 ranks, computation 0, read_threads 2, 3 epochs) with this dlbench and with a build
# without counters (--before, e.g. a build of main before the counters), alternating, --reps
# pairs; prints both medians, their spread and the ratio of medians (this / before), plus the
# micro-benchmark of one counted operation (bench_counting_env).
#
#   scripts/bench/bench-counters.sh --before PATH [--reps N] [--dlbench PATH]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=5
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
before=""
parse_options "reps dlbench before" "$@"
[ -n "$before" ] || { echo "give --before PATH (a dlbench without counters)" >&2; exit 2; }
[ -x "$dlbench" ] || build_dlbench
shm=/dev/shm/dlbench-countersbench
trap 'rm -rf "$shm"' EXIT
rm -rf "$shm"
mkdir -p "$shm"
mapfile -t mpi_flags < <(mpirun_flags)
read_bench_workload countersbench "$shm/data" npy 8192 4096 32 3 seed >"$shm/w.yaml"
"$dlbench" generate "$shm/w.yaml" --output "$shm/gen" -q >/dev/null

rate() {  # binary -> samples/s of all ranks over the read spans
  rm -rf "$shm/out"
  mpirun "${mpi_flags[@]}" -np 2 "$1" run "$shm/w.yaml" --output "$shm/out" --quiet \
    ++workload.reader.read_threads=2 >/dev/null
  /usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metric"]; print(m["train_sample_read_latency_count"]/m["train_read_seconds"])' "$shm/out/summary.json"
}

this_runs=(); before_runs=()
for i in $(seq "$reps"); do
  if [ $((i % 2)) = 1 ]; then
    this_runs+=("$(rate "$dlbench")"); before_runs+=("$(rate "$before")")
  else
    before_runs+=("$(rate "$before")"); this_runs+=("$(rate "$dlbench")")
  fi
done
/usr/bin/python3 - "${this_runs[*]}" "${before_runs[*]}" <<'PY'
import statistics, sys
this = [float(x) for x in sys.argv[1].split()]
before = [float(x) for x in sys.argv[2].split()]
def line(name, runs):
    m = statistics.median(runs)
    print(f"| {name} | {m:,.0f} | {min(runs):,.0f} – {max(runs):,.0f} | {' '.join(f'{r:.0f}' for r in runs)} |")
print("| build | samples/s (median) | range | runs |")
print("|---|---|---|---|")
line("with counters", this)
line("before (no counters)", before)
print()
print(f"ratio of medians (with / before): {statistics.median(this) / statistics.median(before):.3f}")
PY
bench="$DLBENCH_BUILD_DIR/tests/bench/bench_counting_env"
if [ -x "$bench" ]; then
  echo
  echo "Micro-benchmark (CPU time per operation, median of 5):"
  "$bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null |
    awk '/_median/ {printf "  %-45s %s %s\n", $1, $4, $5}'
fi
