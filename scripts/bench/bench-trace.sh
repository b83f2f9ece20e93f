#!/usr/bin/env bash
# Cost of the built-in trace (docs/tracing.md); prints the Markdown of results/trace.md.
#
#   scripts/bench/bench-trace.sh [--reps N] [--epochs E] [--dlbench PATH]
#
# The same training run with --trace and without, alternating, N times each (default 5): 16,384
# npy files of one 4 KiB sample on tmpfs (/dev/shm), 1 rank, 2 reader threads, batch 32,
# computation_time 1.2 ms per step (26,667 samples/s at most) — an emulated accelerator the
# readers keep up with, the setting DLIO measures, paced so that the traced run makes more than
# 100,000 events/s — E epochs (default 3). Each sample read is 4 traced events (item, open64,
# pread64, close) and each step 3 (fetch.iter, compute, fetch.block). Reports, as medians with min-max:
# train throughput (samples/s) each way and the ratio traced/untraced (target >= 0.99); traced
# events per second of the rank (target >= 100,000); compressed trace bytes per event (target
# <= 12); the CPU seconds the trace added per event (writer thread included); the events that
# waited for room in a full buffer (profiling.trace_policy block) and were dropped. Then the
# same with computation_time 0 (the readers' CPU is the limit: the worst case). Then the curve of
# profiling.trace_compression_level (one traced run per level, the target's setting): bytes per
# event against the CPU the trace added per event. Then the micro-benchmark bench_trace: the cost of recording one event (target <= 30 ns), a whole Span,
# tracing off, and the writer's throughput. Take it under `flock /tmp/dlbench-bench.lock`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=5
epochs=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
parse_options "reps epochs dlbench" "$@"
ensure_packages time python3
bench="$DLBENCH_BUILD_DIR/tests/bench/bench_trace"
[ -x "$dlbench" ] && [ -x "$bench" ] || build_dlbench
data=/dev/shm/dlbench-tracebench
dir="$(mktemp -d)"
trap 'rm -rf "$data" "$dir"' EXIT

files=16384
# The workload with computation_time $1.
workload() {
  read_bench_workload tracebench "$data" npy "$files" 4096 32 "$epochs" seed |
    sed "s/read_threads: 1/read_threads: 2/; s/computation_time: 0/computation_time: $1/"
}
rm -rf "$data"
workload 0 >"$dir/w.yaml"
"$dlbench" generate "$dir/w.yaml" --output "$dir/gen" --quiet >/dev/null

# One run; appends "throughput events bytes cpu_seconds blocked_events blocked_seconds
# dropped_events" to $dir/<label>.
run() {  # label [--trace]
  rm -rf "$dir/out"
  /usr/bin/time -f '%U %S' -o "$dir/time" "$dlbench" run "$dir/w.yaml" --output "$dir/out" \
    --quiet "${@:2}" 2>/dev/null >/dev/null
  /usr/bin/python3 - "$dir/out/summary.json" "$dir/time" >>"$dir/$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = s.get("trace", {})
user, system = (float(x) for x in open(sys.argv[2]).read().split())
print(s["metric"]["train_throughput_mean_samples_per_second"], t.get("events", 0),
      t.get("bytes", 0), user + system, t.get("blocked_events", 0), t.get("blocked_seconds", 0),
      t.get("dropped_events", 0))
PY
}

table() {  # title
  /usr/bin/python3 - "$dir/off" "$dir/on" "$files" "$epochs" "$reps" "$1" <<'PY'
import statistics, sys
off = [list(map(float, l.split())) for l in open(sys.argv[1])]
on = [list(map(float, l.split())) for l in open(sys.argv[2])]
files, epochs, reps, title = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
samples = files * epochs
def col(rows, i): return [r[i] for r in rows]
def fmt(values, f="{:.0f}"):
    return f.format(statistics.median(values)) + " (" + f.format(min(values)) + "-" + f.format(max(values)) + ")"
ratios = [a[0] / b[0] for a, b in zip(on, off)]
rate = [r[1] * r[0] / samples for r in on]  # events / (samples / throughput)
per_event = [r[2] / r[1] for r in on]
cpu = [(a[3] - b[3]) / a[1] * 1e9 for a, b in zip(on, off)]
print(f"### {title}")
print()
print(f"| measure ({reps} alternating runs each, median (min-max)) | value | target |")
print("|---|---|---|")
print(f"| train throughput untraced, samples/s | {fmt(col(off, 0))} | |")
print(f"| train throughput traced, samples/s | {fmt(col(on, 0))} | |")
print(f"| ratio traced / untraced (pairwise) | {fmt(ratios, '{:.3f}')} | >= 0.99 |")
print(f"| traced events per second (1 rank) | {fmt(rate)} | >= 100,000 |")
print(f"| events per run | {statistics.median(col(on, 1)):.0f} | |")
print(f"| compressed bytes per event | {fmt(per_event, '{:.2f}')} | <= 12 |")
print(f"| CPU added per event (ns, all threads) | {fmt(cpu)} | |")
print(f"| events that waited for buffer room (policy block) | {fmt(col(on, 4))} | |")
print(f"| seconds the recording threads waited, summed | {fmt(col(on, 5), '{:.3f}')} | |")
print(f"| events dropped | {fmt(col(on, 6))} | 0 |")
print()
PY
}

levels() {  # the compression-level curve, against the untraced runs of the target's setting
  for level in 1 2 3 4 6 9; do
    rm -f "$dir/on"
    run on --trace ++workload.profiling.trace_compression_level="$level"
    /usr/bin/python3 - "$dir/off" "$dir/on" "$level" <<'PY'
import statistics, sys
off = [list(map(float, l.split())) for l in open(sys.argv[1])]
on = [float(x) for x in open(sys.argv[2]).read().split()]
cpu = (on[3] - statistics.median(r[3] for r in off)) / on[1] * 1e9
ratio = on[0] / statistics.median(r[0] for r in off)
print(f"| {sys.argv[3]} | {on[2] / on[1]:.2f} | {cpu:.0f} | {ratio:.3f} |")
PY
  done
}

for compute in 0.0012 0; do
  workload "$compute" >"$dir/w.yaml"
  rm -f "$dir/on" "$dir/off"
  for _ in $(seq "$reps"); do
    run off
    run on --trace
  done
  if [ "$compute" = 0 ]; then
    table "computation_time 0: the readers' CPU is the limit (worst case, not the target's setting)"
  else
    table "computation_time $compute s per step of 32 (the target's setting)"
    echo "### profiling.trace_compression_level (one traced run each, computation_time $compute)"
    echo
    echo "| level | compressed bytes per event | CPU added per event (ns) | throughput / untraced median |"
    echo "|---|---|---|---|"
    levels
    echo
  fi
done

echo '```'
"$bench" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null |
  grep -E '^(BM_|-|Benchmark)' | grep -E 'median|Benchmark|^-'
echo '```'
