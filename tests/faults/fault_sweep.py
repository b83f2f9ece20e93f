#!/usr/bin/python3
"""The fault sweep (docs/reliability.md): a fault at each storage operation of a small run of each
phase in turn, through DLBENCH_FAULTS (storage/fault_environment.h).

  fault_sweep.py DLBENCH DATA_DIR SCRATCH [--phase NAME]... [--sample N] [--ranks R --mpiexec CMD]
                 [--format F]...

--format F: the dataset of the generate, train, stage and trace phases in format F instead of
their workloads' (npy for generate, npz for the others), so that each format's writer and reader
meet the faults too (its writer's partial file and rename, its reader's handling of a failed or
short read); given several times, each phase is swept once per format. hdf5 is refused for
generate: its files hold the time they were written, so no two runs give the same bytes.

For each phase: a clean run with DLBENCH_FAULTS=none gives the reference result and the number of
storage operations N (summary.json fault_injection.max_operations_of_a_rank). Then, for each
chosen index i in 1..N (all of them, or --sample N spread evenly over 1..N, always with the first and the last),
a run with a fault at the i-th operation: EIO, ENOSPC and a short transfer in turn, and every
fifth one a slow operation instead. Each faulted run must
  - end within the time limit (no hang) with exit 3, or 0 for a slow operation or a fault the
    phase tolerates (reported), never a crash or another code;
  - print one error line naming the operation and a path (for a failed operation: with
    "injected fault");
  - leave nothing incomplete under a final name: data and staged files under their final name are
    the reference's bytes, every checkpoint with a manifest holds its files with their sizes;
  - lose nothing written completely: a complete file or checkpoint is still there afterwards,
    and a rerun without faults keeps it (generation, staging) and completes with the reference
    result.
Prints one line per run and "fault_sweep: OK (...)" or "fault_sweep: FAIL" with every failure.
"""
import argparse
import filecmp
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fault_checks import (ANY_PATH, OPERATION_AND_PATH, TIMEOUT, checkpoint_problems,
                          final_files, identity, run)


class Phase:
    """A small run of one phase and what its result must be."""

    def __init__(self, name, args, opts, dataset_format=None):
        self.name = name
        self.format = dataset_format
        self.label = name + (f" ({dataset_format})" if dataset_format else "")
        self.dir = os.path.join(opts.scratch, name + (f"-{dataset_format}" if dataset_format else ""))
        self.opts = opts
        self.data = os.path.join(self.dir, "pfs", "data")
        self.ckpt = os.path.join(self.dir, "pfs", "ckpt")
        self.staged = os.path.join(self.dir, "nvme", "data")
        self.tiers = [f"++workload.storage.tiers.pfs.path={self.dir}/pfs",
                      f"++workload.storage.tiers.nvme.path={self.dir}/nvme",
                      f"++workload.dataset.data_folder={self.data}",
                      f"++workload.checkpoint.checkpoint_folder={self.ckpt}"]
        self.args = args + format_overrides(dataset_format, name)

    def command(self, out, subcommand=None):
        """The phase's command line (or `subcommand`'s on the same workload, without --output)."""
        launch = self.opts.mpiexec.split() + [str(self.opts.ranks)] if self.opts.ranks > 1 else []
        words = subcommand + self.args[1:] if subcommand else self.args
        output = ["--output", out, "-q"] if out else []
        return launch + [self.opts.dlbench] + words + self.tiers + output

    def prepare(self):
        """The state every run of the phase starts from."""
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        if self.name in ("train", "stage", "trace"):
            code, out, _ = run([self.opts.dlbench, "generate", self.opts.train_yaml] + self.tiers +
                               format_overrides(self.format, self.name) +
                               ["--output", os.path.join(self.dir, "gen"), "-q"], None)
            if code != 0:
                sys.exit(f"fault_sweep: FAIL: generating the dataset of {self.name}:\n{out}")

    def reset(self):
        """Back to the starting state: what the phase writes is removed."""
        for folder in (self.ckpt, os.path.join(self.dir, "nvme"),
                       os.path.join(self.dir, "out")):
            shutil.rmtree(folder, ignore_errors=True)
        if self.name == "generate":
            shutil.rmtree(self.data, ignore_errors=True)

    def result(self):
        """What the phase leaves that the sweep checks: {relative path: absolute path}."""
        if self.name == "generate":
            return final_files(self.data)
        if self.name == "stage":
            return final_files(self.staged)
        return {}


PHASES = {
    # name: (command and workload, overrides)
    "generate": ["generate", "{generate_yaml}", "++workload.dataset.generation_threads=1"],
    "train": ["train", "{train_yaml}", "++workload.reader.read_threads=1"],
    "stage": ["stage", "{train_yaml}", "--from", "pfs", "--to", "nvme", "--all-files",
              "--threads", "1"],
    "checkpoint": ["checkpoint", "{checkpoint_yaml}", "++workload.checkpoint.write_threads=1"],
    "drain": ["checkpoint", "{checkpoint_yaml}", "++workload.checkpoint.burst_buffer.tier=nvme",
              "++workload.checkpoint.burst_buffer.drain_threads=1",
              "++workload.checkpoint.burst_buffer.evict_after_drain=False"],
    "trace": ["train", "{train_yaml}", "++workload.reader.read_threads=1",
              "++workload.workflow.profiling=True", "++workload.workflow.evaluation=False",
              "++workload.train.epochs=1"],
}


def format_overrides(dataset_format, phase):
    """The overrides that give `phase`'s dataset the format `dataset_format` (None: its own)."""
    if not dataset_format or phase in ("checkpoint", "drain"):
        return []
    overrides = [f"++workload.dataset.format={dataset_format}"]
    if dataset_format == "tfrecord":
        overrides += ["++workload.reader.data_loader=tensorflow", "++workload.framework=tensorflow"]
    if dataset_format in ("jpeg", "png"):
        overrides += ["++workload.dataset.num_samples_per_file=1"]
    return overrides


TRACE_FILES = ".pfw.gz"
MAX_TRACE_OPERATIONS = 60


def chosen_indices(n, sample):
    if sample <= 0 or sample >= n:
        return list(range(1, n + 1))
    step = (n - 1) / (sample - 1)
    return sorted({1 + round(k * step) for k in range(sample)})


def fault_text(index, k, path):
    where = f"op=any,nth={index}" + (f",path={path}" if path else "")
    if k % 5 == 4:
        return f"{where},slow=0.05", "slow"
    action = ("error=EIO", "error=ENOSPC", "short")[k % 3]
    return f"{where},{action}", action


def sweep_phase(phase, failures, stats):
    phase.prepare()
    out = os.path.join(phase.dir, "out")
    code, text, _ = run(phase.command(out), "none")
    if code != 0:
        failures.append(f"{phase.label}: the clean run exited {code}:\n{text}")
        return
    with open(os.path.join(out, "summary.json")) as f:
        operations = json.load(f)["fault_injection"]["max_operations_of_a_rank"]
    reference_dir = os.path.join(phase.dir, "reference")
    shutil.rmtree(reference_dir, ignore_errors=True)
    reference = {}
    for rel, path in phase.result().items():
        reference[rel] = os.path.join(reference_dir, rel)
        os.makedirs(os.path.dirname(reference[rel]), exist_ok=True)
        shutil.copyfile(path, reference[rel])
    _, reference_checkpoints = checkpoint_problems(phase.ckpt)
    # The trace phase fails only the trace files' operations, each in turn until one is not
    # reached (there are few: create, a write per flush, close).
    only = TRACE_FILES if phase.name == "trace" else None
    indices = range(1, MAX_TRACE_OPERATIONS) if only else chosen_indices(operations,
                                                                        phase.opts.sample)
    print(f"{phase.label}: {operations} storage operations (the most of one of "
          f"{phase.opts.ranks} rank(s)); faults at " +
          (f"each operation on {only} files" if only else f"{len(indices)} of them"), flush=True)
    stats[phase.label] = (operations, len(indices))

    for k, index in enumerate(indices):
        phase.reset()
        faults, action = fault_text(index, k, only)
        code, text, seconds = run(phase.command(out), faults)
        where = f"{phase.label} {faults}"
        problems = []
        errors = [line for line in text.splitlines() if "dlbench: error" in line]
        if code is None:
            problems.append(f"hung (killed after {TIMEOUT} s)")
        elif action == "slow":
            if code != 0:
                problems.append(f"a slow operation made it exit {code}")
        elif code == 3:
            if len(errors) != 1:
                problems.append(f"{len(errors)} error lines, expected 1")
            elif action == "short" and "injected fault" not in errors[0]:
                if not ANY_PATH.search(errors[0]):  # a reader's own report of the short read
                    problems.append("the error names no path")
            elif not OPERATION_AND_PATH.search(errors[0]) or "injected fault" not in errors[0]:
                problems.append("the error does not name the operation, the path and the fault")
        elif code == 0:
            with open(os.path.join(out, "summary.json")) as f:
                injected = json.load(f)["fault_injection"]["injected"]
            # Operations vary a little between runs (threads): a fault may not be reached.
            hit = [line for line in text.splitlines() if "fault injected" in line]
            if only and not injected:
                stats[phase.label] = (operations, index - 1)
                break
            stats.setdefault("tolerated" if injected else "not reached", []).append(
                where + (": " + hit[0] if hit else ""))
        else:
            problems.append(f"exit {code}, expected 3")
        if "internal error" in text or "Segmentation" in text or "Aborted" in text:
            problems.append("crashed")
        # Nothing incomplete under a final name.
        kept = {}
        for rel, path in phase.result().items():
            if rel not in reference or not filecmp.cmp(path, reference[rel], shallow=False):
                problems.append(f"{rel} is under its final name but is not the complete file")
            else:
                kept[rel] = identity(path)
        bad, complete = checkpoint_problems(phase.ckpt)
        problems += bad
        if phase.name == "drain":
            bad, _ = checkpoint_problems(os.path.join(phase.dir, "nvme"))
            problems += bad
        # A rerun without faults completes, keeps what was complete and gives the reference. A
        # drain left unfinished is finished first by `dlbench checkpoint drain`.
        if phase.name == "drain":
            dcode, dtext, _ = run(phase.command(None, ["checkpoint", "drain"]), None)
            bad, durable = checkpoint_problems(phase.ckpt)
            _, on_fast_tier = checkpoint_problems(os.path.join(phase.dir, "nvme"))
            if dcode != 0:
                problems.append(f"checkpoint drain exited {dcode}:\n{dtext}")
            elif bad or not on_fast_tier <= durable:
                problems.append("after checkpoint drain, not every complete checkpoint is durable: "
                                + "; ".join(bad + sorted(on_fast_tier - durable)))
        rcode, rtext, _ = run(phase.command(out), None)
        if rcode != 0:
            problems.append(f"the rerun without faults exited {rcode}:\n{rtext}")
        else:
            result = phase.result()
            if set(result) != set(reference):
                problems.append("the rerun's files differ from the reference's")
            for rel, path in result.items():
                if rel in reference and not filecmp.cmp(path, reference[rel], shallow=False):
                    problems.append(f"after the rerun {rel} differs from the reference")
                if rel in kept and identity(path) != kept[rel]:
                    problems.append(f"the rerun rewrote {rel}, which was complete")
            bad, complete_after = checkpoint_problems(phase.ckpt)
            problems += bad
            if not reference_checkpoints <= complete_after:
                problems.append("after the rerun, checkpoints are missing: " +
                                ", ".join(sorted(reference_checkpoints - complete_after)))
            lost = complete - complete_after
            if lost:
                problems.append("complete checkpoints lost: " + ", ".join(sorted(lost)))
        status = "FAIL" if problems else "ok"
        print(f"  {status} {where}: exit {code} in {seconds:.1f} s" +
              (f" ({errors[0][:160]})" if errors else ""), flush=True)
        for p in problems:
            failures.append(f"{where}: {p}\n    output: {text[-600:]}")
    interrupted_run(phase, reference, failures)


def interrupted_run(phase, reference, failures):
    """Every read and write interrupted once per system call: the run succeeds, with the clean
    run's result, and summary.json counts the retries."""
    phase.reset()
    out = os.path.join(phase.dir, "out")
    faults = "op=read,interrupt,keep;op=write,interrupt,keep"
    code, text, _ = run(phase.command(out), faults)
    problems = []
    if code != 0:
        problems.append(f"exit {code}, expected 0")
    else:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        retries = summary.get("io_retries", {}).get("interrupted", 0)
        if retries < 1:
            problems.append(f"summary.json io_retries.interrupted is {retries}")
        result = phase.result()
        if set(result) != set(reference) or any(
                not filecmp.cmp(path, reference[rel], shallow=False)
                for rel, path in result.items()):
            problems.append("the result differs from the clean run's")
        problems += checkpoint_problems(phase.ckpt)[0]
        print(f"  {'FAIL' if problems else 'ok'} {phase.label} {faults}: {retries} retries",
              flush=True)
    for p in problems:
        failures.append(f"{phase.label} {faults}: {p}\n    output: {text[-600:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dlbench")
    parser.add_argument("data_dir")
    parser.add_argument("scratch")
    parser.add_argument("--phase", action="append", choices=sorted(PHASES))
    parser.add_argument("--sample", type=int, default=0,
                        help="faults at this many operation indices per phase (0: every index)")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--format", action="append",
                        help="a dataset format of the data phases (repeatable)")
    parser.add_argument("--mpiexec", default="mpiexec --allow-run-as-root --oversubscribe -n",
                        help="the launcher and its flag for the rank count")
    opts = parser.parse_args()
    workloads = os.path.join(opts.data_dir, "workloads")
    opts.generate_yaml = os.path.join(workloads, "generate", "tiny_generate.yaml")
    opts.train_yaml = os.path.join(workloads, "train", "tiny_train.yaml")
    opts.checkpoint_yaml = os.path.join(workloads, "tiny_checkpoint.yaml")
    failures, stats = [], {}
    start = time.monotonic()
    for name in opts.phase or sorted(PHASES):
        args = [a.format(**vars(opts)) for a in PHASES[name]]
        for dataset_format in opts.format or [None]:
            if name == "generate" and dataset_format == "hdf5":
                sys.exit("fault_sweep: hdf5 files are not the same bytes twice (they hold their "
                         "write time): no generate sweep of hdf5")
            sweep_phase(Phase(name, args, opts, dataset_format), failures, stats)
    for where in stats.pop("tolerated", []):
        print(f"tolerated (exit 0 with the fault injected): {where}")
    for where in stats.pop("not reached", []):
        print(f"not reached (no such operation in this run): {where}")
    summary = ", ".join(f"{name} {n} ops/{k} faulted" for name, (n, k) in stats.items())
    if failures:
        print("fault_sweep: FAIL")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print(f"fault_sweep: OK ({summary}; {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
