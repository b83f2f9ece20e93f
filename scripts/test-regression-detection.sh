#!/usr/bin/env bash
# Shows that `dlbench compare` catches a slower storage (20 % and 10 %) and passes when only the
# machine was noisy, with the CI presets of configs/ci/, and measures how often it is wrong.
#
#   scripts/test-regression-detection.sh [--trials T] [--repeat N] [--presets "P..."]
#        [--slowdowns "20 10"] [--tolerances "10% 5%"] [--lock FILE] [--until HH:MM]
#        [--dir DIR] [--io IO_DIR] [--dlbench PATH]
#   scripts/test-regression-detection.sh --tables TRIALS.tsv... [--repeat N] [...]
#
# For each preset and each of T trials, sets of N runs (`--repeat N`), in this order:
#   A    unthrottled (the baseline);
#   C<s> for each slowdown s (percent): the storage under test limited to (100 − s) % of A's
#        median rate with a storage tier's bandwidth_limit over the data (or checkpoint) folder;
#   B    unthrottled again, after the C sets, so that A against B spans the same time as A
#        against the last C.
# For each tolerance, `compare A C<s>` exiting 0 is a miss and `compare A B` exiting 4 a false
# positive. The rate throttled is the preset's own: train read MiB/s, checkpoint write GiB/s or
# generation MiB/s. With --lock, each trial of a preset holds `flock FILE` (so that measurements
# of others interleave, never overlap). Prints a Markdown table per tolerance (counts, the median
# change of the throttled metric, the load average over the trials) and writes every trial to
# DIR/trials.tsv. Exits 1 when a single-trial demo (T = 1) at the first tolerance does not come out
# as expected for the first slowdown. DIR (default /var/tmp/dlbench-regression) is emptied. The
# presets' data and checkpoints go to IO_DIR/<preset> (default DIR/io: the storage under test).
# --until: no trial starts after that time (UTC), so that a measurement window is kept.
# --tables: prints the tables of earlier runs' trials.tsv files (merged) and exits.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

trials=5
repeat=8
presets="ci_train_small ci_train_large ci_checkpoint ci_generate"
slowdowns="20 10"
tolerances="10% 5%"
lock=""
dir=/var/tmp/dlbench-regression
io_dir=""
until=""
tables=()
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --presets) presets="$2"; shift 2 ;;
    --slowdowns) slowdowns="$2"; shift 2 ;;
    --tolerances|--tolerance) tolerances="$2"; shift 2 ;;
    --lock) lock="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --io) io_dir="$2"; shift 2 ;;
    --until) until="$(date -u -d "$2" +%s)"; shift 2 ;;
    --tables) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do tables+=("$1"); shift; done ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

# The tables, from trials.tsv: per tolerance, per preset, false positives (B exit 4) and misses
# (C<s> exit 0) over the trials with their exact (Clopper–Pearson) 95 % interval, other exits,
# median changes and the loads seen.
print_tables() {  # trials.tsv...
  /usr/bin/python3 - "$slowdowns" "$tolerances" "$repeat" "$@" <<'PY'
import csv, statistics, sys
from scipy.stats import beta
def rate(k, n):  # "k of n (lo–hi %)", the exact 95 % interval of the rate
    lo = beta.ppf(0.025, k, n - k + 1) if k > 0 else 0.0
    hi = beta.ppf(0.975, k + 1, n - k) if k < n else 1.0
    return f"{k} of {n} ({100 * lo:.0f}–{100 * hi:.0f} %)"
slowdowns, tolerances, repeat = sys.argv[1].split(), sys.argv[2].split(), sys.argv[3]
rows = [r for f in sys.argv[4:] for r in csv.DictReader(open(f), delimiter="\t")]
for tol in tolerances:
    print(f"\n`--tolerance {tol}`, {repeat} runs a side\n")
    head = "| preset | trials | false positives (A vs B exit 4) |"
    head += "".join(f" misses at −{s} % (exit 0) |" for s in slowdowns)
    head += " other exits | median change B |" + "".join(f" C{s} |" for s in slowdowns) + " load average |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for preset in dict.fromkeys(r["preset"] for r in rows):
        mine = [r for r in rows if r["preset"] == preset and r["tolerance"] == tol]
        def of(s): return [r for r in mine if r["set"] == s]
        trials = len(of("B"))
        fp = sum(r["exit"] == "4" for r in of("B"))
        misses = [sum(r["exit"] == "0" for r in of(f"C{s}")) for s in slowdowns]
        other = sum(r["exit"] not in ("0", "4") for r in mine)
        change = lambda s: f"{100 * statistics.median(float(r['change']) for r in of(s)):+.1f} %"
        loads = [float(r[k]) for r in mine for k in ("load_start", "load_end")]
        print(f"| {preset} | {trials} | {rate(fp, trials)} |" + "".join(f" {rate(m, trials)} |" for m in misses)
              + f" {other} | {change('B')} |" + "".join(f" {change(f'C{s}')} |" for s in slowdowns)
              + f" {min(loads):.1f}–{max(loads):.1f} |")
PY
}

ensure_packages python3 python3-scipy
if [ ${#tables[@]} -gt 0 ]; then print_tables "${tables[@]}"; exit 0; fi
[ -x "$dlbench" ] || build_dlbench
rm -rf "$dir" && mkdir -p "$dir"
io_dir="${io_dir:-$dir/io}"

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

compare_code() {  # baseline current tolerance -> exit code of compare, table kept next to current
  local code=0
  "$dlbench" compare "$1" "$2" --tolerance "$3" >"$2.compare-${3%\%}.txt" 2>&1 || code=$?
  echo "$code"
}

load1() { cut -d' ' -f1 /proc/loadavg; }

# One trial of a preset: its sets and comparisons, one line per comparison in trials.tsv.
trial() {  # preset t
  local preset="$1" t="$2" metric to_mib base io rate limit load_start s tol code change
  read -r metric to_mib <<<"$(preset_metric "$preset")"
  base="$dir/$preset/$t"; io="$io_dir/$preset"
  load_start=$(load1)
  run_set "$preset" "$base/A" "$io"
  rate=$(median_of "$base/A/aggregate.json" "$metric")
  for s in $slowdowns; do
    limit=$(/usr/bin/python3 -c "import sys; print(f'{max(1, int((1 - float(sys.argv[3]) / 100) * float(sys.argv[1]) * float(sys.argv[2]) * 1024))}KiB/s')" "$rate" "$to_mib" "$s")
    run_set "$preset" "$base/C$s" "$io" "++workload.storage.tiers={slow:{path:$io,bandwidth_limit:$limit}}"
  done
  run_set "$preset" "$base/B" "$io"
  for tol in $tolerances; do
    for s in $slowdowns B; do
      local set="C$s"; [ "$s" = B ] && set=B
      code=$(compare_code "$base/A" "$base/$set" "$tol")
      change=$(/usr/bin/python3 -c "import sys; print(float(sys.argv[2]) / float(sys.argv[1]) - 1)" "$rate" "$(median_of "$base/$set/aggregate.json" "$metric")")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$preset" "$t" "$tol" "$set" "$code" "$change" "$load_start" "$(load1)" >>"$dir/trials.tsv"
    done
  done
  log "$preset trial $t: A median $rate (x$to_mib MiB/s), load $load_start -> $(load1): $(awk -F'\t' -v p="$preset" -v t="$t" '$1 == p && $2 == t { printf "%s@%s->%s ", $4, $3, $5 }' "$dir/trials.tsv")"
}

printf 'preset\ttrial\ttolerance\tset\texit\tchange\tload_start\tload_end\n' >"$dir/trials.tsv"
for t in $(seq 1 "$trials"); do
  for preset in $presets; do
    if [ -n "$until" ] && [ "$(date -u +%s)" -ge "$until" ]; then break 2; fi
    if [ -n "$lock" ]; then
      exec {fd}>"$lock"
      flock "$fd"
      trial "$preset" "$t"
      exec {fd}>&-
    else
      trial "$preset" "$t"
    fi
  done
done

for preset in $presets; do rm -rf "${io_dir:?}/$preset"; done

print_tables "$dir/trials.tsv"

# A single trial is a demo: it must catch the first slowdown and pass the unthrottled set.
first_tol="${tolerances%% *}"; first_slow="${slowdowns%% *}"
if [ "$trials" -eq 1 ] && awk -F'\t' -v tol="$first_tol" -v c="C$first_slow" \
    'NR > 1 && $3 == tol && (($4 == c && $5 != 4) || ($4 == "B" && $5 != 0)) { bad = 1 } END { exit !bad }' \
    "$dir/trials.tsv"; then
  exit 1
fi
