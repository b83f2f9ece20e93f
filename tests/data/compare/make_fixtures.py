#!/usr/bin/python3
"""Writes the summary.json fixtures of tests/cli/compare_tests.cmake (run from this folder).

Five baseline runs of a training workload with checkpoints, and sets derived from them: other
noise of the same size (same), 20 % fewer samples/s (slow), a 30 % longer checkpoint stall
(stall), a run without the stall metric (missing), a truncated file (malformed), another
workload (other), a single run that also generated its dataset (generated: the CI flow of a
`--repeat` baseline, whose runs do not generate, against one run that does) and a generation-only
run (generation_only: no phase in common with base). Short runs as a CI job makes them (one
block of 2 steps an epoch: DLIO's samples/s is 0, AU measured no step), and the same with half
the exact samples/s (short_slow); a short run of a dlbench without the exact rate (short_old)."""
import json, os

WORKLOAD = {"name": "ci_fixture", "train": True, "checkpoint": True, "format": "npz",
            "num_files_train": 64, "num_samples_per_file": 4, "record_length_bytes": 131072.0,
            "batch_size": 4, "epochs": 2}

def summary(rate, stall, workload=WORKLOAD):
    return {"workload": workload, "num_accelerators": 2, "num_files_train": 64, "epochs": 2,
            "metric": {"train_au_mean_percentage": 95.0 + rate / 100,
                       "train_au_percentage": [95.0, 95.0 + rate / 50],
                       "train_throughput_mean_samples_per_second": rate,
                       "train_read_MiB_per_second": rate * 0.125,
                       "train_batch_wait_p99_seconds": 0.004,
                       "checkpoint_stall_mean_seconds": stall,
                       "checkpoint_write_GiB_per_second": 1.0 / stall,
                       "checkpoint_time_to_durable_mean_seconds": stall * 1.5}}

def write(folder, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "summary.json"), "w") as out:
        out.write(data if isinstance(data, str) else json.dumps(data, indent=2) + "\n")

base = [(100, 2.0), (103, 2.1), (98, 1.9), (101, 2.05), (99, 1.95)]
same = [(102, 1.98), (99, 2.08), (100, 1.93), (97, 2.02), (101, 2.0)]
for i, (rate, stall) in enumerate(base, 1):
    write(f"base/run-{i}", summary(rate, stall))
    write(f"slow/run-{i}", summary(rate * 0.8, stall))
    write(f"stall/run-{i}", summary(rate, stall * 1.3))
for i, (rate, stall) in enumerate(same, 1):
    write(f"same/run-{i}", summary(rate, stall))
missing = summary(100, 2.0)
del missing["metric"]["checkpoint_stall_mean_seconds"]
write("missing/run-1", missing)
write("missing/run-2", summary(101, 2.0))
write("malformed", json.dumps(summary(100, 2.0))[:-40])
write("other", summary(100, 2.0, dict(WORKLOAD, name="another_model")))
generated = summary(100, 2.0)
generated["generation"] = {"total": {"MiB_per_second": 250.0}}
write("generated", generated)
write("generation_only", {"workload": WORKLOAD, "num_accelerators": 2, "num_files_train": 64,
                          "epochs": 2, "generation": {"total": {"MiB_per_second": 250.0}}})

def short(exact):
    return {"workload": WORKLOAD, "num_accelerators": 2, "num_files_train": 64, "epochs": 2,
            "metric": {"train_au_percentage": [0.0, 0.0], "train_au_mean_percentage": 0.0,
                       "train_au_measured_steps": [0, 0],
                       "train_throughput_samples_per_second": [0.0, 0.0],
                       "train_throughput_mean_samples_per_second": 0.0,
                       "train_throughput_samples_per_second_exact": [exact, exact],
                       "train_throughput_mean_samples_per_second_exact": exact}}

for i, (rate, _) in enumerate(base, 1):
    write(f"short/run-{i}", short(rate))
    write(f"short_slow/run-{i}", short(rate * 0.5))
short_old = short(100)
del short_old["metric"]["train_throughput_samples_per_second_exact"]
del short_old["metric"]["train_throughput_mean_samples_per_second_exact"]
write("short_old", short_old)
