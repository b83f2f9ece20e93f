#!/usr/bin/env bash
# Training-read benchmarks of dlbench; prints a Markdown table of medians over --reps runs.
#
#   scripts/bench/bench-read.sh [--reps N] [--dlbench PATH] [--dir DIR] [--quick]
#                         [--only jpeg|tfrecord_crc|au] [--before PATH]
#
#  (a) pipeline ceiling: computation 0, 8192 files of one 4 KiB npy sample on tmpfs (/dev/shm),
#      2 ranks, read_threads 1, 2, 4 — samples/s of all ranks (target >= 100,000);
#  (b) per-sample cost as the file count grows 1,024 -> 16,384 (same settings, best threads):
#      ratio of the time per sample (target <= 1.25);
#  (c) large reads: 16 files of 64 MiB (npy, npz, indexed_binary) in the page cache (DIR, a
#      disk file system, read once before), 2 ranks x 1 reader thread, against fio reading
#      the same files with 2 processes and the same block size (one 64 MiB read per sample),
#      10 passes each (target >= 0.9);
#  (d) AU: computation_time 20 ms, page cache, 2 ranks, 4 threads, unet3d-shaped (target >= 99%),
#      beside the same run with reader.thread_policy=normal;
#  (e) peak RSS per rank (VmHWM) on the unet3d-shaped tiny workload against
#      64 MiB + (read_threads + prefetch_size + 1) x batch bytes;
#  (f) micro-benchmarks: lateness of the emulated accelerator's wait, AU with a synthetic slow
#      reader against the analytic value, prefetch-queue hand-over and sampler rates;
#  (g) JPEG read + decode (retinanet-shaped: 568 x 568 grayscale, one image per file, page
#      cache), 1 rank with read_threads 1 and 2, computation 0: images/s, per-image time and the
#      sample read latency beside the file size, and the same images stored raw (npy, no
#      decoding) as the reference whose difference is the decoding. `--only jpeg` runs (g) alone.
#  (h), (i) the read path against the bare open/pread/close loop, and start-up against the MPI
#      floor (scripts/bench/bench-read-limit.sh, also runnable alone).
#  (j) TFRecord data CRC check (reader.verify_checksums, on by default): training reads of
#      16 files x 64 records of 114,244 bytes (ImageNet-sized) on tmpfs, 2 ranks x 1 thread,
#      30 epochs (3.3 GiB), check on and off alternated: CPU seconds per GiB checked and the
#      read rates, beside the reader micro-benchmark and the bare CRC32C rate (--reps >= 2).
#      `--only tfrecord_crc`: (j) alone.
#  (k) the emulation's own cost in AU: the (d) setup with the synthetic format (no I/O at all)
#      and with npz, alternating, N reps: AU medians and spread, AU(npz)/AU(synthetic) (targets
#      >= 99.5 % and >= 0.995) and the step breakdown (docs/metrics.md §2.1) that says where the
#      rest went. `--only au` runs (k) alone; --before PATH alternates every run with the
#      same run of another dlbench binary (e.g. a build of main) and reports both.
# Ranks are started with --bind-to none: with core binding each rank's reader threads would
# share the trainer's one core. DIR (default /var/tmp/dlbench-readbench) is emptied.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dir=/var/tmp/dlbench-readbench
quick=0
only=""
before=""
parse_options "reps dlbench dir quick! only before" "$@"
ensure_packages fio time python3 python3-yaml
[ -x "$dlbench" ] && [ -x "$DLBENCH_BUILD_DIR/tests/bench/bench_sleeper" ] || build_dlbench
shm=/dev/shm/dlbench-readbench
mapfile -t mpi_flags < <(mpirun_flags)
mpi=(mpirun "${mpi_flags[@]}" --bind-to none -np 2)
tiny="$DLBENCH_ROOT/tests/data/workloads/tiny_unet3d.yaml"
trap 'rm -rf "$shm"' EXIT

# A workload with N files of one sample of S bytes of FORMAT in FOLDER (scripts/lib.sh).
workload() {  # folder format files bytes [batch] [epochs]
  read_bench_workload readbench "$1" "$2" "$3" "$4" "${5:-32}" "${6:-3}" seed
}

median() { /usr/bin/python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
metric() {  # summary.json key
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metric"][sys.argv[2]])' "$1" "$2"
}
# Samples per second of all ranks over the epochs' read spans.
samples_per_second() {
  /usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metric"]; print(m["train_sample_read_latency_count"]/m["train_read_seconds"])' "$1"
}

generate() {  # yaml
  "$dlbench" generate "$1" --output "$dir/out-gen" -q >/dev/null
}
train() {  # yaml overrides... ; prints the output folder
  rm -rf "$dir/out"
  "${mpi[@]}" "$dlbench" run "$@" --output "$dir/out" --quiet >/dev/null
  echo "$dir/out"
}

# (g) JPEG read + decode against the same pixels stored raw.
jpeg_decode() {
  local images=512
  [ $quick = 1 ] && images=128
  echo "## JPEG read + decode (568 x 568 grayscale, one image per file, page cache, 1 rank, computation 0)"
  echo
  echo "| format | file size | read_threads | images/s (median) | per image per thread | sample read latency p50 | runs (images/s) |"
  echo "|---|---|---|---|---|---|---|"
  local format threads out runs lat size
  for format in jpeg npy; do
    rm -rf "$dir/img"
    workload "$dir/img" "$format" "$images" 322957 24 5 >"$dir/img.yaml"
    generate "$dir/img.yaml"
    cat "$dir"/img/train/* >/dev/null  # into the page cache
    size=$(find "$dir/img/train" -type f -printf '%s\n' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
    for threads in 1 2; do
      runs=(); lat=()
      for _ in $(seq "$reps"); do
        rm -rf "$dir/out"
        "$dlbench" run "$dir/img.yaml" --output "$dir/out" --quiet ++workload.reader.read_threads="$threads" >/dev/null
        runs+=("$(samples_per_second "$dir/out/summary.json")")
        lat+=("$(metric "$dir/out/summary.json" train_sample_read_latency_p50_seconds)")
      done
      local m
      m=$(median "${runs[@]}")
      printf '| %s | %s B | %s | %.0f | %.3f ms | %.3f ms | %s |\n' "$format" "$size" "$threads" "$m" \
        "$(/usr/bin/python3 -c "print(1000 * $threads / $m)")" \
        "$(/usr/bin/python3 -c "print(1000 * $(median "${lat[@]}"))")" "$(printf '%.0f ' "${runs[@]}")"
    done
  done
  rm -rf "$dir/img" "$dir/out" "$dir/out-gen"
  echo
  echo "npy: the same 568 x 568 pixels raw (322,624 B + 128 B header), read without decoding."
}

# (k) The (d) setup, synthetic (no I/O) and npz alternating; data generated once, in the page
# cache. Prints AU medians and spread, the paired ratio and the step breakdown's medians.
au_cost() {
  local data="$dir/au-cost/data"
  rm -rf "$dir/au-cost"
  local common=(++workload.dataset.data_folder="$data" ++workload.checkpoint.checkpoint_folder="$dir/au-cost/ckpt"
    ++workload.workflow.checkpoint=False ++workload.train.computation_time=0.02
    ++workload.reader.read_threads=4 ++workload.dataset.num_files_train=256 ++workload.train.epochs=3)
  local i format out label this="$dlbench"
  local -A binary=([this]="$this")
  [ -n "$before" ] && binary[before]="$before"
  for format in synthetic npz; do  # synthetic files are empty placeholders the dataset check wants
    "$this" generate "$tiny" "${common[@]}" ++workload.dataset.format=$format --output "$dir/out-gen" -q >/dev/null
  done
  for i in $(seq "$reps"); do
    for label in "${!binary[@]}"; do
      for format in synthetic npz; do
        dlbench="${binary[$label]}"
        out=$(train "$tiny" "${common[@]}" ++workload.workflow.generate_data=False \
          ++workload.dataset.format=$format)
        cp "$out/summary.json" "$dir/au-cost/$label.$format.$i.json"
      done
    done
  done
  dlbench="$this"
  echo "## Emulation's own cost in AU (20 ms compute, 2 ranks x 4 threads, 256 files, 3 epochs, alternating)"
  echo
  /usr/bin/python3 - "$dir/au-cost" "$reps" "${!binary[@]}" <<'PY'
import json, statistics, sys
folder, reps, labels = sys.argv[1], int(sys.argv[2]), sorted(sys.argv[3:], reverse=True)
mean = lambda xs: sum(xs) / len(xs)
print("| dlbench | format | AU % median | min - max | runs | lost to load waits"
      " | to waiting for the last rank | in the barrier itself | to the loop"
      " | overshoot ms/epoch | first batch ms |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
au = {}
for label in labels:
    for f in ("synthetic", "npz"):
        ms = [json.load(open(f"{folder}/{label}.{f}.{i}.json"))["metric"] for i in range(1, reps + 1)]
        au[label, f] = [m["train_au_mean_percentage"] for m in ms]
        # "n/a" for a dlbench without the step breakdown (an older build given with --before).
        med = lambda key, scale=1.0: (f"{statistics.median(mean(m[key]) * scale for m in ms):.3f}"
                                      if all(key in m for m in ms) else "n/a")
        values = au[label, f]
        print(f"| {label} | {f} | {statistics.median(values):.3f} | {min(values):.3f} - {max(values):.3f} | "
              + " ".join(f"{x:.2f}" for x in values)
              + f" | {med('train_au_loss_load_percentage')} | {med('train_au_loss_barrier_skew_percentage')}"
              + f" | {med('train_au_loss_barrier_latency_percentage')} | {med('train_au_loss_other_percentage')}"
              + f" | {med('train_compute_overshoot_seconds', 1e3)} | {med('train_first_batch_wait_seconds', 1e3)} |")
print()
for label in labels:
    syn, npz = au[label, "synthetic"], au[label, "npz"]
    ratios = [n / s for n, s in zip(npz, syn)]
    print(f"- {label}: AU(synthetic) median {statistics.median(syn):.3f} % (target >= 99.5 %); "
          f"AU(npz)/AU(synthetic): ratio of medians {statistics.median(npz) / statistics.median(syn):.4f}, "
          f"median of paired ratios {statistics.median(ratios):.4f} "
          f"({' '.join(f'{r:.4f}' for r in ratios)}; target >= 0.995)")
print()
print("AU points: mean over epochs of summary.json's train_au_loss_* lists, median over runs.")
PY
  rm -rf "$dir/au-cost" "$dir/out" "$dir/out-gen"
}

mkdir -p "$dir" "$shm"
echo "# dlbench read benchmarks — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, reps=$reps"
echo
echo "Command: \`scripts/bench/bench-read.sh --reps $reps$([ $quick = 1 ] && echo ' --quick')$([ -n "$only" ] && echo " --only $only")${before:+ --before $before}\`"
echo
case "$only" in
  jpeg) jpeg_decode; exit 0 ;;
  au) au_cost; exit 0 ;;
  ""|tfrecord_crc) ;;
  *) echo "unknown --only section $only (jpeg, tfrecord_crc, au)" >&2; exit 2 ;;
esac

# (j) first, so that `--only tfrecord_crc` can stop after it.
if [ -z "$only" ] || [ "$only" = tfrecord_crc ]; then
  echo "## TFRecord data CRC check (tmpfs, 16 files x 64 records of 114,244 B, 2 ranks x 1 thread, 30 epochs)"
  echo
  rm -rf "$shm/tfr"
  cat >"$dir/tfr.yaml" <<EOF
model: {name: readbench_tfrecord}
framework: tensorflow
workflow: {generate_data: false, train: true}
dataset: {data_folder: $shm/tfr, format: tfrecord, num_files_train: 16, num_files_eval: 0,
          num_samples_per_file: 64, record_length_bytes: 114244}
reader: {data_loader: tensorflow, batch_size: 16, read_threads: 1, prefetch_size: 4,
         file_shuffle: seed, sample_shuffle: seed}
train: {epochs: 30, computation_time: 0}
EOF
  generate "$dir/tfr.yaml"
  on=(); off=(); cpu_on=(); cpu_off=(); costs=(); wall_costs=()
  for _ in $(seq "$reps"); do
    for check in True False; do
      # train(), under /usr/bin/time: CPU seconds (user + sys) of mpirun and both ranks.
      out="$dir/out"
      rm -rf "$out"
      /usr/bin/time -f "%U %S" -o "$dir/cpu" "${mpi[@]}" "$dlbench" run "$dir/tfr.yaml" \
        --output "$out" --quiet ++workload.reader.verify_checksums=$check >/dev/null
      rate=$(metric "$out/summary.json" train_read_MiB_per_second)
      gib=$(/usr/bin/python3 -c "print($(metric "$out/summary.json" train_read_bytes) / 2**30)")
      cpu=$(awk '{print $1 + $2}' "$dir/cpu")
      if [ $check = True ]; then on+=("$rate"); cpu_on+=("$cpu"); else off+=("$rate"); cpu_off+=("$cpu"); fi
    done
    # The check's CPU per GiB read, and the extra wall time per GiB of each of the 2 ranks.
    costs+=("$(/usr/bin/python3 -c "print((${cpu_on[-1]} - ${cpu_off[-1]}) / $gib)")")
    wall_costs+=("$(/usr/bin/python3 -c "print(2 * 1024 * (1 / ${on[-1]} - 1 / ${off[-1]}))")")
  done
  rm -rf "$shm/tfr"
  echo "| data CRC | read MiB/s, all ranks (median) | runs | CPU s, both ranks (median) |"
  echo "|---|---|---|---|"
  printf '| checked (default) | %.0f | %s | %.2f |\n' "$(median "${on[@]}")" "$(printf '%.0f ' "${on[@]}")" "$(median "${cpu_on[@]}")"
  printf '| off (verify_checksums: false) | %.0f | %s | %.2f |\n' "$(median "${off[@]}")" "$(printf '%.0f ' "${off[@]}")" "$(median "${cpu_off[@]}")"
  echo
  printf 'CPU per GiB checked (median of paired runs): %.3f s (runs: %s)\n' \
    "$(median "${costs[@]}")" "$(printf '%.3f ' "${costs[@]}")"
  printf 'Extra read time per GiB per rank, from the rates (median of paired runs): %.3f s (runs: %s)\n' \
    "$(median "${wall_costs[@]}")" "$(printf '%.3f ' "${wall_costs[@]}")"
  echo
  echo "| micro-benchmark (median of $reps, CPU time) | GiB/s |"
  echo "|---|---|"
  for bench in "tfrecord BM_TfrecordRead" "crc32c BM_Crc32cHardware/1048576"; do
    set -- $bench
    "$DLBENCH_BUILD_DIR/tests/bench/bench_$1" --benchmark_filter="$2" --benchmark_repetitions="$reps" \
      --benchmark_report_aggregates_only=true --benchmark_format=json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
for b in json.load(sys.stdin)["benchmarks"]:
    if b.get("aggregate_name") == "median":
        print("| %s | %.2f |" % (b["run_name"], b["bytes_per_second"] / 2**30))'
  done
  echo
  [ "$only" = tfrecord_crc ] && exit 0
fi

# (a) + (b)
echo "## Pipeline ceiling and per-sample cost (tmpfs, npy, 4 KiB, computation 0, 2 ranks)"
echo
echo "| files | read_threads | samples/s (median) | runs |"
echo "|---|---|---|---|"
best_threads=1
best_rate=0
declare -A rate_of
for files in 8192 1024 16384; do
  threads_list=(1 2 4)
  [ "$files" != 8192 ] && threads_list=("$best_threads")
  rm -rf "$shm/data"
  # About 245k samples (~1 s) per run whatever the file count, so start-up weighs the same
  # (with 48k, a run lasted ~0.15 s and (b) swung between 1.0 and 1.27 from one script run to
  # the next).
  workload "$shm/data" npy "$files" 4096 32 $(( 245760 / files )) >"$dir/ceiling.yaml"
  generate "$dir/ceiling.yaml"
  for threads in "${threads_list[@]}"; do
    runs=()
    for _ in $(seq "$reps"); do
      out=$(train "$dir/ceiling.yaml" ++workload.reader.read_threads="$threads")
      runs+=("$(samples_per_second "$out/summary.json")")
    done
    m=$(median "${runs[@]}")
    rate_of[$files]=$m
    printf '| %s | %s | %.0f | %s |\n' "$files" "$threads" "$m" "$(printf '%.0f ' "${runs[@]}")"
    if [ "$files" = 8192 ] && /usr/bin/python3 -c "import sys; sys.exit(0 if $m > $best_rate else 1)"; then
      best_rate=$m
      best_threads=$threads
    fi
  done
done
rm -rf "$shm/data"
echo
printf 'Per-sample time 16384 files / 1024 files: %.3f (target <= 1.25)\n' \
  "$(/usr/bin/python3 -c "print(${rate_of[1024]} / ${rate_of[16384]})")"
echo

# (c)
echo "## Large reads: 16 files of 64 MiB in the page cache, 2 ranks x 1 thread vs fio (2 jobs, bs 64 MiB)"
echo
echo "| format | dlbench MiB/s | fio MiB/s | ratio of medians | median of paired ratios (runs) |"
echo "|---|---|---|---|---|"
large_files=16
[ $quick = 1 ] && large_files=4
# 10 passes over the files (1 GiB each) for both: with 3, a run lasted ~0.2 s and the ratio of
# medians swung by ±0.05 between script runs on this shared machine.
passes=10
for format in npy npz indexed_binary; do
  rm -rf "$dir/data"
  workload "$dir/data" "$format" "$large_files" $((64 * 1024 * 1024)) 1 >"$dir/large.yaml"
  generate "$dir/large.yaml"
  data_files=$(find "$dir/data/train" -type f ! -name '*.idx' | sort | paste -sd:)
  cat $(echo "$data_files" | tr ':' ' ') >/dev/null  # into the page cache
  d_runs=(); f_runs=(); ratios=()
  for _ in $(seq "$reps"); do
    out=$(train "$dir/large.yaml" ++workload.reader.read_threads=1 ++workload.reader.file_shuffle=off ++workload.reader.sample_shuffle=off ++workload.train.epochs="$passes")
    d_runs+=("$(metric "$out/summary.json" train_read_MiB_per_second)")
    f_runs+=("$(fio --name=read --filename="$data_files" --rw=read --bs=64m --numjobs=2 --invalidate=0 \
      --file_service_type=sequential --ioengine=psync --group_reporting --output-format=json \
      --loops="$passes" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["bw"]/1024)')")
    ratios+=("$(/usr/bin/python3 -c "print(${d_runs[-1]} / ${f_runs[-1]})")")
  done
  d=$(median "${d_runs[@]}"); f=$(median "${f_runs[@]}")
  printf '| %s | %.0f | %.0f | %.3f | %.3f (%s) |\n' "$format" "$d" "$f" \
    "$(/usr/bin/python3 -c "print($d / $f)")" "$(median "${ratios[@]}")" "$(printf '%.2f ' "${ratios[@]}")"
done
rm -rf "$dir/data"
echo

# (d) + (e)
echo "## AU and memory (unet3d-shaped tiny workload, page cache, 2 ranks)"
echo
# The default (reader threads under SCHED_BATCH) against the same run with reader.thread_policy
# normal, alternated so that both see the same machine.
au_batch=(); au_normal=()
rm -rf "$dir/unet"
for _ in $(seq "$reps"); do
  for policy in batch normal; do
    out=$(train "$tiny" ++workload.dataset.data_folder="$dir/unet/data" \
      ++workload.checkpoint.checkpoint_folder="$dir/unet/ckpt" ++workload.workflow.checkpoint=False \
      ++workload.train.computation_time=0.02 ++workload.reader.read_threads=4 \
      ++workload.dataset.num_files_train=256 ++workload.train.epochs=3 \
      ++workload.reader.thread_policy=$policy)
    au=$(metric "$out/summary.json" train_au_mean_percentage)
    if [ $policy = batch ]; then au_batch+=("$au"); else au_normal+=("$au"); fi
  done
done
printf 'AU at computation_time 20 ms, 4 threads: median %.2f%% (runs: %s; target >= 99%%)\n' \
  "$(median "${au_batch[@]}")" "$(printf '%.2f ' "${au_batch[@]}")"
printf 'Same runs with reader.thread_policy=normal: median %.2f%% (runs: %s)\n' \
  "$(median "${au_normal[@]}")" "$(printf '%.2f ' "${au_normal[@]}")"
rss_runs=()
for _ in $(seq "$reps"); do
  rm -rf "$dir/unet"
  rm -rf "$dir/out"
  # One file per rank: the ranks' stderr lines can interleave.
  rm -f "$dir"/rss.*
  "${mpi[@]}" sh -c 'exec /usr/bin/time -f "%M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$dir/rss" \
    "$dlbench" run "$tiny" --output "$dir/out" --quiet \
    ++workload.dataset.data_folder="$dir/unet/data" ++workload.checkpoint.checkpoint_folder="$dir/unet/ckpt" \
    ++workload.workflow.checkpoint=False >/dev/null 2>&1
  rss=$(cat "$dir"/rss.* | sort -n | tail -1)
  rss_runs+=("$rss")
done
# tiny_unet3d: 2 threads, prefetch 2 (DLIO default), batch 2 x 64 KiB after the resize but files of
# up to ~1 MiB are read whole, so the batch bytes are bounded by 2 x the largest file.
largest=$(find "$dir/unet/data/train" -type f -printf '%s\n' | sort -n | tail -1)
bound_kib=$(( (64 * 1024 * 1024 + (2 + 2 + 1) * 2 * largest) / 1024 ))
printf 'Peak RSS per rank: median %s KiB (runs: %s) vs bound 64 MiB + 5 x 2 x %s B = %s KiB\n' \
  "$(median "${rss_runs[@]}")" "${rss_runs[*]}" "$largest" "$bound_kib"
rm -rf "$dir/unet" "$dir/out" "$dir/out-gen"

# (f)
bench="$DLBENCH_BUILD_DIR/tests/bench"
echo
echo "## Micro-benchmarks (Google Benchmark, median of $reps repetitions)"
echo
# Prints "| name | counters |" rows of a Google Benchmark JSON report's median aggregates.
gbench_table() {  # binary counter...
  "$1" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_format=json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
counters = sys.argv[1:]
for b in json.load(sys.stdin)["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    name = b["run_name"].replace("/iterations:200", "").replace("/iterations:1", "").replace("/real_time", "")
    print("| " + name + " | " + " | ".join("%.4g" % b[c] for c in counters) + " |")
' "${@:2}"
}
echo "Emulated-accelerator wait (lateness past the asked duration, µs; never early):"
echo
echo "| benchmark/µs asked | mean late | max late |"
echo "|---|---|---|"
gbench_table "$bench/bench_sleeper" late_mean_us late_max_us
echo
echo "AU with a synthetic slow reader (30 ms per batch, 20 ms compute) against the analytic value:"
echo
echo "| benchmark | AU % | analytic % |"
echo "|---|---|---|"
gbench_table "$bench/bench_pipeline_overlap" au_percent au_analytic_percent
echo
echo "| benchmark | items/s |"
echo "|---|---|"
gbench_table "$bench/bench_prefetch_queue" items_per_second
gbench_table "$bench/bench_sampler" items_per_second

# (g)
echo
jpeg_decode

# (h) + (i)
echo
bash "$here/bench-read-limit.sh" --reps "$reps" --dlbench "$dlbench"

# (k)
echo
au_cost
