#!/usr/bin/python3
"""Checks the output folder of `dlbench run --repeat N`.

usage: check_aggregate.py OUT N FIRST_SEED|fixed

OUT/run-1 .. run-N exist with a summary.json each, complete (run_status), and no generation part
(the dataset was generated once, into OUT/generate); run i used train.seed FIRST_SEED + i - 1 (or no seed
override with `fixed`); OUT/aggregate.json lists the N runs and, for every number the runs share
(a list taken as its mean; not run_status), has the median, min and max that statistics.median/min/max give.
"""
import json, math, os, statistics, sys

out, n, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def fail(message):
    sys.exit(f"check_aggregate: FAIL: {message}")


def numbers(node, prefix=""):
    if isinstance(node, bool):
        return
    if isinstance(node, (int, float)):
        yield prefix, float(node)
    elif isinstance(node, list) and node and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in node):
        yield prefix, sum(node) / len(node)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from numbers(value, f"{prefix}.{key}" if prefix else key)


if not os.path.isfile(os.path.join(out, "generate", "summary.json")):
    fail("the dataset was not generated apart, into generate/")
runs = []
for i in range(1, n + 1):
    folder = os.path.join(out, f"run-{i}")
    summary = json.load(open(os.path.join(folder, "summary.json")))
    if "generation" in summary:
        fail(f"run-{i} generated the dataset again")
    # Every run completed; its run_status is not a measurement, and is not aggregated.
    if summary.pop("run_status", {}).get("complete") is not True:
        fail(f"run-{i}'s summary.json does not say the run completed")
    overrides = open(os.path.join(folder, "overrides.yaml")).read()
    if seed == "fixed":
        if "train.seed" in overrides:
            fail(f"run-{i} changed the seed despite --fixed-seed")
    elif f"++workload.train.seed={int(seed) + i - 1}" not in overrides:
        fail(f"run-{i} did not use seed {int(seed) + i - 1}: {overrides!r}")
    runs.append(dict(numbers(summary)))
if os.path.isdir(os.path.join(out, f"run-{n + 1}")):
    fail("more runs than asked")

aggregate = json.load(open(os.path.join(out, "aggregate.json")))
if aggregate["count"] != n or aggregate["runs"] != [f"run-{i}/summary.json" for i in range(1, n + 1)]:
    fail(f"aggregate lists {aggregate['runs']}")
common = set(runs[0]).intersection(*runs[1:])
if set(aggregate["metrics"]) != common:
    fail(f"aggregate fields differ from the runs' common numbers: {set(aggregate['metrics']) ^ common}")
for path in sorted(common):
    values = [run[path] for run in runs]
    entry = aggregate["metrics"][path]
    for key, expected in (("median", statistics.median(values)), ("min", min(values)),
                          ("max", max(values))):
        if not math.isclose(entry[key], expected, rel_tol=1e-12, abs_tol=1e-12):
            fail(f"{path}: {key} {entry[key]} != {expected} of {values}")
for path in ("metric.train_au_mean_percentage", "metric.train_throughput_mean_samples_per_second"):
    if path not in common:
        fail(f"{path} missing from the aggregate")
print(f"check_aggregate: OK ({len(common)} fields, {n} runs)")
