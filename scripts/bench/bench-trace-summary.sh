#!/usr/bin/env bash
# Speed and memory of `dlbench trace summary` on generated DFTracer v1 traces of 1 million and
# 10 million events (2 ranks, gzip in independent members of 16,384 lines, the event mix of a
# training step: fetch.iter, compute, and per sample item + open64 + pread64 + close), --reps
# runs each: median wall time, events/s and peak RSS (memory must not grow with the events).
# Targets: 1 M events < 2 s, 10 M < 20 s. Traces are generated once into DIR
# (default /var/tmp/dlbench-tracebench-v2) and reused.
#
#   scripts/bench/bench-trace-summary.sh [--reps N] [--dlbench PATH] [--dir DIR] [--sizes "1 10"]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

reps=3
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
dir=/var/tmp/dlbench-tracebench-v2  # v2: the lines dlbench writes now (no id, 100 ns grid)
sizes="1 10"
parse_options "reps dlbench dir sizes" "$@"
ensure_packages time python3
[ -x "$dlbench" ] || build_dlbench

# Writes RANKS traces of EVENTS events in total into FOLDER.
generate() {  # folder events ranks
  /usr/bin/python3 - "$@" <<'PY'
import os, sys, zlib
folder, events, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
per_rank = events // ranks
for rank in range(ranks):
    path = os.path.join(folder, f"trace-{rank}-of-{ranks}.pfw.gz")
    with open(path + ".tmp", "wb") as out:
        def member(lines):
            c = zlib.compressobj(6, zlib.DEFLATED, 31)
            out.write(c.compress("".join(lines).encode()) + c.flush())
        head = ['[\n',
                f'{{"name":"process_name","cat":"dftracer","pid":{100+rank},"tid":{100+rank},"ph":"M","args":{{"name":"Rank {rank}","value":"process_name"}}}}\n']
        member(head)
        lines, n, i, ts = [], 0, 1, 1_700_000_000_000_000.0 + rank * 37.0
        pid = 100 + rank
        while n < per_rank:
            step = i
            lines.append(f'{{"name":"fetch.iter","cat":"dataloader","pid":{pid},"tid":{pid},"ts":{ts:.1f},"dur":41.2,"ph":"X","args":{{"hhash":1,"epoch":1,"step":{step}}}}}\n')
            i += 1; n += 1
            for s in range(4):
                t = ts + 45 + s * 60
                f = (step * 4 + s) % 1024
                lines.append(f'{{"name":"open64","cat":"POSIX","pid":{pid},"tid":{pid+1},"ts":{t:.1f},"dur":3.1,"ph":"X","args":{{"hhash":1,"fhash":{f},"ret":3,"size":0,"offset":0}}}}\n')
                lines.append(f'{{"name":"pread64","cat":"POSIX","pid":{pid},"tid":{pid+1},"ts":{t+4:.1f},"dur":38.5,"ph":"X","args":{{"hhash":1,"fhash":{f},"ret":131072,"size":131072,"offset":0}}}}\n')
                lines.append(f'{{"name":"close","cat":"POSIX","pid":{pid},"tid":{pid+1},"ts":{t+43:.1f},"dur":1.5,"ph":"X","args":{{"hhash":1,"fhash":{f},"ret":0,"size":0,"offset":0}}}}\n')
                lines.append(f'{{"name":"item","cat":"data","pid":{pid},"tid":{pid+1},"ts":{t:.1f},"dur":50.0,"ph":"X","args":{{"hhash":1,"image_idx":{step*4+s},"image_size":131072,"step":{step}}}}}\n')
                i += 4; n += 4
            lines.append(f'{{"name":"compute","cat":"compute","pid":{pid},"tid":{pid},"ts":{ts+300:.1f},"dur":700.0,"ph":"X","args":{{"hhash":1,"epoch":1,"step":{step}}}}}\n')
            i += 1; n += 1
            ts += 1000
            if len(lines) >= 16384:
                member(lines); lines = []
        if lines: member(lines)
        member(["]\n"])
    os.replace(path + ".tmp", path)
PY
}

echo "| events | traces (gzip) | runs (s) | median s | events/s | peak RSS |"
echo "|---|---|---|---|---|---|"
for millions in $sizes; do
  folder="$dir/${millions}M"
  if [ ! -f "$folder/.done" ]; then
    log "generating $millions million events into $folder"
    rm -rf "$folder"
    generate "$folder" $((millions * 1000000)) 2
    touch "$folder/.done"
  fi
  runs=(); rss=0
  for _ in $(seq "$reps"); do
    /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$dlbench" trace summary "$folder" >"$dir/summary.txt"
    read -r seconds kib <"$dir/time.txt"
    runs+=("$seconds")
    [ "$kib" -gt "$rss" ] && rss=$kib
  done
  events=$(grep -o '[0-9]* events' "$dir/summary.txt" | head -1 | cut -d' ' -f1)
  /usr/bin/python3 - "$events" "$(du -sh "$folder" | cut -f1)" "$rss" "${runs[@]}" <<'PY'
import statistics, sys
events, size, rss = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
runs = [float(x) for x in sys.argv[4:]]
m = statistics.median(runs)
print(f"| {events:,} | {size} | {' '.join(f'{r:.2f}' for r in runs)} | {m:.2f} | {events / m:,.0f} | {rss / 1024:.0f} MiB |")
PY
done
