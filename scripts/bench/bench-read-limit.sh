#!/usr/bin/env bash
# The distance of dlbench's read path to the physical limit, and its start-up cost against the MPI
# floor; prints Markdown. Run by scripts/bench/bench-read.sh, or alone:
#
#   scripts/bench/bench-read-limit.sh [--reps N] [--dlbench PATH] [--before PATH]
#
#  (g) sample pipeline vs the bare loop: 2 ranks, tmpfs (/dev/shm), computation 0, read_threads 1,
#      8192 x 128 KiB npz and 8192 x 4 KiB npy, one sample per file, no shuffle (DLIO's default).
#      dlbench's samples/s (all ranks, over the epochs' read spans) against
#      tests/bench/bare_read_loop (2 processes that open / pread to the end / close the same files
#      in the same shards and order, nothing else) over the same number of passes, runs
#      alternating, the order rotated every repetition; medians, the ratio of medians and the
#      paired ratios (target >= 0.85). With --before PATH, each repetition also runs that dlbench
#      binary, and a second row gives its ratios to the same bare-loop runs: a change's effect
#      beside the machine's drift (on this VM the bare loop alone moves 20-30 % within minutes);
#  (h) start-up: wall time of commands that do no parallel work (`--version`, `config show`)
#      against the emptiest MPI program (tests/bench/mpi_floor: MPI_Init, barrier, MPI_Finalize),
#      alone and under `mpirun -np 2`; and the time from launching `mpirun -np 2 dlbench train` to
#      its first step (the latest rank's epoch-1 start in <rank>_output.json) minus the time from
#      launching `mpirun -np 2 mpi_floor` to its barrier (target: <= 50 ms), runs alternating.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
before=""
parse_options "reps dlbench before" "$@"
[ -z "$before" ] || [ -x "$before" ] || { echo "--before $before: not an executable" >&2; exit 2; }
bench="$DLBENCH_BUILD_DIR/tests/bench"
[ -x "$dlbench" ] && [ -x "$bench/bare_read_loop" ] && [ -x "$bench/mpi_floor" ] || build_dlbench
mapfile -t mpi_flags < <(mpirun_flags)
mpi=(mpirun "${mpi_flags[@]}" --bind-to none -np 2)
work=$(mktemp -d /dev/shm/dlbench-limit.XXXXXX)
trap 'rm -rf "$work"' EXIT

py() { /usr/bin/python3 -c "$@"; }
median() { py 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
now() { date +%s.%N; }
# Median and the runs of durations in seconds, in milliseconds.
ms_list() { py 'import statistics,sys; v=[1000*float(x) for x in sys.argv[1:]]; print("median %.0f ms (runs: %s)" % (statistics.median(v), " ".join("%.0f" % x for x in v)))' "$@"; }

# One sample of S bytes per file, N files of FORMAT in FOLDER, E epochs, read in order.
workload() {  # folder format files bytes epochs
  read_bench_workload readlimit "$1" "$2" "$3" "$4" 32 "$5" off
}

# Samples per second of all ranks over the epochs' read spans.
dlbench_rate() {  # binary yaml
  rm -rf "$work/out"
  "${mpi[@]}" "$1" train "$2" --output "$work/out" --quiet >/dev/null
  py 'import json,sys; m=json.load(open(sys.argv[1]))["metric"]; print(m["train_sample_read_latency_count"]/m["train_read_seconds"])' "$work/out/summary.json"
}

echo "## Sample pipeline against the bare loop (2 ranks, tmpfs, computation 0, read_threads 1)"
echo
echo "| workload | dlbench | dlbench samples/s | bare loop files/s | ratio of medians | median of paired ratios | paired ratios |"
echo "|---|---|---|---|---|---|---|"
# One table row: label, then the dlbench rates and the bare-loop rates of the same repetitions.
row() {  # workload label rates... -- bare rates...
  py '
import statistics, sys
workload, label, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
cut = rest.index("--")
d, b = [float(x) for x in rest[:cut]], [float(x) for x in rest[cut + 1:]]
paired = [x / y for x, y in zip(d, b)]
print("| %s | %s | %.0f | %.0f | %.3f | %.3f | %s |" % (workload, label, statistics.median(d),
      statistics.median(b), statistics.median(d) / statistics.median(b), statistics.median(paired),
      " ".join("%.2f" % r for r in paired)))' "$@"
}
# About 1 s of reading per run for both.
for spec in "npz 131072 8" "npy 4096 30"; do
  read -r format bytes epochs <<<"$spec"
  rm -rf "$work/data"
  workload "$work/data" "$format" 8192 "$bytes" "$epochs" >"$work/limit.yaml"
  "$dlbench" generate "$work/limit.yaml" --output "$work/out-gen" --quiet >/dev/null
  d_runs=(); p_runs=(); b_runs=()
  # The runs of a repetition go in an order rotated from one repetition to the next: on this VM
  # the run in second place read ~3 % faster than the one in first place (30 alternations of two
  # builds each way, 10:37-10:40 UTC), so a fixed order biased the paired ratios by as much.
  order=(this bare); [ -z "$before" ] || order=(this before bare)
  for rep in $(seq "$reps"); do
    for ((k = 0; k < ${#order[@]}; k++)); do
      case ${order[(rep + k) % ${#order[@]}]} in
        this) d_runs+=("$(dlbench_rate "$dlbench" "$work/limit.yaml")") ;;
        before) p_runs+=("$(dlbench_rate "$before" "$work/limit.yaml")") ;;
        bare) b_runs+=("$("$bench/bare_read_loop" 2 "$epochs" "$work/data/train" | cut -d' ' -f1)") ;;
      esac
    done
  done
  name="8192 x $((bytes / 1024)) KiB $format"
  row "$name" "this" "${d_runs[@]}" -- "${b_runs[@]}"
  [ -z "$before" ] || row "$name" "before" "${p_runs[@]}" -- "${b_runs[@]}"
done
rm -rf "$work/data" "$work/out-gen"
echo

echo "## Start-up against the MPI floor"
echo
# Wall seconds of a command, run alone.
wall() { local t0; t0=$(now); "$@" >/dev/null 2>&1; py "print($(now) - $t0)"; }
declare -A runs
for _ in $(seq "$reps"); do
  runs[version]+=" $(wall "$dlbench" --version)"
  runs[config]+=" $(wall "$dlbench" config show default)"
  runs[floor]+=" $(wall "$bench/mpi_floor")"
  runs[mpi_version]+=" $(wall "${mpi[@]}" "$dlbench" --version)"
  runs[mpi_floor]+=" $(wall "${mpi[@]}" "$bench/mpi_floor")"
done
echo "| command | wall time, median (runs) |"
echo "|---|---|"
echo "| \`dlbench --version\` | $(ms_list ${runs[version]}) |"
echo "| \`dlbench config show default\` | $(ms_list ${runs[config]}) |"
echo "| empty MPI program, no mpirun (singleton MPI_Init) | $(ms_list ${runs[floor]}) |"
echo "| \`mpirun -np 2 dlbench --version\` | $(ms_list ${runs[mpi_version]}) |"
echo "| \`mpirun -np 2\` empty MPI program | $(ms_list ${runs[mpi_floor]}) |"
echo

# Launch to first step of a parallel run (the npy workload above, 1 epoch) against launch to the
# barrier of the empty MPI program.
workload "$work/data" npy 8192 4096 1 >"$work/start.yaml"
"$dlbench" generate "$work/start.yaml" --output "$work/out-gen" --quiet >/dev/null
floor_runs=(); run_runs=(); extra=()
for _ in $(seq "$reps"); do
  t0=$(now)
  after_barrier=$("${mpi[@]}" "$bench/mpi_floor")
  floor_runs+=("$(py "print($after_barrier - $t0)")")
  rm -rf "$work/out"
  t0=$(now)
  "${mpi[@]}" "$dlbench" train "$work/start.yaml" --output "$work/out" --quiet >/dev/null
  first_step=$(py '
import datetime, glob, json, sys
print(max(datetime.datetime.fromisoformat(json.load(open(f))["1"]["start"]).timestamp()
          for f in glob.glob(sys.argv[1] + "/*_output.json")))' "$work/out")
  run_runs+=("$(py "print($first_step - $t0)")")
  extra+=("$(py "print(1000 * (${run_runs[-1]} - ${floor_runs[-1]}))")")
done
echo "Launch to barrier, empty MPI program (2 ranks): $(ms_list "${floor_runs[@]}")"
echo
echo "Launch to first step, \`dlbench train\` (2 ranks, 8192 files): $(ms_list "${run_runs[@]}")"
echo
printf 'Extra start-up of dlbench over the MPI floor: median %.0f ms (paired runs: %s; target <= 50 ms)\n' \
  "$(median "${extra[@]}")" "$(printf '%.0f ' "${extra[@]}")"
