#!/usr/bin/env bash
# The end of a run (results/end-of-run.md): how long mpirun returns after rank 0's last write of
# summary.json (MPI_Finalize of both ranks and mpirun's own end), for a 2-rank training of 2,000
# npy files of one 512-byte sample on tmpfs (1 epoch, batch 32, computation 0), with Open MPI's
# session directory under /tmp and under mpi_session_base (lib.sh: /dev/shm), alternated, --reps
# runs each. Beside them, --writers times: --load disk a stress-ng disk writer (--hdd, 1 GiB
# files in --scratch, a folder on the disk /tmp is on), --load files a loop of `dlbench generate`
# writing 20,000 npy files of 512 B there (dirty metadata on that disk, as a dataset generated
# beside a run), --load cpu a CPU hog (stress-ng --cpu); --load none runs them alone. Prints, per
# session directory: the median, 90th percentile and max of that lag, how many runs ended more
# than 0.15 s after their summary, and the median wall time of mpirun.
#
#   scripts/bench/bench-end.sh [--reps N] [--load disk|files|cpu|none] [--writers N]
#                              [--scratch DIR] [--dlbench PATH]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=25
load=disk
writers=1
scratch=/var/tmp/dlbench-bench-end
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
parse_options "reps load writers scratch dlbench" "$@"
case "$load" in disk | files | cpu | none) ;; *) echo "--load is disk, files, cpu or none" >&2; exit 2 ;; esac
ensure_packages python3 openmpi-bin stress-ng
[ -x "$dlbench" ] || build_dlbench
shm=/dev/shm/dlbench-bench-end
loaders=()
cleanup() {
  local pid
  for pid in "${loaders[@]}"; do
    pkill -P "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$shm" "$scratch"
}
trap cleanup EXIT
rm -rf "$shm"
mkdir -p "$shm"
read_bench_workload endbench "$shm/data" npy 2000 512 32 1 seed >"$shm/w.yaml"
"$dlbench" generate "$shm/w.yaml" --output "$shm/gen" --quiet >/dev/null
generate_loop() {  # folder: generates a dataset there, again and again
  read_bench_workload endload "$1/data" npy 20000 512 32 1 off >"$1.yaml"
  while :; do
    rm -rf "$1"
    "$dlbench" generate "$1.yaml" --output "$1.gen" --quiet >/dev/null 2>&1 || true
  done
}
mkdir -p "$scratch"
case "$load" in
  disk | cpu)
    hogs=(--hdd "$writers" --hdd-bytes 1G)
    [ "$load" = cpu ] && hogs=(--cpu "$writers")
    stress-ng "${hogs[@]}" --temp-path "$scratch" --timeout 0 >/dev/null 2>&1 &
    loaders+=($!)
    ;;
  files)
    for i in $(seq "$writers"); do
      generate_loop "$scratch/load$i" &
      loaders+=($!)
    done
    ;;
esac
[ "$load" != none ] && sleep 3

base_flags=(--oversubscribe --bind-to none)
[ "$(id -u)" -eq 0 ] && base_flags+=(--allow-run-as-root)
run_once() {  # session base -> "lag wall" in seconds
  local t0 t1
  rm -rf "$shm/out"
  t0=$(date +%s.%N)
  mpirun "${base_flags[@]}" --mca orte_tmpdir_base "$1" -np 2 "$dlbench" run "$shm/w.yaml" \
    --output "$shm/out" --quiet >/dev/null
  t1=$(date +%s.%N)
  /usr/bin/python3 -c "import os, sys; s = os.path.getmtime(sys.argv[1]); \
print(f'{$t1 - s:.3f} {$t1 - $t0:.3f}')" "$shm/out/summary.json"
}

tmp_base="${TMPDIR:-/tmp}"
fast_base="$(mpi_session_base)"
results="$shm/results"
: >"$results"
for _ in $(seq "$reps"); do
  echo "$tmp_base $(run_once "$tmp_base")" >>"$results"
  echo "$fast_base $(run_once "$fast_base")" >>"$results"
done

echo "load: $load$([ "$load" != none ] && echo " x $writers"); $(uptime)"
/usr/bin/python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    base, lag, wall = line.split()
    rows.setdefault(base, []).append((float(lag), float(wall)))
print("| session directory under | runs | end lag median s | p90 s | max s | runs > 0.15 s | wall median s |")
print("|---|---:|---:|---:|---:|---:|---:|")
for base, runs in rows.items():
    lags = sorted(r[0] for r in runs)
    p90 = lags[min(len(lags) - 1, int(0.9 * len(lags)))]
    print(f"| {base} | {len(runs)} | {statistics.median(lags):.3f} | {p90:.3f} | {max(lags):.3f} | "
          f"{sum(x > 0.15 for x in lags)} | {statistics.median(r[1] for r in runs):.2f} |")
PY
