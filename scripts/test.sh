#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build, and run the whole test suite
# (unit, MPI and interop tests) through ctest. Extra arguments go to ctest (e.g. -R config).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_packages "${DLBENCH_PACKAGES[@]}"
ensure_npm
build_dlbench -DDLBENCH_BUILD_TESTS=ON -DDLBENCH_BUILD_BENCHMARKS=ON

# MPI tests run as root in CI; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
cd "$DLBENCH_BUILD_DIR"
ctest --output-on-failure --timeout 300 -j "$(nproc)" "$@"
