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
#   scripts/bench/bench-generate.sh [--quick] [--reps N] [--writers "1 2"] [--threads T] [--dlbench PATH]
#                             [--formats "jpeg jpeg-assembled jpeg-per_file png ... csv csv.gz
#                                         csv-assembled csv.gz-per_file ... parquet"]
#                             [--files N]
#                             [DIR...]
#
# --formats: instead of the npy cases, each listed format generating files of
# one 568 x 568 uint8 sample (retinanet's image; csv: one line of 322,624 values; csv.gz: the same
# as one gzip stream at dataset.compression_level, DLIO's default 4) against fio. A bare format
# name generates what a user gets by default (dataset.content.encoding: auto, which assembles
# jpeg, png, csv and csv.gz); FORMAT-assembled and FORMAT-per_file set the encoding: assembled
# (jpeg files put together from encoded noise, png from deflated noise rows, csv and csv.gz from
# pre-formatted, pre-deflated pieces of values) or per_file (each file encoded, DLIO's way).
# Files per case (--files N sets every case's): 8192 (--quick: 1024) for the default and
# assembled encodings — a dataset's worth, as the issue's workloads have 10^4-10^6 files
# (retinanet_b200: 1,170,301), over which each rank's one-off pools (~12 ms for jpeg, 13-20 ms
# for png, 21 ms for csv.gz: results/generate.md) are spread as in real use; with 1,024 files they
# are a fifth of fio's time at 2 writers, with 128 about all of it — and 128 (--quick: 32) for
# per_file, whose encoder's time per file is the same at any count.
# fio writes as many files of the mean size that format produced (learnt from one untimed dlbench
# run first; jpeg/png/csv sizes depend on the pixels or values). jpeg and png generation is
# bound by the encoder's CPU time, csv by number formatting. parquet runs the two cases below
# instead: large, 8 rows of flux_b200's five float32 columns (17.3 MB files); small, 1 row of one
# 1000-element float32 column (~4.2 KB files), fio writing files of the mean size dlbench wrote.
#
# DIR: scratch folders on the file systems to compare (default /dev/shm/dlbench-genbench and
# /var/tmp/dlbench-genbench); each run works in its own new sub-folder, deleted at the end. Cases: 64 files of 16 MiB (+128 B npy header; bandwidth) and 5000 files of
# 4 KiB (files/s; each is fsync'd, ~5 ms apiece on the VM's disk); --quick: 16 and 1000 files. Runs alternate fio / dlbench (order swapped every
# repetition); the table shows medians of --reps (default 3) runs. Rates use each tool's own
# timed interval (fio: bytes / job runtime incl. its end fsync; dlbench: bytes / (last rank's
# end - first rank's start) incl. renames and folder syncs); the "wall" columns use the wall
# time of the whole command instead (process and MPI start-up included, so they favour fio).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
writers_list="1 2"
threads=1
quick=0
formats=""
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dirs=()
format_files=""
parse_options "reps writers=writers_list threads quick! dlbench formats files=format_files ..." "$@"
dirs+=("${positional[@]}")
[ ${#dirs[@]} -gt 0 ] || dirs=(/dev/shm/dlbench-genbench /var/tmp/dlbench-genbench)
ensure_packages fio time python3 openmpi-bin
[ -x "$dlbench" ] || build_dlbench
mapfile -t mpi_flags < <(mpirun_flags)
workload="$DLBENCH_ROOT/tests/data/workloads/generate/tiny_generate.yaml"

large_files=64; small_files=5000
[ "$quick" = 1 ] && { large_files=16; small_files=1000; }
max_block=$(( 4 * 1024 * 1024 ))  # dlbench's generation buffer (generation/generation.h)

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

# Prints "MiB/s files/s wall_MiB/s maxRSS_KiB mean_file_bytes" of dlbench generating N files of
# FORMAT (default npy: 128-byte header) of a case (case_overrides) with P writers (P/threads
# ranks).
# The dataset overrides of a case: one side x side uint8 sample per file, or for parquet ("side"
# 4096 is the large case, 63 the small one) flux_b200's columns or one small column.
FLUX_COLUMNS='[{name: t5_encodings, size: 524328}, {name: clip_encodings, size: 409}, {name: mean, size: 8232}, {name: logvar, size: 8232}, {name: timestamp, size: 7}]'
case_overrides() {  # side format
  local format=${2%-*}
  case $2 in
    *-assembled|*-per_file)  # formats.md: jpeg, png, csv, csv.gz; bare: the default (auto)
      echo "++workload.dataset.content.encoding=${2##*-}" ;;
    *) format=$2 ;;
  esac
  if [ "$format" = csv.gz ]; then  # csv with DLIO's compression: gzip (dataset.compression_level)
    echo "++workload.dataset.format=csv"
    echo "++workload.dataset.compression=gzip"
  else
    echo "++workload.dataset.format=$format"
  fi
  if [ "$2" != parquet ]; then
    printf '%s\n' ++workload.dataset.num_samples_per_file=1
    echo "++workload.dataset.record_length_bytes=$(( $1 * $1 ))"
  elif [ "$1" -gt 1000 ]; then
    printf '%s\n' ++workload.dataset.num_samples_per_file=8
    echo "++workload.dataset.record_length_bytes=2164832"
    echo "++workload.dataset.parquet.columns=$FLUX_COLUMNS"
  else
    printf '%s\n' ++workload.dataset.num_samples_per_file=1
    echo "++workload.dataset.record_length_bytes=4000"
    echo "++workload.dataset.parquet.columns=[{name: data, size: 1000}]"
  fi
}

run_dlbench() {  # dir files side writers [format]
  local dir=$1/dl files=$2 side=$3 procs=$(( $4 / threads )) format=${5:-npy} t0 t1 rss
  local overrides
  mapfile -t overrides < <(case_overrides "$side" "$format")
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
print(t["MiB_per_second"], t["files_per_second"], t["bytes_written"] / wall / 2**20, sys.argv[4],
      t["bytes_written"] // t["files"])
EOF
  rm -rf "$dir"
}

m() { printf '%s\n' "$@" | median; }
# One table row from the runs in fb ff fw (fio) and db dff dw rss (dlbench).
report_row() {  # file_system case writers
  awk -v fs="$1" -v c="$2" -v p="$3" -v fb="$(m "${fb[@]}")" -v db="$(m "${db[@]}")" \
      -v ff="$(m "${ff[@]}")" -v df="$(m "${dff[@]}")" -v fw="$(m "${fw[@]}")" -v dw="$(m "${dw[@]}")" \
      -v rss="$(m "${rss[@]}")" -v fall="${fb[*]}" -v dall="${db[*]}" 'BEGIN {
    n = split(fall, f, " "); split(dall, d, " ")
    lo = hi = d[1] / f[1]
    for (i = 2; i <= n; ++i) { r = d[i] / f[i]; if (r < lo) lo = r; if (r > hi) hi = r }
    printf "| %s | %s | %s | %.0f | %.0f | **%.2f** (%.2f-%.2f) | %.0f | %.0f | **%.2f** | %.0f | %.0f | %.2f | %.0f MiB |\n",
           fs, c, p, fb, db, db / fb, lo, hi, ff, df, df / ff, fw, dw, dw / fw, rss / 1024 }'
}

# Runs fio and dlbench alternately --reps times each (order swapped every repetition): fio
# writing FILES files of SIZE bytes, dlbench FILES files of one SIDE x SIDE sample of FORMAT.
compare() {  # dir files size side writers format
  fb=(); ff=(); fw=(); db=(); dff=(); dw=(); rss=()
  for ((r = 0; r < reps; ++r)); do
    for tool in $( ((r % 2)) && echo "dlbench fio" || echo "fio dlbench"); do
      if [ "$tool" = fio ]; then
        run_fio "$1" "$2" "$3" "$5" >"$result"  # a failure stops the script
        read -r b f w <"$result"; fb+=("$b"); ff+=("$f"); fw+=("$w")
      else
        run_dlbench "$1" "$2" "$4" "$5" "$6" >"$result"
        read -r b f w mem _ <"$result"
        db+=("$b"); dff+=("$f"); dw+=("$w"); rss+=("$mem")
      fi
    done
  done
}

echo "| file system | case | P | fio MiB/s | dlbench MiB/s | ratio (range of paired runs) | fio files/s | dlbench files/s | ratio | wall: fio MiB/s | wall: dlbench MiB/s | wall ratio | dlbench max RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
result=$(mktemp)
scratch=()
trap 'rm -rf "$result" "${scratch[@]}"' EXIT
# Files of a --formats case (the header: why the default and assembled encodings write more).
case_files() {  # format
  if [ -n "$format_files" ]; then echo "$format_files"
  elif [[ "$1" == *-per_file ]]; then echo $(( quick ? 32 : 128 ))
  else echo $(( quick ? 1024 : 8192 ))
  fi
}
for root in "${dirs[@]}"; do
  mkdir -p "$root"
  dir=$(mktemp -d "$root/run.XXXXXX")  # concurrent runs of this script must not collide
  scratch+=("$dir")
  fs=$(df --output=fstype "$dir" | tail -1 | tr -d ' ')
  for procs in $writers_list; do
    [ $(( procs % threads )) -eq 0 ] || { echo "--writers must be multiples of --threads" >&2; exit 2; }
  done
  if [ -n "$formats" ]; then
    for format in $formats; do
      if [ "$format" = parquet ]; then
        for case in "$large_files 4096" "$small_files 63"; do
          set -- $case
          run_dlbench "$dir" "$1" "$2" 1 parquet >"$result"  # the mean file size, untimed
          read -r _ _ _ _ size <"$result"
          for procs in $writers_list; do
            compare "$dir" "$1" "$size" "$2" "$procs" parquet
            report_row "$fs" "parquet: $1 x $size B" "$procs"
          done
        done
        continue
      fi
      # The mean file size this format produces, from one untimed run.
      files=$(case_files "$format")
      run_dlbench "$dir" "$files" 568 1 "$format" >"$result"
      read -r _ _ _ _ size <"$result"
      for procs in $writers_list; do
        compare "$dir" "$files" "$size" 568 "$procs" "$format"
        report_row "$fs" "$format: $files x 568x568 image, mean $size B" "$procs"
      done
    done
  else
    # 16 MiB files: 4096^2 + 128 B; 4 KiB files: 63^2 + 128 = 4097 B.
    for case in "$large_files 4096" "$small_files 63"; do
      set -- $case
      files=$1 side=$2 size=$(( $2 * $2 + 128 ))
      for procs in $writers_list; do
        compare "$dir" "$files" "$size" "$side" "$procs" npy
        report_row "$fs" "$files x $size B" "$procs"
      done
    done
  fi
  rm -rf "$dir"
  rmdir "$root" 2>/dev/null || true
done
if [ -n "$formats" ]; then
  # What DLIO's own generators spend per file on the same 568 x 568 sample (encoding to memory,
  # no I/O): PIL's JPEG and PNG encoders, pandas' to_csv of one line (one run: it is slow).
  echo
  /usr/bin/python3 - $formats <<'EOF'
import io, sys, time
import numpy as np
records = np.random.randint(255, size=(568, 568), dtype=np.uint8)
def per_file(save, runs):
    start = time.perf_counter()
    for _ in range(runs):
        save()
    return (time.perf_counter() - start) / runs * 1000
times = []
for fmt in sys.argv[1:]:
    if fmt in ("jpeg", "png"):
        from PIL import Image
        image = Image.fromarray(records)
        kw = {"bits": 8} if fmt == "jpeg" else {}
        ms = per_file(lambda: image.save(io.BytesIO(), format=fmt.upper(), **kw), 20)
        times.append("PIL %s %.1f ms" % (fmt, ms))
    elif fmt == "csv":
        import pandas as pd
        ms = per_file(lambda: pd.DataFrame(data=[records.reshape(-1)]).to_csv(
            io.StringIO(), index=False, header=False), 1)
        times.append("pandas csv %.0f ms" % ms)
if times:
    print("DLIO's generators per 568 x 568 file, encoding only: " + ", ".join(times))
EOF
fi
echo
echo "medians of $reps alternating runs; P = fio numjobs = dlbench ranks x generation_threads ($threads);"
echo "block min(size, 4 MiB); every file new and fsync'd; max RSS: largest process of the dlbench run"
