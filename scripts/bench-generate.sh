#!/usr/bin/env bash
# Dataset generation against fio: the same number of files of the same size, written
# sequentially with the same block size and fsync'd, alternating fio and `dlbench generate`
# several times on the same file system; prints the medians and the ratio dlbench / fio.
#
#   scripts/bench-generate.sh [--reps N] [--ranks P] [--dlbench PATH] DIR...
#
# DIR: scratch folders on the file systems to compare (e.g. /dev/shm/genbench /var/tmp/genbench);
# they are created and emptied by this script and must not hold anything else.
# Cases: 64 files of 16 MiB (files >= 1 MiB: bandwidth) and 20000 files of 4 KiB (files/s).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

reps=3
ranks=1
dlbench="${DLBENCH:-$here/../build/dlbench}"
dirs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps="$2"; shift 2 ;;
    --ranks) ranks="$2"; shift 2 ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) dirs+=("$1"); shift ;;
  esac
done
[ ${#dirs[@]} -gt 0 ] || dirs=(/dev/shm/dlbench-genbench /var/tmp/dlbench-genbench)
[ -x "$dlbench" ] || { echo "no dlbench binary at $dlbench (use --dlbench)" >&2; exit 2; }
ensure_packages fio time python3

block=4M  # dlbench's generation buffer (workflow/generate_phase.h kMaxGenerationBuffer); smaller files: one write

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# fio: MiB/s (bw_bytes / 2^20, includes the fsyncs) and files/s, for N files of SIZE bytes.
run_fio() {  # dir files size
  rm -rf "$1/fio"; mkdir -p "$1/fio"
  fio --name=gen --directory="$1/fio" --nrfiles="$2" --filesize="$3" --size=$(( $2 * $3 )) \
      --rw=write --bs=$(( $3 < 4194304 ? $3 : 4194304 )) --ioengine=psync --openfiles=1 --file_service_type=sequential \
      --fsync_on_close=1 --end_fsync=1 --output-format=json |
    /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["write"]; \
s=j["runtime"]/1000.0; print(j["bw_bytes"]/2**20, ('"$2"')/s if s>0 else 0)'
  rm -rf "$1/fio"
}

# dlbench: MiB/s and files/s from summary.json, max RSS (KiB) of rank 0.
run_dlbench() {  # dir files side(d1=d2, uint8 samples; npy adds a 128-byte header)
  rm -rf "$1/dl"; mkdir -p "$1/dl"
  local rss
  rss=$( { /usr/bin/time -f '%M' mpiexec --allow-run-as-root --oversubscribe -n "$ranks" \
      "$dlbench" generate "$here/../tests/data/workloads/generate/tiny_generate.yaml" --output "$1/dl/out" -q \
      ++workload.dataset.data_folder="$1/dl/data" ++workload.dataset.format=npy \
      ++workload.dataset.num_files_train="$2" ++workload.dataset.num_files_eval=0 \
      ++workload.dataset.num_samples_per_file=1 ++workload.dataset.record_length_bytes=$(( $3 * $3 )) \
      ++workload.dataset.fsync=true ++workload.dataset.generation_threads=1 >/dev/null; } 2>&1 | tail -1)
  /usr/bin/python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["generation"]["total"]; \
print(t["MiB_per_second"], t["files_per_second"], sys.argv[2])' "$1/dl/out/summary.json" "$rss"
  rm -rf "$1/dl"
}

printf '| file system | case | fio MiB/s | dlbench MiB/s | ratio | fio files/s | dlbench files/s | ratio | dlbench max RSS (mpiexec tree) |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for dir in "${dirs[@]}"; do
  mkdir -p "$dir"
  fs=$(df --output=fstype "$dir" | tail -1)
  for case in "64 4096" "20000 63"; do  # 16 MiB files (4096^2 + 128 B); 4 KiB files (63^2 + 128 = 4097 B)
    set -- $case
    files=$1; side=$2; size=$(( side * side + 128 ))
    fio_bw=(); fio_fs=(); dl_bw=(); dl_fs=(); rss=()
    for ((r = 0; r < reps; ++r)); do
      read -r b f < <(run_fio "$dir" "$files" "$size"); fio_bw+=("$b"); fio_fs+=("$f")
      read -r b f m < <(run_dlbench "$dir" "$files" "$side"); dl_bw+=("$b"); dl_fs+=("$f"); rss+=("$m")
    done
    mfb=$(printf '%s\n' "${fio_bw[@]}" | median); mdb=$(printf '%s\n' "${dl_bw[@]}" | median)
    mff=$(printf '%s\n' "${fio_fs[@]}" | median); mdf=$(printf '%s\n' "${dl_fs[@]}" | median)
    mr=$(printf '%s\n' "${rss[@]}" | median)
    awk -v fs="$fs ($dir)" -v c="$files x $size B" -v a="$mfb" -v b="$mdb" -v x="$mff" -v y="$mdf" -v m="$mr" \
      'BEGIN {printf "| %s | %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f | %.0f MiB |\n", fs, c, a, b, b/a, x, y, y/x, m/1024}'
  done
  rmdir "$dir" 2>/dev/null || true
done
echo "medians of $reps alternating runs; ranks=$ranks; block $block; fsync per file (fio fsync_on_close + end_fsync)"
