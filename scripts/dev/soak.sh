#!/usr/bin/env bash
# Soak test: randomized valid `dlbench run`s of the built dlbench for MINUTES, each checked against
# invariants (sample coverage, bytes against the counters, manifests, traces, nothing leaked);
# tests/soak/soak.py says what it draws and checks.
#   scripts/dev/soak.sh MINUTES [--seed S] [--runs N] [--work DIR] [--keep]
# A failing run prints its seed, workload and the command that replays it
# (scripts/dev/soak.sh 1 --seed S --runs 1), keeps its folder, and the script exits 1.
# Runs at the lowest CPU priority (SOAK_NICE, default 19); folders under /tmp/dlbench-soak.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

minutes="${1:-}"
if ! [[ "$minutes" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  log "usage: scripts/dev/soak.sh MINUTES [--seed S] [--runs N] [--work DIR] [--keep]"
  exit 2
fi
shift
ensure_packages "${DLBENCH_PACKAGES[@]}"
if [ ! -x "$DLBENCH_BUILD_DIR/dlbench" ]; then
  build_dlbench
fi
exec nice -n "${SOAK_NICE:-19}" /usr/bin/python3 "$DLBENCH_ROOT/tests/soak/soak.py" \
  --dlbench "$DLBENCH_BUILD_DIR/dlbench" --minutes "$minutes" "$@"
