#!/usr/bin/env bash
# Screenshots of a dlbench trace opened in a trace viewer, for docs/tracing.md:
# docs/images/trace-trainer.png (the step loop) and docs/images/trace-reader.png (a reader thread).
#
#   scripts/dev/trace-screenshot.sh [--out DIR] [--dlbench PATH]
#
# The Perfetto UI is a web application served from ui.perfetto.dev; no offline copy of it, nor of
# catapult's trace viewer (chrome://tracing, absent from Debian's chromium), is published on npm or
# in Debian, and this machine has no network access beyond the package registries. The screenshots
# therefore show the same trace in speedscope (npm speedscope@1.25.0, MIT, an independent viewer
# that imports Chrome trace-event JSON as Perfetto does), installed by npm into the build tree
# (not vendored) and rendered by Debian's headless chromium.
#
# Steps: a small traced run (64 npy files of 64 KiB, 2 reader threads, batch 4, preprocess 0.1 ms,
# computation 2 ms, 2 epochs); out of its trace, one thread's events in a window of the second
# epoch (the trainer: 8 steps; reader-0: the first 150 us of one sample), with the thread's metadata; each loaded in
# speedscope's time-ordered view (as Perfetto draws a thread's track: time left to right, nested
# calls below their parent) and captured at 1600x900.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

out="$DLBENCH_ROOT/docs/images"
dlbench="${DLBENCH:-$DLBENCH_BUILD_DIR/dlbench}"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --dlbench) dlbench="$2"; shift 2 ;;
    -h|--help) sed -n "2,$(($(grep -n '^set -euo' "$0" | cut -d: -f1) - 1))p" "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
ensure_packages chromium nodejs python3
ensure_npm
[ -x "$dlbench" ] || DLBENCH_BUILD_TARGETS=dlbench build_dlbench

viewer="$DLBENCH_BUILD_DIR/trace-viewer"
index="$viewer/node_modules/speedscope/dist/release/index.html"
if [ ! -f "$index" ]; then
  log "installing speedscope@1.25.0 into $viewer"
  mkdir -p "$viewer"
  npm install --prefix "$viewer" --no-audit --no-fund --ignore-scripts --silent speedscope@1.25.0
fi

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cat >"$dir/w.yaml" <<EOF
model: {name: trace-screenshot}
framework: pytorch
workflow: {generate_data: true, train: true}
dataset: {data_folder: $dir/data, format: npy, num_files_train: 64, num_files_eval: 0,
          num_samples_per_file: 1, record_length_bytes: 65536}
reader: {data_loader: pytorch, batch_size: 4, read_threads: 2, prefetch_size: 4,
         preprocess_time: 0.0001}
train: {epochs: 2, computation_time: 0.002}
EOF
"$dlbench" run "$dir/w.yaml" --output "$dir/out" --trace --quiet >/dev/null

# One thread's events from the start of its 3rd event named UNIT in the second epoch to the end
# of the COUNT-th after it (at most LONGEST_US), as a trace-event JSON array (each event as a B and an E event, with
# exact ends): events that cross the window's edges are
# clipped, each outer one a little wider (1 us) than the one it contains, so that they still nest;
# times are counted from the window's start.
# Labels: speedscope names a box by the event's name and arguments and draws consecutive boxes
# of one label as one, so `hhash` (the same everywhere) is left out and `t` (the event's start in
# ms from the window's) added.
cut() {  # thread unit count longest_us output
  zcat "$dir/out/trace-0-of-1.pfw.gz" | /usr/bin/python3 -c '
import json, sys
from decimal import Decimal
thread, unit, count, longest = sys.argv[1], sys.argv[2], int(sys.argv[3]), Decimal(sys.argv[4])
# Decimal: ts since the epoch (1.8e15 us) with 0.1 us digits is beyond a double (0.25 us apart).
events = [json.loads(line.rstrip(",\n"), parse_float=Decimal) for line in sys.stdin
          if line.startswith("{")]
tid = [e["tid"] for e in events if e["name"] == "thread_name" and e["args"]["name"] == thread][-1]
epoch2 = min(e["ts"] for e in events if e["name"] == "train" and e["args"].get("epoch") == 2)
units = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
               if e["tid"] == tid and e["name"] == unit and e["ts"] >= epoch2)
if len(units) < count + 3:
    sys.exit(f"only {len(units)} {unit} events of {thread} in the second epoch")
start, end = units[2][0], units[2 + count - 1][1]
end = min(end, start + longest)
kept = [e for e in events if e["name"] in ("process_name", "thread_name") and e["tid"] == tid]
inside = sorted((e for e in events if e["ph"] == "X" and e["tid"] == tid and e["cat"] != "dftracer"
                 and e["ts"] < end and e["ts"] + e["dur"] > start), key=lambda e: e["dur"])
begins, ends = [], []
for depth, e in enumerate(inside):  # shortest first: a longer (outer) event gets a wider margin
    margin = Decimal(depth + 1)
    a, b = max(e["ts"], start - margin), min(e["ts"] + e["dur"], end + margin)
    args = {k: v for k, v in e["args"].items() if k != "hhash"}
    args["t"] = float(round((e["ts"] - start) / 1000, 3))
    # From the window start: small enough for the doubles of the viewer to keep 0.1 us digits.
    # As a begin and an end event: the viewer would compute the end of an X event as ts + dur in
    # doubles, a hair past the start of the next one, and take the two for nested.
    # Its sort is stable: at one time, an outer event must begin first and end last.
    base = {k: v for k, v in e.items() if k not in ("dur", "ph", "ts")}
    begins.append((a, -b, dict(base, ph="B", ts=float(a - start), args=args)))
    ends.append((b, -a, dict(base, ph="E", ts=float(b - start), args=args)))
kept += [e for *_, e in sorted(begins, key=lambda x: x[:2])]
kept += [e for *_, e in sorted(ends, key=lambda x: x[:2])]
json.dump(kept, sys.stdout)
' "$1" "$2" "$3" "$4" >"$5"
}

shoot() {  # thread unit count longest_us png
  cut "$1" "$2" "$3" "$4" "$dir/$1.json"
  # What speedscope's own command line writes: a script that hands the file to the page.
  printf 'speedscope.loadFileFromBase64(%s, "%s")' "\"dlbench-$1.json\"" \
    "$(base64 -w0 "$dir/$1.json")" >"$dir/$1.js"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$dir/chromium-profile" --allow-file-access-from-files \
    --window-size=1600,900 --virtual-time-budget=10000 --screenshot="$5" \
    "file://$index#localProfilePath=$dir/$1.js&view=time-ordered" 2>/dev/null
  [ -s "$5" ] || { log "no screenshot $5"; exit 1; }
  log "wrote $5"
}

mkdir -p "$out"
shoot trainer fetch.block 8 1000000 "$out/trace-trainer.png"
shoot reader-0 item 1 150 "$out/trace-reader.png"
