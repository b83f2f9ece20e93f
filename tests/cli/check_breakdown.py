#!/usr/bin/python3
"""Checks the step breakdown of a `dlbench run` (docs/metrics.md §2.1) end to end.

    check_breakdown.py OUTPUT_FOLDER ASKED_COMPUTE_SECONDS

For every phase in summary.json (train, eval) and every epoch: AU plus the four AU-point losses
add up to 100; no breakdown term is negative. From every <rank>_output.json: each step's measured
compute is at least the asked one (never early) and the asked one is the configured constant; the
barrier's skew part lies within the barrier wait, and at every training step the last rank to
arrive waited for nobody (skew 0: the arrivals were reduced over ranks); and the mean over ranks of the per-step lists
gives summary.json's first-batch, load-wait, overshoot, skew and latency seconds (one block per
epoch, exclude_start_steps 1); every epoch of every rank has DLIO's host_meminfo. Prints `check_breakdown: OK` or the first mismatch (exit 1).
"""
import glob
import json
import os
import sys

TOLERANCE = 1e-6


def fail(msg):
    print("check_breakdown: FAIL: " + msg)
    sys.exit(1)


def close(a, b):
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def main():
    folder, asked = sys.argv[1], float(sys.argv[2])
    metric = json.load(open(os.path.join(folder, "summary.json")))["metric"]
    ranks = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(folder, "*_output.json")))]
    if not ranks:
        fail("no <rank>_output.json")
    # DLIO's per-epoch host_meminfo (/proc/meminfo at the epoch's start) in every rank's file.
    for r, rank in enumerate(ranks):
        for epoch in (k for k in rank if k.isdigit()):
            meminfo = rank[epoch].get("host_meminfo")
            if not isinstance(meminfo, dict) or not str(meminfo.get("MemTotal", "")).endswith("kB"):
                fail(f"rank {r} epoch {epoch}: host_meminfo is {meminfo!r}, not /proc/meminfo")
    phases = [p for p in ("train", "eval") if p + "_au_percentage" in metric]
    if "train" not in phases:
        fail("no training metrics")
    losses = ["load", "barrier_skew", "barrier_latency", "other"]
    seconds = ["first_batch_wait", "load_wait", "compute_overshoot", "barrier_skew",
               "barrier_latency", "step_other"]
    for p in phases:
        au = metric[p + "_au_percentage"]
        for e in range(len(au)):
            total = au[e] + sum(metric[f"{p}_au_loss_{x}_percentage"][e] for x in losses)
            if not close(total, 100.0):
                fail(f"{p} epoch {e + 1}: AU + losses = {total}, not 100")
            for x in seconds:
                if metric[f"{p}_{x}_seconds"][e] < -TOLERANCE:
                    fail(f"{p}_{x}_seconds[{e}] is negative")
        # Recompute the seconds from the ranks' per-step lists.
        key = "block1" if p == "train" else "eval"
        epochs = [k for k in ranks[0] if k.isdigit()]
        if p == "eval":
            epochs = [k for k in epochs if "eval" in ranks[0][k]["load"]]
        for e, epoch in enumerate(epochs):
            sums = {x: 0.0 for x in seconds if x != "step_other"}
            for rank in ranks:
                out = rank[epoch]
                load, compute = out["load"][key], out["compute"][key]
                asked_list, barrier, skew = (out["compute_asked"][key], out["barrier"][key],
                                             out["barrier_skew"][key])
                for i in range(len(load)):
                    if asked_list[i] != asked:
                        fail(f"epoch {epoch} step {i}: asked {asked_list[i]}, configured {asked}")
                    if compute[i] < asked_list[i] - 1e-9:
                        fail(f"epoch {epoch} step {i}: compute {compute[i]} ended early")
                    if not -1e-12 <= skew[i] <= barrier[i] + 1e-12:
                        fail(f"epoch {epoch} step {i}: skew {skew[i]} outside barrier {barrier[i]}")
                sums["first_batch_wait"] += load[0] / len(ranks)
                sums["load_wait"] += sum(load[1:]) / len(ranks)
                sums["compute_overshoot"] += sum(c - a for c, a in zip(compute[1:], asked_list[1:])) / len(ranks)
                sums["barrier_skew"] += sum(skew) / len(ranks)
                sums["barrier_latency"] += sum(b - s for b, s in zip(barrier, skew)) / len(ranks)
            if p == "train" and len(ranks) > 1:
                skews = [rank[epoch]["barrier_skew"][key] for rank in ranks]
                for i in range(len(skews[0])):
                    if min(s[i] for s in skews) != 0.0:
                        fail(f"epoch {epoch} step {i}: every rank waited for a later one "
                             f"({[s[i] for s in skews]})")
            for x, value in sums.items():
                if abs(metric[f"{p}_{x}_seconds"][e] - value) > 1e-9:
                    fail(f"{p}_{x}_seconds[{e}] = {metric[f'{p}_{x}_seconds'][e]}, ranks' lists give {value}")
    print("check_breakdown: OK")


if __name__ == "__main__":
    main()
