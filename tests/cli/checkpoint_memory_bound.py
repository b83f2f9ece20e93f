#!/usr/bin/python3
"""A checkpoint's memory does not grow with the number of its files (docs/checkpointing.md).

usage: checkpoint_memory_bound.py DLBENCH SCRATCH MPIEXEC_LINE

Saves and loads (2 ranks) a transformer with one file per layer (pipeline 2, ZeRO 1) of 4,000 and
then 40,000 layers, 2,000 and 20,000 files a rank, with profiling.counters_memory_mib: 1, and
compares the largest rank's peak RSS (ru_maxrss of the waited-for children: the maximum over the
ranks, not a sum). A rank's plan held each file's name and tensor sizes, and a save and a load
each file's state, ~0.5 KiB a file of the rank: the larger run was ~9 MiB bigger. Now the two
must be within 4 MiB. Not timed: memory is not noise-sensitive.
"""
import os, shutil, subprocess, sys

dlbench, scratch, mpiexec = sys.argv[1], sys.argv[2], sys.argv[3].split()
WORKLOAD = """model:
  name: checkpoint_memory_bound
  type: transformer
  num_layers: {layers}
  model_datatype: fp16
  optimizer_datatype: fp32
  parallelism: {{tensor: 1, pipeline: 2, zero_stage: 1}}
  transformer: {{vocab_size: 64, hidden_size: 8, ffn_hidden_size: 16, num_attention_heads: 2,
                num_kv_heads: 2}}
framework: pytorch
workflow: {{generate_data: false, train: false, checkpoint: true}}
checkpoint: {{checkpoint_folder: {folder}, num_checkpoints_write: 1, num_checkpoints_read: 1}}
profiling: {{counters_memory_mib: 1}}
"""


def peak_rss_mib(layers):
    """The largest rank's peak RSS of one save and load of `layers` layer files, in MiB, in a
    child process so that ru_maxrss covers that run alone."""
    folder = os.path.join(scratch, f"checkpoint_memory_bound_{layers}")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    yaml = os.path.join(folder, "w.yaml")
    with open(yaml, "w") as out:
        out.write(WORKLOAD.format(layers=layers, folder=os.path.join(folder, "ckpt")))
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    command = mpiexec + ["2", dlbench, "checkpoint", yaml, "--output",
                         os.path.join(folder, "out"), "--quiet"]
    kib = int(subprocess.run([sys.executable, "-c", probe] + command, check=True,
                             capture_output=True, text=True).stdout.split()[-1])
    shutil.rmtree(folder)
    return kib / 1024.0


small, large = peak_rss_mib(4000), peak_rss_mib(40000)
print(f"peak RSS of the largest rank: {small:.1f} MiB at 4,000 layer files, {large:.1f} MiB at "
      "40,000")
if large - small > 4:
    sys.exit(f"checkpoint_memory_bound: FAIL: 36,000 more files took {large - small:.1f} MiB more "
             "(limit 4)")
