#!/usr/bin/env bash
# default_output_folder.sh FOLDER: a run without --output writes into
# output/<model.name>/<YYYYmmdd-HHMMSS>/; when a run of the same second already has that name
# (a loop of short runs), it takes <stamp>-2 instead of replacing that run's results.
# The folders of the next seconds are made first, each as an earlier run of dlbench leaves it
# (dlbench's marker and a summary.json), so the run's own second is taken whatever it is.
# Environment: DLBENCH, TINY (a training workload of model tiny_train).
set -u
rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
fail() { echo "default_output_folder: FAIL: $*"; exit 1; }
overrides=(++workload.dataset.data_folder=data ++workload.train.epochs=1 -q)
"$DLBENCH" run "$TINY" -o first "${overrides[@]}" || fail "first run"
now=$(date +%s)
for s in 0 1 2 3 4 5 6 7 8 9; do
  d="output/tiny_train/$(date -d "@$((now + s))" +%Y%m%d-%H%M%S)"
  mkdir -p "$d" && cp first/.dlbench-folder "$d/" && echo '{"earlier": true}' > "$d/summary.json"
done
"$DLBENCH" train "$TINY" "${overrides[@]}" || fail "run without --output"
for d in output/tiny_train/*; do
  case "$d" in
    *-2) grep -q '"run_status"' "$d/summary.json" || fail "$d has no summary of the new run" ;;
    *) grep -q '"earlier": true' "$d/summary.json" || fail "$d: an earlier run's results replaced" ;;
  esac
done
[ "$(ls -d output/tiny_train/*-2 | wc -l)" -eq 1 ] || fail "no <stamp>-2 folder"
echo "default_output_folder: OK"
