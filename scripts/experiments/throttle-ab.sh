#!/usr/bin/env bash
# A/B: does carrying debt under 2 ms (12b5193) keep a 0.9x bandwidth_limit near -10 %
# on a loaded machine? Per round, under the benchmark lock, at nice -n -20: unthrottled run with
# the old binary, a run limited to 0.9x that run's rate with the old binary, then the same with
# the new binary. Prints each round's ratios and the load.
#   OLD=BINARY NEW=BINARY scripts/experiments/throttle-ab.sh [PRESET] [ROUNDS]
set -euo pipefail
OLD=${OLD:-/var/tmp/ci-dlbench}; NEW=${NEW:-/var/tmp/ci-dlbench-new}; W=/var/tmp/ci-ab; L=/tmp/dlbench-bench.lock
P=${1:-ci_train_small}; ROUNDS=${2:-10}
rm -rf $W && mkdir -p $W
cd "$(dirname "$0")/../.."
nice -n -20 $OLD generate configs/ci/$P.yaml --output $W/gen -q ++workload.dataset.data_folder=$W/io >/dev/null
for i in $(seq 1 $ROUNDS); do
  flock $L bash -c '
    W='$W'; P='$P'; i='$i'
    rate() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"metric\"][\"train_read_MiB_per_second\"])" "$1/summary.json"; }
    one() { nice -n -20 "$1" run configs/ci/$P.yaml --output "$2" -q ++workload.dataset.data_folder=$W/io ++workload.workflow.generate_data=false "${@:3}" >/dev/null; }
    line="round $i load $(cut -d" " -f1 /proc/loadavg)"
    for b in old:'$OLD' new:'$NEW'; do
      name=${b%%:*}; bin=${b#*:}
      one $bin $W/A-$name-$i; a=$(rate $W/A-$name-$i)
      lim=$(python3 -c "print(int(0.9 * $a * 1024))")
      one $bin $W/C-$name-$i "++workload.storage.tiers={slow:{path:$W/io,bandwidth_limit:${lim}KiB/s}}"
      c=$(rate $W/C-$name-$i)
      line="$line $name A $(printf %.0f $a) C/A-1 $(python3 -c "print(f\"{$c/$a-1:+.3f}\")")"
    done
    echo "$line"'
done
