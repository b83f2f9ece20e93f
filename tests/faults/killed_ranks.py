#!/usr/bin/python3
"""Killed ranks (docs/reliability.md): rank 1 of 2 SIGKILLs itself at a chosen storage operation
(DLBENCH_FAULTS=...,kill,rank=1) during generation, training, a checkpoint save, a burst-buffer
drain (shared and node-local on 2 emulated nodes) and staging. For each:
  - mpiexec returns non-zero within BOUND seconds (no hang), and no process of the job is left;
  - a rerun without faults resumes: generation keeps the complete files and makes the rest,
    `dlbench checkpoint drain` makes the checkpoint complete on the fast tier durable, staging keeps
    what was staged; the result equals a clean run's (bytes of data and staged files, checkpoint
    files against their manifest).

  killed_ranks.py DLBENCH DATA_DIR SCRATCH EMULATE_NODES [--case NAME]... [--mpiexec CMD]
Prints one line per case and "killed_ranks: OK" or "killed_ranks: FAIL" with every failure.
"""
import argparse
import filecmp
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_checks import checkpoint_problems, final_files, leftover_processes, run  # noqa: E402

BOUND = 30  # seconds from the kill to mpiexec's return, at most
DRAIN_KILL = ("op=write,path={dir}/pfs/ckpt,slow=1.5,rank=1;"
              "op=write,path={dir}/pfs/ckpt,kill,rank=1")


class Case:
    def __init__(self, name, command, faults, opts, emulate=False):
        self.name = name
        self.dir = os.path.join(opts.scratch, "killed_" + name)
        self.opts = opts
        self.data = os.path.join(self.dir, "pfs", "data")
        self.ckpt = os.path.join(self.dir, "pfs", "ckpt")
        self.command = command  # [subcommand..., workload, overrides...]
        self.faults = faults.format(dir=self.dir)
        self.emulate = emulate
        nvme = f'"{self.dir}/nvme/{{node}}"' if emulate else f"{self.dir}/nvme"
        self.tiers = [f"++workload.storage.tiers.pfs.path={self.dir}/pfs",
                      f"++workload.storage.tiers.nvme.path={nvme}",
                      f"++workload.dataset.data_folder={self.data}",
                      f"++workload.checkpoint.checkpoint_folder={self.ckpt}"]

    def line(self, words, out=None, quiet=True):
        launch = self.opts.mpiexec.split() + ["2"]
        if self.emulate:
            launch += [self.opts.emulate, "1"]  # ranks 0 and 1 on nodes n0 and n1
        output = ["--output", out] + (["-q"] if quiet else []) if out else []
        return launch + [self.opts.dlbench] + words + self.tiers + output


def generate_dataset(case):
    code, text, _ = run([case.opts.dlbench, "generate", case.opts.train_yaml] + case.tiers +
                        ["--output", os.path.join(case.dir, "gen"), "-q"], None)
    if code != 0:
        sys.exit(f"killed_ranks: FAIL: generating the dataset of {case.name}:\n{text}")


def same_tree(problems, what, folder, reference):
    got, want = final_files(folder), final_files(reference)
    if set(got) != set(want):
        problems.append(f"{what}: files {sorted(set(got) ^ set(want))} differ from a clean run's")
    for rel in set(got) & set(want):
        if not filecmp.cmp(got[rel], want[rel], shallow=False):
            problems.append(f"{what}: {rel} differs from a clean run's")


def check_case(case, failures):
    shutil.rmtree(case.dir, ignore_errors=True)
    os.makedirs(case.dir)
    if case.name in ("train", "stage"):
        generate_dataset(case)
    code, text, seconds = run(case.line(case.command, os.path.join(case.dir, "out")), case.faults,
                              timeout=BOUND + 30)
    problems = []
    if code is None:
        problems.append(f"the job hung: killed after {seconds:.0f} s")
    elif code == 0:
        problems.append("the job exited 0: the rank was not killed (no such operation?)")
    elif seconds > BOUND:
        problems.append(f"the job took {seconds:.1f} s to end, more than {BOUND} s")
    time.sleep(0.5)
    left = leftover_processes(case.dir)
    if left:
        problems.append("processes left: " + "; ".join(left))
    print(f"  {case.name}: rank 1 killed ({case.faults}); mpiexec exited {code} "
          f"after {seconds:.1f} s", flush=True)

    # The rerun without faults resumes.
    resume = {"generate": None, "train": None, "checkpoint": None, "stage": None,
              "drain": ["checkpoint", "drain"], "node_local_drain": ["checkpoint", "drain"]}
    if resume[case.name]:
        rcode, rtext, _ = run(case.line(resume[case.name] + case.command[1:]), None)
    else:
        rcode, rtext, _ = run(case.line(case.command, os.path.join(case.dir, "rerun"), quiet=False),
                              None)
    if rcode != 0:
        problems.append(f"the rerun exited {rcode}:\n{rtext}")
    print(f"    rerun: exit {rcode}: " + " | ".join(
        line for line in rtext.splitlines() if any(
            w in line for w in ("kept", "already there", "durable", "resum", "error")))[:300],
        flush=True)
    if case.name == "generate" and "complete files kept" not in rtext:
        problems.append("the rerun did not say which complete files it kept")
    if case.name == "stage" and "already there" not in rtext:
        problems.append("the rerun did not say what was already staged")
    if case.name in ("drain", "node_local_drain") and "durable in" not in rtext:
        problems.append("checkpoint drain did not finish the killed drain")

    # The result equals a clean run's.
    bad, complete = checkpoint_problems(case.ckpt)
    problems += bad
    if case.name in ("checkpoint", "drain", "node_local_drain"):
        if "global_epoch1_step1" not in complete:
            problems.append(f"no durable checkpoint after the rerun (complete: {sorted(complete)})")
    if case.name in ("generate", "stage"):
        clean = os.path.join(case.dir, "clean")
        words = list(case.command)
        tiers = [t.replace(case.dir + "/pfs", clean + "/pfs")
                 .replace(case.dir + "/nvme", clean + "/nvme") for t in case.tiers]
        if case.name == "stage":
            shutil.copytree(os.path.join(case.dir, "pfs"), os.path.join(clean, "pfs"))
        ccode, ctext, _ = run([case.opts.dlbench] + words + tiers +
                              ["--output", os.path.join(clean, "out"), "-q"], None)
        if ccode != 0:
            problems.append(f"the clean run exited {ccode}:\n{ctext}")
        elif case.name == "generate":
            same_tree(problems, "generated data", case.data, os.path.join(clean, "pfs", "data"))
        else:
            same_tree(problems, "staged data", os.path.join(case.dir, "nvme", "data"),
                      os.path.join(clean, "nvme", "data"))
            same_tree(problems, "staged data against its source", os.path.join(
                case.dir, "nvme", "data"), case.data)
    for p in problems:
        failures.append(f"{case.name}: {p}\n    output of the killed run: {text[-800:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dlbench")
    parser.add_argument("data_dir")
    parser.add_argument("scratch")
    parser.add_argument("emulate")
    parser.add_argument("--case", action="append")
    parser.add_argument("--mpiexec", default="mpiexec --allow-run-as-root --oversubscribe -n",
                        help="the launcher and its flag for the rank count")
    opts = parser.parse_args()
    workloads = os.path.join(opts.data_dir, "workloads")
    opts.train_yaml = os.path.join(workloads, "train", "tiny_train.yaml")
    generate_yaml = os.path.join(workloads, "generate", "tiny_generate.yaml")
    checkpoint_yaml = os.path.join(workloads, "tiny_checkpoint.yaml")
    burst = ["++workload.checkpoint.burst_buffer.tier=nvme",
             "++workload.checkpoint.burst_buffer.evict_after_drain=False"]
    cases = [
        # Rank 1's 2nd write of a data file: rank 0's files complete, rank 1's first one too.
        Case("generate", ["generate", generate_yaml, "++workload.dataset.num_files_train=8",
                          "++workload.dataset.generation_threads=1"],
             "op=write,path=/data/,nth=2,kill,rank=1", opts),
        Case("train", ["train", opts.train_yaml], "op=read,path=/data/,nth=6,kill,rank=1", opts),
        # Rank 1 in its second file of the first save.
        Case("checkpoint", ["checkpoint", checkpoint_yaml], "op=write,path=/ckpt/,nth=2,kill,rank=1",
             opts),
        # Rank 1's drain (its writes to the capacity tier): the first one waits 1.5 s, so that the
        # first save is committed on the fast tier, and the next one kills the rank.
        Case("drain", ["checkpoint", checkpoint_yaml] + burst, DRAIN_KILL, opts),
        Case("node_local_drain", ["checkpoint", checkpoint_yaml] + burst, DRAIN_KILL, opts,
             emulate=True),
        # Rank 1's 3rd staged write: some of its files staged, one partial.
        Case("stage", ["stage", opts.train_yaml, "--from", "pfs", "--to", "nvme", "--all-files",
                       "--threads", "1"], "op=write,path=/nvme/,nth=3,kill,rank=1", opts),
    ]
    failures = []
    for case in cases:
        if not opts.case or case.name in opts.case:
            check_case(case, failures)
    if failures:
        print("killed_ranks: FAIL")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print("killed_ranks: OK")


if __name__ == "__main__":
    main()
