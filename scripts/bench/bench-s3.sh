#!/usr/bin/env bash
# dlbench's S3 client against the limit of this machine and against boto3, on a real Ceph RGW
# (tests/s3/rgw.sh: one memstore OSD, started here on 127.0.0.1 and stopped at the end); prints
# Markdown for results/object-storage.md.
#
#   scripts/bench/bench-s3.sh [--reps N] [--dlbench PATH] [--small-files N] [--large-files N]
#
# Two datasets of npy objects, one sample each: SMALL (default 4096 x 4 KiB: request-bound) and
# LARGE (default 16 x 32 MiB: bandwidth-bound). dlbench runs on 2 ranks, read_threads 1,
# computation 0; the references run 2 threads, so every client has 2 objects in flight.
#  (a) writes: `dlbench generate` of each dataset (objects/s and MiB/s over the ranks' span, max
#      RSS per rank over the runs) against boto3 writing as many objects of the same size (one
#      put_object below 16 MiB, else upload_fileobj with dlbench's settings: 16 MiB parts, 4 in
#      flight); runs alternating, each under a prefix of its own.
#  (b) reads of the last dataset dlbench wrote: dlbench's samples/s (all ranks, over the epochs'
#      read spans) against tests/bench/bare_s3_get_loop (whole-object GETs over plain libcurl,
#      which signs them itself: the client's physical limit) and boto3
#      (scripts/bench/boto3_load.py get), the same objects in the same shards and order, the
#      same number of passes; runs alternating, the order rotated every repetition; medians,
#      ratios of medians, paired ratios. Target >= 0.9 of the bare loop. dlbench splits a read
#      above 16 MiB into 8 MiB range GETs, four at once, so on LARGE it has 8 requests in flight:
#      the bare loop also runs with 8 threads there, the limit at that concurrency, and boto3
#      also with download_fileobj (8 MiB ranges, 4 at once per object). On SMALL the
#      bare loop also runs with range GETs of the first 256 KiB (BARE_S3_RANGE), the request a
#      reader sends when it does not know an object's size: the server's cost of a range.
#  (c) one checkpoint of 2.3 GiB on one rank (a model file and an optimizer file, multipart),
#      saved then loaded: dlbench's write rate and max RSS (bounded by its parts in flight, not
#      by the file size) against boto3 uploading objects of the same sizes on 2 threads; its
#      load rate (8 MiB chunks, each four 2 MiB range GETs at once) against boto3's
#      download_fileobj of the same objects on 1 thread (8 MiB ranges, 4 at once).
# Each part has a server of its own (DLBENCH_RGW_MEMSTORE_BYTES: 6 GiB).
# The machine is shared by the server and the clients (2 vCPUs): every figure is a ratio within
# one script run, never an absolute rate to compare across machines.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
small_files=4096
large_files=16
parse_options "reps dlbench small-files large-files" "$@"
bare="$DLBENCH_BUILD_DIR/tests/bench/bare_s3_get_loop"
[ -x "$dlbench" ] && [ -x "$bare" ] || build_dlbench
boto3_load=("/usr/bin/python3" "$here/boto3_load.py")
mapfile -t mpi_flags < <(mpirun_flags)
work=$(mktemp -d /tmp/dlbench-s3.XXXXXX)
rgw=""
trap '[ -z "$rgw" ] || "$DLBENCH_ROOT/tests/s3/rgw.sh" stop "$rgw" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
# A fresh server (the one before stopped) holding at most MEMSTORE bytes of data, its settings
# exported: a memstore OSD that is full stalls every write, and RGW frees deleted data only hours
# later, so each part gets a server sized for what it writes.
server() {  # name memstore-bytes
  [ -z "$rgw" ] || "$DLBENCH_ROOT/tests/s3/rgw.sh" stop "$rgw" >&2
  rgw="$work/$1"
  DLBENCH_RGW_MEMSTORE_BYTES=$2 "$DLBENCH_ROOT/tests/s3/rgw.sh" start "$rgw" >&2
  [ -f "$rgw/env" ] || { echo "no S3 server: $(cat "$rgw/skipped" 2>/dev/null)" >&2; exit 2; }
  set -a
  # shellcheck disable=SC1091
  source "$rgw/env"
  set +a
}
server rgw-datasets $((6 << 30))
bucket=$DLBENCH_S3_BUCKET

py() { /usr/bin/python3 -c "$@"; }

workload() {  # prefix files bytes epochs batch
  cat <<EOF
model: {name: s3bench}
framework: pytorch
workflow: {generate_data: true, train: true}
storage: {storage_type: s3, storage_root: $bucket}
dataset: {data_folder: $1, format: npy, num_files_train: $2, num_files_eval: 0,
          num_samples_per_file: 1, record_length_bytes: $3}
reader: {data_loader: pytorch, batch_size: $5, read_threads: 1, prefetch_size: 4,
         file_shuffle: off, sample_shuffle: off}
train: {epochs: $4, computation_time: 0}
EOF
}

# Runs dlbench COMMAND on 2 ranks, each under /usr/bin/time -v (into $work/time.<rank>).
dlbench_run() {  # command yaml [override...]
  local command=$1 yaml=$2
  shift 2
  rm -rf "$work/out" "$work"/time.*
  mpirun "${mpi_flags[@]}" --bind-to none -np 2 sh -c \
    'exec /usr/bin/time -v -o "$0/time.$OMPI_COMM_WORLD_RANK" "$@"' "$work" \
    "$dlbench" "$command" "$yaml" --output "$work/out" --quiet "$@" >/dev/null 2>"$work/stderr" ||
    { cat "$work/stderr" >&2; exit 1; }
}
rss_mib() {  # -> "rank 0,rank 1" max RSS in MiB
  awk -F': ' '/Maximum resident set size/ {printf "%s%.0f", sep, $2 / 1024; sep=","}' \
    "$work/time.0" "$work/time.1"
}
# objects/s and MiB/s of the last run, from its summary.json.
train_rates() {
  py 'import json,sys; m=json.load(open(sys.argv[1]))["metric"]
s=m["train_sample_read_latency_count"]/m["train_read_seconds"]
print(s, s*int(sys.argv[2])/2**20)' "$work/out/summary.json" "$1"
}
generation_rates() {
  py 'import json,sys; t=json.load(open(sys.argv[1]))["generation"]["total"]
print(t["files_per_second"], t["MiB_per_second"])' "$work/out/summary.json"
}
# "objects/s MiB/s" from a reference's line "objects/s OBJECTS SECONDS BYTES".
reference_rates() { py 'import sys; r,n,s,b=map(float,sys.argv[1:5]); print(r, b/s/2**20)' $1; }
# The GETs dlbench sent per object read, from the last run's request table.
gets_per_object() {
  py 'import json,sys; s=json.load(open(sys.argv[1])); o=s["object_storage"]["requests"]
print("%.2f" % (sum(o[k]["requests"] for k in ("GET", "range GET") if k in o)
                / s["metric"]["train_sample_read_latency_count"]))' \
    "$work/out/summary.json"
}

# | dataset | op | unit | dlbench | reference | ratio of medians | paired ratios |
row() {  # dataset what unit column(0 objects/s, 1 MiB/s) dlbench-rates... -- reference-rates...
  py '
import statistics, sys
dataset, what, unit, column, rest = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
cut = rest.index("--")
d = [float(x.split(",")[column]) for x in rest[:cut]]
r = [float(x.split(",")[column]) for x in rest[cut + 1:]]
paired = [x / y for x, y in zip(d, r)]
spread = lambda v: max(v) / min(v)
print("| %s | %s | %s | %.1f (max/min %.2f) | %.1f (max/min %.2f) | %.3f | %s |" % (dataset, what,
      unit, statistics.median(d), spread(d), statistics.median(r), spread(r),
      statistics.median(d) / statistics.median(r), " ".join("%.2f" % p for p in paired)))' "$@"
}

declare -A yaml files bytes last
files[small]=$small_files; bytes[small]=4096
files[large]=$large_files; bytes[large]=$((32 << 20))
epochs_small=3
epochs_large=2
ckpt_bytes=2466459648  # the checkpoint of part (c), as `dlbench checkpoint plan` gives it
for set in small large; do
  yaml[$set]="$work/$set.yaml"
  if [ $set = small ]; then
    workload "bench/$set" "${files[$set]}" "${bytes[$set]}" $epochs_small 8 >"${yaml[$set]}"
  else
    workload "bench/$set" "${files[$set]}" "${bytes[$set]}" $epochs_large 1 >"${yaml[$set]}"
  fi
done

echo "Machine load at the start: $(uptime | sed 's/.*load average/load average/')"
echo
echo "## Writes: dlbench generate against boto3 (2 ranks / 2 threads)"
echo
echo "| dataset | client | objects/s median | MiB/s median (max/min) | max RSS rank 0 / 1, MiB |"
echo "|---|---|---:|---:|---|"
# Every run writes under a prefix of its own (deleting thousands of objects between runs takes
# RGW on memstore longer than botocore's minute); the large ones are deleted after their run.
run_number=0
for set in small large; do
  d_runs=(); b_runs=(); rss=()
  for rep in $(seq "$reps"); do
    for k in 0 1; do
      run_number=$((run_number + 1))
      prefix="bench/$set/run$run_number"
      if (((rep + k) % 2 == 0)); then
        dlbench_run generate "${yaml[$set]}" "++workload.dataset.data_folder=$prefix"
        d_runs+=("$(generation_rates | tr ' ' ,)")
        rss+=("$(rss_mib)")
        last[$set]=$prefix
      else
        line=$("${boto3_load[@]}" put 2 "$bucket" "$prefix" "${files[$set]}" "${bytes[$set]}")
        b_runs+=("$(reference_rates "$line" | tr ' ' ,)")
        [ $set = small ] || "${boto3_load[@]}" remove "$bucket" "$prefix/" >/dev/null
      fi
    done
  done
  py '
import statistics, sys
label, rss, rest = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
cut = rest.index("--")
for client, runs in (("dlbench", rest[:cut]), ("boto3", rest[cut + 1:])):
    o = [float(x.split(",")[0]) for x in runs]
    m = [float(x.split(",")[1]) for x in runs]
    memory = ""
    if client == "dlbench":
        memory = " / ".join(str(max(int(r.split(",")[rank]) for r in rss)) for rank in (0, 1))
    print("| %s | %s | %.1f | %.1f (%.2f) | %s |" % (label, client, statistics.median(o),
          statistics.median(m), max(m) / min(m), memory))' \
    "${files[$set]} x ${bytes[$set]} B" "${rss[*]}" "${d_runs[@]}" -- "${b_runs[@]}"
done
echo

echo "## Reads: dlbench train against the bare libcurl loop and boto3 (2 objects in flight)"
echo
echo "| dataset | against | unit | dlbench median | reference median | ratio of medians | paired ratios |"
echo "|---|---|---|---:|---:|---:|---|"
for set in small large; do
  # The dataset dlbench wrote last above; the references read its training objects.
  "${boto3_load[@]}" keys "$bucket" "${last[$set]}/train/" >"$work/$set.keys"
  epochs=$epochs_small; [ $set = large ] && epochs=$epochs_large
  d_runs=(); c_runs=(); w_runs=(); r_runs=(); b_runs=(); t_runs=(); gets=""
  order=(dlbench bare boto3)
  for rep in $(seq "$reps"); do
    for k in 0 1 2; do
      case ${order[(rep + k) % 3]} in
        dlbench)
          dlbench_run train "${yaml[$set]}" "++workload.dataset.data_folder=${last[$set]}"
          d_runs+=("$(train_rates "${bytes[$set]}" | tr ' ' ,)")
          gets=$(gets_per_object)
          ;;
        bare)
          c_runs+=("$(reference_rates "$("$bare" 2 "$epochs" "$bucket" "$work/$set.keys")" | tr ' ' ,)")
          if [ $set = small ]; then
            r_runs+=("$(reference_rates "$(BARE_S3_RANGE=262143 "$bare" 2 "$epochs" "$bucket" \
              "$work/$set.keys")" | tr ' ' ,)")
          else
            w_runs+=("$(reference_rates "$("$bare" 8 "$epochs" "$bucket" "$work/$set.keys")" | tr ' ' ,)")
          fi
          ;;
        boto3)
          b_runs+=("$(reference_rates "$("${boto3_load[@]}" get 2 "$epochs" "$bucket" "$work/$set.keys")" | tr ' ' ,)")
          [ $set = small ] || t_runs+=("$(reference_rates "$("${boto3_load[@]}" download 2 "$epochs" \
            "$bucket" "$work/$set.keys")" | tr ' ' ,)")
          ;;
      esac
    done
  done
  column=0; unit="objects/s"
  [ $set = large ] && { column=1; unit="MiB/s"; }
  label="${files[$set]} x ${bytes[$set]} B ($gets GETs per object)"
  row "$label" "bare libcurl loop" "$unit" $column "${d_runs[@]}" -- "${c_runs[@]}"
  if [ $set = small ]; then
    row "$label" "bare libcurl loop, range GETs" "$unit" $column "${d_runs[@]}" -- "${r_runs[@]}"
  else
    row "$label" "bare libcurl loop, 8 threads" "$unit" $column "${d_runs[@]}" -- "${w_runs[@]}"
  fi
  row "$label" "boto3" "$unit" $column "${d_runs[@]}" -- "${b_runs[@]}"
  [ $set = small ] || row "$label" "boto3, 8 MiB ranges, 4 at once" "$unit" $column "${d_runs[@]}" -- "${t_runs[@]}"
done
echo

echo "## A checkpoint of $(py "print('%.2f' % ($ckpt_bytes / 2**30))") GiB on one rank: dlbench checkpoint against boto3"
echo
# One save of a Llama-shaped model whose two files (model and optimizer) hold the bytes, then
# boto3 uploading two objects of the same sizes on 2 threads (dlbench writes each file on a
# thread of its own); a server of its own, sized for both.
server rgw-checkpoint $((6 << 30))
bucket=$DLBENCH_S3_BUCKET
cat >"$work/checkpoint.yaml" <<EOF
model:
  name: s3bench_checkpoint
  type: transformer
  num_layers: 1
  model_datatype: fp16
  optimizer_datatype: fp32
  parallelism: {tensor: 1, pipeline: 1, zero_stage: 1}
  transformer: {vocab_size: 32000, hidden_size: 2048, ffn_hidden_size: 5632,
                num_attention_heads: 16, num_kv_heads: 4}
framework: pytorch
workflow: {generate_data: false, train: false, checkpoint: true}
storage: {storage_type: s3, storage_root: $bucket}
checkpoint: {checkpoint_folder: bench/checkpoint, time_between_checkpoints: 0,
             num_checkpoints_write: 1, num_checkpoints_read: 1}
EOF
rm -rf "$work/out"
/usr/bin/time -v -o "$work/time.0" "$dlbench" checkpoint "$work/checkpoint.yaml" --output "$work/out" \
  --quiet >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
mapfile -t sizes < <("${boto3_load[@]}" sizes "$bucket" bench/checkpoint/)
"${boto3_load[@]}" keys "$bucket" bench/checkpoint/ >"$work/checkpoint.keys"
line=$("${boto3_load[@]}" put-sizes 2 "$bucket" bench/boto3-checkpoint "${sizes[@]}")
load=$("${boto3_load[@]}" download 1 1 "$bucket" "$work/checkpoint.keys")
py '
import json, sys
m = json.load(open(sys.argv[1]))["metric"]
rss = [l for l in open(sys.argv[2]) if "Maximum resident" in l][0].split(":")[1]
rate, n, seconds, size = map(float, sys.argv[3:7])
_, _, load_seconds, load_size = map(float, sys.argv[7:11])
written = m["checkpoint_bytes_written"]
print("| client | objects | GiB | save GiB/s | load GiB/s | max RSS, MiB |")
print("|---|---:|---:|---:|---:|---:|")
print("| dlbench | %d | %.2f | %.3f | %.3f | %.0f |" % (len(sys.argv[11:]), written / 2**30,
      m["checkpoint_write_GiB_per_second"],
      written / m["load_checkpoint_duration_mean_seconds"] / 2**30, int(rss) / 1024))
print("| boto3 | %d | %.2f | %.3f | %.3f | |" % (n, size / 2**30, size / seconds / 2**30,
      load_size / load_seconds / 2**30))' \
  "$work/out/summary.json" "$work/time.0" $line $load "${sizes[@]}"
echo
echo "Machine load at the end: $(uptime | sed 's/.*load average/load average/')"
