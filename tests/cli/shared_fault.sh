#!/bin/sh
# Runs shared_fault_probe under mpiexec, then says whether any of the file's final names exists
# (it must not: a failed shared write leaves only partial names). Exits with the probe's code.
#   shared_fault.sh DIR FORMAT -- MPIEXEC... PROBE ARGS...
dir="$1"; format="$2"; shift 3
rm -rf "$dir"
"$@"
rc=$?
final="$dir/data/train/img_0_of_1.$format"
for f in "$final" "$final.off.idx" "$final.sz.idx"; do
  [ -e "$f" ] && echo "FINAL NAME EXISTS: $f"
done
echo "left in $dir/data/train:" $(ls -A "$dir/data/train" 2>/dev/null)
exit $rc
