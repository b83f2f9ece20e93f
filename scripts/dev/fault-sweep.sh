#!/usr/bin/env bash
# The exhaustive fault sweep (docs/reliability.md): a fault at every storage operation of a small
# run of each phase (generate, train, stage, checkpoint, drain, trace), at 1 rank, then at 2 ranks
# (the same operation index on both), and the killed-rank tests. ctest's faults.sweep runs a
# sample of 8 indices per phase; this runs all of them (about 15 minutes on 2 cores).
#   scripts/dev/fault-sweep.sh [BUILD_DIR] [fault_sweep.py options, e.g. --phase drain]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
shift || true
python=/usr/bin/python3
scratch="$(mktemp -d "${TMPDIR:-/tmp}/dlbench-fault-sweep.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
mpiexec="mpiexec --allow-run-as-root --oversubscribe -n"
"$python" "$root/tests/faults/fault_sweep.py" "$build/dlbench" "$root/tests/data" "$scratch/np1" "$@"
"$python" "$root/tests/faults/fault_sweep.py" "$build/dlbench" "$root/tests/data" "$scratch/np2" \
  --ranks 2 --mpiexec "$mpiexec" "$@"
"$python" "$root/tests/faults/killed_ranks.py" "$build/dlbench" "$root/tests/data" \
  "$scratch/killed" "$root/scripts/slurm/emulate-nodes.sh" --mpiexec "$mpiexec"
