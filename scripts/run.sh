#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build, and run a workload on 2 ranks.
#   scripts/run.sh [WORKLOAD] [OVERRIDES...]      (WORKLOAD defaults to `default`)
# The run happens in a fresh temporary folder (data, checkpoints and results stay there);
# set DLBENCH_RANKS to change the rank count.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

workload="${1:-default}"
[ $# -gt 0 ] && shift
# A YAML file given by a relative path names it from here, not from the fresh folder the run
# happens in (`scripts/run.sh configs/ci/ci_train_small.yaml` was "does not exist", exit 2).
[ -f "$workload" ] && workload="$(realpath "$workload")"
# Checked before the build: mpirun's -np 0 means "as many ranks as slots", and a word is an
# mpirun usage error after minutes of building.
ranks="${DLBENCH_RANKS:-2}"
if ! [[ "$ranks" =~ ^[1-9][0-9]*$ ]]; then
  log "DLBENCH_RANKS must be a whole number of ranks, 1 or more, not '$ranks'"
  exit 2
fi
rank_noun=ranks
[ "$ranks" = 1 ] && rank_noun=rank

ensure_packages "${DLBENCH_PACKAGES[@]}"
build_dlbench

workdir="$(mktemp -d "${TMPDIR:-/tmp}/dlbench-run-XXXXXX")"
log "running '$workload' on $ranks $rank_noun in $workdir"
cd "$workdir"
mapfile -t flags < <(mpirun_flags)
set +e
mpirun "${flags[@]}" -np "$ranks" "$DLBENCH_BUILD_DIR/dlbench" run "$workload" "$@" \
  --output "$workdir/output"
status=$?
set -e
log "results in $workdir/output (exit code $status)"
exit $status
