#!/usr/bin/env bash
# Runs a command and checks its exit code and output, for ctest.
#   expect.sh CODE [--match REGEX]... [--once REGEX]... [--no-match REGEX]... -- COMMAND...
# --match: REGEX must occur in stdout+stderr; --once: exactly one line matches; --at-most-once:
# no more than one line matches;
# --no-match: no line matches; --file PATH: PATH exists afterwards; --no-file PATH: it does not
# (the command did no work, for errors that must come first). The command is killed after 60 s (a hang is a failure).
set -u
expected="$1"; shift
matches=(); onces=(); at_most_onces=(); nomatches=(); files=(); nofiles=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --match) matches+=("$2"); shift 2 ;;
    --once) onces+=("$2"); shift 2 ;;
    --at-most-once) at_most_onces+=("$2"); shift 2 ;;
    --no-match) nomatches+=("$2"); shift 2 ;;
    --file) files+=("$2"); shift 2 ;;
    --no-file) nofiles+=("$2"); shift 2 ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 99 ;;
  esac
done
shift
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
timeout --kill-after=5 60 "$@" >"$out" 2>&1
code=$?
cat "$out"
fail=0
if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
  echo "FAIL: timed out (hang)"; exit 1
fi
if [ "$code" -ne "$expected" ]; then echo "FAIL: exit code $code, expected $expected"; fail=1; fi
for re in "${matches[@]}"; do
  grep -qE -- "$re" "$out" || { echo "FAIL: no output matches /$re/"; fail=1; }
done
for re in "${onces[@]}"; do
  n=$(grep -cE -- "$re" "$out")
  [ "$n" -eq 1 ] || { echo "FAIL: /$re/ matched $n lines, expected exactly 1"; fail=1; }
done
for re in "${at_most_onces[@]}"; do
  n=$(grep -cE -- "$re" "$out")
  [ "$n" -le 1 ] || { echo "FAIL: /$re/ matched $n lines, expected at most 1"; fail=1; }
done
for re in "${nomatches[@]}"; do
  if grep -qE -- "$re" "$out"; then echo "FAIL: output matches /$re/"; fail=1; fi
done
for f in "${files[@]}"; do
  [ -e "$f" ] || { echo "FAIL: $f was not written"; fail=1; }
done
for f in "${nofiles[@]}"; do
  [ ! -e "$f" ] || { echo "FAIL: $f was written"; fail=1; }
done
exit $fail
