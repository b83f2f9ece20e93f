#!/usr/bin/env python3
"""Checks a run that staged its dataset (tests/cli/stage_tests.cmake).

check_stage.py OUT SOURCE STAGED MODE
  OUT:    the run's output folder (summary.json)
  SOURCE: the data folder on the capacity tier (pfs); STAGED: the staged data folder (nvme)
  MODE:   `fast-only`: every staged file is byte-identical to its source, and training read only
          the fast tier (storage_counts_per_tier: pfs read 0 bytes, nvme > 0);
          `both`: a policy staging during training: the cache is gone afterwards and the reads
          split between the tiers as the summary's cache hits and misses say.
Prints "check_stage: OK" or the first failure.
"""
import filecmp
import json
import os
import sys


def fail(message):
    print("check_stage: FAIL: " + message)
    sys.exit(1)


def main():
    out, source, staged, mode = sys.argv[1:5]
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    stage = summary.get("stage")
    if stage is None:
        fail("summary.json has no stage")
    counts = summary.get("storage_counts_per_tier")
    if counts is None:
        fail("summary.json has no storage_counts_per_tier")
    pfs, nvme = counts["pfs"]["bytes_read"], counts["nvme"]["bytes_read"]
    if mode == "fast-only":
        compared = 0
        for root, _, names in os.walk(source):
            for name in names:
                path = os.path.join(root, name)
                copy = os.path.join(staged, os.path.relpath(path, source))
                if os.path.exists(copy):
                    if not filecmp.cmp(path, copy, shallow=False):
                        fail(copy + " differs from " + path)
                    compared += 1
        if compared == 0:
            fail("nothing staged under " + staged)
        for root, _, names in os.walk(staged):
            for name in names:
                if name.endswith(".dlbench-partial"):
                    fail("partial file left: " + os.path.join(root, name))
        if pfs != 0 or nvme == 0:
            fail("training read %d bytes from pfs and %d from nvme" % (pfs, nvme))
        if stage["files"] + stage["skipped_files"] == 0 or stage["GiB_per_second"] <= 0 and stage["files"] > 0:
            fail("no staging reported: %s" % stage)
    elif mode == "both":
        if os.path.exists(os.path.join(staged, ".dlbench-cache")):
            fail("the cache was left at " + staged)
        hits, misses = stage["reads_from_cache"], stage["reads_from_source"]
        if hits == 0 or nvme == 0:
            fail("no read came from the cache: %s, nvme read %d" % (stage, nvme))
        if (misses == 0) != (pfs == 0):
            fail("%d reads from the source but pfs read %d bytes" % (misses, pfs))
        if stage["bytes"] == 0 or stage["files"] == 0:
            fail("nothing copied: %s" % stage)
    else:
        fail("unknown mode " + mode)
    print("check_stage: OK (pfs %d B, nvme %d B read; stage %s)" % (pfs, nvme, stage))


main()
