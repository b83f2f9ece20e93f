#!/usr/bin/env bash
# safety_claims.sh FOLDER: what dlbench claims before writing, and what it removes
# (docs/reliability.md, Safety). In FOLDER (emptied first), at 2 ranks:
# - a node-local burst-buffer tier (bb/{node}, 2 emulated nodes) is claimed on every node: a
#   foreign file in node n1's folder is refused (exit 2, naming the node) unless --force;
# - `dlbench checkpoint drain` claims its folders (refused, then --force);
# - the staged data folder (stage.to) is claimed (refused, then --force);
# - a symbolic link to a folder at any depth of a claimed folder is refused, even with --force;
# - dataset.keep_files: false removes the files generation made after training, and only them: a
#   sentinel in the data folder survives; --repeat removes the dataset once, after its last run;
# - a run into a folder of an earlier run with more ranks leaves no rank file of the earlier run.
# Environment: DLBENCH, MPIEXEC_LINE, TINY, CHECKPOINT_YAML, EMULATE (scripts/slurm/emulate-nodes.sh).
set -u
rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
fail() { echo "safety_claims: FAIL: $*"; exit 1; }
# expect CODE ARGS...: `mpiexec -n 2 [emulate-nodes.sh 1] dlbench ARGS` exits with CODE.
expect() {
  local code="$1"; shift
  $MPIEXEC_LINE 2 $LAUNCH "$DLBENCH" "$@" -q >log 2>&1
  local got=$?
  [ "$got" = "$code" ] || { cat log; fail "exit $got, expected $code: dlbench $*"; }
}
said() { grep -q -- "$1" log || fail "no message matching '$1': $(cat log)"; }
mkdir -p foreign/dir && echo precious >foreign/dir/file

# A node-local burst buffer on 2 emulated nodes: node n1's folder is claimed too.
LAUNCH="$EMULATE 1"
CKPT="$CHECKPOINT_YAML ++workload.checkpoint.checkpoint_folder=$PWD/ckpt ++workload.storage.tiers.nvme.path=\"$PWD/bb/{node}\" ++workload.checkpoint.burst_buffer.tier=nvme"
mkdir -p bb/n1 && echo mine >bb/n1/notes.txt
expect 2 checkpoint $CKPT -o out_bb
said "storage.tiers.nvme.path (node n1) '$PWD/bb/n1' is not empty (it holds notes.txt)"
[ -e bb/n1/.dlbench-folder ] && fail "a refused folder was marked"
expect 0 checkpoint $CKPT -o out_bb --force
[ -e bb/n0/.dlbench-folder ] && [ -e bb/n1/.dlbench-folder ] || fail "a node's folder was not claimed"
[ "$(cat bb/n1/notes.txt)" = mine ] || fail "bb/n1/notes.txt was lost"

# `dlbench checkpoint drain` claims the checkpoint folder and the tier like a save.
LAUNCH=""
DRAIN="$CHECKPOINT_YAML ++workload.checkpoint.checkpoint_folder=drain_ckpt ++workload.storage.tiers.nvme.path=drain_bb ++workload.checkpoint.burst_buffer.tier=nvme"
mkdir drain_ckpt && echo mine >drain_ckpt/notes.txt
$MPIEXEC_LINE 2 "$DLBENCH" checkpoint drain $DRAIN >log 2>&1
[ $? = 2 ] || { cat log; fail "drain into a foreign checkpoint folder was not refused"; }
said "checkpoint.checkpoint_folder 'drain_ckpt' is not empty (it holds notes.txt)"
$MPIEXEC_LINE 2 "$DLBENCH" checkpoint drain $DRAIN --force >log 2>&1 || { cat log; fail "drain --force"; }
said "nothing to drain"
[ -e drain_ckpt/.dlbench-folder ] && [ -e drain_bb/.dlbench-folder ] || fail "drain did not claim its folders"

# The staged data folder: a foreign one is refused unless --force.
DATA="$TINY ++workload.dataset.data_folder=$PWD/pfs/data ++workload.storage.tiers.pfs.path=$PWD/pfs ++workload.storage.tiers.nvme.path=$PWD/nvme"
expect 0 generate $DATA -o out_gen
mkdir -p nvme/data && echo mine >nvme/data/notes.txt
expect 2 stage $DATA --to nvme -o out_stage
said "the staged data folder (stage.to: nvme) '$PWD/nvme/data' is not empty (it holds notes.txt)"
expect 0 stage $DATA --to nvme -o out_stage --force
[ "$(cat nvme/data/notes.txt)" = mine ] || fail "nvme/data/notes.txt was lost"

# A link to a folder deep in a claimed folder: refused, even forced.
ln -s "$PWD/foreign/dir" pfs/data/train/deep
expect 2 generate $DATA -o out_gen --force
said "holds a symbolic link, train/deep"
[ "$(ls foreign/dir)" = file ] || fail "foreign/dir was written into"
rm pfs/data/train/deep

# keep_files: false removes what generation made after training, and only that.
KEEP="$TINY ++workload.dataset.data_folder=$PWD/keep ++workload.dataset.keep_files=False"
mkdir keep && touch keep/.dlbench-folder && echo sentinel >keep/sentinel
expect 0 run $KEEP -o out_keep
[ "$(cat keep/sentinel)" = sentinel ] || fail "keep_files: false removed a foreign file"
[ -z "$(find keep -name 'img_*')" ] || fail "keep_files: false left data files: $(find keep -name 'img_*')"
[ -e keep/.dlbench-dataset.json ] && fail "keep_files: false left the dataset's marker"
/usr/bin/python3 -c "import json,sys; s=json.load(open('out_keep/summary.json')); sys.exit(0 if s['run_status']['complete'] and s['metric']['train_au_mean_percentage'] > 0 else 1)" ||
  fail "the keep_files run did not complete its training"
rm keep/sentinel
expect 0 run $KEEP -o out_keep_repeat --repeat 2
[ -e keep ] && fail "keep_files: false with --repeat left $(find keep)"
[ -e out_keep_repeat/run-2/summary.json ] || fail "--repeat 2 did not run twice"

# An earlier run with more ranks: its rank files do not stay beside this run's.
expect 0 train $DATA -o out_ranks
[ -e out_ranks/1_output.json ] || fail "no 1_output.json at 2 ranks"
"$DLBENCH" train $DATA -o out_ranks -q >log 2>&1 || { cat log; fail "train at 1 rank"; }
ls out_ranks | grep -q '^1_' && fail "rank 1's files of the earlier run stayed: $(ls out_ranks)"
[ -e out_ranks/0_output.json ] || fail "no 0_output.json"
echo "safety_claims: OK"
