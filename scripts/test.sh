#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build, and run the whole test suite through ctest,
# also under sanitizers. This is what CI runs (.ci/run), on every submission:
#   1. the Release build in build/: dlbench, its tools and benchmarks, and the end-to-end tests
#      (CLI, bad-input, fault, interop, fuzz-replay, layering: DLBENCH_TESTS=end-to-end);
#   2. those tests, while scripts/test-sanitizers.sh --build-only makes, at nice 10 on the CPU they
#      leave idle (the MPI and CLI tests mostly wait), the two sanitizer builds: build-asan/
#      (ASan + UBSan, the one build of every unit and MPI test) and build-tsan/ (TSan, the threaded
#      modules' unit tests);
#   3. the unit and MPI tests under ASan + UBSan, then the threaded modules' tests under TSan.
# Each stage logs its wall and CPU seconds; docs/reliability.md ("Sanitizers") shows how the whole
# fits CI's 30 minutes on 2 cores. Extra arguments go to the Release and ASan ctest runs (e.g.
# -R config). DLBENCH_SANITIZERS=0 skips the sanitizers: one Release build of every test
# (DLBENCH_TESTS=all), run in build/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_packages "${DLBENCH_PACKAGES[@]}"
ensure_npm
sanitizers="${DLBENCH_SANITIZERS:-1}"
tests=all
[ "$sanitizers" != 0 ] && tests=end-to-end
stage_start
build_dlbench -DDLBENCH_BUILD_TESTS=ON -DDLBENCH_BUILD_BENCHMARKS=ON -DDLBENCH_TESTS=$tests
stage_end "build (build/, Release, $tests tests)"

export_test_mpi_environment
builds_log="$DLBENCH_BUILD_DIR/sanitizer-builds.log"
if [ "$sanitizers" != 0 ]; then
  # A build that fails shows its errors when test-sanitizers.sh builds again below.
  nice -n 10 bash "$DLBENCH_ROOT/scripts/test-sanitizers.sh" --build-only >"$builds_log" 2>&1 &
  builder=$!
fi
status=0
stage_start
(cd "$DLBENCH_BUILD_DIR" && ctest --output-on-failure --timeout 300 -j "$(nproc)" "$@") || status=1
stage_end "tests (build/, $tests)"
if [ "$sanitizers" != 0 ]; then
  stage_start
  wait "$builder" || true
  stage_end "sanitizer builds, in the background since the tests began (wall: the wait after them)"
  grep -E '^dlbench: .*sanitizer: build' "$builds_log" >&2 || true
  bash "$DLBENCH_ROOT/scripts/test-sanitizers.sh" address thread -- "$@" || status=1
fi
exit $status
