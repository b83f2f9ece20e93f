#!/usr/bin/env bash
# Shows that `dlbench compare` catches a 20 % slower storage and passes when only the machine
# was noisy, with the CI presets of configs/ci/, and measures how often it is wrong.
#
#   scripts/test-regression-detection.sh [--trials T] [--repeat N] [--presets "P..."]
#                                        [--dir DIR] [--dlbench PATH] [--tolerance 10%]
#
# For each preset and each of T trials, three sets of N runs (`--repeat N`), in this order:
#   A  unthrottled (the baseline);
#   C  the storage under test slowed to 80 % of A's median rate with a storage tier's
#      bandwidth_limit over the data (or checkpoint) folder — the "regression";
#   B  unthrottled again, after C, so that A against B spans the same time as A against C.
# `compare A C` must exit 4 (else: a miss) and `compare A B` must exit 0 (else: a false
# positive). The rate throttled is the preset's own: train read MiB/s, checkpoint write GiB/s
# or generation MiB/s. Prints a Markdown table of the counts, the observed changes of the
# throttled metric (median over trials) and the exit codes. Exits 1 when a single-trial demo
# (T = 1) does not come out as expected. DIR (default /var/tmp/dlbench-regression) is emptied.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

trials=5
repeat=8
presets="ci_train_small ci_train_large ci_checkpoint ci_generate"
dir=/var/tmp/dlbench-regression
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
tolerance=10%
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --presets) presets="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    --tolerance) tolerance="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
ensure_packages python3
[ -x "$dlbench" ] || build_dlbench
rm -rf "$dir" && mkdir -p "$dir"

# What a preset exercises: the command, the folder its storage I/O goes to (throttled by the
# tier), and the aggregate's metric whose median sets the throttle, with its unit factor to MiB/s.
preset_command() { case "$1" in ci_checkpoint) echo checkpoint ;; ci_generate) echo generate ;; *) echo run ;; esac; }
preset_metric() {
  case "$1" in
    ci_checkpoint) echo "metric.checkpoint_write_GiB_per_second 1024" ;;
    ci_generate) echo "generation.total.MiB_per_second 1" ;;
    *) echo "metric.train_read_MiB_per_second 1" ;;
  esac
}
preset_io_override() {  # preset folder
  case "$1" in
    ci_checkpoint) echo "++workload.checkpoint.checkpoint_folder=$2" ;;
    *) echo "++workload.dataset.data_folder=$2" ;;
  esac
}

median_of() {  # aggregate.json metric
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metrics"][sys.argv[2]]["median"])' "$1" "$2"
}

run_set() {  # preset out io_folder [tier override]
  local preset="$1" out="$2" io="$3"; shift 3
  if [ "$preset" = ci_generate ]; then rm -rf "$io"; fi  # generation writes fresh run-<i> folders
  "$dlbench" "$(preset_command "$preset")" "$DLBENCH_ROOT/configs/ci/$preset.yaml" --repeat "$repeat" \
    --output "$out" -q "$(preset_io_override "$preset" "$io")" "$@" >/dev/null
}

compare_code() {  # baseline current -> exit code of compare, table kept next to current
  local code=0
  "$dlbench" compare "$1" "$2" --tolerance "$tolerance" >"$2.compare.txt" 2>&1 || code=$?
  echo "$code"
}

echo "| preset | trials | runs a side | misses (throttled, exit 0) | false positives (unthrottled, exit 4) | other exits | throttled metric: median change A→C | A→B |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
status=0
for preset in $presets; do
  read -r metric to_mib <<<"$(preset_metric "$preset")"
  io="$dir/$preset/io"
  misses=0; false_positives=0; others=0; changes_c=(); changes_b=()
  for t in $(seq 1 "$trials"); do
    base="$dir/$preset/$t"
    run_set "$preset" "$base/A" "$io"
    rate=$(median_of "$base/A/aggregate.json" "$metric")
    limit=$(/usr/bin/python3 -c "import sys; print(f'{max(1, int(0.8 * float(sys.argv[1]) * float(sys.argv[2]) * 1024))}KiB/s')" "$rate" "$to_mib")
    run_set "$preset" "$base/C" "$io" "++workload.storage.tiers={slow:{path:$io,bandwidth_limit:$limit}}"
    run_set "$preset" "$base/B" "$io"
    code_c=$(compare_code "$base/A" "$base/C")
    code_b=$(compare_code "$base/A" "$base/B")
    [ "$code_c" = 0 ] && misses=$((misses + 1))
    [ "$code_b" = 4 ] && false_positives=$((false_positives + 1))
    case "$code_c$code_b" in 40|00|44|04) ;; *) others=$((others + 1)) ;; esac
    changes_c+=("$(/usr/bin/python3 -c "import sys; print(float(sys.argv[2]) / float(sys.argv[1]) - 1)" "$rate" "$(median_of "$base/C/aggregate.json" "$metric")")")
    changes_b+=("$(/usr/bin/python3 -c "import sys; print(float(sys.argv[2]) / float(sys.argv[1]) - 1)" "$rate" "$(median_of "$base/B/aggregate.json" "$metric")")")
    log "$preset trial $t: limit $limit, compare A C -> $code_c, compare A B -> $code_b"
  done
  median_pct() { /usr/bin/python3 -c "import statistics,sys; print(f'{100 * statistics.median(map(float, sys.argv[1:])):+.1f}%')" "$@"; }
  echo "| $preset | $trials | $repeat | $misses | $false_positives | $others | $(median_pct "${changes_c[@]}") | $(median_pct "${changes_b[@]}") |"
  if [ "$trials" -eq 1 ] && { [ "$misses" -gt 0 ] || [ "$false_positives" -gt 0 ] || [ "$others" -gt 0 ]; }; then status=1; fi
done
exit $status
