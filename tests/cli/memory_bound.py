#!/usr/bin/python3
"""A run's memory does not grow with the number of files (docs/counters.md, Memory budget).

usage: memory_bound.py DLBENCH SCRATCH MPIEXEC_LINE

Generates and trains (2 ranks, 1 epoch, file and sample shuffle) 2,000 and then 20,000 npy files
of one 512-byte sample, with profiling.counters_memory_mib: 1, and compares the largest rank's
peak RSS (ru_maxrss of the waited-for children: the maximum over the ranks, not a sum). The
per-file Darshan records, ~3.3 KB per file per rank before the budget, made the larger run ~60 MiB
bigger; within the budget the two must be within 4 MiB, and both within the 64 MiB bound.
Not timed: memory is not noise-sensitive.
"""
import os, resource, shutil, subprocess, sys

dlbench, scratch, mpiexec = sys.argv[1], sys.argv[2], sys.argv[3].split()
WORKLOAD = """model: {{name: memory_bound}}
framework: pytorch
workflow: {{generate_data: true, train: true}}
dataset: {{data_folder: {data}, format: npy, num_files_train: {files}, num_files_eval: 0,
          num_samples_per_file: 1, record_length_bytes: 512}}
reader: {{data_loader: pytorch, batch_size: 32, read_threads: 1, file_shuffle: seed,
         sample_shuffle: seed}}
train: {{epochs: 1, computation_time: 0}}
profiling: {{counters_memory_mib: 1}}
"""


def peak_rss_mib(files):
    """The largest rank's peak RSS of one run over `files` files, in MiB, in a child process so
    that ru_maxrss covers that run alone."""
    folder = os.path.join(scratch, f"memory_bound_{files}")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    yaml = os.path.join(folder, "w.yaml")
    with open(yaml, "w") as out:
        out.write(WORKLOAD.format(data=os.path.join(folder, "data"), files=files))
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    command = mpiexec + ["2", dlbench, "run", yaml, "--output", os.path.join(folder, "out"),
                         "--quiet"]
    kib = int(subprocess.run([sys.executable, "-c", probe] + command, check=True,
                             capture_output=True, text=True).stdout.split()[-1])
    shutil.rmtree(folder)
    return kib / 1024.0


small, large = peak_rss_mib(2000), peak_rss_mib(20000)
print(f"peak RSS of the largest rank: {small:.1f} MiB at 2,000 files, {large:.1f} MiB at 20,000")
if large - small > 4:
    sys.exit(f"memory_bound: FAIL: 18,000 more files took {large - small:.1f} MiB more (limit 4)")
if large > 64:
    sys.exit(f"memory_bound: FAIL: {large:.1f} MiB at 20,000 files, over the 64 MiB bound")
