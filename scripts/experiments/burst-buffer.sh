#!/usr/bin/env bash
# Burst-buffer experiment: checkpoints during training saved straight to the capacity
# tier (`direct`) vs through a burst buffer on the fast tier (`bb-d<N>`, drain_threads N), at
# several capacity-tier bandwidths, in alternating order, --reps times each. Reported per
# bandwidth: checkpoint stall per save (the time training waits for a save, summary.json
# checkpoint_stall_mean_seconds), time to durable, and the time to train (wall clock of the whole
# `dlbench run`), medians [min-max] and ratios to `direct`. Published result to compare with:
# checkpoints 2.6x faster with a burst buffer.
#
#   scripts/experiments/burst-buffer.sh [--reps N] [--bws "100 400"] [--drains "1 2 4"]
#                                       [--dir DIR] [--fast DIR] [--dlbench PATH]
#
# The capacity tier DIR/pfs gets bandwidth_limit <bw> MiB/s; the fast tier FAST (default a folder
# on /dev/shm) is not throttled. The model (a 2-layer transformer, ZeRO 1) checkpoints ~200 MB; a
# save every 8 steps, two per run, computation_time chosen so that the compute between two saves
# is one drain at that bandwidth. Raw values in DIR/runs-<bw>.tsv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3 bws="100 400" drains="1 2 4" dir=/var/tmp/dlbench-bbexp fast=/dev/shm/dlbench-bbexp
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
parse_options "reps bws drains dir fast dlbench" "$@"
[ -x "$dlbench" ] || build_dlbench
py=/usr/bin/python3
rm -rf "$dir" "$fast"
mkdir -p "$dir" "$fast"
trap 'rm -rf "$fast"' EXIT

steps_between=8
workload() {  # bw compute drain_threads(0: direct)
  cat <<YAML
model:
  name: bb_experiment
  type: transformer
  num_layers: 2
  transformer: {vocab_size: 8000, hidden_size: 512, ffn_hidden_size: 2048, num_attention_heads: 8, num_kv_heads: 8}
  parallelism: {tensor: 1, pipeline: 1, zero_stage: 1}
framework: pytorch
workflow: {generate_data: false, train: true, checkpoint: true}
dataset: {data_folder: $dir/data, format: npy, num_files_train: 16, num_samples_per_file: 1, record_length_bytes: 65536}
reader: {data_loader: pytorch, batch_size: 1, read_threads: 1}
train: {epochs: 1, total_training_steps: 16, computation_time: $2}
storage:
  tiers:
    nvme: {path: $fast/bb}
    pfs: {path: $dir/pfs, bandwidth_limit: ${1}MiB/s}
checkpoint:
  checkpoint_folder: $dir/pfs/ckpt
  steps_between_checkpoints: $steps_between
  fsync: true
YAML
  [ "$3" -gt 0 ] && echo "  burst_buffer: {tier: nvme, drain_threads: $3, evict_after_drain: true, max_pending_checkpoints: 2}"
  return 0
}

workload 100 0.1 0 > "$dir/probe.yaml"
"$dlbench" generate "$dir/probe.yaml" --quiet --output "$dir/out-generate" >/dev/null
bytes=$("$dlbench" checkpoint plan "$dir/probe.yaml" --ranks 1 | sed -nE 's/.* ([0-9,]+) B \(.*/\1/p' | head -1 | tr -d ,)
log "checkpoint of $bytes B per save"

for bw in $bws; do
  compute=$("$py" -c "print(round($bytes / ($bw * 2**20) / $steps_between, 3))")
  variants=(direct)
  for d in $drains; do variants+=("bb-d$d"); done
  tsv="$dir/runs-$bw.tsv"
  : > "$tsv"
  for rep in $(seq 1 "$reps"); do
    order=("${variants[@]}")
    if [ $((rep % 2)) = 0 ]; then
      order=(); for ((i = ${#variants[@]} - 1; i >= 0; i--)); do order+=("${variants[$i]}"); done
    fi
    for v in "${order[@]}"; do
      threads=0; [ "$v" != direct ] && threads=${v#bb-d}
      workload "$bw" "$compute" "$threads" > "$dir/$v.yaml"
      rm -rf "$dir/pfs/ckpt" "$fast/bb" "$dir/out"
      start=$(date +%s.%N)
      "$dlbench" run "$dir/$v.yaml" --quiet --output "$dir/out" >/dev/null
      end=$(date +%s.%N)
      "$py" - "$dir/out/summary.json" "$v" "$start" "$end" >> "$tsv" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metric"]; v = sys.argv[2]
first = lambda x: x[0] if isinstance(x, list) else x
print(f"{v}\tcheckpoint stall per save, s\t{first(m['checkpoint_stall_mean_seconds'])}")
print(f"{v}\ttime to durable per save, s\t{first(m.get('checkpoint_time_to_durable_mean_seconds', float('nan')))}")
print(f"{v}\ttime to train, s (wall clock)\t{float(sys.argv[4]) - float(sys.argv[3])}")
PY
    done
  done
  echo "### Burst buffer: capacity tier ${bw} MiB/s, $bytes B per save, 2 saves, computation_time $compute s, $reps runs each"
  echo
  "$py" "$here/summarize.py" "$tsv" direct
  echo
done
