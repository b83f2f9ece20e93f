#!/usr/bin/env bash
# The staging experiment driven by the insights (docs/insights.md): a training run straight from a
# throttled capacity tier is asked what limited it; when it reports storage_bound or
# first_epoch_slower, the staging policy its suggestion names (`stage.policy: <name>`) is run
# against it, alternating, --reps times each, and the change in train read bandwidth and AU is
# printed side by side (medians [min-max], ratios), with how often each finding fired in each
# variant. Published result to compare with: staging raised POSIX read bandwidth by up to 19 % for
# a TensorFlow workload.
#
#   scripts/experiments/insights-staging.sh [--reps N] [--dir DIR] [--fast DIR] [--pfs-bw RATE]
#                                           [--files N] [--file-mib M] [--epochs E]
#                                           [--compute SECONDS] [--dlbench PATH]
#
# The capacity tier is DIR/pfs with bandwidth_limit --pfs-bw; the fast tier is FAST (default a
# folder on /dev/shm), not throttled. Runs stay in DIR/out-<variant>-<rep>, raw values in
# DIR/runs.tsv. Exits 1 when the capacity run reports neither finding (nothing to act on).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"
source "$here/staging-workload.sh"

reps=5 dir=/var/tmp/dlbench-insights-staging fast=/dev/shm/dlbench-insights-staging
pfs_bw=100MiB/s files=64 file_mib=1 epochs=3 compute=0.02
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
parse_options "reps dir fast pfs-bw files file-mib epochs compute dlbench" "$@"
[ -x "$dlbench" ] || build_dlbench
py=/usr/bin/python3
rm -rf "$dir" "$fast"
mkdir -p "$dir" "$fast"
trap 'rm -rf "$fast"' EXIT

write_staging_workload "$dir/workload.yaml" insights_staging_experiment "$dir" "$fast" "$pfs_bw" "$files" "$file_mib" \
  "$epochs" "$compute"
"$dlbench" generate "$dir/workload.yaml" --quiet --output "$dir/out-generate" >/dev/null

# The findings of a run's summary.json, and the staging policy a storage_bound or
# first_epoch_slower suggestion names ("" when neither fired).
findings() { "$py" -c 'import json,sys; print(" ".join(f["id"] for f in json.load(open(sys.argv[1]))["insights"]))' "$1"; }
suggested_policy() {
  "$py" - "$1" <<'PY'
import json, re, sys
for f in json.load(open(sys.argv[1]))["insights"]:
    if f["id"] in ("storage_bound", "first_epoch_slower"):
        m = re.search(r"stage\.policy: (\w+)", f["suggestion"])
        if m:
            print(m.group(1))
            break
PY
}

"$dlbench" run "$dir/workload.yaml" --quiet --output "$dir/out-probe" >/dev/null
policy=$(suggested_policy "$dir/out-probe/summary.json")
log "capacity run's findings: $(findings "$dir/out-probe/summary.json")"
if [ -z "$policy" ]; then
  log "neither storage_bound nor first_epoch_slower fired (with a staging policy): nothing to try"
  exit 1
fi
log "the suggestion names stage.policy: $policy"

tsv="$dir/runs.tsv"
: > "$tsv"
for rep in $(seq 1 "$reps"); do
  order=(capacity "$policy")
  [ $((rep % 2)) = 0 ] && order=("$policy" capacity)
  for v in "${order[@]}"; do
    rm -rf "${fast:?}"/*
    out="$dir/out-$v-$rep"
    extra=()
    [ "$v" != capacity ] && extra=(++workload.workflow.stage=True "++workload.stage.policy=$v")
    "$dlbench" run "$dir/workload.yaml" "${extra[@]}" --quiet --output "$out" >/dev/null
    "$py" - "$out/summary.json" "$v" >> "$tsv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); v = sys.argv[2]; m = s["metric"]
ids = {f["id"] for f in s["insights"]}
rows = [
    ("train read bandwidth, MiB/s", m["train_read_MiB_per_second"]),
    ("train AU, %", m["train_au_mean_percentage"]),
    ("AU points lost to load waits", sum(m["train_au_loss_load_percentage"]) / len(m["train_au_loss_load_percentage"])),
]
rows += [(f"runs reporting {i} (1 = yes)", 1 if i in ids else 0)
         for i in ("storage_bound", "first_epoch_slower", "page_cache_served")]
for name, value in rows:
    print(f"{v}\t{name}\t{value}")
PY
  done
  log "repetition $rep of $reps done"
done
echo "### Insights-driven staging: $files files x $file_mib MiB, $epochs epochs, capacity tier $pfs_bw, computation_time $compute s, $reps runs each"
echo
echo "Capacity run's findings: $(findings "$dir/out-probe/summary.json"); suggested stage.policy: $policy"
echo
"$py" "$here/summarize.py" "$tsv" capacity
