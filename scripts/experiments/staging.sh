#!/usr/bin/env bash
# Staging experiment (docs/staging.md): the same training workload read
#   capacity    straight from the capacity tier (no staging),
#   stage       staged to the fast tier before training (stage.policy before_training),
#   per_epoch   each epoch's files prefetched to the fast tier during the previous epoch,
#   on_demand   each file cached on the fast tier at its first read,
# in alternating order, --reps times each, with train read bandwidth (bytes actually read over
# the readers' read time, summary.json train_read_MiB_per_second), AU, the staging time and
# bandwidth, and the time to train (wall clock of the whole `dlbench run`, staging included)
# side by side: medians [min-max] and ratios to `capacity`. Published result to compare with:
# staging raised POSIX read bandwidth by up to 19 % for a TensorFlow workload.
#
#   scripts/experiments/staging.sh [--reps N] [--ranks P] [--dir DIR] [--fast DIR]
#                                  [--pfs-bw 200MiB/s] [--files N] [--file-mib M] [--epochs E]
#                                  [--compute SECONDS] [--dlbench PATH]
#
# The capacity tier is DIR/pfs with bandwidth_limit --pfs-bw (one token bucket per rank); the
# fast tier is FAST (default a folder on /dev/shm), not throttled. Each run's summary.json stays
# in DIR/out-<variant>-<rep>; the raw values in DIR/runs.tsv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=5 ranks=1 dir=/var/tmp/dlbench-staging fast=/dev/shm/dlbench-staging pfs_bw=200MiB/s
files=64 file_mib=1 epochs=3 compute=0.01
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
parse_options "reps ranks dir fast pfs-bw files file-mib epochs compute dlbench" "$@"
[ -x "$dlbench" ] || build_dlbench
py=/usr/bin/python3
rm -rf "$dir" "$fast"
mkdir -p "$dir" "$fast"
trap 'rm -rf "$fast"' EXIT
launch=("$dlbench")
[ "$ranks" -gt 1 ] && launch=(mpirun $(mpirun_flags) -n "$ranks" "$dlbench")

cat > "$dir/workload.yaml" <<YAML
model: {name: staging_experiment}
framework: pytorch
workflow: {generate_data: false, train: true, stage: false}
storage:
  tiers:
    pfs: {path: $dir/pfs, bandwidth_limit: $pfs_bw}
    nvme: {path: $fast}
stage: {to: nvme, threads: 4}
dataset: {data_folder: $dir/pfs/data, format: npy, num_files_train: $files, num_samples_per_file: 1,
          record_length_bytes: $((file_mib * 1048576))}
reader: {data_loader: pytorch, batch_size: 4, read_threads: 4, file_shuffle: seed, sample_shuffle: seed}
train: {epochs: $epochs, computation_time: $compute}
YAML
"${launch[@]}" generate "$dir/workload.yaml" --quiet --output "$dir/out-generate" >/dev/null

variant_overrides() {
  case "$1" in
    capacity) ;;
    stage) echo "++workload.workflow.stage=True" ;;
    per_epoch) echo "++workload.workflow.stage=True ++workload.stage.policy=per_epoch" ;;
    on_demand) echo "++workload.workflow.stage=True ++workload.stage.policy=on_demand" ;;
  esac
}

tsv="$dir/runs.tsv"
: > "$tsv"
variants=(capacity stage per_epoch on_demand)
for rep in $(seq 1 "$reps"); do
  # Alternate the order: forwards on odd repetitions, backwards on even ones.
  order=("${variants[@]}")
  [ $((rep % 2)) = 0 ] && order=(on_demand per_epoch stage capacity)
  for v in "${order[@]}"; do
    rm -rf "$fast"/*
    out="$dir/out-$v-$rep"
    start=$(date +%s.%N)
    # shellcheck disable=SC2046
    "${launch[@]}" run "$dir/workload.yaml" $(variant_overrides "$v") --quiet --output "$out" >/dev/null
    end=$(date +%s.%N)
    "$py" - "$out/summary.json" "$v" "$start" "$end" >> "$tsv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); v = sys.argv[2]; m = s["metric"]
stage = s.get("stage", {})
tiers = s.get("storage_counts_per_tier", {})
rows = [
    ("time to train, s (wall clock, staging included)", float(sys.argv[4]) - float(sys.argv[3])),
    ("train read bandwidth, MiB/s", m["train_read_MiB_per_second"]),
    ("train AU, %", m["train_au_mean_percentage"]),
    ("train throughput, samples/s", m["train_throughput_mean_samples_per_second"]),
    ("staging time, s", stage.get("seconds", 0)),
    ("staging bandwidth, GiB/s", stage.get("GiB_per_second", 0)),
    ("train bytes read from pfs, MiB", tiers.get("pfs", {}).get("bytes_read", float("nan")) / 2**20),
    ("train bytes read from nvme, MiB", tiers.get("nvme", {}).get("bytes_read", float("nan")) / 2**20),
]
for name, value in rows:
    print(f"{v}\t{name}\t{value}")
PY
  done
  log "repetition $rep of $reps done"
done
echo "### Staging: $files files x $file_mib MiB, $epochs epochs, $ranks rank(s), capacity tier $pfs_bw, computation_time $compute s, $reps runs each"
echo
"$py" "$here/summarize.py" "$tsv" capacity
