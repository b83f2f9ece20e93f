#!/usr/bin/env bash
# Does a storage tier's bandwidth_limit hold for shared-file writes? One file written by every
# rank together (dataset generation with no more files than ranks): npy through dlbench's own
# collective MPI-IO (storage::SharedFile via Env::open_shared) and hdf5 through parallel HDF5,
# whose own MPI-IO is routed through the Env by the PMPI capture (storage/mpiio_capture.h). Prints
# Markdown.
#
#   scripts/bench/bench-shared.sh [--reps N] [--ranks P] [--limit MIB_PER_S] [--size MIB] [--dlbench PATH] [DIR]
#
# Each run generates one file of --size MiB (default 128; 1024 samples) in DIR (default
# /dev/shm/dlbench-sharedbench, tmpfs, so the disk does not bind) with P ranks (default 2), with
# the data folder under a tier of bandwidth_limit --limit MiB/s (default 16; per rank, as every
# tier's limit is: the job's limit is P x limit), alternating with the same run without the tier
# (the reference: what the machine does unthrottled, which must be well above the limit for the
# limit to be what binds). Rate: bytes of all ranks / (last rank's end - first rank's start)
# from summary.json; ratio = rate / (P x limit), target within 10 % of 1 (0.90-1.10). Medians of
# --reps (default 5) runs, with every run's ratio.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=5
ranks=2
limit=16
size=128
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dir=/dev/shm/dlbench-sharedbench
parse_options "reps ranks limit size dlbench ..." "$@"
[ ${#positional[@]} -eq 0 ] || dir="${positional[-1]}"
ensure_packages python3 openmpi-bin
[ -x "$dlbench" ] || build_dlbench
mapfile -t mpi_flags < <(mpirun_flags)
mkdir -p "$dir"
work=$(mktemp -d "$dir/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

py() { /usr/bin/python3 -c "$@"; }
record=$(( size * 1024 ))  # 1024 samples of size KiB

workload() {  # format tier(yes|no)
  cat <<YAML
model: {name: shared_limit}
workflow: {generate_data: true, train: false}
dataset: {data_folder: $work/data, format: $1, num_files_train: 1, num_files_eval: 0,
          num_samples_per_file: 1024, record_length_bytes: $record}
YAML
  if [ "$2" = yes ]; then
    printf 'storage:\n  tiers:\n    slow: {path: %s/data, bandwidth_limit: %sMiB/s}\n' "$work" "$limit"
  fi
}

rate() {  # format tier -> MiB/s of all ranks
  workload "$1" "$2" >"$work/w.yaml"
  rm -rf "$work/data" "$work/out"
  mpirun "${mpi_flags[@]}" --bind-to none -np "$ranks" "$dlbench" generate "$work/w.yaml" \
    --output "$work/out" --quiet >/dev/null
  py 'import json,sys; print(json.load(open(sys.argv[1]))["generation"]["total"]["MiB_per_second"])' \
    "$work/out/summary.json"
}

job_limit=$(( ranks * limit ))
echo "## Shared-file writes under a tier's bandwidth_limit"
echo
echo "$ranks ranks, one $size MiB file, tier limit $limit MiB/s per rank ($job_limit MiB/s for the job), $dir; medians of $reps runs."
echo
echo "| format (writer) | throttled MiB/s | ratio to the limit, median | ratios of the runs | unthrottled MiB/s (reference) |"
echo "|---|---|---|---|---|"
for format in npy hdf5; do
  throttled=(); free=(); ratios=()
  for _ in $(seq "$reps"); do
    throttled+=("$(rate "$format" yes)")
    free+=("$(rate "$format" no)")
    ratios+=("$(py "print('%.3f' % (${throttled[-1]} / $job_limit))")")
  done
  label=$([ "$format" = npy ] && echo "npy (MPI-IO)" || echo "hdf5 (parallel HDF5)")
  py '
import statistics, sys
label, limit = sys.argv[1], float(sys.argv[2])
n = int(sys.argv[3])
t = [float(x) for x in sys.argv[4:4 + n]]
f = [float(x) for x in sys.argv[4 + n:4 + 2 * n]]
r = [x / limit for x in t]
print("| %s | %.1f | %.3f | %s | %.1f |" % (label, statistics.median(t), statistics.median(r),
      " ".join("%.3f" % x for x in r), statistics.median(f)))' \
    "$label" "$job_limit" "$reps" "${throttled[@]}" "${free[@]}"
done
echo
echo "Command: \`scripts/bench/bench-shared.sh --reps $reps --ranks $ranks --limit $limit --size $size\`"
