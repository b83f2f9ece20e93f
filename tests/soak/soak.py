#!/usr/bin/python3
"""Soak test: randomized valid `dlbench run`s, each checked against invariants (scripts/dev/soak.sh).

    soak.py --dlbench PATH --minutes M [--seed S] [--runs N] [--work DIR] [--keep]

Run i uses seed S + i (S: random unless given), from which everything about it is drawn: format,
layout (many files, or one file shared by all ranks), ranks 1-4 (under mpirun; a single rank also
without it), reader threads 0-8, uneven file, sample and batch counts, tiny (1-64 B), small and
large (1-4 MiB) samples, shuffles, evaluation, checkpoints of a tiny transformer during training
(directly, or through a burst-buffer tier that drains to the checkpoint folder), tracing on or off.
After each run:

  - the run ends with exit 0 within its time limit, and leaves no process behind;
  - samples and bytes: tests/cli/check_summary.py (every phase's sample count, so every rank
    read its exact share, and the bytes each read must cost on the files on disk; hdf5 under
    strace, as the kernel served it);
  - coverage: with one sample per file and nothing left unread, every training file is opened
    exactly once per epoch (on_demand reading), by the counters;
  - counters: the job totals of summary.json's posix_counters are the sums of the ranks'
    <rank>_posix_counters.json.gz (gzip'd JSON); the bytes read from the dataset's files are the train and eval
    read bytes the summary reports; the bytes written to data files are the generation's; the
    checkpoint bytes written and read are the summary's checkpoint bytes;
  - manifests: the dataset marker says complete; tests/cli/check_checkpoints.py holds every
    checkpoint folder to its manifest and to `dlbench checkpoint plan`;
  - traces: tests/cli/check_trace.py (well-formed, nested, one event per sample, step, epoch);
  - nothing leaked: no *.dlbench-partial file anywhere, no checkpoint left on the burst-buffer
    tier once drained (evict_after_drain), no file outside the run's folders.

A run that breaks an invariant prints FAIL with its seed, the replay command and its workload,
keeps its folder, and makes the exit status 1. A leaked or hung thread shows as a run that does
not end (std::thread's destructor terminates on a joinable thread; a thread that never returns
keeps the process alive past the time limit).
"""
import argparse
import glob
import gzip
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import zipfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.normpath(os.path.join(HERE, "..", "cli"))
PYTHON = "/usr/bin/python3"
FORMATS = ["npz", "npy", "tfrecord", "hdf5", "csv", "parquet", "jpeg", "png", "indexed_binary",
           "mmap_indexed_binary"]
IMAGE = ("jpeg", "png")
WHOLE_PASS = ("csv", "parquet", "jpeg", "png")
RUN_SECONDS = 300
# The tiny transformer of tests/data/workloads/tiny_checkpoint.yaml (about 15 MiB a checkpoint).
TINY_MODEL = {
    "name": "soak", "type": "transformer", "num_layers": 4, "model_datatype": "fp16",
    "optimizer_datatype": "fp32",
    "parallelism": {"tensor": 1, "pipeline": 1, "zero_stage": 1},
    "transformer": {"vocab_size": 1024, "hidden_size": 128, "ffn_hidden_size": 448,
                    "num_attention_heads": 8, "num_kv_heads": 2},
}


def draw(seed, work):
    """The run of `seed`: its launch settings and workload document, in folder `work`."""
    rng = random.Random(seed)
    fmt = rng.choice(FORMATS)
    ranks = rng.randint(1, 4)
    shared = fmt not in IMAGE and rng.random() < 0.3
    size = rng.choices(["tiny", "small", "large"], [0.3, 0.5, 0.2])[0]
    record = {"tiny": lambda: rng.randint(1, 64), "small": lambda: rng.randint(65, 16384),
              "large": lambda: rng.randint(1 << 20, 4 << 20)}[size]()
    if shared:
        files, evals, per_file = 1, 0, rng.randint(ranks, 40)
    else:
        files, per_file = rng.randint(1, 13), 1 if fmt in IMAGE else rng.randint(1, 5)
        evals = rng.choice([0, 0, rng.randint(1, 4)])
    if size == "large":  # at most about 64 MiB of data
        per_file = min(per_file, 4)
        files = max(1, min(files, (64 << 20) // (record * per_file)))
    batch, batch_eval = rng.randint(1, 5), rng.randint(1, 3)
    if fmt in WHOLE_PASS:  # every sample read in every pass (check_summary.py prices files whole)
        samples = ranks * batch * rng.randint(1, 3)
        per_file = samples if shared else rng.choice(
            [d for d in range(1, 6) if samples % d == 0 and (d == 1 or fmt not in IMAGE)])
        files = samples // per_file
        evals = (ranks * batch_eval // per_file) if (ranks * batch_eval) % per_file == 0 else 0
        if size == "large":
            record = min(record, (64 << 20) // samples)
    if fmt == "csv":  # read whole for every sample, as text of ~3.6 bytes per byte
        record = max(1, min(record, (64 << 20) // (4 * per_file * per_file * files)))
    # Every rank needs a whole step of training (evaluation: else no evaluation).
    if files * per_file < ranks:
        files = -(-ranks // per_file)
    batch = min(batch, files * per_file // ranks)
    batch_eval = max(1, min(batch_eval, evals * per_file // ranks))
    if evals * per_file < ranks:
        evals = 0
    epochs = rng.randint(1, 3)
    dataset = {"data_folder": os.path.join(work, "data"), "format": fmt,
               "num_files_train": files, "num_files_eval": evals,
               "num_samples_per_file": per_file, "record_length_bytes": record,
               "num_subfolders_train": rng.choice([0, 0, 2]) if files > 2 else 0}
    reader = {"data_loader": "pytorch", "batch_size": batch, "batch_size_eval": batch_eval,
              "read_threads": rng.randint(0, 8),
              "file_shuffle": rng.choice(["off", "seed", "random"]),
              "sample_shuffle": rng.choice(["off", "seed", "random"])}
    if fmt == "tfrecord":
        reader["data_loader"] = "tensorflow"
        if shared:
            reader["read_threads"] = rng.randint(0, 1)  # one stream per rank
    doc = {
        "model": {"name": "soak"},
        "framework": "tensorflow" if fmt == "tfrecord" else "pytorch",
        "workflow": {"generate_data": True, "train": True,
                     "evaluation": bool(evals) and rng.random() < 0.6},
        "dataset": dataset,
        "reader": reader,
        "train": {"epochs": epochs, "computation_time": rng.choice([0, 0.001])},
        "evaluation": {"eval_time": 0.0005},
        "output": {"folder": os.path.join(work, "out")},
    }
    checkpoint = rng.random() < 0.3
    burst_buffer = checkpoint and rng.random() < 0.5
    if checkpoint:
        doc["model"] = dict(TINY_MODEL)
        doc["workflow"]["checkpoint"] = True
        doc["checkpoint"] = {"checkpoint_folder": os.path.join(work, "pfs", "ckpt"),
                             "checkpoint_after_epoch": 1, "epochs_between_checkpoints": 1,
                             "fsync": rng.random() < 0.5}
        if burst_buffer:
            doc["storage"] = {"tiers": {"nvme": {"path": os.path.join(work, "bb")},
                                        "pfs": {"path": os.path.join(work, "pfs")}}}
            doc["checkpoint"]["burst_buffer"] = {"tier": "nvme",
                                                 "drain_threads": rng.randint(1, 3)}
    return {
        "seed": seed, "ranks": ranks, "mpirun": ranks > 1 or rng.random() < 0.5,
        "trace": rng.random() < 0.5, "checkpoint": checkpoint, "burst_buffer": burst_buffer,
        "work": work, "workload": doc,
        "label": (f"{fmt} {'shared' if shared else 'many'} np{ranks} {size}({record} B) "
                  f"files {files}+{evals}x{per_file} batch {batch} threads "
                  f"{reader['read_threads']} epochs {epochs}"
                  + (" ckpt" + ("+bb" if burst_buffer else "") if checkpoint else "")),
    }


class Failure(Exception):
    pass


def mpirun(ranks):
    flags = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)]
    if os.getuid() == 0:
        flags.insert(1, "--allow-run-as-root")
    return flags


def run_checker(args, what):
    result = subprocess.run([PYTHON] + args, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise Failure(f"{what}: {(result.stdout + result.stderr).strip().splitlines()[-1:]}")


# Layouts whose bytes check_summary.py cannot price (a tfrecord stream's cost depends on which
# rank consumes which records and on the transfer buffer): their sample counts are still checked
# (--skipped 0), and the counters' bytes still equal the reported ones.
UNPRICED = ("tfrecord test files must fit", "tfrecord files must be consumed whole",
            "a shared tfrecord file is checked with")


def check_summary(run, out):
    """check_summary.py's verdict; False when it could check the sample counts only."""
    args = [os.path.join(CLI, "check_summary.py"), out]
    if run["workload"]["dataset"]["format"] == "hdf5":
        args += ["--kernel", os.path.join(run["work"], "syscalls")]
    try:
        run_checker(args, "check_summary")
        return True
    except Failure as error:
        if not any(limit in str(error) for limit in UNPRICED):
            raise
    run_checker(args + ["--skipped", "0"], "check_summary (sample counts)")
    return False


def launch(run):
    """Runs dlbench for `run`; returns its output folder."""
    work, doc = run["work"], run["workload"]
    os.makedirs(work)
    workload = os.path.join(work, "workload.yaml")
    with open(workload, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    out = doc["output"]["folder"]
    command = [run["dlbench"], "run", workload, "--output", out, "--quiet"]
    if run["trace"]:
        command.append("--trace")
    if run["mpirun"]:
        command = mpirun(run["ranks"]) + command
    if doc["dataset"]["format"] == "hdf5":  # HDF5 decides what it reads: count the kernel's bytes
        command = ["strace", "-f", "-ff", "-qq", "-y", "-s", "0", "-e",
                   "trace=read,pread64,readv,preadv,preadv2,fadvise64", "-e", "signal=none",
                   "-o", os.path.join(work, "syscalls")] + command
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise Failure(f"no end within {RUN_SECONDS} s (a hang)")
    with open(os.path.join(work, "output.log"), "w") as f:
        f.write(output)
    if process.returncode != 0:
        errors = [line for line in output.splitlines() if "error" in line.lower()]
        raise Failure(f"exit {process.returncode}: {(errors or output.splitlines() or [''])[0]}")
    return out


def leftover_processes(work):
    """Processes whose command line names this run's folder (after the launcher returned)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if work in cmdline and int(pid) != os.getpid():
            found.append(f"{pid}: {cmdline[:120]}")
    return found


ADDITIVE = ("POSIX_OPENS", "POSIX_READS", "POSIX_WRITES", "POSIX_BYTES_READ",
            "POSIX_BYTES_WRITTEN")


def rank_counters(out, ranks):
    """Per path, the additive counters summed over the ranks; and the ranks' totals summed."""
    files, totals = {}, {}
    for rank in range(ranks):
        with gzip.open(os.path.join(out, f"{rank}_posix_counters.json.gz"), "rt") as f:
            counters = json.load(f)
        for key in ADDITIVE:
            totals[key] = totals.get(key, 0) + counters["totals"].get(key, 0)
        for record in counters["files"]:
            into = files.setdefault(record["file"], {})
            for key in ADDITIVE:
                into[key] = into.get(key, 0) + record["counters"].get(key, 0)
    return files, totals


def rewritten_header_bytes(path):
    """npz: the writer appends placeholder local headers and rewrites them once the member's CRC
    is known, so each local header (30 + name + 20 B ZIP64 extra) is written twice."""
    with zipfile.ZipFile(path) as archive:
        return sum(30 + len(member.filename) + 20 for member in archive.infolist())


def check_counters(run, out, summary):
    ranks, doc = run["ranks"], run["workload"]
    ds, metric, job = doc["dataset"], summary["metric"], summary["posix_counters"]["totals"]
    files, totals = rank_counters(out, ranks)
    checked = ["counters: ranks sum to job"]
    outside = [p for p, c in files.items()
               if c["POSIX_BYTES_WRITTEN"] and not p.startswith(run["work"] + "/")]
    if outside:
        raise Failure(f"files written outside the run's folders: {outside[:5]}")
    for key, value in totals.items():
        if job[key] != value:
            raise Failure(f"posix_counters.totals.{key} = {job[key]}, the ranks' sum {value}")
    if summary["posix_counters"]["total_bytes"] != job["POSIX_BYTES_READ"] + job["POSIX_BYTES_WRITTEN"]:
        raise Failure("posix_counters.total_bytes is not bytes read + written")

    # The data files (final names; not the marker, index companions or partial names).
    data = ds["data_folder"] + "/"
    final = {p: c for p, c in files.items() if p.startswith(data + "train/") or
             p.startswith(data + "valid/")}
    final = {p: c for p, c in final.items() if not os.path.basename(p).startswith(".")}
    read = sum(c["POSIX_BYTES_READ"] for c in final.values())
    reported = metric.get("train_read_bytes", 0) + metric.get("eval_read_bytes", 0)
    # hdf5: check_summary.py compares the kernel's bytes; mmap_indexed_binary reads its samples by
    # page faults, which no counter sees (its reported bytes are the samples').
    if ds["format"] not in ("hdf5", "mmap_indexed_binary"):
        checked.append("counters: data bytes read")
    if ds["format"] not in ("hdf5", "mmap_indexed_binary") and read != reported:
        raise Failure(f"bytes read from the data files by the counters {read} != summary's train "
                      f"+ eval read bytes {reported}")
    written = sum(c["POSIX_BYTES_WRITTEN"] for p, c in files.items()  # companions included
                  if p.startswith(data) and ".dlbench-dataset.json" not in p)
    generated = summary["generation"]["total"]["bytes_written"]
    if ds["format"] == "npz":
        generated += sum(rewritten_header_bytes(p) for p in final if os.path.isfile(p))
    if ds["format"] != "hdf5":
        checked.append("counters: data bytes written")
    if ds["format"] != "hdf5" and written != generated:  # hdf5: see FormatWriter's WriteResult
        raise Failure(f"bytes written to the data files by the counters {written} != "
                      f"generation's bytes_written {summary['generation']['total']['bytes_written']}"
                      f" (+ rewritten npz headers)")

    # Coverage: with one sample per file and nothing unread, reading on demand opens every
    # training file exactly once an epoch.
    if (ds["num_samples_per_file"] == 1 and metric.get("train_samples_unread_per_epoch") == 0
            and ds["format"] not in ("hdf5", "tfrecord", "mmap_indexed_binary")):
        epochs = doc["train"]["epochs"]
        checked.append("coverage: each file once an epoch")
        for path in glob.glob(os.path.join(data, "train", "**", "*"), recursive=True):
            if os.path.isfile(path) and not path.endswith(".idx"):
                opens = files.get(path, {}).get("POSIX_OPENS", 0)
                if opens != epochs:
                    raise Failure(f"{path} opened {opens} times in {epochs} epochs (coverage)")

    if run["checkpoint"]:
        tier = os.path.join(run["work"], "bb" if run["burst_buffer"] else "pfs") + "/"
        saved = sum(c["POSIX_BYTES_WRITTEN"] for p, c in files.items()
                    if p.startswith(tier) and "manifest" not in p)
        if saved != metric.get("checkpoint_bytes_written"):
            raise Failure(f"checkpoint bytes written by the counters {saved} != summary's "
                          f"checkpoint_bytes_written {metric.get('checkpoint_bytes_written')}")
        checked.append("counters: checkpoint bytes")
    return checked


def check_run(run, out):
    """Checks every invariant that applies to the run; returns the names of those checked."""
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    doc, work = run["workload"], run["work"]
    checked = ["exit 0", "samples and bytes" if check_summary(run, out) else "samples only"]
    with open(os.path.join(doc["dataset"]["data_folder"], ".dlbench-dataset.json")) as f:
        if json.load(f).get("complete") is not True:
            raise Failure("the dataset marker does not say complete")
    checked += ["dataset marker"] + check_counters(run, out, summary)
    if run["trace"]:
        run_checker([os.path.join(CLI, "check_trace.py"), out, str(run["ranks"])], "check_trace")
        checked.append("trace")
    if run["checkpoint"]:
        check_checkpoints(run, out)
        checked.append("checkpoint manifests")
    partial = glob.glob(os.path.join(work, "**", "*.dlbench-partial"), recursive=True)
    partial += glob.glob(os.path.join(work, "**", ".*.dlbench-partial"), recursive=True)
    if partial:
        raise Failure(f"partial files left: {sorted(set(partial))[:5]}")
    if run["burst_buffer"]:
        left = [p for p in glob.glob(os.path.join(work, "bb", "**"), recursive=True)
                if os.path.isfile(p)]
        if left:
            raise Failure(f"checkpoint files left on the burst-buffer tier: {left[:5]}")
        checked.append("burst buffer emptied")
    stray = leftover_processes(work)
    if stray:
        raise Failure(f"processes left behind: {stray}")
    return checked + ["no partial files", "no processes left"]


def check_checkpoints(run, out):
    doc, work = run["workload"], run["work"]
    plan = os.path.join(work, "plan.txt")
    with open(plan, "w") as f:
        subprocess.run([run["dlbench"], "checkpoint", "plan", os.path.join(work, "workload.yaml"),
                        "--ranks", str(run["ranks"])], stdout=f, check=True, timeout=120)
    folder = doc["checkpoint"]["checkpoint_folder"]
    names = sorted(n for n in os.listdir(folder) if os.path.isdir(os.path.join(folder, n)))
    epochs = doc["train"]["epochs"]
    if len(names) != epochs:
        raise Failure(f"{len(names)} checkpoints in {folder} ({names}), expected one per epoch "
                      f"({epochs})")
    run_checker([os.path.join(CLI, "check_checkpoints.py"), out, folder, plan, str(run["ranks"])]
                + names + ["--train"], "check_checkpoints")


def replay_hint(seed):
    return f"scripts/dev/soak.sh 1 --seed {seed} --runs 1"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlbench", required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--runs", type=int, default=0, help="stop after N runs (0: time only)")
    parser.add_argument("--work", default="/tmp/dlbench-soak")
    parser.add_argument("--keep", action="store_true", help="keep the folders of passing runs")
    args = parser.parse_args()
    dlbench = os.path.abspath(args.dlbench)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    deadline = time.monotonic() + args.minutes * 60
    print(f"soak: seeds from {seed}, {args.minutes} min, folders under {args.work}", flush=True)
    runs, failures, tally, checks = 0, [], {}, {}
    while time.monotonic() < deadline and (args.runs == 0 or runs < args.runs):
        current = seed + runs
        runs += 1
        work = os.path.join(args.work, f"seed-{current}")
        shutil.rmtree(work, ignore_errors=True)
        run = draw(current, work)
        run["dlbench"] = dlbench
        started = time.monotonic()
        try:
            out = launch(run)
            checked = check_run(run, out)
        except (Failure, subprocess.TimeoutExpired, subprocess.CalledProcessError, OSError,
                KeyError, ValueError) as error:
            failures.append(current)
            print(f"soak: FAIL seed {current} ({run['label']}): {error}\n"
                  f"  replay: {replay_hint(current)}\n  folder: {work}\n  workload:\n"
                  + "    " + yaml.safe_dump(run["workload"], sort_keys=False).replace(
                      "\n", "\n    ").rstrip() + f"\n  launch: ranks {run['ranks']}, mpirun "
                  f"{run['mpirun']}, trace {run['trace']}", flush=True)
            continue
        fmt = run["workload"]["dataset"]["format"]
        tally[fmt] = tally.get(fmt, 0) + 1
        for name in checked:
            checks[name] = checks.get(name, 0) + 1
        print(f"soak: ok   seed {current} ({run['label']}{' trace' if run['trace'] else ''}"
              f"{'; bytes not priced' if 'samples only' in checked else ''}) "
              f"{time.monotonic() - started:.1f} s", flush=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"soak: {runs} runs, {len(failures)} failed" + (f" (seeds {failures})" if failures else "")
          + "\nsoak: passed per format: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
          + "\nsoak: invariants checked (runs): "
          + ", ".join(f"{k} {v}" for k, v in sorted(checks.items())), flush=True)
    sys.exit(1 if failures or runs == 0 else 0)


if __name__ == "__main__":
    main()
