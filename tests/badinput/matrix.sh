#!/usr/bin/env bash
# The driver of the bad-input matrix (cases.tsv), for ctest (CMakeLists.txt sets the environment:
# DLBENCH, MPIEXEC_LINE, EXPECT, SCRATCH, TINY, CHECKPOINT_YAML, YAML, RUNS, FULLDISK).
#   matrix.sh fixture          generates the tiny dataset of every format into $SCRATCH/fixture
#   matrix.sh case NAME RANKS  runs case NAME with RANKS ranks (1: alone, without mpiexec; more:
#                              under `mpiexec -n RANKS`) through expect.sh: its exit
#                              code, its message on exactly one line, at most one error line for
#                              the job, no crash or stack trace, no hang (expect.sh's timeout)
set -u
FORMATS="npz npy tfrecord hdf5 indexed_binary jpeg png csv parquet"

# The overrides of the fixture dataset of format $1: 4 train files, no evaluation, 1 epoch, no
# shuffling (rank 0 reads img_0_of_4 first), one sample per image file.
format_overrides() {
  local o="++workload.dataset.format=$1 ++workload.dataset.num_files_train=4"
  o+=" ++workload.dataset.num_files_eval=0 ++workload.workflow.evaluation=False"
  o+=" ++workload.reader.file_shuffle=off ++workload.reader.sample_shuffle=off ++workload.train.epochs=1"
  case "$1" in
    tfrecord) o+=" ++workload.reader.data_loader=tensorflow ++workload.framework=tensorflow" ;;
    jpeg|png) o+=" ++workload.dataset.num_samples_per_file=1" ;;
  esac
  echo "$o"
}

if [ "$1" = fixture ]; then
  rm -rf "$SCRATCH/fixture"
  for f in $FORMATS; do
    "$DLBENCH" generate "$TINY" $(format_overrides "$f") -q \
      "++workload.dataset.data_folder=$SCRATCH/fixture/$f/data" -o "$SCRATCH/fixture/$f/out" || exit 1
  done
  exit 0
fi

name="$2"; ranks="$3"
line="$(awk -F'\t' -v n="$name" '$1 == n' "$(dirname "$0")/cases.tsv")"
IFS=$'\t' read -r _ code message command <<<"$line"
[ -n "$command" ] || { echo "matrix.sh: no case $name"; exit 99; }
while [[ "$command" =~ @TRAIN:([a-z0-9_]+)@ ]]; do
  f="${BASH_REMATCH[1]}"
  command="${command//@TRAIN:$f@/@DLBENCH@ train @TINY@ $(format_overrides "$f") ++workload.dataset.data_folder=data ++workload.workflow.generate_data=False -o out}"
done
while [[ "$command" =~ @FIXTURE:([a-z0-9_]+)@ ]]; do
  f="${BASH_REMATCH[1]}"
  command="${command//@FIXTURE:$f@/$SCRATCH/fixture/$f/data}"
done
# One rank runs without mpiexec (as a user would, and without mpiexec's start-up time).
launch="$MPIEXEC_LINE $ranks $DLBENCH"
[ "$ranks" = 1 ] && launch="$DLBENCH"
command="${command//@DLBENCH@/$launch}"
command="${command//@TINY@/$TINY}"
command="${command//@CHECKPOINT@/$CHECKPOINT_YAML}"
command="${command//@YAML@/$YAML}"
command="${command//@RUNS@/$RUNS}"
command="${command//@FULLDISK@/$FULLDISK}"
dir="$SCRATCH/$name-np$ranks"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
# A crash (a signal, an abort, a sanitizer report) or a stack trace is a failure whatever the code.
crash="terminate called|Segmentation fault|Aborted|core dumped|on signal|Backtrace|stack trace|AddressSanitizer|runtime error:|^#[0-9]+ +0x"
exec "$EXPECT" "$code" --once "$message" --at-most-once "^dlbench: error" --no-match "$crash" \
  -- /bin/sh -c "$command"
