#!/usr/bin/env bash
# Checkpoint benchmarks of dlbench; prints Markdown tables of medians over --reps runs.
#
#   scripts/bench-checkpoint.sh [--reps N] [--dlbench PATH] [--dir DIR] [--fast DIR] [--rss-gib G]
#
#  (a) burst buffer vs direct saves during training: the fast tier is FAST (default a folder on
#      /dev/shm); its write bandwidth is measured first (a checkpoint-only run straight to it);
#      the capacity tier DIR/pfs gets bandwidth_limit = 1/4 of it. A tiny dataset, a checkpoint
#      every 4 steps, computation_time chosen so that the compute between two checkpoints is
#      about one drain. Runs with and without the burst buffer alternate, --reps times each.
#      Reported: medians of checkpoint_stall_mean_seconds, of total run time (wall clock of the
#      whole `dlbench run`), their ratios (targets: stall reduced >= 2.6x, run time reduced), and
#      time to durable against the capacity tier's own write time for the same bytes
#      (bytes / bandwidth_limit; target <= 1.1x).
#  (b) a plain checkpoint (no tiers) on DIR vs fio writing/reading files of the same sizes with
#      fsync (end_fsync) on the same file system (target >= 0.8x); the page cache is dropped
#      before reads when we may (root), else reads are from the cache for both.
#  (c) peak RSS (VmHWM via /usr/bin/time) of a checkpoint-only run writing --rss-gib GiB per rank
#      (default 16, reduced to what DIR has room for, and said so) (target < 256 MiB).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dir=/var/tmp/dlbench-ckptbench
fast=/dev/shm/dlbench-ckptbench
rss_gib=16
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps="$2"; shift 2 ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --fast) fast="$2"; shift 2 ;;
    --rss-gib) rss_gib="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
ensure_packages fio time python3
[ -x "$dlbench" ] || build_dlbench
py=/usr/bin/python3
rm -rf "$dir" "$fast"
mkdir -p "$dir" "$fast"
trap 'rm -rf "$fast"' EXIT

# A transformer whose one-rank checkpoint is about $1 MiB (ZeRO 1: bf16 model + fp32 optimizer
# state ~ 14 B per parameter; 4 layers of hidden H: ~ 12 H^2 x 4 parameters + embeddings).
model_yaml() {
  local hidden="$1" layers="$2"
  cat <<YAML
model:
  name: bench
  type: transformer
  num_layers: $layers
  transformer: {vocab_size: 32000, hidden_size: $hidden, ffn_hidden_size: $((hidden * 4)), num_attention_heads: 16, num_kv_heads: 16}
  parallelism: {tensor: 1, pipeline: 1, zero_stage: 1}
framework: pytorch
YAML
}

summary_value() {  # summary.json key -> number (the first of a list)
  "$py" - "$1" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["metric"].get(sys.argv[2])
if isinstance(v, list): v = v[0]
print(v if v is not None else "nan")
PY
}

median() { "$py" -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
ratio() { "$py" -c 'import sys; a,b=map(float,sys.argv[1:]); print(f"{a/b:.2f}" if b else "nan")' "$1" "$2"; }

# ---- (a) fast-tier bandwidth, then burst buffer vs direct during training -------------------
hidden=1024 layers=4
{
  model_yaml $hidden $layers
  cat <<YAML
workflow: {generate_data: false, train: false, checkpoint: true}
checkpoint: {checkpoint_folder: $fast/probe, num_checkpoints_write: 3, num_checkpoints_read: 0, fsync: true}
output: {folder: $dir/out-probe}
YAML
} > "$dir/probe.yaml"
"$dlbench" checkpoint "$dir/probe.yaml" --quiet >/dev/null
fast_gibs=$(summary_value "$dir/out-probe/summary.json" checkpoint_write_GiB_per_second)
ckpt_bytes=$(summary_value "$dir/out-probe/summary.json" checkpoint_bytes_written)
ckpt_bytes=$("$py" -c "print(int(float('$ckpt_bytes') / 3))")
rm -rf "$fast/probe"
limit_mib=$("$py" -c "print(max(1, int(float('$fast_gibs') * 1024 / 4)))")
drain_s=$("$py" -c "print($ckpt_bytes / ($limit_mib * 1048576))")
steps_between=4
compute=$("$py" -c "print(round($drain_s / $steps_between, 3))")
log "fast tier: $fast_gibs GiB/s; checkpoint $ckpt_bytes B; capacity tier limited to $limit_mib MiB/s (drain ~ $drain_s s); compute $compute s/step"

train_yaml() {  # $1 = with burst buffer (1/0)
  model_yaml $hidden $layers
  cat <<YAML
workflow: {generate_data: true, train: true, checkpoint: true}
dataset: {data_folder: $dir/data, format: npy, num_files_train: 16, num_samples_per_file: 1, record_length_bytes: 65536}
reader: {data_loader: pytorch, batch_size: 1, read_threads: 1}
train: {epochs: 1, total_training_steps: 16, computation_time: $compute}
storage:
  tiers:
    nvme: {path: $fast/bb}
    pfs: {path: $dir/pfs, bandwidth_limit: ${limit_mib}MiB/s}
checkpoint:
  checkpoint_folder: $dir/pfs/ckpt
  steps_between_checkpoints: $steps_between
  fsync: true
YAML
  if [ "$1" = 1 ]; then
    echo "  burst_buffer: {tier: nvme, drain_threads: 2, evict_after_drain: true, max_pending_checkpoints: 2}"
  fi
  echo "output: {folder: $dir/out-train}"
}
train_yaml 0 > "$dir/direct.yaml"
train_yaml 1 > "$dir/bb.yaml"
"$dlbench" generate "$dir/direct.yaml" --quiet >/dev/null
declare -A stall runtime durable
for rep in $(seq 1 "$reps"); do
  for mode in direct bb; do
    rm -rf "$dir/pfs/ckpt" "$fast/bb" "$dir/out-train"
    start=$(date +%s.%N)
    "$dlbench" run "$dir/$mode.yaml" ++workload.workflow.generate_data=false --quiet >/dev/null
    end=$(date +%s.%N)
    stall[$mode]+="$(summary_value "$dir/out-train/summary.json" checkpoint_stall_mean_seconds) "
    durable[$mode]+="$(summary_value "$dir/out-train/summary.json" checkpoint_time_to_durable_mean_seconds) "
    runtime[$mode]+="$("$py" -c "print($end - $start)") "
  done
done
capacity_write_s=$drain_s
echo "### (a) Burst buffer vs direct saves during training (medians of $reps)"
echo
echo "fast tier $fast ($fast_gibs GiB/s measured), capacity tier $dir/pfs limited to $limit_mib MiB/s, checkpoint $ckpt_bytes B every $steps_between steps, computation_time $compute s"
echo
echo "| | direct | burst buffer | ratio direct/bb | target |"
echo "|---|---|---|---|---|"
sd=$(median ${stall[direct]}); sb=$(median ${stall[bb]})
rd=$(median ${runtime[direct]}); rb=$(median ${runtime[bb]})
dd=$(median ${durable[direct]}); db=$(median ${durable[bb]})
echo "| checkpoint stall, mean per save (s) | $sd | $sb | $(ratio "$sd" "$sb") | >= 2.6 |"
echo "| total run time (s) | $rd | $rb | $(ratio "$rd" "$rb") | > 1 |"
echo "| time to durable, mean (s) | $dd | $db | | bb <= 1.1 x $capacity_write_s s ($(ratio "$db" "$capacity_write_s") x) |"
echo

# ---- (b) plain checkpoint vs fio on DIR -------------------------------------------------------
{
  model_yaml $hidden $layers
  cat <<YAML
workflow: {generate_data: false, train: false, checkpoint: true}
checkpoint: {checkpoint_folder: $dir/plain, num_checkpoints_write: 1, num_checkpoints_read: 1, fsync: true}
output: {folder: $dir/out-plain}
YAML
} > "$dir/plain.yaml"
drop() { if [ "$(id -u)" = 0 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }
w_ours="" r_ours="" w_fio="" r_fio=""
for rep in $(seq 1 "$reps"); do
  rm -rf "$dir/plain" "$dir/out-plain" "$dir/fio"
  "$dlbench" checkpoint "$dir/plain.yaml" ++workload.checkpoint.num_checkpoints_read=0 --quiet >/dev/null
  w_ours+="$(summary_value "$dir/out-plain/summary.json" checkpoint_write_GiB_per_second) "
  drop
  rm -rf "$dir/out-plain"
  "$dlbench" checkpoint "$dir/plain.yaml" ++workload.checkpoint.num_checkpoints_write=0 --quiet >/dev/null
  r_ours+="$(summary_value "$dir/out-plain/summary.json" load_checkpoint_GiB_per_second) "
  # fio: the same file sizes, one job per file, 8 MiB blocks, fsync at the end of each file.
  mkdir -p "$dir/fio"
  args=()
  for f in "$dir"/plain/*/*.pt; do
    args+=(--name="$(basename "$f")" --filename="$dir/fio/$(basename "$f")" --size="$(stat -c %s "$f")")
  done
  wjson=$(fio --output-format=json --rw=write --bs=8m --end_fsync=1 --ioengine=psync --group_reporting "${args[@]}")
  w_fio+="$("$py" -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["jobs"][0]["write"]["bw_bytes"]/2**30)' <<<"$wjson") "
  drop
  rjson=$(fio --output-format=json --rw=read --bs=8m --ioengine=psync --group_reporting "${args[@]}")
  r_fio+="$("$py" -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["jobs"][0]["read"]["bw_bytes"]/2**30)' <<<"$rjson") "
done
wo=$(median $w_ours); ro=$(median $r_ours); wf=$(median $w_fio); rf=$(median $r_fio)
echo "### (b) Plain checkpoint vs fio on $dir (GiB/s, medians of $reps; page cache dropped: $([ "$(id -u)" = 0 ] && echo yes || echo no))"
echo
echo "| | dlbench | fio | ratio | target |"
echo "|---|---|---|---|---|"
echo "| write + fsync | $wo | $wf | $(ratio "$wo" "$wf") | >= 0.8 |"
echo "| read | $ro | $rf | $(ratio "$ro" "$rf") | >= 0.8 |"
echo
rm -rf "$dir/plain" "$dir/fio"

# ---- (c) peak RSS writing a large per-rank plan ----------------------------------------------
avail_gib=$(df -P -B1G "$dir" | awk 'NR==2 {print $4}')
gib=$rss_gib
[ "$gib" -gt $((avail_gib - 2)) ] && gib=$(( (avail_gib - 2) / 4 * 4 ))
[ "$gib" -lt 1 ] && gib=1
# ~14 B per parameter in one rank's files: layers of hidden 4096 hold ~ 201M parameters each.
layers_big=$("$py" -c "print(max(1, round($gib * 2**30 / 14 / (12 * 4096 * 4096))))")
{
  model_yaml 4096 "$layers_big"
  cat <<YAML
workflow: {generate_data: false, train: false, checkpoint: true}
checkpoint: {checkpoint_folder: $dir/big, num_checkpoints_write: 1, num_checkpoints_read: 0, fsync: true}
output: {folder: $dir/out-big}
YAML
} > "$dir/big.yaml"
/usr/bin/time -f '%M' -o "$dir/rss.txt" "$dlbench" checkpoint "$dir/big.yaml" --quiet >/dev/null
written=$(summary_value "$dir/out-big/summary.json" checkpoint_bytes_written)
rss_kib=$(tail -1 "$dir/rss.txt")
echo "### (c) Peak RSS of a checkpoint-only run"
echo
echo "| bytes written by the rank | peak RSS | target |"
echo "|---|---|---|"
echo "| $("$py" -c "print(f'{float(\"$written\")/2**30:.2f} GiB')") (asked $rss_gib GiB, $gib GiB fit in $dir) | $((rss_kib / 1024)) MiB | < 256 MiB |"
rm -rf "$dir/big"
