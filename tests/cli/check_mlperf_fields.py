#!/usr/bin/env python3
"""Checks that a run folder holds what MLPerf Storage's tooling reads, with DLIO's names and types
(mlpstorage's DLIOResultParser reads them; docs/metrics.md): summary.json's
num_accelerators, start (kept as a string), metric, host_memory_GB, host_cpu_count, num_hosts, and
dlio_config/config.yaml rooted at `workload:` (workflow flags, model name) with
dlio_config/overrides.yaml (a list of the override strings). With PHASES (a comma-separated list
of generate, train, checkpoint), the workflow flags of dlio_config/config.yaml and summary.json's
`workload` must say that those phases ran and no other.

usage: check_mlperf_fields.py RUN_FOLDER RANKS [PHASES]
"""
import datetime
import json
import os
import sys

import yaml


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: check_mlperf_fields.py RUN_FOLDER RANKS [PHASES]")
        sys.exit(2)
    with open(os.path.join(sys.argv[1], "summary.json")) as f:
        summary = json.load(f)
    ranks = int(sys.argv[2])
    problems = []

    def want(key, ok, what):
        if key not in summary:
            problems.append("%s missing" % key)
        elif not ok(summary[key]):
            problems.append("%s = %r, expected %s" % (key, summary[key], what))

    want("num_accelerators", lambda v: type(v) is int and v == ranks, "the int %d" % ranks)
    want("num_hosts", lambda v: type(v) is int and v >= 1, "an int >= 1")
    want("start", lambda v: isinstance(v, str) and datetime.datetime.fromisoformat(v).year > 2000,
         "an ISO 8601 timestamp")
    want("metric", lambda v: isinstance(v, dict), "an object")
    want("host_memory_GB", lambda v: isinstance(v, list) and len(v) == summary.get("num_hosts")
         and all(isinstance(x, (int, float)) and x > 0 for x in v), "one GiB number per host")
    want("host_cpu_count", lambda v: isinstance(v, list) and len(v) == summary.get("num_hosts")
         and all(type(x) is int and x > 0 for x in v), "one int per host")
    au = summary.get("metric", {}).get("train_au_meet_expectation")
    if au is not None and au not in ("success", "fail"):
        problems.append("metric.train_au_meet_expectation = %r" % au)
    hydra = os.path.join(sys.argv[1], "dlio_config")
    with open(os.path.join(hydra, "config.yaml")) as f:
        workload = yaml.safe_load(f).get("workload", {})
    with open(os.path.join(sys.argv[1], "config.yaml")) as f:
        if workload != yaml.safe_load(f):
            problems.append("dlio_config/config.yaml is not config.yaml rooted at workload:")
    for key in ("generate_data", "train", "checkpoint"):
        if not isinstance(workload.get("workflow", {}).get(key), bool):
            problems.append("dlio_config/config.yaml: workload.workflow.%s is not a bool" % key)
    if len(sys.argv) == 4:
        ran = sys.argv[3].split(",")
        flags = {"generate": "generate_data", "train": "train", "checkpoint": "checkpoint"}
        for phase, key in flags.items():
            if workload.get("workflow", {}).get(key) != (phase in ran):
                problems.append("dlio_config/config.yaml: workload.workflow.%s is %r after %s"
                                % (key, workload.get("workflow", {}).get(key), sys.argv[3]))
            if key != "generate_data" and summary.get("workload", {}).get(key) != (phase in ran):
                problems.append("summary.json: workload.%s is %r after %s"
                                % (key, summary.get("workload", {}).get(key), sys.argv[3]))
    if not isinstance(workload.get("model", {}).get("name"), str):
        problems.append("dlio_config/config.yaml: workload.model.name missing")
    with open(os.path.join(hydra, "overrides.yaml")) as f:
        overrides = yaml.safe_load(f)
    if not isinstance(overrides, list) or not all(isinstance(o, str) for o in overrides):
        problems.append("dlio_config/overrides.yaml is not a list of strings: %r" % overrides)
    for p in problems:
        print("check_mlperf_fields: FAIL: " + p)
    if problems:
        sys.exit(1)
    print("check_mlperf_fields: OK")


if __name__ == "__main__":
    main()
