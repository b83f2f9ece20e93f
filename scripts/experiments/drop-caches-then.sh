#!/bin/sh
# Drops the page cache (as root), then runs its arguments. As the head of a sweep's launcher
# (`--launcher "scripts/experiments/drop-caches-then.sh mpirun -np {ranks}"`), every run of the
# sweep reads its dataset from the storage, not from memory (results/sweep.md).
set -e
sync
if ! echo 3 >/proc/sys/vm/drop_caches; then
  echo "drop-caches-then.sh: cannot drop the page cache (needs root)" >&2
  exit 2
fi
exec "$@"
