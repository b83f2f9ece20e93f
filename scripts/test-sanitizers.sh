#!/usr/bin/env bash
# The tests under sanitizers, each in its own build folder holding only what it runs:
#   address  ASan + UBSan, build-asan/: every unit and MPI test (DLBENCH_TESTS=unit-mpi; targets
#            unit_tests mpi_tests). This is the one build of those tests: scripts/test.sh's Release
#            build holds only the end-to-end ones, so this build also has -Werror in CI.
#   thread   TSan, build-tsan/: the unit tests of the modules that run threads (THREADED_MODULES
#            below: the reader pool and prefetch queue in pipeline, the drain engine in
#            checkpoint, generation's writer threads, staging's file cache, the tracer in trace)
#            and of what those threads share
#            (storage's counting environments, util's sinks).
#   scripts/test-sanitizers.sh [--build-only] [address|thread]... [-- CTEST_ARGS...]
# Default: both. CTEST_ARGS (e.g. -R config) narrow the ASan run; the TSan run keeps its modules.
# scripts/test.sh runs this on every run, so CI does: the builds (--build-only) while the
# end-to-end tests run, then the tests. To fit CI's budget both builds are unity builds at -Og -g1
# and hold only these tests (docs/reliability.md, "Sanitizers", gives the measured times; each
# stage logs its wall and CPU seconds). Suppressions (tests/sanitizers/) cover Open MPI's and
# HDF5's own reports only. Exit status 1 when any sanitizer test fails.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_packages "${DLBENCH_PACKAGES[@]}"

THREADED_MODULES=(pipeline checkpoint generation staging trace storage util)

build_only=0
[ "${1:-}" = --build-only ] && { build_only=1; shift; }
kinds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do kinds+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
ctest_args=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(address thread)
supp="$DLBENCH_ROOT/tests/sanitizers"
export_test_mpi_environment
# Also in force while building: gtest_discover_tests runs each test executable to list its tests.
# The test executables that meet Open MPI's or HDF5's own leaks keep whole allocation stacks for
# the leak suppressions (tests/support/whole_leak_stacks.cpp); the others unwind fast.
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
status=0
for kind in "${kinds[@]}"; do
  case "$kind" in
    address)
      dir=build-asan
      targets="unit_tests mpi_tests"
      # The only build of these tests: its warnings are checked as the normal build's are (-Werror
      # in CI, build_dlbench); DlbenchWarnings.cmake turns off the one ASan false positive.
      werror=()
      select=("${ctest_args[@]}")
      ;;
    thread)
      dir=build-tsan
      targets="${THREADED_MODULES[*]/#/unit_}"
      # Its sources are the ASan build's, whose warnings are checked; GCC's flow-based warnings
      # under TSan's instrumentation would only add false positives.
      werror=(-DDLBENCH_WERROR=OFF)
      modules="${THREADED_MODULES[*]}"
      select=(-R "^(${modules// /|})\\.")
      ;;
    *) log "unknown sanitizer '$kind' (address or thread)"; exit 2 ;;
  esac
  stage_start
  DLBENCH_BUILD_DIR="$DLBENCH_ROOT/$dir" DLBENCH_BUILD_TARGETS="$targets" build_dlbench \
    -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-Og -g1" -DDLBENCH_SANITIZE="$kind" \
    -DCMAKE_UNITY_BUILD=ON -DDLBENCH_TESTS=unit-mpi -DDLBENCH_BUILD_BENCHMARKS=OFF "${werror[@]}"
  stage_end "$kind sanitizer: build ($dir)"
  [ $build_only = 1 ] && continue
  log "$kind sanitizer: running ctest ${select[*]}"
  stage_start
  # Passing tests are not listed (there are hundreds); failures print their sanitizer report.
  (cd "$DLBENCH_ROOT/$dir" && ctest "${select[@]}" --output-on-failure --timeout 600 \
    -j "$(nproc)") | grep -vE '^ +Start +[0-9]+: |^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed ' ||
    status=1
  stage_end "$kind sanitizer: tests"
done
exit $status
