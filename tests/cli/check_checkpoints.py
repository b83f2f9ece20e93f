#!/usr/bin/python3
"""Checks what a dlbench run with checkpoints left behind.

  check_checkpoints.py OUTPUT_FOLDER CHECKPOINT_FOLDER PLAN_TEXT RANKS NAME... [--loads N] [--train]
                       [--backpressure]

PLAN_TEXT is the output of `dlbench checkpoint plan WORKLOAD --ranks RANKS`; its total line
("<bytes> B (<GiB> GiB) in <files> files") gives the bytes and files every checkpoint must have.
Each NAME is a checkpoint folder that must be complete: exactly the files of its manifest, with
their sizes, and nothing else. summary.json must hold only finite numbers and DLIO's and
dlbench's checkpoint fields, with byte counts that match (--train: and the training fields with
checkpoint_stall_seconds; --backpressure: a burst buffer whose last save waited for room, with
checkpoint_backpressure_seconds per save). Prints "check_checkpoints: OK".
"""
import json
import os
import re
import sys


def fail(message):
    print("check_checkpoints: FAIL: " + message)
    sys.exit(1)


def strict_json(path):
    def reject(constant):
        fail(f"{path} holds {constant}, which is not JSON")
    with open(path) as f:
        return json.load(f, parse_constant=reject)


def planned_totals(plan_text):
    with open(plan_text) as f:
        text = f.read()
    match = re.search(r"([\d,]+) B \([\d.]+ GiB\) in ([\d,]+) files?", text)
    if not match:
        fail(f"no total line in the plan output:\n{text}")
    return int(match.group(1).replace(",", "")), int(match.group(2).replace(",", ""))


def check_checkpoint(folder, total_bytes, total_files):
    manifest_path = os.path.join(folder, "dlbench_checkpoint_manifest.json")
    if not os.path.isfile(manifest_path):
        fail(f"{folder} has no manifest")
    manifest = strict_json(manifest_path)
    listed = {entry["name"]: entry["bytes"] for entry in manifest["files"]}
    on_disk = {name: os.path.getsize(os.path.join(folder, name))
               for name in os.listdir(folder) if name != "dlbench_checkpoint_manifest.json"}
    if on_disk != listed:
        fail(f"{folder}: files on disk {sorted(on_disk.items())} != manifest {sorted(listed.items())}")
    if sum(on_disk.values()) != total_bytes or len(on_disk) != total_files:
        fail(f"{folder}: {sum(on_disk.values())} B in {len(on_disk)} files, "
             f"planned {total_bytes} B in {total_files} files")
    if manifest["total_bytes"] != total_bytes:
        fail(f"{folder}: manifest total {manifest['total_bytes']} != {total_bytes}")


def main():
    args = sys.argv[1:]
    loads = 0
    train = "--train" in args
    if train:
        args.remove("--train")
    backpressure = "--backpressure" in args
    if backpressure:
        args.remove("--backpressure")
    if "--loads" in args:
        i = args.index("--loads")
        loads = int(args[i + 1])
        del args[i:i + 2]
    output, checkpoints, plan_text, ranks = args[:4]
    names = args[4:]
    ranks = int(ranks)
    total_bytes, total_files = planned_totals(plan_text)
    for name in names:
        check_checkpoint(os.path.join(checkpoints, name), total_bytes, total_files)

    metric = strict_json(os.path.join(output, "summary.json"))["metric"]
    saves = len(names)
    expected = {
        "save_checkpoint_bytes": saves * total_bytes,
        "checkpoint_bytes_written": saves * total_bytes,
    }
    if loads:
        expected["load_checkpoint_bytes"] = loads * total_bytes
    for key, value in expected.items():
        if metric.get(key) != value:
            fail(f"summary.json {key} = {metric.get(key)}, expected {value}")
    per_save = ["save_checkpoint_duration_max_seconds", "save_checkpoint_rank_duration_min_seconds",
                "save_checkpoint_rank_duration_mean_seconds",
                "save_checkpoint_rank_duration_max_seconds"]
    per_load = [k.replace("save_", "load_", 1) for k in per_save] if loads else []
    for key in per_save + per_load:
        want = saves if key.startswith("save") else loads
        if not isinstance(metric.get(key), list) or len(metric[key]) != want:
            fail(f"summary.json {key} = {metric.get(key)}, expected a list of {want}")
    for key in ["save_checkpoint_duration_mean_seconds", "checkpoint_size_GB",
                "checkpoint_stall_mean_seconds", "checkpoint_stall_max_seconds",
                "checkpoint_time_to_durable_max_seconds", "checkpoint_finish_seconds"] + (
                    ["load_checkpoint_duration_mean_seconds"] if loads else []):
        if not isinstance(metric.get(key), (int, float)):
            fail(f"summary.json has no number {key}")

    if backpressure:
        waits = metric.get("checkpoint_backpressure_seconds")
        durations = metric["save_checkpoint_duration_max_seconds"]
        if not isinstance(waits, list) or len(waits) != saves or not waits[-1] > 0:
            fail(f"summary.json checkpoint_backpressure_seconds = {waits}, expected {saves} "
                 "waits, the last one positive")
        if any(not 0 <= w <= d for w, d in zip(waits, durations)):
            fail(f"backpressure {waits} not within the save durations {durations}")
        if abs(metric.get("checkpoint_backpressure_total_seconds", -1) - sum(waits)) > 1e-9:
            fail("checkpoint_backpressure_total_seconds is not the sum of the waits")

    if train:
        for key in ["checkpoint_stall_seconds", "train_au_mean_percentage"]:
            if not isinstance(metric.get(key), (int, float)):
                fail(f"summary.json of a training run has no number {key}")

    for rank in range(ranks):
        stats = strict_json(os.path.join(output, f"{rank}_per_epoch_stats.json"))
        found = sum(1 for epoch in stats.values() for key in epoch if key.startswith("save_ckpt"))
        loaded = sum(1 for epoch in stats.values() for key in epoch if key.startswith("load_ckpt"))
        if found != saves or loaded != loads:
            fail(f"{rank}_per_epoch_stats.json: {found} saves and {loaded} loads, "
                 f"expected {saves} and {loads}")
    print("check_checkpoints: OK")


if __name__ == "__main__":
    main()
