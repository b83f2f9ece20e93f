#!/usr/bin/python3
"""Checks the traces of a `dlbench run --trace` (docs/tracing.md).

    check_trace.py OUTPUT_FOLDER RANKS [--expect NAME=COUNT]... [--threads NAME]...

For every rank's trace-<r>-of-<RANKS>.pfw.gz: the gzip members decompress completely; the first
line is "[" and the last "]"; every other line is one JSON object with the fields Perfetto and
DFTracer need (complete events: name, cat, pid, tid, ts, dur, ph "X", args; metadata: ph "M"
and args.name); ts and dur are whole microseconds, and the complete events of each thread nest
when read as Perfetto's JSON importer reads an integer (µs times 1000, in 64-bit integers);
every fhash is named by an FH line; and the events count what the run did, per rank:
with a training run, derived from OUTPUT_FOLDER/config.yaml as check_summary.py derives its
sample counts (fetch.iter, fetch.block and compute once per step, train and evaluation passes
included; item once per sample read; epoch.block and train once per epoch; evaluate once per
evaluation pass); --expect NAME=COUNT adds or replaces a per-rank count; --threads NAME requires
a thread of that name.
"""
import collections
import gzip
import json
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_summary import per_phase  # noqa: E402

FIELDS_X = ("name", "cat", "pid", "tid", "ts", "dur", "ph", "args")


def fail(msg):
    print("check_trace: FAIL: " + msg)
    sys.exit(1)


def nanos(value, path, number):
    if not isinstance(value, int):
        fail(f"{path}:{number}: ts or dur {value!r} is not whole microseconds")
    return value * 1000  # Perfetto: an integer's µs times 1000 in 64-bit integers


def expected_counts(folder, ranks):
    cfg = yaml.safe_load(open(os.path.join(folder, "config.yaml")))
    counts = {}
    if not cfg["workflow"].get("train"):
        return counts
    steps = 0
    for phase in ("train", "eval"):
        _, _, _, samples_per_pass, passes = per_phase(cfg, ranks, phase)
        batch = cfg["reader"]["batch_size" if phase == "train" else "batch_size_eval"]
        per_rank = samples_per_pass // ranks
        steps += per_rank // batch * passes
        counts["item"] = counts.get("item", 0) + per_rank * passes
        if phase == "eval":
            counts["evaluate"] = passes
    counts.update({"fetch.iter": steps, "fetch.block": steps, "compute": steps,
                   "epoch.block": cfg["train"]["epochs"], "train": cfg["train"]["epochs"]})
    return counts


def check_rank(path, expect, thread_names):
    raw = open(path, "rb").read()
    try:
        text = gzip.decompress(raw).decode()
    except Exception as e:  # noqa: BLE001
        fail(f"{path}: does not decompress: {e}")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 2 or lines[0] != "[" or lines[-1] != "]":
        fail(f"{path}: not framed by '[' and ']' lines")
    by_thread = collections.defaultdict(list)
    names, files, fhashes, threads = collections.Counter(), set(), set(), set()
    named = {}  # (pid, tid) -> its thread_name
    for number, line in enumerate(lines[1:-1], start=2):
        try:
            e = json.loads(line)
        except ValueError as err:
            fail(f"{path}:{number}: not JSON ({err}): {line[:120]}")
        if e.get("ph") == "M":
            if "name" not in e or "name" not in e.get("args", {}):
                fail(f"{path}:{number}: metadata without name or args.name")
            if e["name"] == "FH":
                files.add(int(e["args"]["value"]))
            if e["name"] == "thread_name":
                threads.add(e["args"]["name"])
                # Perfetto keeps a thread's last name: one line per thread is all it needs.
                if (e["pid"], e["tid"]) in named:
                    fail(f"{path}:{number}: thread {e['tid']} named again ({e['args']['name']}, "
                         f"after {named[(e['pid'], e['tid'])]})")
                named[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        missing = [f for f in FIELDS_X if f not in e]
        if missing or e["ph"] != "X":
            fail(f"{path}:{number}: missing {missing} or ph != X: {line[:160]}")
        start = nanos(e["ts"], path, number)
        end = start + nanos(e["dur"], path, number)
        by_thread[(e["pid"], e["tid"])].append((start, end, e["name"]))
        names[e["name"]] += 1
        if "fhash" in e["args"]:
            fhashes.add(e["args"]["fhash"])
    for thread, events in by_thread.items():
        events.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for start, end, name in events:
            while stack and stack[-1][1] <= start:
                stack.pop()
            if stack and end > stack[-1][1]:
                fail(f"{path}: thread {thread}: {name} [{start}, {end}] overlaps "
                     f"{stack[-1][2]} [{stack[-1][0]}, {stack[-1][1]}] without nesting")
            stack.append((start, end, name))
    unnamed = fhashes - files
    if unnamed:
        fail(f"{path}: fhash without an FH line: {sorted(unnamed)[:5]}")
    for name, count in expect.items():
        if names[name] != count:
            fail(f"{path}: {names[name]} {name} event(s), expected {count}")
    for name in thread_names:
        if name not in threads:
            fail(f"{path}: no thread named {name} (named: {sorted(threads)})")
    return names


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    folder, ranks = sys.argv[1], int(sys.argv[2])
    expect = expected_counts(folder, ranks)
    thread_names = []
    args = sys.argv[3:]
    while args:
        option, value = args[0], args[1]
        args = args[2:]
        if option == "--expect":
            name, count = value.split("=")
            expect[name] = int(count)
        elif option == "--threads":
            thread_names.append(value)
        else:
            fail(f"unknown option {option}")
    summary = json.load(open(os.path.join(folder, "summary.json")))
    total = 0
    for rank in range(ranks):
        names = check_rank(os.path.join(folder, f"trace-{rank}-of-{ranks}.pfw.gz"), expect,
                           thread_names)
        total += sum(names.values()) - names["start"] - names["end"]  # not counted as events
    if summary["trace"]["events"] != total or summary["trace"]["dropped_events"] != 0:
        fail(f"summary.json trace {summary['trace']} vs {total} events in the files")
    print(f"check_trace: OK ({ranks} rank(s), {total} events, counts {sorted(expect.items())})")


if __name__ == "__main__":
    main()
