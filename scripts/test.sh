#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build, and run the whole test suite
# (unit, MPI and interop tests) through ctest. Extra arguments go to ctest (e.g. -R config).
# Then the unit and MPI tests again under ASan + UBSan and the threaded modules' tests under TSan
# (scripts/test-sanitizers.sh, two more builds of only those tests); DLBENCH_SANITIZERS=0 skips
# them, e.g. for a quick local run. CI (.ci/run) runs everything: on a clean clone without ccache
# on 2 cores, measured at MEASURED (docs/reliability.md, "Sanitizers"), within its 30 minutes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_packages "${DLBENCH_PACKAGES[@]}"
ensure_npm
build_dlbench -DDLBENCH_BUILD_TESTS=ON -DDLBENCH_BUILD_BENCHMARKS=ON

# MPI tests run as root in CI; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
status=0
(cd "$DLBENCH_BUILD_DIR" && ctest --output-on-failure --timeout 300 -j "$(nproc)" "$@") || status=1
if [ "${DLBENCH_SANITIZERS:-1}" != 0 ]; then
  bash "$DLBENCH_ROOT/scripts/test-sanitizers.sh" || status=1
fi
exit $status
