#!/usr/bin/env python3
"""Checks the insights of a run (tests/cli/insights_tests.cmake, docs/insights.md).

check_insights.py OUT [--none] [--fires ID[:SEVERITY]]... [--absent ID]... [--names TEXT]
  OUT:       the run's output folder (summary.json), or a --repeat set's (aggregate.json)
  --none:    the run has no finding at all (a healthy run)
  --fires:   a finding with this id (and this severity, when given) is listed
  --absent:  no finding with this id is listed
  --names:   some fired finding's message contains TEXT (the straggler's rank, the file)
Every finding must have a stable id, a severity of info/warning/high, a one-sentence message, a
non-empty evidence list (metric, value, unit; threshold with its comparison when given) and a
suggestion. Prints "check_insights: OK" or the first failure.
"""
import json
import os
import sys

SEVERITIES = ("info", "warning", "high")
IDS = ("storage_bound", "preprocess_bound", "small_reads", "metadata_bound", "rank_imbalance", "first_epoch_slower",
       "page_cache_served", "checkpoint_stall", "drain_backlog", "eval_dominates",
       "shared_file_contention", "request_latency_bound", "retries")


def fail(message):
    print("check_insights: FAIL: " + message)
    sys.exit(1)


def check_shape(finding):
    for key in ("id", "severity", "message", "evidence", "suggestion"):
        if key not in finding:
            fail(f"a finding has no {key}: {finding}")
    if finding["id"] not in IDS:
        fail(f"unknown id {finding['id']}")
    if finding["severity"] not in SEVERITIES:
        fail(f"{finding['id']}: severity {finding['severity']}")
    if not finding["message"].endswith(".") or not finding["suggestion"]:
        fail(f"{finding['id']}: message or suggestion missing")
    if not finding["evidence"]:
        fail(f"{finding['id']}: no evidence")
    for e in finding["evidence"]:
        if not e.get("metric") or not isinstance(e.get("value"), (int, float)) or "unit" not in e:
            fail(f"{finding['id']}: evidence {e}")
        if "threshold" in e and e.get("comparison") not in (">=", ">", "<", "<="):
            fail(f"{finding['id']}: threshold without comparison {e}")


def main():
    out = sys.argv[1]
    name = "summary.json"
    if not os.path.exists(os.path.join(out, name)):
        name = "aggregate.json"
    with open(os.path.join(out, name)) as f:
        summary = json.load(f)
    if "insights" not in summary:
        fail(f"{name} has no insights")
    findings = summary["insights"]
    for finding in findings:
        check_shape(finding)
    by_id = {f["id"]: f for f in findings}
    args = sys.argv[2:]
    i = 0
    while i < len(args):
        option = args[i]
        if option == "--none":
            if findings:
                fail("a healthy run has findings: " +
                     "; ".join(f"{f['id']} ({f['message']})" for f in findings))
            i += 1
            continue
        value = args[i + 1]
        i += 2
        if option == "--fires":
            wanted, _, severity = value.partition(":")
            if wanted not in by_id:
                fail(f"{wanted} did not fire; findings: {sorted(by_id)}; summary metric: " +
                     json.dumps({k: v for k, v in summary.get("metric", {}).items()
                                 if "load" in k or "read_seconds" in k or "stall" in k}))
            if severity and by_id[wanted]["severity"] != severity:
                fail(f"{wanted} is {by_id[wanted]['severity']}, not {severity}")
        elif option == "--absent":
            if value in by_id:
                fail(f"{value} fired: {by_id[value]['message']}")
        elif option == "--names":
            if not any(value in f["message"] for f in findings):
                fail(f"no finding names {value!r}")
        else:
            fail(f"unknown option {option}")
    print("check_insights: OK")


if __name__ == "__main__":
    main()
