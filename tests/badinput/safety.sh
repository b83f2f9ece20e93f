#!/usr/bin/env bash
# safety.sh FOLDER: dlbench never deletes or overwrites what it did not create (docs/reliability.md,
# Safety). In FOLDER (emptied first): sentinel files in the data, output, checkpoint and
# burst-buffer folders, and in a checkpoint's own folder, survive generation, its resume and a
# regeneration with other settings, training, checkpoints saved (and evicted from the burst
# buffer) twice into the same names, and --repeat. Links to a foreign file and folder are never
# written through: a link at a name dlbench writes is replaced (by the rename that puts each file
# in place), a link at the partial name it writes under fails the write (exit 3), a link at a
# folder's top level is refused (exit 2, even with --force).
# Environment: DLBENCH, MPIEXEC_LINE, TINY, CHECKPOINT_YAML (set by CMakeLists.txt).
set -u
rm -rf "$1" && mkdir -p "$1" && cd "$1" || exit 1
fail() { echo "safety: FAIL: $*"; exit 1; }
# expect CODE ARGS...: `mpiexec -n 2 dlbench ARGS` exits with CODE.
expect() {
  local code="$1"; shift
  $MPIEXEC_LINE 2 "$DLBENCH" "$@" -q >log 2>&1
  local got=$?
  [ "$got" = "$code" ] || { cat log; fail "exit $got, expected $code: dlbench $*"; }
}
sentinels=()
plant() { for s in "$@"; do echo sentinel >"$s"; sentinels+=("$s"); done; }
check() {
  for s in "${sentinels[@]}"; do [ "$(cat "$s" 2>/dev/null)" = sentinel ] || fail "$s was lost ($1)"; done
  [ "$(cat foreign/file)" = precious ] || fail "foreign/file was written through a link ($1)"
  [ "$(ls foreign/dir)" = file ] && [ "$(cat foreign/dir/file)" = precious ] ||
    fail "foreign/dir was written into through a link ($1)"
}
mkdir -p foreign/dir && echo precious >foreign/file && echo precious >foreign/dir/file
DATA="$TINY ++workload.dataset.data_folder=data"
CKPT="$CHECKPOINT_YAML ++workload.checkpoint.checkpoint_folder=ckpt ++workload.storage.tiers.nvme.path=bb ++workload.checkpoint.burst_buffer.tier=nvme"

# Data: generation, resume over a link at a data file's name, regeneration, training.
expect 0 generate $DATA -o out
plant data/sentinel data/train/sentinel out/sentinel
ln -sf "$PWD/foreign/file" data/train/img_0_of_8.npz
expect 0 generate $DATA -o out
[ -L data/train/img_0_of_8.npz ] && fail "the link at a data file's name was kept as data"
check "generation resumed"
expect 0 generate $DATA ++workload.dataset.record_length_bytes=2048 -o out
check "regeneration with other settings"
expect 0 train $DATA ++workload.dataset.record_length_bytes=2048 -o out
check "training"
# A link at the top of the data folder, as a subfolder generation writes: refused, even forced.
rm -rf data/valid && ln -s "$PWD/foreign/dir" data/valid
expect 2 generate $DATA -o out --force
grep -q "holds a symbolic link, valid" log || fail "no message naming the link: $(cat log)"
check "a link to a folder in the data folder" && rm data/valid
expect 0 generate $DATA ++workload.dataset.record_length_bytes=2048 -o out

# Checkpoints through a burst buffer (saved, drained, evicted), then again into the same names.
expect 0 checkpoint $CKPT -o ckpt_out
name="$(ls ckpt | grep -v '^\.' | head -1)"
[ -n "$name" ] || fail "no checkpoint was written"
plant ckpt/sentinel bb/sentinel "ckpt/$name/sentinel" ckpt_out/sentinel
expect 0 checkpoint $CKPT -o ckpt_out
check "checkpoints saved again into the same names"
# A link at a checkpoint file's name is replaced (files go in place by rename), not written
# through; one at the partial name a file is written under fails the save (exit 3).
file="$(ls "ckpt/$name" | grep "\.pt$" | head -1)"
ln -sf "$PWD/foreign/file" "ckpt/$name/$file"
expect 0 checkpoint $CKPT ~workload.checkpoint.burst_buffer -o ckpt_out
[ -L "ckpt/$name/$file" ] && fail "the link at a checkpoint file's name was kept"
check "a link at a checkpoint file's name"
ln -sf "$PWD/foreign/file" "ckpt/$name/.$file.dlbench-partial"
expect 3 checkpoint $CKPT ~workload.checkpoint.burst_buffer -o ckpt_out
grep -q "symbolic link, which dlbench does not write through" log || fail "no link message: $(cat log)"
check "a link at a partial file's name" && rm "ckpt/$name/.$file.dlbench-partial"
# A link to a foreign folder in the checkpoint folder: refused before any write, even forced.
ln -s "$PWD/foreign/dir" ckpt/global_epoch9_step9
expect 2 checkpoint $CKPT -o ckpt_out --force
grep -q "holds a symbolic link, global_epoch9_step9" log || fail "no message naming the link: $(cat log)"
check "a link to a folder in the checkpoint folder" && rm ckpt/global_epoch9_step9

# --repeat into the same output folder twice; a foreign folder only with --force.
expect 0 run $DATA ++workload.dataset.record_length_bytes=2048 ++workload.workflow.generate_data=False --repeat 2 -o repeat
plant repeat/sentinel repeat/run-1/sentinel
expect 0 run $DATA ++workload.dataset.record_length_bytes=2048 ++workload.workflow.generate_data=False --repeat 2 -o repeat
check "--repeat again"
mkdir mine && plant mine/sentinel
expect 2 generate $DATA -o mine
expect 0 generate $DATA -o mine --force
[ -e mine/.dlbench-folder ] || fail "--force did not claim the folder"
check "--force into a foreign folder"
echo "safety: OK"
