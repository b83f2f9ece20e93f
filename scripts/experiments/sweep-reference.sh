#!/usr/bin/env bash
# The physical limit beside a sweep (results/sweep.md): fio reads every file of a sweep's dataset
# once, the files dealt round robin to --jobs jobs (as a sweep point's reader threads share them),
# whole files in --bs blocks (fio leaves out the tail of a file beyond its last whole block: pick
# --bs to suit the files), and prints the aggregate MiB/s; --reps times, with the median and the
# range. --direct reads with O_DIRECT (as reader.odirect); --drop-caches drops the page cache
# before each repetition (as the sweep's drop-caches launcher does before each run), otherwise the
# files are read through the page cache as they are (tmpfs: memory).
#
#   scripts/experiments/sweep-reference.sh FOLDER [--jobs 4] [--bs 1m] [--reps 3] [--direct]
#                                          [--drop-caches]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

jobs=4 bs=1m reps=3 direct=0 drop_caches=0
parse_options "jobs bs reps direct! drop-caches! ..." "$@"
[ ${#positional[@]} -eq 1 ] || { echo "usage: sweep-reference.sh FOLDER [options]" >&2; exit 2; }
folder=${positional[0]}
ensure_packages fio python3
# Hard links to the files, beside FOLDER (the same file system), removed at the end.
work=$(mktemp -d "$(dirname "$(realpath "$folder")")/.sweep-reference.XXXXXX")
trap 'rm -rf "$work"' EXIT
# One fio job per reader: job j reads files j, j + jobs, ... (hidden files, such as markers, left
# out), each once and whole, through a folder of hard links to them (fio's filename= holds at
# most 4,096 characters, and its opendir= takes no symbolic links).
/usr/bin/python3 - "$folder" "$jobs" "$bs" "$direct" "$work" >"$work/jobs.fio" <<'PY'
import os, sys
folder, jobs, bs, direct, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1", sys.argv[5]
files = sorted(os.path.abspath(os.path.join(d, f)) for d, _, names in os.walk(folder)
               for f in names if not f.startswith("."))
if not files:
    sys.exit(f"sweep-reference: no files under {folder}")
with open(os.path.join(work, "bytes"), "w") as out:
    print(sum(os.path.getsize(f) for f in files), file=out)
print(f"[global]\nrw=read\nbs={bs}\nioengine=psync\ninvalidate=0\ndirect={int(direct)}\n"
      "group_reporting=1\nfile_service_type=sequential")
for j in range(jobs):
    mine = files[j::jobs]
    if not mine:
        continue
    links = os.path.join(work, f"reader{j}")
    os.mkdir(links)
    for i, f in enumerate(mine):
        os.link(f, os.path.join(links, f"{i:08d}"))
    print(f"[reader{j}]\nopendir={links}")
PY
rates=()
for _ in $(seq "$reps"); do
  if [ "$drop_caches" = 1 ]; then sync; echo 3 >/proc/sys/vm/drop_caches; fi
  rates+=("$(fio --output-format=json "$work/jobs.fio" |
    /usr/bin/python3 -c 'import json, sys; text = sys.stdin.read()  # after "opendir added" lines
r = json.loads(text[text.index("{"):])["jobs"][0]["read"]
print("%s:%s" % (r["bw_bytes"] / 2**20, r["io_bytes"]))')")
done
/usr/bin/python3 - "$(cat "$work/bytes")" "${rates[@]}" <<'PY'
import statistics, sys
r = [float(x.split(":")[0]) for x in sys.argv[2:]]
read, total = int(sys.argv[2].split(":")[1]), int(sys.argv[1])
# fio reads whole blocks of a file: the tail of a file that is not a multiple of --bs is not read.
print(f"fio read MiB/s: median {statistics.median(r):.0f} ({min(r):.0f}-{max(r):.0f}), runs: "
      + ", ".join(f"{x:.0f}" for x in r)
      + f"; {read:,} of the files' {total:,} B a run ({100 * read / total:.0f} %)")
PY
