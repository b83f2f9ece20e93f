#!/usr/bin/env bash
# Probe: does a bandwidth_limit slow ci_train_small by more than its ratio? Alternates
# unthrottled runs with runs limited to 0.9x and 2x the unthrottled run just before, at nice -n -20,
# each round under the benchmark lock; prints run-by-run rates and the load.
#   DLBENCH=BINARY scripts/experiments/throttle-probe.sh [PRESET]
set -euo pipefail
D=${DLBENCH:-/var/tmp/ci-dlbench}; W=/var/tmp/ci-probe; L=/tmp/dlbench-bench.lock; P=${1:-ci_train_small}
rm -rf $W && mkdir -p $W
cd "$(dirname "$0")/../.."
nice -n -20 $D generate configs/ci/$P.yaml --output $W/gen -q ++workload.dataset.data_folder=$W/io >/dev/null
rate() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metric']['train_read_MiB_per_second'])" "$1/summary.json"; }
one() { nice -n -20 $D run configs/ci/$P.yaml --output "$1" -q ++workload.dataset.data_folder=$W/io ++workload.workflow.generate_data=false "${@:2}" >/dev/null; }
for i in 1 2 3 4 5 6; do
  flock $L bash -c "$(declare -f one rate); D=$D W=$W P=$P
    one $W/A$i; a=\$(rate $W/A$i)
    for f in 0.9 2.0 100; do
      lim=\$(python3 -c \"print(int(\$f * \$a * 1024))\")
      one $W/C\$f-$i \"++workload.storage.tiers={slow:{path:$W/io,bandwidth_limit:\${lim}KiB/s}}\"
      echo \"round $i load \$(cut -d' ' -f1 /proc/loadavg) A \$a limit x\$f: \$(rate $W/C\$f-$i) ratio \$(python3 -c \"print(round(\$(rate $W/C\$f-$i)/\$a-1,3))\")\"
    done"
done
