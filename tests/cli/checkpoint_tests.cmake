# CLI tests of `dlbench checkpoint` (included from tests/CMakeLists.txt after tests/cli, whose
# dlbench_cli_test function they use).
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(MPIEXEC ${DLBENCH_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})

# The llama3 totals of the reference table, to the byte, computed without writing anything.
dlbench_cli_test(checkpoint_plan_405b 0 --match "5,682,508,791,808 B \\(5292.25 GiB\\) in 1544 files"
  --match "per rank +9,513,171,840 - 13,226,441,600 B"
  -- ${DLBENCH} checkpoint plan llama3_405b --ranks 512)
dlbench_cli_test(checkpoint_plan_8b 0 --match "112,425,623,552 B \\(104.70 GiB\\) in 16 files"
  -- ${DLBENCH} checkpoint plan llama3_8b --ranks 8)
dlbench_cli_test(checkpoint_plan_70b 0 --match "978,406,572,032 B \\(911.21 GiB\\) in 128 files"
  -- ${DLBENCH} checkpoint plan llama3_70b --ranks 64)
dlbench_cli_test(checkpoint_plan_1t 0 --match "16,564,174,094,592 B \\(15426.59 GiB\\) in 2072 files"
  -- ${DLBENCH} checkpoint plan llama3_1t --ranks 1024)
# Ranks that cannot hold TP x PP: a configuration error naming the rule, exit 2, printed once.
dlbench_cli_test(checkpoint_plan_bad_ranks 2 --once "tensor.*pipeline|TP.*PP"
  -- ${DLBENCH} checkpoint plan llama3_70b --ranks 12)
dlbench_cli_test(checkpoint_plan_mpi 0 --once "^Checkpoint plan:" --once "978,406,572,032 B .* in 128 files"
  -- ${MPIEXEC} 2 ${DLBENCH} checkpoint plan llama3_70b --ranks 64)
dlbench_cli_test(checkpoint_missing_workload 2 --once "workload is required" -- ${DLBENCH} checkpoint)
dlbench_cli_test(checkpoint_plan_missing_workload 2 --once "workload is required"
  -- ${DLBENCH} checkpoint plan)

# The shipped llama3_8b, run as is, plans 10 checkpoints of 104.7 GiB: more than any test
# machine's free space, refused before a byte is written (exit 3, once), where it used to write
# until the disk (or /dev/shm, the host's memory) was full. The file-size limit makes a run that
# starts writing fail at once instead.
set(dir ${SCRATCH}/checkpoint_beyond_free_space)
string(JOIN " " MPIEXEC_TEXT ${MPIEXEC})
dlbench_cli_test(checkpoint_beyond_free_space_np3 3
  --once "^dlbench: error: checkpoint: 10 new checkpoint.s. of 104.7 GiB \\(checkpoint.num_checkpoints_write 10, `dlbench checkpoint plan` shows one\\) need 1.022 TiB but only [0-9.]+ [KMGT]?i?B is free at ${dir}/ckpt. write fewer, plan a smaller model, or set checkpoint.checkpoint_folder$"
  --no-file ${dir}/ckpt/global_epoch1_step1
  -- /bin/sh -c "rm -rf ${dir} && ulimit -f 20000 && ${MPIEXEC_TEXT} 3 ${DLBENCH} checkpoint llama3_8b --output ${dir}/out ++workload.checkpoint.checkpoint_folder=${dir}/ckpt")
set_tests_properties(cli.checkpoint_beyond_free_space_np3 PROPERTIES LABELS "cli;mpi")

# Checkpoint-only runs (`dlbench checkpoint`) and checkpoints during training, under mpiexec:
# check_checkpoints.py holds every checkpoint folder to its manifest and to the totals of
# `dlbench checkpoint plan` for the same workload and rank count, and summary.json and the
# per-rank stats to the saves and loads that ran.
set(CKPT_YAML ${PROJECT_SOURCE_DIR}/tests/data/workloads/tiny_checkpoint.yaml)
set(CKPT_TRAIN_YAML ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml)
string(JOIN " " CKPT_MPIEXEC ${MPIEXEC})
set(CHECK_CHECKPOINTS "${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_checkpoints.py")
# dlbench_checkpoint_run_test(NAME RANKS WORKLOAD COMMAND "OVERRIDES" "CHECK ARGUMENTS" [expect])
function(dlbench_checkpoint_run_test name ranks workload command overrides check)
  set(dir ${SCRATCH}/ckpt_${name})
  set(all "++workload.checkpoint.checkpoint_folder=${dir}/ckpt ${overrides}")
  dlbench_cli_test(checkpoint_${name} 0 --match "check_checkpoints: OK" ${ARGN} -- /bin/sh -c
    "rm -rf ${dir} && mkdir -p ${dir} && ${DLBENCH} checkpoint plan ${workload} --ranks ${ranks} ${all} > ${dir}/plan.txt && ${CKPT_MPIEXEC} ${ranks} ${DLBENCH} ${command} ${workload} --output ${dir}/out ${all} && ${CHECK_CHECKPOINTS} ${dir}/out ${dir}/ckpt ${dir}/plan.txt ${ranks} ${check}")
  set_tests_properties(cli.checkpoint_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

set(TWO_WRITTEN "global_epoch1_step1 global_epoch1_step2 --loads 2")
dlbench_checkpoint_run_test(only_np2 2 ${CKPT_YAML} checkpoint "" "${TWO_WRITTEN}"
  --once "save duration \\(DLIO, rank 0\\)")
dlbench_checkpoint_run_test(only_np4 4 ${CKPT_YAML} checkpoint "" "${TWO_WRITTEN}")
# TP 2 x PP 2, ZeRO 1: per-layer files of two pipeline stages, 4 ranks each with its own files.
dlbench_checkpoint_run_test(only_np4_tp2_pp2 4 ${CKPT_YAML} checkpoint
  "++workload.model.parallelism.tensor=2 ++workload.model.parallelism.pipeline=2 ++workload.checkpoint.write_threads=2 ++workload.checkpoint.verify=True"
  "${TWO_WRITTEN}")
# ZeRO 3 with the rank shift and rank_sync; on one node the shift is warned about, once.
dlbench_checkpoint_run_test(only_np4_zero3_shift 4 ${CKPT_YAML} checkpoint
  "++workload.model.parallelism.zero_stage=3 ++workload.checkpoint.recovery_rank_shift=True ++workload.checkpoint.rank_sync=True ++workload.checkpoint.verify=True"
  "${TWO_WRITTEN}" --once "warning: checkpoint.recovery_rank_shift: all 4 ranks run on one node")
# A burst buffer whose capacity tier drains slower than the saves come (max_pending_checkpoints
# 1): the second save waits for the first to be durable, and the wait is reported on its own.
dlbench_checkpoint_run_test(burst_buffer_backpressure_np2 2 ${CKPT_YAML} checkpoint
  "++workload.storage.tiers.nvme.path=${SCRATCH}/ckpt_burst_buffer_backpressure_np2/bb ++workload.storage.tiers.pfs.path=${SCRATCH}/ckpt_burst_buffer_backpressure_np2 ++workload.storage.tiers.pfs.bandwidth_limit=20MiB/s ++workload.checkpoint.burst_buffer.tier=nvme ++workload.checkpoint.burst_buffer.max_pending_checkpoints=1"
  "${TWO_WRITTEN} --backpressure" --once "of it backpressure, total"
  --no-match "of it backpressure, total +0\\.000 ")
# `dlbench run` with train and checkpoint on: step mode saves after steps 2 and 4 of both epochs
# (4 steps per epoch at 2 ranks); epoch mode after each epoch, named after its last step.
set(CKPT_TRAIN "++workload.workflow.checkpoint=True ++workload.dataset.data_folder=${SCRATCH}/ckpt_train")
dlbench_checkpoint_run_test(train_step_mode 2 ${CKPT_TRAIN_YAML} run
  "${CKPT_TRAIN}_step_mode/data ++workload.checkpoint.steps_between_checkpoints=2"
  "global_epoch1_step2 global_epoch1_step4 global_epoch2_step2 global_epoch2_step4 --train")
dlbench_checkpoint_run_test(train_epoch_mode 2 ${CKPT_TRAIN_YAML} run
  "${CKPT_TRAIN}_epoch_mode/data ++workload.model.model_size_bytes=100000"
  "global_epoch1_step4 global_epoch2_step4 --train")

# MLPerf's two invocations: write only, then read only what the first one wrote.
set(CKPT_RW_DIR ${SCRATCH}/ckpt_read_only)
set(CKPT_RW "${CKPT_MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML} ++workload.checkpoint.checkpoint_folder=${CKPT_RW_DIR}/ckpt")
dlbench_cli_test(checkpoint_read_only 0 --match "load duration \\(DLIO, rank 0\\)"
  --no-match "save duration" --file ${CKPT_RW_DIR}/read/summary.json -- /bin/sh -c
  "rm -rf ${CKPT_RW_DIR} && ${CKPT_RW} --output ${CKPT_RW_DIR}/write ++workload.checkpoint.num_checkpoints_read=0 -q && ${CKPT_RW} --output ${CKPT_RW_DIR}/read ++workload.checkpoint.num_checkpoints_write=-1")
# Reading checkpoints that were never written: a configuration error naming the folder, once.
dlbench_cli_test(checkpoint_read_missing 2
  --once "error: checkpoint.num_checkpoints_read is 2 but checkpoint .*/ckpt_missing/ckpt/global_epoch1_step1 is missing"
  -- ${MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML} --output ${SCRATCH}/ckpt_missing/out
  ++workload.checkpoint.checkpoint_folder=${SCRATCH}/ckpt_missing/ckpt
  ++workload.checkpoint.num_checkpoints_write=-1)
# A checkpoint whose manifest is gone (an interrupted save) is not read: exit 2 naming it, once.
set(CKPT_INCOMPLETE_DIR ${SCRATCH}/ckpt_incomplete)
set(CKPT_INCOMPLETE "${CKPT_MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML} ++workload.checkpoint.checkpoint_folder=${CKPT_INCOMPLETE_DIR}/ckpt -q")
dlbench_cli_test(checkpoint_read_incomplete 2
  --once "error: .*ckpt_incomplete/ckpt/global_epoch1_step2 is incomplete \\(no dlbench_checkpoint_manifest.json\\)"
  -- /bin/sh -c
  "rm -rf ${CKPT_INCOMPLETE_DIR} && ${CKPT_INCOMPLETE} --output ${CKPT_INCOMPLETE_DIR}/write ++workload.checkpoint.num_checkpoints_read=0 && rm ${CKPT_INCOMPLETE_DIR}/ckpt/global_epoch1_step2/dlbench_checkpoint_manifest.json && ${CKPT_INCOMPLETE} --output ${CKPT_INCOMPLETE_DIR}/read ++workload.checkpoint.num_checkpoints_write=-1")
# Reading with another rank count than wrote the checkpoints (2 write, 1 reads): exit 2 naming
# both shapes, before any load. Before, exit 3 "manifest lists N B, the plan M B" on the
# first file, without the cause.
set(CKPT_OTHER_DIR ${SCRATCH}/ckpt_other_ranks)
set(CKPT_OTHER "${DLBENCH} checkpoint ${CKPT_YAML} ++workload.checkpoint.checkpoint_folder=${CKPT_OTHER_DIR}/ckpt -q")
dlbench_cli_test(checkpoint_read_other_rank_count 2
  --once "error: checkpoint .*ckpt_other_ranks/ckpt/global_epoch1_step1 was written by a job of 2 ranks, [0-9]+ files, [0-9]+ B. this job plans 1 rank, [0-9]+ files, [0-9]+ B: read it back with the rank count and model keys that wrote it"
  --no-file ${CKPT_OTHER_DIR}/read/0_per_epoch_stats.json -- /bin/sh -c
  "rm -rf ${CKPT_OTHER_DIR} && ${CKPT_MPIEXEC} 2 ${CKPT_OTHER} --output ${CKPT_OTHER_DIR}/write ++workload.checkpoint.num_checkpoints_read=0 && ${CKPT_OTHER} --output ${CKPT_OTHER_DIR}/read ++workload.checkpoint.num_checkpoints_write=-1")
# An unwritable checkpoint folder: an I/O error naming the path, once, exit 3.
dlbench_cli_test(checkpoint_unwritable 3 --once "/proc/dlbench-no-such-folder"
  -- ${MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML} --output ${SCRATCH}/ckpt_unwritable/out
  ++workload.checkpoint.checkpoint_folder=/proc/dlbench-no-such-folder)
foreach(t checkpoint_read_only checkpoint_read_missing checkpoint_read_incomplete
    checkpoint_read_other_rank_count checkpoint_unwritable)
  set_tests_properties(cli.${t} PROPERTIES LABELS "cli;mpi")
endforeach()
# A node-local burst buffer on 2 emulated nodes of 3 ranks (scripts/slurm/emulate-nodes.sh: ranks
# 0-1 on n0, rank 2 on n1): each node's folder holds its own copy with a manifest, the checkpoint
# folder the whole checkpoint, and `checkpoint drain` on the same nodes finds nothing left. The
# output folder holds what MLPerf Storage's tooling reads (check_mlperf_fields.py).
set(dir ${SCRATCH}/ckpt_node_local_np3)
set(EMULATE ${PROJECT_SOURCE_DIR}/scripts/slurm/emulate-nodes.sh)
set(NODE_LOCAL "++workload.checkpoint.checkpoint_folder=${dir}/ckpt '++workload.storage.tiers.nvme.path=\"${dir}/local/{node}\"' ++workload.checkpoint.burst_buffer.tier=nvme ++workload.checkpoint.burst_buffer.evict_after_drain=False")
set(MANIFEST global_epoch1_step2/dlbench_checkpoint_manifest.json)
dlbench_cli_test(checkpoint_node_local_np3 0 --match "check_checkpoints: OK"
  --match "check_mlperf_fields: OK"
  --once "nothing to drain" -- /bin/sh -c
  "rm -rf ${dir} && mkdir -p ${dir} && ${DLBENCH} checkpoint plan ${CKPT_YAML} --ranks 3 ${NODE_LOCAL} > ${dir}/plan.txt && ${CKPT_MPIEXEC} 3 ${EMULATE} 2 ${DLBENCH} checkpoint ${CKPT_YAML} --output ${dir}/out ${NODE_LOCAL} && ${CHECK_CHECKPOINTS} ${dir}/out ${dir}/ckpt ${dir}/plan.txt 3 ${TWO_WRITTEN} && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_mlperf_fields.py ${dir}/out 3 && test -f ${dir}/local/n0/${MANIFEST} && test -f ${dir}/local/n1/${MANIFEST} && ${CKPT_MPIEXEC} 3 ${EMULATE} 2 ${DLBENCH} checkpoint drain ${CKPT_YAML} ${NODE_LOCAL}")
set_tests_properties(cli.checkpoint_node_local_np3 PROPERTIES LABELS "cli;mpi")

# Writer and drain threads whose buffers (8 MiB each, allocated up front) exceed half of the
# host's memory: exit 2 naming the key, once. drain_threads=100000 was killed by the kernel
# (exit 137) while its 781 GiB of buffers were touched.
set(dir ${SCRATCH}/checkpoint_threads_beyond_memory)
dlbench_cli_test(checkpoint_drain_threads_beyond_memory 2
  --once "error.*checkpoint.burst_buffer.drain_threads = 1000000: its buffers, one of 8 MiB per thread .*more than half of this host's memory"
  -- ${DLBENCH} checkpoint ${PROJECT_SOURCE_DIR}/tests/data/workloads/tiny_checkpoint.yaml -q
  --output ${dir}/bb_out ++workload.storage.tiers.nvme.path=${dir}/nvme
  ++workload.checkpoint.burst_buffer.tier=nvme ++workload.checkpoint.checkpoint_folder=${dir}/ckpt
  ++workload.checkpoint.burst_buffer.drain_threads=1000000)
dlbench_cli_test(checkpoint_write_threads_beyond_memory 2
  --once "error.*checkpoint.write_threads = 1000000: its buffers, one of 8 MiB per thread"
  -- ${MPIEXEC} 2 ${DLBENCH} checkpoint ${PROJECT_SOURCE_DIR}/tests/data/workloads/tiny_checkpoint.yaml -q
  --output ${dir}/direct_out ++workload.checkpoint.checkpoint_folder=${dir}/ckpt_direct
  ++workload.checkpoint.write_threads=1000000)
set_tests_properties(cli.checkpoint_write_threads_beyond_memory PROPERTIES LABELS "cli;mpi")

# The `checkpoint drain` tests of a burst buffer: 2 ranks, tiny_checkpoint.yaml, fast tier nvme.
# dlbench_drain_test(NAME FOLDER "FIRST_SAVE_OVERRIDES" "SCRIPT" expect...) registers
# cli.checkpoint_NAME (labels cli, mpi): in an emptied ${SCRATCH}/FOLDER, a burst-buffer save
# with FIRST_SAVE_OVERRIDES (--output FOLDER/a), then SCRIPT in /bin/sh. In SCRIPT, @dir@ is that
# folder, @bb@ the overrides of the burst buffer (fast tier @dir@/bb, checkpoint folder
# @dir@/ckpt), @checkpoint@ the 2-rank `dlbench checkpoint` without them and @drain@ the 2-rank
# `dlbench checkpoint drain` with them.
function(dlbench_drain_test name folder first_save script)
  set(dir ${SCRATCH}/${folder})
  set(bb "++workload.storage.tiers.nvme.path=${dir}/bb ++workload.checkpoint.burst_buffer.tier=nvme ++workload.checkpoint.checkpoint_folder=${dir}/ckpt")
  set(checkpoint "${CKPT_MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML}")
  set(drain "${CKPT_MPIEXEC} 2 ${DLBENCH} checkpoint drain ${CKPT_YAML} ${bb}")
  string(CONFIGURE "${script}" script @ONLY)
  dlbench_cli_test(checkpoint_${name} 0 ${ARGN} -- /bin/sh -c
    "rm -rf ${dir} && ${checkpoint} ${bb} ${first_save} --output ${dir}/a --quiet && ${script}")
  set_tests_properties(cli.checkpoint_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

# A checkpoint complete on the burst buffer whose name is durable in the checkpoint folder from an
# earlier save with other settings (train.seed 123 there, 7 on the fast tier) is not durable: it
# is drained. It used to count as durable ("nothing to drain", exit 0), so the save of a run
# stopped before its drain stayed on the fast tier and the folder kept the other run's bytes.
# The seed-7 save goes to its own folder (its override comes after @bb@'s: it wins).
dlbench_drain_test(drain_durable_copy_of_other_settings ckpt_drain_other_settings ""
  "@checkpoint@ @bb@ ++workload.checkpoint.checkpoint_folder=@dir@/seed7 ++workload.train.seed=7 ++workload.checkpoint.burst_buffer.evict_after_drain=False --output @dir@/b --quiet && @drain@ ++workload.train.seed=7 && diff -r -x .dlbench-folder @dir@/seed7 @dir@/ckpt && echo 'drained: OK'"
  --once "note: resuming the drain of 2 checkpoint\\(s\\) complete on tier nvme .* global_epoch1_step1 global_epoch1_step2"
  --no-match "nothing to drain" --match "drained: OK")
# A fast-tier copy of a checkpoint durable already (identical manifest), left by a run that
# stopped before evicting it, is removed by the next store with evict_after_drain (the default),
# as a finished run would have: it stayed on the burst buffer for good, 'checkpoint drain' said
# "nothing to drain". Emulated by a run with evict_after_drain=False.
dlbench_drain_test(drain_removes_durable_leftover ckpt_drain_durable_leftover
  "++workload.checkpoint.burst_buffer.evict_after_drain=False"
  "test -f @dir@/bb/global_epoch1_step2/dlbench_checkpoint_manifest.json && @drain@ && test ! -e @dir@/bb/global_epoch1_step1 && test ! -e @dir@/bb/global_epoch1_step2 && test -f @dir@/ckpt/global_epoch1_step2/dlbench_checkpoint_manifest.json && echo 'leftover: OK'"
  --once "note: removed 2 fast-tier copies on tier nvme .* of checkpoints durable already in .*ckpt_drain_durable_leftover/ckpt \\(evict_after_drain\\), left by a run that stopped"
  --once "nothing to drain" --match "leftover: OK")
# The counter-case: the fast-tier copy is not always the newest save of its name. A burst-buffer
# run with evict_after_drain=False leaves its (drained) checkpoints on the fast tier; a later run
# without burst buffer (train.seed 7) saves the same names straight to the checkpoint folder. The
# drain keeps the folder's newer copies (it replaced them with the older fast-tier ones: 01c40ee),
# leaves the fast copies while evict_after_drain is False and removes them once it is True.
dlbench_drain_test(drain_keeps_newer_direct_save ckpt_drain_newer_direct_save
  "++workload.checkpoint.burst_buffer.evict_after_drain=False"
  "@checkpoint@ ++workload.checkpoint.checkpoint_folder=@dir@/ckpt ++workload.train.seed=7 --output @dir@/b --quiet && cp -r @dir@/ckpt @dir@/direct && @drain@ ++workload.checkpoint.burst_buffer.evict_after_drain=False && diff -r @dir@/direct @dir@/ckpt && test -f @dir@/bb/global_epoch1_step2/dlbench_checkpoint_manifest.json && @drain@ && diff -r @dir@/direct @dir@/ckpt && test ! -e @dir@/bb/global_epoch1_step1 && test ! -e @dir@/bb/global_epoch1_step2 && echo 'kept: OK'"
  --once "note: kept the checkpoint folder's copy of 2 checkpoint\\(s\\) .* newer.* stays .*global_epoch1_step1 global_epoch1_step2"
  --once "note: kept the checkpoint folder's copy of 2 checkpoint\\(s\\) .* newer.* removed .*global_epoch1_step1 global_epoch1_step2"
  --no-match "resuming the drain" --match "kept: OK")
# burst_buffer.preallocate: each rank writes its files of max_pending_checkpoints (2) checkpoints
# on the fast tier when the run starts and the saves overwrite them (the loads verify the bytes);
# the run says how much it took and leaves none of it behind.
set(dir ${SCRATCH}/ckpt_burst_buffer_preallocate)
dlbench_cli_test(checkpoint_burst_buffer_preallocate 0
  --once "note: preallocated .* on tier nvme \\(.*/bb\\), the files of 2 checkpoint\\(s\\), in [0-9.]+ s"
  --match "spares: OK" -- /bin/sh -c
  "rm -rf ${dir} && ${CKPT_MPIEXEC} 2 ${DLBENCH} checkpoint ${CKPT_YAML} ++workload.storage.tiers.nvme.path=${dir}/bb ++workload.checkpoint.burst_buffer.tier=nvme ++workload.checkpoint.checkpoint_folder=${dir}/ckpt ++workload.checkpoint.burst_buffer.preallocate=True ++workload.checkpoint.verify=True --output ${dir}/out && test ! -e ${dir}/bb/.dlbench-spare && test -f ${dir}/ckpt/global_epoch1_step2/dlbench_checkpoint_manifest.json && echo 'spares: OK'")
set_tests_properties(cli.checkpoint_burst_buffer_preallocate PROPERTIES LABELS "cli;mpi")
# A checkpoint's memory is bounded by the configuration, not the number of its files: a save and
# a load of 2,000 and 20,000 layer files a rank within 4 MiB of each other
# (checkpoint_memory_bound.py). Not timed.
add_test(NAME cli.checkpoint_memory_flat_in_the_number_of_files
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/checkpoint_memory_bound.py ${DLBENCH}
  ${SCRATCH} "${MPIEXEC_TEXT}")
set_tests_properties(cli.checkpoint_memory_flat_in_the_number_of_files PROPERTIES
  LABELS "cli;mpi" TIMEOUT 240)
# The same for two saves through a burst buffer (drained to the checkpoint folder, the second
# over the first's spares) and a load.
add_test(NAME cli.checkpoint_burst_buffer_memory_flat_in_the_number_of_files
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/checkpoint_memory_bound.py ${DLBENCH}
  ${SCRATCH} "${MPIEXEC_TEXT}" burst_buffer)
set_tests_properties(cli.checkpoint_burst_buffer_memory_flat_in_the_number_of_files PROPERTIES
  LABELS "cli;mpi" TIMEOUT 400)
