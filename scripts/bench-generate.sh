#!/usr/bin/env bash
# Dataset generation against fio, doing the same work: N NEW files of the same size (the folder
# is deleted and the file system synced before every run), written sequentially by P writers
# (fio numjobs=P, each job its own N/P files; `dlbench generate` with P/T ranks x T generation
# threads, T = --threads, default 1), block min(file size, 4 MiB) (dlbench's generation buffer), psync, each file fsync'd
# before close (dataset.fsync: true / fsync_on_close=1 + end_fsync=1). fio creates each file
# inside its timed run (create_on_open=1) and does not preallocate it (fallocate=none): by
# default fio creates and fallocates every file BEFORE its clock starts, which on tmpfs also
# faults in every page, so its timed writes were overwrites while dlbench paid for new pages.
#
#   scripts/bench-generate.sh [--quick] [--reps N] [--writers "1 2"] [--threads T] [--dlbench PATH]
#                             [--format npy|parquet] [DIR...]
#
# --format parquet: dlbench writes Parquet files instead (large: 8 rows of flux_b200's five float32
# columns, 17.3 MB; small: 1 row of one 1000-element float32 column, ~4.2 KB); fio writes files
# of the size one probe file of dlbench's has.
# DIR: scratch folders on the file systems to compare (default /dev/shm/dlbench-genbench and
# /var/tmp/dlbench-genbench); each run works in its own new sub-folder, deleted at the end. Cases: 64 files of 16 MiB (+128 B npy header; bandwidth) and 5000 files of
# 4 KiB (files/s; each is fsync'd, ~5 ms apiece on the VM's disk); --quick: 16 and 1000 files. Runs alternate fio / dlbench (order swapped every
# repetition); the table shows medians of --reps (default 3) runs. Rates use each tool's own
# timed interval (fio: bytes / job runtime incl. its end fsync; dlbench: bytes / (last rank's
# end - first rank's start) incl. renames and folder syncs); the "wall" columns use the wall
# time of the whole command instead (process and MPI start-up included, so they favour fio).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

reps=3
writers_list="1 2"
threads=1
quick=0
format=npy
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps="$2"; shift 2 ;;
    --writers) writers_list="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    --format) format="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
[ ${#dirs[@]} -gt 0 ] || dirs=(/dev/shm/dlbench-genbench /var/tmp/dlbench-genbench)
ensure_packages fio time python3 openmpi-bin
[ -x "$dlbench" ] || build_dlbench
mapfile -t mpi_flags < <(mpirun_flags)
workload="$DLBENCH_ROOT/tests/data/workloads/generate/tiny_generate.yaml"

large_files=64; small_files=5000
[ "$quick" = 1 ] && { large_files=16; small_files=1000; }
max_block=$(( 4 * 1024 * 1024 ))  # dlbench's generation buffer (workflow/generate_phase.h)

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
fresh() { rm -rf "$1"; sync -f "$(dirname "$1")"; mkdir -p "$1"; }  # no run pays for the last one's deletion

# Prints "MiB/s files/s wall_MiB/s" of fio writing N files of SIZE bytes with P jobs.
run_fio() {  # dir files size procs
  local dir=$1/fio files=$2 size=$3 procs=$4 t0 t1
  fresh "$dir"
  local per_job=$(( files / procs ))
  t0=$(now)
  fio --name=gen --directory="$dir" --numjobs="$procs" --group_reporting \
      --nrfiles="$per_job" --filesize="$size" --size=$(( per_job * size )) \
      --rw=write --bs=$(( size < max_block ? size : max_block )) --ioengine=psync \
      --openfiles=1 --file_service_type=sequential --create_on_open=1 --fallocate=none \
      --fsync_on_close=1 --end_fsync=1 --output-format=json >"$1/fio.json"
  t1=$(now)
  /usr/bin/python3 - "$1/fio.json" "$(( per_job * procs ))" "$t0" "$t1" <<'EOF'
import json, sys
w = json.load(open(sys.argv[1]))["jobs"][0]["write"]
files, wall = int(sys.argv[2]), float(sys.argv[4]) - float(sys.argv[3])
seconds = w["runtime"] / 1000.0  # ms, the longest job (group_reporting)
print(w["io_bytes"] / seconds / 2**20, files / seconds, w["io_bytes"] / wall / 2**20)
EOF
  rm -rf "$dir" "$1/fio.json"
}

# The dataset overrides of a case: npy files of one side x side uint8 sample (128-byte header),
# or Parquet files (--format parquet; "side" 4096 is the large case, 63 the small one).
FLUX_COLUMNS='[{name: t5_encodings, size: 524328}, {name: clip_encodings, size: 409}, {name: mean, size: 8232}, {name: logvar, size: 8232}, {name: timestamp, size: 7}]'
case_overrides() {  # side
  if [ "$format" = npy ]; then
    printf '%s\n' ++workload.dataset.format=npy ++workload.dataset.num_samples_per_file=1
    echo "++workload.dataset.record_length_bytes=$(( $1 * $1 ))"
  elif [ "$1" -gt 1000 ]; then
    printf '%s\n' ++workload.dataset.format=parquet ++workload.dataset.num_samples_per_file=8
    echo "++workload.dataset.record_length_bytes=2164832"
    echo "++workload.dataset.parquet.columns=$FLUX_COLUMNS"
  else
    printf '%s\n' ++workload.dataset.format=parquet ++workload.dataset.num_samples_per_file=1
    echo "++workload.dataset.record_length_bytes=4000"
    echo "++workload.dataset.parquet.columns=[{name: data, size: 1000}]"
  fi
}

# Prints "MiB/s files/s wall_MiB/s maxRSS_KiB" of dlbench generating N files of a case with P
# writers (P/threads ranks).
run_dlbench() {  # dir files side writers
  local dir=$1/dl files=$2 side=$3 procs=$(( $4 / threads )) t0 t1 rss
  local overrides
  mapfile -t overrides < <(case_overrides "$side")
  fresh "$dir"
  t0=$(now)
  rss=$( { /usr/bin/time -f '%M' mpiexec "${mpi_flags[@]}" -n "$procs" \
      "$dlbench" generate "$workload" --output "$dir/out" -q \
      ++workload.dataset.data_folder="$dir/data" "${overrides[@]}" \
      ++workload.dataset.num_files_train="$files" ++workload.dataset.num_files_eval=0 \
      ++workload.dataset.fsync=true ++workload.dataset.generation_threads="$threads" \
      ++workload.dataset.generation_buffer_size=$max_block >/dev/null; } 2>&1 | tail -1)
  t1=$(now)
  /usr/bin/python3 - "$dir/out/summary.json" "$t0" "$t1" "$rss" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["generation"]["total"]
wall = float(sys.argv[3]) - float(sys.argv[2])
print(t["MiB_per_second"], t["files_per_second"], t["bytes_written"] / wall / 2**20, sys.argv[4])
EOF
  rm -rf "$dir"
}

echo "| file system | case | P | fio MiB/s | dlbench MiB/s | ratio (range of paired runs) | fio files/s | dlbench files/s | ratio | wall: fio MiB/s | wall: dlbench MiB/s | wall ratio | dlbench max RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
result=$(mktemp)
scratch=()
trap 'rm -rf "$result" "${scratch[@]}"' EXIT
for root in "${dirs[@]}"; do
  mkdir -p "$root"
  dir=$(mktemp -d "$root/run.XXXXXX")  # concurrent runs of this script must not collide
  scratch+=("$dir")
  fs=$(df --output=fstype "$dir" | tail -1 | tr -d ' ')
  # 16 MiB files: 4096^2 + 128 B; 4 KiB files: 63^2 + 128 = 4097 B.
  for case in "$large_files 4096" "$small_files 63"; do
    set -- $case
    files=$1 side=$2 size=$(( $2 * $2 + 128 ))
    if [ "$format" != npy ]; then  # the size of a probe file of the same case
      mapfile -t probe < <(case_overrides "$side")
      "$dlbench" generate "$workload" --output "$dir/probe/out" -q \
        ++workload.dataset.data_folder="$dir/probe/data" "${probe[@]}" \
        ++workload.dataset.num_files_train=1 ++workload.dataset.num_files_eval=0 >/dev/null 2>&1
      size=$(stat -c %s "$dir"/probe/data/train/*."$format")
      rm -rf "$dir/probe"
    fi
    for procs in $writers_list; do
      [ $(( procs % threads )) -eq 0 ] || { echo "--writers must be multiples of --threads" >&2; exit 2; }
      fb=(); ff=(); fw=(); db=(); dff=(); dw=(); rss=()
      for ((r = 0; r < reps; ++r)); do
        for tool in $( ((r % 2)) && echo "dlbench fio" || echo "fio dlbench"); do
          if [ "$tool" = fio ]; then
            run_fio "$dir" "$files" "$size" "$procs" >"$result"  # a failure stops the script
            read -r b f w <"$result"; fb+=("$b"); ff+=("$f"); fw+=("$w")
          else
            run_dlbench "$dir" "$files" "$side" "$procs" >"$result"
            read -r b f w m <"$result"
            db+=("$b"); dff+=("$f"); dw+=("$w"); rss+=("$m")
          fi
        done
      done
      m() { printf '%s\n' "$@" | median; }
      awk -v fs="$fs" -v c="$files x $size B" -v p="$procs" -v fb="$(m "${fb[@]}")" -v db="$(m "${db[@]}")" \
          -v ff="$(m "${ff[@]}")" -v df="$(m "${dff[@]}")" -v fw="$(m "${fw[@]}")" -v dw="$(m "${dw[@]}")" \
          -v rss="$(m "${rss[@]}")" -v fall="${fb[*]}" -v dall="${db[*]}" 'BEGIN {
        n = split(fall, f, " "); split(dall, d, " ")
        lo = hi = d[1] / f[1]
        for (i = 2; i <= n; ++i) { r = d[i] / f[i]; if (r < lo) lo = r; if (r > hi) hi = r }
        printf "| %s | %s | %s | %.0f | %.0f | **%.2f** (%.2f-%.2f) | %.0f | %.0f | **%.2f** | %.0f | %.0f | %.2f | %.0f MiB |\n",
               fs, c, p, fb, db, db / fb, lo, hi, ff, df, df / ff, fw, dw, dw / fw, rss / 1024 }'
    done
  done
  rm -rf "$dir"
  rmdir "$root" 2>/dev/null || true
done
echo
echo "medians of $reps alternating runs; P = fio numjobs = dlbench ranks x generation_threads ($threads);"
echo "block min(size, 4 MiB); every file new and fsync'd; max RSS: largest process of the dlbench run; dlbench format: $format"
