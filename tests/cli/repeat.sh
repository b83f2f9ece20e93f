#!/usr/bin/env bash
# Runs a command N times, for failures that depend on thread timing: every run must exit CODE
# and print exactly one line matching REGEX, within 20 s.
#   repeat.sh N CODE REGEX -- COMMAND...
# Prints "repeat: N of N runs exited CODE" and exits CODE; at the first other outcome, prints
# that run's output and exits 1.
set -u
runs="$1" code="$2" regex="$3"
shift 4
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for i in $(seq "$runs"); do
  timeout --kill-after=2 20 "$@" >"$out" 2>&1
  got=$?
  lines=$(grep -cE -- "$regex" "$out")
  if [ "$got" -ne "$code" ] || [ "$lines" -ne 1 ]; then
    cat "$out"
    echo "repeat: run $i of $runs exited $got (expected $code), $lines lines match /$regex/"
    exit 1
  fi
done
echo "repeat: $runs of $runs runs exited $code"
exit "$code"
