#!/usr/bin/env bash
# Regenerates the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/seed-*) from small
# runs of a built dlbench: one real data file per format (the spec format_reader_target.h reads
# them with; indexed_binary's with its two index files), shipped workloads with overrides, a
# traced run's trace and counters, and run summaries for compare. Inputs of crashes (crash-*) in the corpora are left alone, and so are the
# parquet corpus's foreign-pyarrow-* inputs: files shaped as pyarrow writes them (nullable LIST,
# dictionary page, RLE_DICTIONARY then PLAIN pages cut inside rows, v1 and v2 pages, snappy or
# uncompressed), built once with tests/unit/formats/parquet_file_builder.h for the fuzz spec
# (column "data", 36 uint8 per row, rows of 2 + 1), which dlbench's writer cannot produce.
#   tests/fuzz/make_corpus.sh [path/to/dlbench]      (default: build/dlbench)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dlbench="$(realpath "${1:-$root/build/dlbench}")"
corpus="$root/tests/fuzz/corpus"
work="$(mktemp -d /dev/shm/dlbench-corpus.XXXXXX)"
trap 'rm -rf "$work"' EXIT
sep=$'\n#=dlbench-fuzz-next=#\n'  # fuzz_target.h's kSeparator

# One tiny dataset of `format` in $work/data-$name; extra overrides in "$@".
generate() {
  local name=$1 format=$2 samples=$3
  shift 3
  (cd "$work" && "$dlbench" run default --output "$work/out-$name" \
    ++workload.dataset.data_folder="$work/data-$name" ++workload.dataset.format="$format" \
    ++workload.dataset.num_files_train=1 ++workload.dataset.num_files_eval=0 \
    ++workload.dataset.num_subfolders_train=0 ++workload.dataset.num_subfolders_eval=0 \
    ++workload.dataset.num_samples_per_file="$samples" ++workload.dataset.record_length_bytes=48 \
    ++workload.workflow.train=False ++workload.workflow.evaluation=False "$@" >/dev/null)
}

seed() {  # seed TARGET NAME < bytes
  mkdir -p "$corpus/$1"
  cat >"$corpus/$1/seed-$2"
}

rm -f "$corpus"/*/seed-*
for format in tfrecord npy npz hdf5 csv parquet; do
  generate "$format" "$format" 3
  seed "$format" plain <"$work/data-$format/train/img_0_of_1.$format"
done
generate npz-zip npz 3 ++workload.dataset.compression=zip
seed npz deflated <"$work/data-npz-zip/train/img_0_of_1.npz"
generate hdf5-gzip hdf5 3 ++workload.dataset.compression=gzip ++workload.dataset.hdf5.chunk_dims=[1,6,6]
seed hdf5 gzip-chunked <"$work/data-hdf5-gzip/train/img_0_of_1.hdf5"
generate csv-gzip csv 3 ++workload.dataset.compression=gzip
seed csv gzip <"$work/data-csv-gzip/train/img_0_of_1.csv.gz"
# indexed_binary: the data file, then its offsets and sizes indexes (fuzz_indexed_binary.cpp)
generate indexed_binary indexed_binary 3
{
  cat "$work/data-indexed_binary/train/img_0_of_1.indexed_binary"
  printf '%s' "$sep"
  cat "$work/data-indexed_binary/train/img_0_of_1.indexed_binary.off.idx"
  printf '%s' "$sep"
  cat "$work/data-indexed_binary/train/img_0_of_1.indexed_binary.sz.idx"
} | seed indexed_binary plain
for format in jpeg png; do
  generate "$format" "$format" 1
  seed "$format" plain <"$work/data-$format/train/img_0_of_1.$format"
done

# config: a workload document, then one override per part.
for workload in default unet3d_a100 llama3_8b cosmoflow_h100 resnet50_h100 dlrm; do
  cp "$root/workloads/$workload.yaml" "$work/$workload.yaml"
  seed config "$workload" <"$work/$workload.yaml"
done
{
  cat "$root/workloads/default.yaml"
  printf '%s' "$sep" '++workload.dataset.format=hdf5' "$sep" '++workload.dataset.hdf5.chunk_dims=[1,64]' \
    "$sep" 'workload.reader.read_threads=3' "$sep" '+workload.reader.transfer_size=1MiB' \
    "$sep" '~workload.train.epochs'
} | seed config default-overrides
{
  cat "$root/workloads/llama3_8b.yaml"
  printf '%s' "$sep" '++workload.storage.tiers.nvme.path=/tmp/bb' "$sep" \
    '++workload.checkpoint.burst_buffer.tier=nvme' "$sep" \
    'workload.checkpoint.checkpoint_folder=ck' "$sep" 'hydra.run.dir=out'
} | seed config llama-overrides

# trace summary: rank 0's trace (gzip, and a cut of it as text), counters, rank 1's trace.
train() {  # train OUTPUT [options...]: a traced or untraced run of one small workload
  local output=$1
  shift
  (cd "$work" && "$dlbench" run default "$@" --output "$work/$output" \
    ++workload.dataset.data_folder="$work/data-trace" ++workload.dataset.num_files_train=4 \
    ++workload.dataset.num_files_eval=0 ++workload.dataset.num_subfolders_train=0 \
    ++workload.dataset.num_subfolders_eval=0 ++workload.train.epochs=1 \
    ++workload.reader.batch_size=2 ++workload.workflow.evaluation=False >/dev/null)
}
train out-trace --trace
seed trace_summary gzip <"$work/out-trace/trace-0-of-1.pfw.gz"
# "[", then the first 8 metadata lines and 16 complete events (POSIX calls, items, steps)
zcat "$work/out-trace/trace-0-of-1.pfw.gz" | awk 'NR == 1 || (/"ph":"M"/ && m++ < 8) ||
  (/"ph":"X"/ && x++ < 16)' >"$work/trace.pfw"
{
  cat "$work/trace.pfw"
  printf '%s' "$sep"
  # the counters file without its per-file records, which the summary does not read, as plain
  # JSON (the 0_posix_counters.json of earlier versions)
  /usr/bin/python3 -c 'import gzip, json, sys; d = json.load(gzip.open(sys.argv[1], "rt")); d.pop("files"); print(json.dumps(d))' \
    "$work/out-trace/0_posix_counters.json.gz"
  printf '%s' "$sep"
  cat "$work/trace.pfw"
} | seed trace_summary text-counters-two-ranks
{
  cat "$work/trace.pfw"
  printf '%s' "$sep"
  # the same, gzip'd as dlbench writes it (0_posix_counters.json.gz)
  /usr/bin/python3 -c 'import gzip, json, sys; d = json.load(gzip.open(sys.argv[1], "rt")); d.pop("files"); sys.stdout.buffer.write(gzip.compress((json.dumps(d) + "\n").encode(), mtime=0))' \
    "$work/out-trace/0_posix_counters.json.gz"
  printf '%s' "$sep"
  cat "$work/trace.pfw"
} | seed trace_summary gzip-counters-two-ranks

# compare: baseline summary, current summary, tolerance file.
train out-again
seed compare one-run <"$work/out-trace/summary.json"
{
  cat "$work/out-trace/summary.json"
  printf '%s' "$sep"
  cat "$work/out-again/summary.json"
  printf '%s' "$sep"
  printf 'tolerance: 10%%\nalpha: 0.05\nmetrics:\n  metric.train_au_mean_percentage: 5%%\n'
  printf '  metric.train_batch_wait_p99_seconds: {tolerance: 30%%, direction: lower}\n'
} | seed compare two-runs-tolerances
du -sh "$corpus"
