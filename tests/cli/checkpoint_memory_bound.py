#!/usr/bin/python3
"""A checkpoint's memory does not grow with the number of its files (docs/checkpointing.md).

usage: checkpoint_memory_bound.py DLBENCH SCRATCH MPIEXEC_LINE [burst_buffer]

Saves and loads (2 ranks) a transformer with one file per layer (pipeline 2, ZeRO 1) of 4,000 and
then 40,000 layers, 2,000 and 20,000 files a rank, with profiling.counters_memory_mib: 1, and
compares the largest rank's peak RSS (ru_maxrss of the waited-for children: the maximum over the
ranks, not a sum). A rank's plan held each file's name and tensor sizes, and a save and a load
each file's state, ~0.5 KiB a file of the rank: the larger run was ~9 MiB bigger. Now the two
must be within 4 MiB. Not timed: memory is not noise-sensitive.

With `burst_buffer`, two saves land on a fast tier (checkpoint.burst_buffer) and drain to the
checkpoint folder, the second over the first's evicted files (spares), and one load follows. The
drain held a name and size of each file of the rank, the state of each file being copied, a
spare's path for each evicted file and, on rank 0, the manifest's text (every file of the job):
the larger run was 40 MiB bigger. Both tiers are in /dev/shm where it exists, so that the
drain's 160,000 fsyncs do not time the test out on a disk.
"""
import os, shutil, subprocess, sys, tempfile

dlbench, scratch, mpiexec = sys.argv[1], sys.argv[2], sys.argv[3].split()
burst_buffer = len(sys.argv) > 4 and sys.argv[4] == "burst_buffer"
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
profiling: {{counters_memory_mib: 1}}
"""
DIRECT = """checkpoint: {{checkpoint_folder: {folder}/ckpt, num_checkpoints_write: 1,
             num_checkpoints_read: 1}}
"""
BURST_BUFFER = """storage:
  tiers:
    fast: {{path: {folder}/fast}}
    cap: {{path: {folder}/cap}}
checkpoint: {{checkpoint_folder: {folder}/cap/ckpt, num_checkpoints_write: 2,
             num_checkpoints_read: 1, burst_buffer: {{tier: fast, drain_threads: 2}}}}
"""


def peak_rss_mib(layers):
    """The largest rank's peak RSS of one run of `layers` layer files, in MiB, in a child process
    so that ru_maxrss covers that run alone."""
    root = "/dev/shm" if burst_buffer and os.path.isdir("/dev/shm") else scratch
    os.makedirs(root, exist_ok=True)
    folder = tempfile.mkdtemp(prefix=f"checkpoint_memory_bound_{layers}_", dir=root)
    yaml = os.path.join(folder, "w.yaml")
    with open(yaml, "w") as out:
        out.write(WORKLOAD.format(layers=layers) +
                  (BURST_BUFFER if burst_buffer else DIRECT).format(folder=folder))
    probe = ("import resource, subprocess, sys; "
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    command = mpiexec + ["2", dlbench, "checkpoint", yaml, "--output",
                         os.path.join(folder, "out"), "--quiet"]
    try:
        kib = int(subprocess.run([sys.executable, "-c", probe] + command, check=True,
                                 capture_output=True, text=True).stdout.split()[-1])
    finally:
        shutil.rmtree(folder)
    return kib / 1024.0


what = "burst-buffer checkpoint" if burst_buffer else "checkpoint"
small, large = peak_rss_mib(4000), peak_rss_mib(40000)
print(f"{what}: peak RSS of the largest rank: {small:.1f} MiB at 4,000 layer files, "
      f"{large:.1f} MiB at 40,000")
if large - small > 4:
    sys.exit(f"checkpoint_memory_bound: FAIL: {what}: 36,000 more files took "
             f"{large - small:.1f} MiB more (limit 4)")
