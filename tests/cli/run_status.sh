#!/usr/bin/env bash
# run_status.sh FOLDER: summary.json says whether its run completed (docs/reliability.md,
# Incomplete runs). In FOLDER (emptied first): a complete training run; then runs that fail — an
# injected read error in training (1 rank, on rank 0 of 2, and on rank 1 of 2 alone: it records
# its own failure, which rank 0 never hears of), a full disk in generation, a
# refused checkpoint folder (exit 2, before any phase) — and one killed mid-training: each leaves
# run_status complete: false with its phase (and, unless killed, its exit code and message); a
# run that fails before its first summary leaves no earlier run's summary saying complete.
# `dlbench compare` refuses each (exit 2, one line naming the file and the phase), even with
# --force; `dlbench report` marks it.
# Environment: DLBENCH, MPIEXEC_LINE, TINY, CHECKPOINT_YAML.
set -u
rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
fail() { echo "run_status: FAIL: $*"; exit 1; }
# run CODE ARGS...: `dlbench ARGS` (or the command ARGS when it starts with env/mpiexec) exits CODE.
run() {
  local code="$1"; shift
  "$@" -q >log 2>&1
  local got=$?
  [ "$got" = "$code" ] || { cat log; fail "exit $got, expected $code: $*"; }
}
# status FOLDER COMPLETE PHASE EXIT_CODE ERROR_REGEX: FOLDER/summary.json's run_status.
status() {
  /usr/bin/python3 - "$@" <<'PY' || fail "run_status of $1"
import json, re, sys
folder, complete, phase, code, error = sys.argv[1:]
status = json.load(open(folder + "/summary.json"))["run_status"]
want_code = None if code == "null" else int(code)
ok = (status["complete"] == (complete == "true") and status["phase"] == phase
      and status["exit_code"] == want_code
      and ((status["error"] is None) if error == "null" else re.search(error, status["error"] or "")))
if not ok:
    print(f"{folder}: run_status is {status}, expected {sys.argv[2:]}")
    sys.exit(1)
PY
}
# refused FOLDER PHASE: compare refuses it against ok/, as either side, even with --force.
refused() {
  for args in "ok $1" "$1 ok --force"; do
    "$DLBENCH" compare $args >log 2>&1
    local got=$?
    [ "$got" = 2 ] || { cat log; fail "compare $args: exit $got, expected 2"; }
    [ "$(grep -c "$1/summary.json is the summary of an incomplete run (stopped in phase $2" log)" = 1 ] ||
      { cat log; fail "compare $args: no one-line message naming $1 and phase $2"; }
  done
  "$DLBENCH" report ok "$1" -o "$1.html" >log 2>&1 || { cat log; fail "report of $1"; }
  grep -q "<strong>Incomplete run</strong> $1: stopped in phase $2" "$1.html" ||
    fail "the report of $1 does not mark it incomplete"
}
TRAIN="$DLBENCH train $TINY ++workload.dataset.data_folder=data"
run 0 "$DLBENCH" generate "$TINY" ++workload.dataset.data_folder=data -o gen
status gen true done 0 null
run 0 $TRAIN -o ok
status ok true done 0 null

run 3 env DLBENCH_FAULTS='op=read,path=train/img_,nth=3' $TRAIN -o read_error
status read_error false train 3 'img_.*injected'
refused read_error train

run 3 env DLBENCH_FAULTS='op=read,path=train/img_,nth=3,rank=0' $MPIEXEC_LINE 2 $TRAIN -o read_error_np2
status read_error_np2 false train 3 'img_.*injected'
refused read_error_np2 train

run 3 env DLBENCH_FAULTS='op=read,path=train/img_,nth=3,rank=1' $MPIEXEC_LINE 2 $TRAIN -o read_error_rank1
status read_error_rank1 false train 3 '^rank 1 of 2: .*img_.*injected'
refused read_error_rank1 train

run 3 env DLBENCH_FAULTS='op=write,path=img_,error=ENOSPC' "$DLBENCH" generate "$TINY" \
  ++workload.dataset.data_folder=data2 -o full_disk
status full_disk false generate 3 'No space left on device'
refused full_disk generate

mkdir foreign && echo mine >foreign/notes.txt
run 2 "$DLBENCH" checkpoint "$CHECKPOINT_YAML" ++workload.checkpoint.checkpoint_folder=foreign -o refused
status refused false setup 2 'foreign.* is not empty'
refused refused setup

run 137 env DLBENCH_FAULTS='op=read,path=train/img_,nth=5,kill' $TRAIN -o killed
status killed false train null null
refused killed train
"$DLBENCH" compare ok killed --force 2>&1 | grep -q "stopped in phase train (killed, or still running)" ||
  fail "compare does not say the killed run was killed"
# A run that fails before its first summary (its config.yaml cannot be written: a folder that is
# not empty has the name) into the folder of a complete run: the earlier run's summary.json,
# saying complete, does not stay to stand for it. (A workflow with no phase was the example; it
# is now refused before the folder is touched, as every configuration error is.)
run 0 $TRAIN -o again
rm again/config.yaml && mkdir -p again/config.yaml/keep
run 3 $TRAIN -o again
[ -e again/summary.json ] &&
  fail "a run that failed left the earlier run's complete summary: $(cat again/summary.json)"
echo "run_status: OK"
