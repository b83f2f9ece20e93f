#!/usr/bin/env bash
# HDF5 through storage::Env (formats/hdf5/hdf5_env_driver.h); prints Markdown for results/hdf5.md.
#
#   scripts/bench-hdf5.sh [--reps N] [--limit MIB] [--dlbench PATH] [DIR]
#
#  (a) bytes: 8 HDF5 files of 64 samples of 1 KiB, one epoch, one sample per step, 1 rank, 1
#      reader thread, in file order and shuffled: what dlbench reports read (train_read_bytes)
#      against what the kernel served for those files (strace: the return values of read,
#      pread64, readv and preadv on them) and the nominal bytes. Equal is the target.
#  (b) tier bandwidth: the dataset (16 files of 64 samples of 64 KiB = 64 MiB) inside a storage
#      tier with bandwidth_limit MIB MiB/s (default 32): `dlbench generate` (the serial HDF5
#      writer, 1 rank) and `dlbench train` (1 rank, 1 reader thread, computation 0) rates
#      against the limit, each run N times (default 3); target within 10 %. The write rate is
#      the data files' bytes over the generation's wall time, the read rate train_read_bytes
#      over train_read_seconds.
#  (c) speed: HDF5's sec2 driver against the Env driver reading the same files one sample at a
#      time (tests/bench/hdf5_driver_read: 256 files of 64 samples of 4 KiB on DIR, default
#      /dev/shm, so the page cache serves them and the driver's own cost shows), each file
#      opened once, then once per sample (dlbench's on_demand reading: metadata reads on every
#      open); the two drivers alternating, N x 2 runs each; median seconds, ratio of medians and
#      paired ratios (Env / sec2; target: no measurable slowdown).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
limit_mib=32
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
root=/dev/shm
parse_options "reps limit=limit_mib dlbench ..." "$@"
[ ${#positional[@]} -eq 0 ] || root="${positional[-1]}"
driver_read="$DLBENCH_BUILD_DIR/tests/bench/hdf5_driver_read"
[ -x "$dlbench" ] && [ -x "$driver_read" ] || build_dlbench
command -v strace >/dev/null || { echo "bench-hdf5: strace is needed (apt-get install strace)" >&2; exit 2; }
work=$(mktemp -d "$root/dlbench-hdf5.XXXXXX")
trap 'rm -rf "$work"' EXIT
py() { /usr/bin/python3 -c "$@"; }

# A train workload of FILES hdf5 files of SAMPLES samples of BYTES in FOLDER, one epoch, one
# sample per step, shuffle SHUFFLE (a seed or off); TIER: a storage tier folder or "".
workload() {  # folder files samples bytes shuffle tier
  cat <<EOF
model: {name: hdf5bench}
framework: pytorch
workflow: {generate_data: false, train: true}
dataset: {data_folder: $1, format: hdf5, num_files_train: $2, num_files_eval: 0,
          num_samples_per_file: $3, record_length_bytes: $4}
reader: {data_loader: pytorch, batch_size: 1, read_threads: 1, prefetch_size: 4,
         file_shuffle: $5, sample_shuffle: $5}
train: {epochs: 1, computation_time: 0}
EOF
  [ -z "$6" ] || printf 'storage:\n  tiers:\n    slow: {path: %s, bandwidth_limit: %sMiB/s}\n' "$6" "$limit_mib"
}
metric() {  # summary.json key
  py 'import json,sys; print(json.load(open(sys.argv[1]))["metric"][sys.argv[2]])' "$1" "$2"
}

echo "## (a) HDF5 bytes read: dlbench against the kernel (strace)"
echo
echo "8 files x 64 samples x 1 KiB, 1 epoch, batch_size 1, 1 rank, 1 reader thread."
echo
echo "| order | nominal bytes | dlbench train_read_bytes | kernel (strace) | dlbench / kernel |"
echo "|---|---|---|---|---|"
for shuffle in off seed; do
  rm -rf "$work/a"
  workload "$work/a/data" 8 64 1024 "$shuffle" "" >"$work/a.yaml"
  "$dlbench" generate "$work/a.yaml" --output "$work/a/gen" --quiet >/dev/null
  strace -f -ff -qq -y -s 0 -e trace=read,pread64,readv,preadv,preadv2 -e signal=none \
    -o "$work/a/syscalls" "$dlbench" train "$work/a.yaml" --output "$work/a/out" --quiet >/dev/null
  kernel=$(py 'import sys; sys.path.insert(0, sys.argv[1]); import check_summary as c
print(c.kernel_read_bytes(sys.argv[2], sys.argv[3], "train"))' "$here/../../tests/cli" \
    "$work/a/syscalls" "$work/a/data")
  got=$(metric "$work/a/out/summary.json" train_read_bytes)
  printf '| %s | %s | %s | %s | %.4f |\n' "$([ "$shuffle" = off ] && echo "file order" || echo "shuffled")" \
    "$(metric "$work/a/out/summary.json" train_nominal_bytes)" "$got" "$kernel" "$(py "print($got / $kernel)")"
done
rm -rf "$work/a"
echo

echo "## (b) A storage tier's bandwidth_limit on HDF5 writes and reads"
echo
echo "16 files x 64 samples x 64 KiB (64 MiB) inside a tier limited to $limit_mib MiB/s; 1 rank."
echo
writes=(); reads=()
for _ in $(seq "$reps"); do
  rm -rf "$work/tier"
  mkdir -p "$work/tier"
  workload "$work/tier/data" 16 64 65536 off "$work/tier" >"$work/b.yaml"
  "$dlbench" generate "$work/b.yaml" --output "$work/b-gen" --quiet >/dev/null
  writes+=("$(py 'import json,sys; t=json.load(open(sys.argv[1]))["generation"]["total"]
print(t["bytes_written"] / t["wall_seconds"] / 2**20)' "$work/b-gen/summary.json")")
  rm -rf "$work/b-out"
  "$dlbench" train "$work/b.yaml" --output "$work/b-out" --quiet >/dev/null
  reads+=("$(py "print($(metric "$work/b-out/summary.json" train_read_bytes) / $(metric "$work/b-out/summary.json" train_read_seconds) / 2**20)")")
done
rate_row() {  # what runs...
  local what=$1; shift
  py 'import statistics,sys; v=[float(x) for x in sys.argv[3:]]; m=statistics.median(v); l=float(sys.argv[2])
print("| %s | %.2f | %s | %+.1f %% |" % (sys.argv[1], m, " ".join("%.2f" % x for x in v), 100 * (m - l) / l))' \
    "$what" "$limit_mib" "$@"
}
echo "| operation | MiB/s, median | runs | median against the limit |"
echo "|---|---|---|---|"
rate_row "HDF5 write (\`dlbench generate\`)" "${writes[@]}"
rate_row "HDF5 read (\`dlbench train\`)" "${reads[@]}"
rm -rf "$work/tier" "$work/b-gen" "$work/b-out"
echo

echo "## (c) Env driver against HDF5's sec2 driver, reading"
echo
echo "256 files x 64 samples x 4 KiB on $root, one sample per H5Dread, page cache warm; $((2 * reps)) runs of each driver, alternating."
echo
workload "$work/c/data" 256 64 4096 off "" >"$work/c.yaml"
"$dlbench" generate "$work/c.yaml" --output "$work/c/gen" --quiet >/dev/null
"$driver_read" "$work/c/data/train" 1 >/dev/null  # warm-up
echo "| files opened | sec2 s, median (runs) | Env s, median (runs) | Env / sec2, ratio of medians | paired ratios |"
echo "|---|---|---|---|---|"
for mode in once per-sample; do
  flag=(); [ "$mode" = once ] || flag=(--open-per-sample)
  "$driver_read" "$work/c/data/train" "$((2 * reps))" "${flag[@]}" >"$work/c/runs"
  py '
import statistics, sys
runs = [l.split() for l in open(sys.argv[1])]
sec2 = [float(r[1]) for r in runs]
env = [float(r[3]) for r in runs]
show = lambda v: "%.4f (%s)" % (statistics.median(v), " ".join("%.4f" % x for x in v))
print("| %s | %s | %s | %.3f | %s |" % (sys.argv[2], show(sec2), show(env),
    statistics.median(env) / statistics.median(sec2), " ".join("%.3f" % (e / s) for e, s in zip(env, sec2))))
' "$work/c/runs" "$([ "$mode" = once ] && echo "once per file" || echo "once per sample (on_demand)")"
done
