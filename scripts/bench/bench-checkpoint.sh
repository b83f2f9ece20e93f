#!/usr/bin/env bash
# Checkpoint benchmarks of dlbench; prints Markdown tables of medians over --reps runs.
#
#   scripts/bench/bench-checkpoint.sh [--reps N] [--dlbench PATH] [--dir DIR] [--fast DIR] [--rss-gib G]
#                               [--parts abcde]  (which of the parts below to run; default all)
#                               [--cases empty,rerun,after-direct]   (part d; default all three)
#                               [--capacity-dir DIR] [--compute-e S]   (part e)
#
#  (a) burst buffer vs direct saves during training: the fast tier is FAST (default a folder on
#      /dev/shm); its write bandwidth is measured first (a checkpoint-only run straight to it);
#      the capacity tier DIR/pfs gets bandwidth_limit = 1/4 of it. A tiny dataset, a checkpoint
#      every 4 steps, computation_time chosen so that the compute between two checkpoints is
#      about one drain. Runs with and without the burst buffer alternate, --reps times each.
#      Reported: medians of checkpoint_stall_mean_seconds, of total run time (wall clock of the
#      whole `dlbench run`), their ratios (targets: stall reduced >= 2.6x, run time reduced), and
#      time to durable against the capacity tier's own write time for the same bytes
#      (bytes / bandwidth_limit, and the direct save's measured time; target <= 1.1x).
#  (b) a plain checkpoint (no tiers) on DIR vs fio writing/reading the same bytes in files of the
#      same sizes, one at a time, each fsync'd (fsync_on_close), GiB per second of each tool's own
#      I/O time (and, for reference, of the wall time of its whole command) (target >= 0.8x); the
#      page cache is dropped before every command when we may (root), else reads are from the
#      cache for both.
#  (c) peak RSS (VmHWM via /usr/bin/time) of a checkpoint-only run writing --rss-gib GiB per rank
#      (default 16, reduced to what DIR has room for, and said so; the model is sized with the byte
#      model of `dlbench checkpoint plan`) (target < 256 MiB).
#  (d) burst-buffer save stalls: 2 ranks, a 0.49 GiB checkpoint every 2 steps (4 in
#      all, computation_time 1 s: a checkpoint is durable, and evicted, before the third save), fast tier FAST/bb, capacity tier FAST-pfs (tmpfs too) with
#      bandwidth_limit 100MiB/s, drain_threads 2, max_pending_checkpoints 4, in three cases
#      (--cases): `empty` (no capacity folder), `rerun` (the capacity folder holds the same
#      checkpoints from the run before), `after-direct` (right after a direct run, no burst buffer,
#      into the same capacity folder). Per --reps round: empty, rerun, direct, after-direct.
#      Printed: every save's time (max over ranks) per run, per case the median and max save and
#      max / median (target <= 1.5), the backpressure wait, and the stall reduction against the
#      direct runs' mean stall. The reference: tests/bench/bare_checkpoint_write (2 processes
#      writing the same bytes per save into FAST/bare, one save every 2 s, no dlbench) runs after
#      each round, so that a spread of the machine's own shows in its row too.
#  (e) burst-buffer saves over older checkpoints of the same names (a job that reruns or resumes):
#      2 ranks, a ZeRO-3 fp16 transformer of 2 layers x 1024 hidden (vocabulary 4096: 0.27 GiB per
#      rank and save, 2.8 s at 100 MiB/s), a checkpoint every 2 steps
#      (4 saves, computation_time --compute-e, default 0.25 s), fast tier FAST/bb unthrottled,
#      capacity tier CAPACITY (--capacity-dir, default FAST-pfs) with bandwidth_limit 100MiB/s,
#      burst_buffer {drain_threads 2, evict_after_drain, max_pending_checkpoints 4}. Per --reps
#      round, in both orders (odd rounds: empty first; even rounds: direct first): `empty` (no
#      capacity folder), `direct` (no burst buffer), `after-direct` (burst buffer into the folder
#      the direct run just filled), `rerun` (burst buffer over the drained files of the run
#      before), all three with the default burst_buffer.preallocate (auto: on a fast tier in
#      memory, the saves overwrite space taken when the run starts), and `after-direct-nopre` (the
#      same as after-direct, after another direct run, with preallocate: false). Printed: every
#      save's time (max over ranks), per case the median and max save, max / median (target
#      <= 1.5) and the stall reduction against the direct saves (target >= 8).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dir=/var/tmp/dlbench-ckptbench
fast=/dev/shm/dlbench-ckptbench
rss_gib=16
parts=abcde
cases=empty,rerun,after-direct
capacity_dir=
compute_e=0.25
parse_options "reps dlbench dir fast rss-gib parts cases capacity-dir compute-e" "$@"
ensure_packages fio time python3
[ -x "$dlbench" ] || build_dlbench
py=/usr/bin/python3
rm -rf "$dir" "$fast"
mkdir -p "$dir" "$fast"
capacity_dir="${capacity_dir:-$fast-pfs}"
trap 'rm -rf "$fast" "$fast-pfs" "$capacity_dir"' EXIT

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

saves_of() {  # summary.json -> "t1 t2 ..." (max over ranks per save)
  "$py" - "$1" <<'PY'
import json, sys
print(" ".join(f"{t:.3f}" for t in json.load(open(sys.argv[1]))["metric"]["save_checkpoint_duration_max_seconds"]))
PY
}

median() { "$py" -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
ratio() { "$py" -c 'import sys; a,b=map(float,sys.argv[1:]); print(f"{a/b:.2f}" if b else "nan")' "$1" "$2"; }

# Trains yaml $1 on 2 ranks into output folder $2 (emptied first); prints its saves (saves_of).
train_saves() {
  rm -rf "$2"
  mpirun "${mpi_flags[@]}" -np 2 "$dlbench" run "$1" ++workload.workflow.generate_data=false --quiet >/dev/null
  saves_of "$2/summary.json"
}

# The rest of parts d and e's workloads: 8 steps of batch 2 on 2 ranks, a checkpoint every 2 steps,
# the fast tier $3 at FAST/bb, the capacity tier `pfs` at $4 with 100 MiB/s. $1 data folder,
# $2 computation_time, $5 with burst buffer (1/0), $6 more burst_buffer keys, $7 output folder.
stall_training_yaml() {
  cat <<YAML
workflow: {generate_data: true, train: true, checkpoint: true}
dataset: {data_folder: $1, format: npy, num_files_train: 32, num_samples_per_file: 1, record_length_bytes: 65536}
reader: {data_loader: pytorch, batch_size: 2, read_threads: 1}
train: {epochs: 1, total_training_steps: 8, computation_time: $2}
storage:
  tiers:
    $3: {path: $fast/bb}
    pfs: {path: $4, bandwidth_limit: 100MiB/s}
checkpoint:
  checkpoint_folder: $4/ckpt
  steps_between_checkpoints: 2
YAML
  [ "$5" = 1 ] && echo "  burst_buffer: {tier: $3, drain_threads: 2, $6max_pending_checkpoints: 4}"
  echo "output: {folder: $7}"
}

has_part() { [[ "$parts" == *"$1"* ]]; }

# ---- (a) fast-tier bandwidth, then burst buffer vs direct during training -------------------
hidden=1024 layers=4
if has_part a; then
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
echo "| time to durable, mean (s) | $dd | $db | | bb <= 1.1 x $capacity_write_s s = bytes / limit ($(ratio "$db" "$capacity_write_s") x); bb / direct's measured capacity write: $(ratio "$db" "$dd") x |"
echo

fi

# ---- (b) plain checkpoint vs fio on DIR -------------------------------------------------------
# Like for like: the same bytes in files of the same sizes, one file at a time (dlbench's
# write_threads is 1; fio's jobs are serialised with stonewall), 8 MiB blocks, every file fsync'd
# before it counts (fio: fsync_on_close=1, whose close-time fsync is inside the job's runtime;
# no preallocation, as dlbench does none), the page cache dropped before every command when we
# may (root). Compared: each tool's own I/O time (dlbench's save/load duration, fsyncs included;
# the sum of fio's job runtimes), and, for reference, GiB per wall-clock second around each
# whole command, which also charges process start-up (fio's is 0.5-2 s here, a lot on 1.7 GiB).
if has_part b; then
{
  model_yaml $hidden $layers
  cat <<YAML
workflow: {generate_data: false, train: false, checkpoint: true}
checkpoint: {checkpoint_folder: $dir/plain, num_checkpoints_write: 1, num_checkpoints_read: 1, fsync: true}
output: {folder: $dir/out-plain}
YAML
} > "$dir/plain.yaml"
drop() { if [ "$(id -u)" = 0 ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi; }
gibs() { "$py" -c 'import sys; b,s,e=map(float,sys.argv[1:]); print(b/2**30/(e-s))' "$@"; }
fio_gibs() {  # fio JSON, direction -> GiB over the sum of the jobs' runtimes
  "$py" - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
jobs = json.loads(text[text.index("{"):])["jobs"]
io = [j[sys.argv[2]] for j in jobs]
print(sum(x["io_bytes"] for x in io) / 2**30 / (sum(x["runtime"] for x in io) / 1000))
PY
}
w_ours="" r_ours="" w_fio="" r_fio="" w_own="" r_own="" w_fio_wall="" r_fio_wall=""
for rep in $(seq 1 "$reps"); do
  rm -rf "$dir/plain" "$dir/out-plain" "$dir/fio"
  drop
  start=$(date +%s.%N)
  "$dlbench" checkpoint "$dir/plain.yaml" ++workload.checkpoint.num_checkpoints_read=0 --quiet >/dev/null
  end=$(date +%s.%N)
  plain_bytes=$(summary_value "$dir/out-plain/summary.json" checkpoint_bytes_written)
  w_ours+="$(gibs "$plain_bytes" "$start" "$end") "
  w_own+="$(summary_value "$dir/out-plain/summary.json" checkpoint_write_GiB_per_second) "
  drop
  rm -rf "$dir/out-plain"
  start=$(date +%s.%N)
  "$dlbench" checkpoint "$dir/plain.yaml" ++workload.checkpoint.num_checkpoints_write=0 --quiet >/dev/null
  end=$(date +%s.%N)
  r_ours+="$(gibs "$plain_bytes" "$start" "$end") "
  r_own+="$(summary_value "$dir/out-plain/summary.json" load_checkpoint_GiB_per_second) "
  mkdir -p "$dir/fio"
  args=() fio_bytes=0
  for f in "$dir"/plain/*/*.pt; do
    size=$(stat -c %s "$f")
    fio_bytes=$((fio_bytes + size))
    args+=(--name="$(basename "$f")" --filename="$dir/fio/$(basename "$f")" --size="$size" --stonewall)
  done
  [ "$fio_bytes" = "$("$py" -c "print(int(float('$plain_bytes')))")" ] || { log "fio would move $fio_bytes B, dlbench moved $plain_bytes B"; exit 1; }
  drop
  start=$(date +%s.%N)
  fio --rw=write --bs=8m --ioengine=psync --fsync_on_close=1 --fallocate=none \
    --output-format=json --output="$dir/fio-write.json" "${args[@]}" >/dev/null
  end=$(date +%s.%N)
  w_fio_wall+="$(gibs "$fio_bytes" "$start" "$end") "
  w_fio+="$(fio_gibs "$dir/fio-write.json" write) "
  drop
  start=$(date +%s.%N)
  fio --rw=read --bs=8m --ioengine=psync \
    --output-format=json --output="$dir/fio-read.json" "${args[@]}" >/dev/null
  end=$(date +%s.%N)
  r_fio_wall+="$(gibs "$fio_bytes" "$start" "$end") "
  r_fio+="$(fio_gibs "$dir/fio-read.json" read) "
done
wo=$(median $w_own); ro=$(median $r_own); wf=$(median $w_fio); rf=$(median $r_fio)
wow=$(median $w_ours); row=$(median $r_ours); wfw=$(median $w_fio_wall); rfw=$(median $r_fio_wall)
plain_gib=$("$py" -c "print(f'{float(\"$plain_bytes\") / 2**30:.2f}')")
plain_files=$(ls "$dir"/plain/*/*.pt | wc -l)
echo "### (b) Plain checkpoint vs fio on $dir (GiB/s, medians of $reps; $plain_gib GiB in $plain_files files; page cache dropped: $([ "$(id -u)" = 0 ] && echo yes || echo no))"
echo
echo "| | dlbench (own I/O time) | fio (job runtimes) | ratio | target | dlbench wall | fio wall | wall ratio |"
echo "|---|---|---|---|---|---|---|---|"
echo "| write + fsync | $wo | $wf | $(ratio "$wo" "$wf") | >= 0.8 | $wow | $wfw | $(ratio "$wow" "$wfw") |"
echo "| read | $ro | $rf | $(ratio "$ro" "$rf") | >= 0.8 | $row | $rfw | $(ratio "$row" "$rfw") |"
echo
rm -rf "$dir/plain" "$dir/fio"

fi

# ---- (c) peak RSS writing a large per-rank plan ----------------------------------------------
if has_part c; then
avail_gib=$(df -P -B1G "$dir" | awk 'NR==2 {print $4}')
gib=$rss_gib
[ "$gib" -gt $((avail_gib - 6)) ] && gib=$(( (avail_gib - 6) / 4 * 4 ))
[ "$gib" -lt 1 ] && gib=1
# The fewest layers of hidden 4096 whose one-rank checkpoint holds at least $gib GiB (one layer is
# ~2.6 GiB), from the byte model (`dlbench checkpoint plan`, nothing written).
plan_bytes() {
  model_yaml 4096 "$1" > "$dir/size.yaml"
  echo "workflow: {generate_data: false, train: false, checkpoint: true}" >> "$dir/size.yaml"
  echo "checkpoint: {checkpoint_folder: $dir/big}" >> "$dir/size.yaml"
  local bytes
  bytes=$("$dlbench" checkpoint plan "$dir/size.yaml" | sed -n 's/^Per checkpoint: \([0-9,]*\) B.*/\1/p' | tr -d ,)
  [ -n "$bytes" ] || { log "dlbench checkpoint plan $dir/size.yaml printed no size"; exit 1; }
  echo "$bytes"
}
layers_big=1
while [ "$(plan_bytes "$layers_big")" -lt $((gib * 1073741824)) ] && [ "$layers_big" -lt 64 ]; do
  layers_big=$((layers_big + 1))
done
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
fi

# ---- (d) burst-buffer save stalls in three cases: empty, rerun, after direct -------------------------
if has_part d; then
for c in ${cases//,/ }; do
  case "$c" in empty|rerun|after-direct) ;; *) echo "unknown case $c (empty, rerun, after-direct)" >&2; exit 2 ;; esac
done
has_case() { [[ ",$cases," == *",$1,"* ]]; }
mapfile -t mpi_flags < <(mpirun_flags)
pfs="$fast-pfs"
stall_yaml() {  # $1 = with burst buffer (1/0)
  model_yaml 512 1 | sed 's/vocab_size: 32000/vocab_size: 32768/'
  stall_training_yaml "$dir/data-d" 1.0 nvme "$pfs" "$1" "" "$dir/out-d"
}
stall_yaml 1 > "$dir/stall-bb.yaml"
stall_yaml 0 > "$dir/stall-direct.yaml"
mpirun "${mpi_flags[@]}" -np 2 "$dlbench" generate "$dir/stall-bb.yaml" --quiet >/dev/null
declare -A saves runs_of backpressure
stall_run() {  # $1 = case label, $2 = yaml
  local these
  these=$(train_saves "$2" "$dir/out-d")
  saves[$1]+="$these "
  runs_of[$1]+="$these|"
  backpressure[$1]+="$(summary_value "$dir/out-d/summary.json" checkpoint_backpressure_total_seconds) "
}
bare_bytes=  # per process and save: what each rank wrote per save in the first run (4 saves, 2 ranks)
bare_run() {
  [ -n "$bare_bytes" ] || bare_bytes=$("$py" -c "print(int(float('$(summary_value "$dir/out-d/summary.json" save_checkpoint_bytes)') / 8))")
  mkdir -p "$fast/bare"
  local these
  these=$("$DLBENCH_BUILD_DIR/tests/bench/bare_checkpoint_write" 2 4 "$bare_bytes" 2 "$fast/bare")
  rm -rf "$fast/bare"
  saves[bare]+="$these "
  runs_of[bare]+="$these|"
  backpressure[bare]+="0 "
}
[ -x "$DLBENCH_BUILD_DIR/tests/bench/bare_checkpoint_write" ] || build_dlbench
for rep in $(seq 1 "$reps"); do
  rm -rf "$pfs" "$fast/bb"
  if has_case empty || has_case rerun; then stall_run empty "$dir/stall-bb.yaml"; fi
  if has_case rerun; then stall_run rerun "$dir/stall-bb.yaml"; fi
  stall_run direct "$dir/stall-direct.yaml"
  if has_case after-direct; then stall_run after-direct "$dir/stall-bb.yaml"; fi
  bare_run
done
echo "### (d) Burst-buffer save stalls, 2 ranks, 0.49 GiB every 2 steps, capacity tier 100 MiB/s ($reps runs per case)"
echo
echo "Per-save times (s, max over ranks), one run per line:"
echo
for c in empty rerun direct after-direct bare; do
  [ -n "${runs_of[$c]:-}" ] || continue
  has_case "$c" || [ "$c" = direct ] || [ "$c" = bare ] || continue
  IFS='|' read -ra these <<< "${runs_of[$c]}"
  for run in "${these[@]}"; do printf '    %-13s %s\n' "$c" "$run"; done
done
echo
direct_mean=$("$py" -c 'import statistics,sys; print(statistics.mean(float(x) for x in sys.argv[1:]))' ${saves[direct]})
echo "| case | saves | median save (s) | max save (s) | max / median | target | backpressure, max per run (s) | stall reduction vs direct (mean $(printf %.3f "$direct_mean") s) |"
echo "|---|---|---|---|---|---|---|---|"
for c in empty rerun after-direct bare; do
  has_case "$c" || [ "$c" = bare ] || continue
  "$py" - "$c" "$direct_mean" "${backpressure[$c]}" ${saves[$c]} <<'PY'
import statistics, sys
case, direct, waits, saves = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(), [float(x) for x in sys.argv[4:]]
med, top = statistics.median(saves), max(saves)
print(f"| {case} | {len(saves)} | {med:.3f} | {top:.3f} | **{top / med:.2f}** | <= 1.5 | "
      f"{max(float(w) for w in waits):.3f} | {direct / statistics.mean(saves):.1f}x |")
PY
done
echo
fi

# ---- (e) burst-buffer saves over older checkpoints of the same names -------------------------
if has_part e; then
mapfile -t mpi_flags < <(mpirun_flags)
e_yaml() {  # $1 = with burst buffer (1/0), $2 = more burst_buffer keys
  cat <<YAML
model:
  name: rerun
  type: transformer
  num_layers: 2
  model_datatype: fp16
  transformer: {vocab_size: 4096, hidden_size: 1024, ffn_hidden_size: 4096, num_attention_heads: 16, num_kv_heads: 16}
  parallelism: {tensor: 1, pipeline: 1, zero_stage: 3}
framework: pytorch
YAML
  stall_training_yaml "$dir/data-e" "$compute_e" fast "$capacity_dir" "$1" "evict_after_drain: true, ${2:-}" \
    "$dir/out-e"
}
e_yaml 1 > "$dir/e-bb.yaml"
e_yaml 1 "preallocate: false, " > "$dir/e-nopre.yaml"
e_yaml 0 > "$dir/e-direct.yaml"
mpirun "${mpi_flags[@]}" -np 2 "$dlbench" generate "$dir/e-bb.yaml" --quiet >/dev/null
declare -A e_saves e_runs
e_run() {  # $1 = case label, $2 = yaml
  local these
  these=$(train_saves "$2" "$dir/out-e")
  e_saves[$1]+="$these "
  e_runs[$1]+="$these|"
}
for rep in $(seq 1 "$reps"); do
  rm -rf "$capacity_dir" "$fast/bb"
  if [ $((rep % 2)) = 1 ]; then
    e_run empty "$dir/e-bb.yaml"
    rm -rf "$capacity_dir" "$fast/bb"
    e_run direct "$dir/e-direct.yaml"
    e_run after-direct "$dir/e-bb.yaml"
    e_run rerun "$dir/e-bb.yaml"
    e_run direct "$dir/e-direct.yaml"
    e_run after-direct-nopre "$dir/e-nopre.yaml"
  else
    e_run direct "$dir/e-direct.yaml"
    e_run after-direct-nopre "$dir/e-nopre.yaml"
    e_run direct "$dir/e-direct.yaml"
    e_run after-direct "$dir/e-bb.yaml"
    e_run rerun "$dir/e-bb.yaml"
    rm -rf "$capacity_dir" "$fast/bb"
    e_run empty "$dir/e-bb.yaml"
  fi
done
echo "### (e) Burst-buffer saves over older checkpoints, 2 ranks, ZeRO 3 fp16 2 x 1024, capacity tier $capacity_dir at 100 MiB/s ($reps runs per case, computation_time $compute_e s, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "Per-save times (s, max over ranks), one run per line:"
echo
for c in empty direct after-direct rerun after-direct-nopre; do
  IFS='|' read -ra these <<< "${e_runs[$c]}"
  for run in "${these[@]}"; do printf '    %-13s %s\n' "$c" "$run"; done
done
echo
direct_median=$(median ${e_saves[direct]})
echo "| case | saves | median save (s) | max save (s) | max / median | stall reduction vs direct (median $(printf %.3f "$direct_median") s) | targets |"
echo "|---|---|---|---|---|---|---|"
for c in empty after-direct rerun after-direct-nopre; do
  "$py" - "$c" "$direct_median" ${e_saves[$c]} <<'PY'
import statistics, sys
case, direct, saves = sys.argv[1], float(sys.argv[2]), [float(x) for x in sys.argv[3:]]
med, top = statistics.median(saves), max(saves)
print(f"| {case} | {len(saves)} | {med:.3f} | {top:.3f} | **{top / med:.2f}** | "
      f"{direct / med:.1f}x (worst save {direct / top:.1f}x) | <= 1.5, >= 8x |")
PY
done
echo
rm -rf "$dir/data-e" "$dir/out-e"
fi
