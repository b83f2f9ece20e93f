#!/usr/bin/env bash
# The test suite under sanitizers, in build-asan/ (ASan + UBSan) and build-tsan/ (TSan).
#   scripts/test-sanitizers.sh [address|thread]...     (default: both)
# Not part of scripts/test.sh: two more full builds would not fit CI's time on 2 cores. Run it
# before changing threaded or memory-handling code.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_packages "${DLBENCH_PACKAGES[@]}"
ensure_npm

kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(address thread)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# Open MPI's own allocations are reported as leaks by LeakSanitizer; they are not ours.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
status=0
for kind in "${kinds[@]}"; do
  case "$kind" in
    address) dir=build-asan ;;
    thread) dir=build-tsan ;;
    *) log "unknown sanitizer '$kind' (address or thread)"; exit 2 ;;
  esac
  DLBENCH_BUILD_DIR="$DLBENCH_ROOT/$dir" build_dlbench -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDLBENCH_SANITIZE="$kind" -DDLBENCH_BUILD_BENCHMARKS=OFF
  log "running the unit tests under $kind sanitizer"
  # Unit tests exercise the threads (reader pool, writers, drains) without MPI's own noise.
  (cd "$DLBENCH_ROOT/$dir" && ctest -L unit --output-on-failure --timeout 600 -j "$(nproc)") || status=1
done
exit $status
