#!/usr/bin/env bash
# The cost of recording one trace event (target <= 30 ns: docs/tracing.md, Overhead):
# this build's bench_trace against another's (--before, e.g. a build of the commit before a
# change), alternating, --reps runs of each (the order swapped every round). Each run is one
# bench_trace process running the recording benchmarks (BM_RecordEvent, BM_Span,
# BM_RecordIoEventWithPath, BM_RecordEventFirstLap where the binary has them). Prints, per
# benchmark, the median ns per event (min-max) of each binary and the ratio of medians
# (before / this), and the load average before and after. Take it under the quiet-request
# protocol (flock /tmp/dlbench-bench.lock, a quiet request, load below 1.5).
#
#   scripts/bench/bench-trace-record.sh --before PATH [--reps N] [--bench PATH]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=5
bench="$DLBENCH_BUILD_DIR/tests/bench/bench_trace"
before=""
parse_options "reps bench before" "$@"
[ -n "$before" ] || { echo "give --before PATH (another build's bench_trace)" >&2; exit 2; }
[ -x "$bench" ] || { echo "no bench_trace at $bench (build the target bench_trace)" >&2; exit 2; }
[ -x "$before" ] || { echo "no bench_trace at $before" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
filter='^BM_(RecordEvent|Span|RecordIoEventWithPath|RecordEventFirstLap)/'

run() {  # label binary
  "$2" --benchmark_filter="$filter" --benchmark_format=json 2>/dev/null >"$dir/run.json"
  /usr/bin/python3 - "$dir/run.json" >>"$dir/$1" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    # A kIsRate|kInvert counter is written in seconds per event in the JSON.
    print(b["name"].split("/")[0], b["ns_per_event"] * 1e9)
PY
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$reps"); do
  if [ $((i % 2)) = 1 ]; then
    run this "$bench"; run before "$before"
  else
    run before "$before"; run this "$bench"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
/usr/bin/python3 - "$dir/this" "$dir/before" "$reps" <<'PY'
import collections, statistics, sys
def load(path):
    runs = collections.defaultdict(list)
    for line in open(path):
        name, ns = line.split()
        runs[name].append(float(ns))
    return runs
this, before, reps = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
def fmt(v):
    return f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})" if v else "-"
print(f"| benchmark (ns per event, median (min-max) of {reps} runs) | before | this | before / this |")
print("|---|---|---|---|")
for name in sorted(set(this) | set(before)):
    t, b = this.get(name, []), before.get(name, [])
    ratio = f"{statistics.median(b) / statistics.median(t):.2f}" if t and b else "-"
    print(f"| {name} | {fmt(b)} | {fmt(t)} | {ratio} |")
PY
