# CLI tests of the run's insights (docs/insights.md): for each rule, a run built to trigger it and
# one built not to — a healthy run has no finding at all. Runs of the tiny training workload with
# 20 ms of compute a step (so prefetching keeps up), 256 KiB records and the page cache dropped
# between epochs are healthy; each trigger changes one thing: a slow tier, tiny records, one slow
# rank, a slow drain, long evaluations. Included from tests/CMakeLists.txt after tests/cli, whose
# dlbench_cli_test it uses.
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(INS_YAML ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml)
string(JOIN " " INS_MPIEXEC ${DLBENCH_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})
set(CHECK_INSIGHTS "${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_insights.py")
set(INS_HEALTHY "++workload.train.computation_time=0.02 ++workload.dataset.record_length_bytes=262144 ++workload.reader.drop_caches=fadvise")
# The tier pfs at <dir>/pfs holds the dataset (and whatever else a test puts there).
set(INS_PFS "++workload.storage.tiers.pfs.path=@dir@/pfs ++workload.dataset.data_folder=@dir@/pfs/data")
# The dataset in memory (@mem@, a folder in /dev/shm), for the runs that must stay healthy whatever
# else the machine does: read from the build folder's disk with the page cache dropped, beside a
# disk writer, the healthy run lost 12 AU points (storage_bound) and the staged one 30. The cache
# is still dropped (a no-op on tmpfs), so page_cache_served stays silent as it does on a disk.
set(INS_IN_MEMORY "++workload.dataset.data_folder=@mem@/data")

# dlbench_insights_test(NAME RANKS "RUN OVERRIDES" "CHECK ARGUMENTS" [expect.sh options]): one
# `dlbench run` (generation included) into <scratch>/insights_NAME, then check_insights.py. @dir@
# in the overrides is that folder, @mem@ /dev/shm/dlbench-cli-insights_NAME (removed before and
# after); "ENV=VALUE " before them sets the environment of the run.
function(dlbench_insights_test name ranks overrides check)
  set(dir ${SCRATCH}/insights_${name})
  set(mem /dev/shm/dlbench-cli-insights_${name})
  # The default data folder first: a later data_folder (the tier's) wins.
  string(REPLACE "@dir@" "${dir}" overrides "++workload.dataset.data_folder=${dir}/data ${overrides}")
  string(REPLACE "@mem@" "${mem}" overrides "${overrides}")
  dlbench_cli_test(insights_${name} 0 --match "check_insights: OK" ${ARGN} -- /bin/sh -c
    "trap 'rm -rf ${mem}' EXIT && rm -rf ${dir} ${mem} && ${INS_MPIEXEC} ${ranks} ${DLBENCH} run ${INS_YAML} ${overrides} --output ${dir}/out && ${CHECK_INSIGHTS} ${dir}/out ${check}")
  set_tests_properties(cli.insights_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

# Healthy runs, 1 and 2 ranks: no finding, nothing printed.
dlbench_insights_test(healthy_np1 1 "${INS_HEALTHY} ${INS_IN_MEMORY}" "--none" --no-match "Insights")
dlbench_insights_test(healthy_np2 2 "${INS_HEALTHY} ${INS_IN_MEMORY}" "--none" --no-match "Insights")

# storage_bound: every operation on the dataset's tier takes 10 ms (open and read alike), against
# 20 ms of compute a step of 2 samples.
dlbench_insights_test(storage_bound 1 "${INS_HEALTHY} ${INS_PFS} ++workload.storage.tiers.pfs.latency=10ms"
  "--fires storage_bound --absent rank_imbalance"
  --match "^  \\[(warning|high)\\] storage_bound: The accelerators waited for data"
  --match "^    try: Stage the dataset")

# From the trace (32 files, so that the readers' idle end of an epoch is short beside its reads):
# storage_bound on the slow tier, traced, says the readers read without pause; 30 ms of emulated
# preprocessing a sample with the dataset in the page cache (I/O at memory speed, whatever the
# disk is doing) is preprocess_bound, traced, and storage_bound without the trace (the counters
# cannot tell the two apart).
set(INS_TRACED "++workload.dataset.num_files_train=32 ++workload.workflow.evaluation=False ++workload.workflow.profiling=True")
dlbench_insights_test(storage_bound_traced 1
  "${INS_HEALTHY} ${INS_PFS} ${INS_TRACED} ++workload.storage.tiers.pfs.latency=10ms"
  "--fires storage_bound --absent preprocess_bound"
  --match "^    try: The reader threads read without pause \\(2 per rank\\)")
set(INS_PREPROCESS "${INS_HEALTHY} ++workload.dataset.num_files_train=32 ++workload.workflow.evaluation=False ++workload.reader.drop_caches=none ++workload.reader.preprocess_time=0.03")
dlbench_insights_test(preprocess_bound 1 "${INS_PREPROCESS} ++workload.workflow.profiling=True"
  "--fires preprocess_bound --absent storage_bound"
  --match "^  \\[(warning|high)\\] preprocess_bound: The accelerators waited for data while the reader threads spent")
dlbench_insights_test(preprocess_untraced 1 "${INS_PREPROCESS}"
  "--fires storage_bound --absent preprocess_bound")

# small_reads: 64 files of one 1 KiB sample each, read twice.
dlbench_insights_test(small_reads 1
  "${INS_HEALTHY} ${INS_IN_MEMORY} ++workload.dataset.record_length_bytes=1024 ++workload.dataset.num_files_train=64 ++workload.workflow.evaluation=False"
  "--fires small_reads --absent storage_bound")

# metadata_bound: every open of a dataset file takes 20 ms more, its reads do not (the tier's
# latency would slow both alike).
dlbench_insights_test(metadata_bound 1 "${INS_HEALTHY}" "--fires metadata_bound --absent small_reads"
  --match "metadata_bound: Opening, stat'ing and closing files took")
set_tests_properties(cli.insights_metadata_bound PROPERTIES
  ENVIRONMENT "DLBENCH_FAULTS=op=open_read,keep,slow=0.02,path=insights_metadata_bound/data")

# rank_imbalance: rank 1's reads of the dataset each take 20 ms more; rank 1 is named.
dlbench_insights_test(rank_imbalance_np2 2
  "${INS_HEALTHY}" "--fires rank_imbalance --names \"Rank 1 is the straggler\"")
set_tests_properties(cli.insights_rank_imbalance_np2 PROPERTIES
  ENVIRONMENT "DLBENCH_FAULTS=op=read,keep,slow=0.02,rank=1,path=insights_rank_imbalance_np2/data")

# first_epoch_slower: on_demand staging from a tier with 30 ms per operation copies each file at its first read, so
# epoch 2 reads the fast copy; staging before training (the suggestion) makes the epochs alike.
# The staged run keeps the page cache (a staged run is never page_cache_served): it reads the
# copy staging just wrote, as it would on a node's NVMe, and not the disk, which a disk writer
# beside the suite slowed until storage_bound fired (30 AU points, reads of 200 ms at p99).
set(INS_STAGE "${INS_HEALTHY} ${INS_PFS} ++workload.storage.tiers.pfs.latency=30ms ++workload.storage.tiers.nvme.path=@dir@/nvme ++workload.workflow.stage=True ++workload.stage.to=nvme")
dlbench_insights_test(first_epoch_slower 1 "${INS_STAGE} ++workload.stage.policy=on_demand"
  "--fires first_epoch_slower --absent page_cache_served")
dlbench_insights_test(staged_before_training 1
  "${INS_STAGE} ++workload.stage.policy=before_training ++workload.reader.drop_caches=none" "--none")

# page_cache_served: the healthy run without dropping the page cache between its epochs (info:
# not printed).
dlbench_insights_test(page_cache_served 1
  "${INS_HEALTHY} ++workload.reader.drop_caches=none" "--fires page_cache_served:info"
  --no-match "Insights")

# page_cache_served across runs: a --repeat set over a 256 MiB dataset whose pages were dropped
# before it (evict_page_cache.py), so run 1 reads the disk and run 2 the page cache; the same set
# with reader.drop_caches (every epoch starts cold, the suggestion) has no such finding.
set(dir ${SCRATCH}/insights_rerun)
set(INS_RERUN "${INS_YAML} ++workload.dataset.data_folder=${dir}/data ++workload.dataset.num_files_train=64 ++workload.dataset.record_length_bytes=2097152 ++workload.workflow.evaluation=False ++workload.train.epochs=1 ++workload.train.computation_time=0 ++workload.workflow.generate_data=False")
dlbench_cli_test(insights_page_cache_served_on_rerun 0 --match "check_insights: OK"
  --match "^  \\[warning\\] page_cache_served: Run 1 spent .* reading, the 1 later runs"
  -- /bin/sh -c
  "trap 'rm -rf ${dir}/data' EXIT && rm -rf ${dir} && ${DLBENCH} generate ${INS_RERUN} ++workload.workflow.generate_data=True -q --output ${dir}/gen && ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/evict_page_cache.py ${dir}/data && ${DLBENCH} run ${INS_RERUN} --repeat 2 --output ${dir}/cold && ${CHECK_INSIGHTS} ${dir}/cold --fires page_cache_served:warning && ${DLBENCH} run ${INS_RERUN} ++workload.reader.drop_caches=fadvise --repeat 2 -q --output ${dir}/dropped && ${CHECK_INSIGHTS} ${dir}/dropped --absent page_cache_served")
set_tests_properties(cli.insights_page_cache_served_on_rerun PROPERTIES TIMEOUT 120)

# Checkpoint runs: one epoch of 8 steps of 100 ms, the checkpoint folder on the tier pfs.
set(INS_CKPT "${INS_HEALTHY} ++workload.train.computation_time=0.1 ++workload.train.epochs=1 ++workload.workflow.checkpoint=True ++workload.storage.tiers.pfs.path=@dir@/pfs ++workload.checkpoint.checkpoint_folder=@dir@/pfs/ckpt")
# checkpoint_stall: a 2 MB checkpoint at the end of the epoch into a 1 MiB/s tier (about 1 s past
# the tier's 1 MiB burst, against 0.8 s of training); a 100 KB one without the limit does not
# stall training.
dlbench_insights_test(checkpoint_stall 1
  "${INS_CKPT} ++workload.model.model_size_bytes=2000000 ++workload.storage.tiers.pfs.bandwidth_limit=1MiB/s"
  "--fires checkpoint_stall --absent drain_backlog")
dlbench_insights_test(checkpoint_no_stall 1 "${INS_CKPT} ++workload.model.model_size_bytes=100000"
  "--none")

# drain_backlog: a burst buffer whose capacity tier drains 1 MB checkpoints at 1 MiB/s (about 1 s
# each past the tier's 1 MiB burst) while a save comes every 2 steps (0.2 s); the same buffer with
# one 100 KB save an epoch of 8 steps of 0.5 s, unthrottled, keeps up. Its drain takes
# milliseconds on an idle machine but up to 1.1 s beside two CPU hogs and a disk writer (a drain
# thread runs at nice 19, and a sync waits for the disk): hence the 4 s between saves.
set(INS_BB "${INS_CKPT} ++workload.storage.tiers.nvme.path=@dir@/bb ++workload.checkpoint.burst_buffer.tier=nvme")
dlbench_insights_test(drain_backlog 1
  "${INS_BB} ++workload.model.model_size_bytes=1000000 ++workload.storage.tiers.pfs.bandwidth_limit=1MiB/s ++workload.checkpoint.steps_between_checkpoints=2"
  "--fires drain_backlog" --match "drain_backlog: The burst buffer drains a checkpoint")
dlbench_insights_test(drain_keeps_up 1
  "${INS_BB} ++workload.model.model_size_bytes=100000 ++workload.train.computation_time=0.5"
  "--none")

# eval_dominates: 4 evaluation steps of 200 ms an epoch against 8 training steps of 20 ms.
dlbench_insights_test(eval_dominates 1 "${INS_HEALTHY} ++workload.evaluation.eval_time=0.2"
  "--fires eval_dominates")

# shared_file_contention: both ranks read 1 KiB samples of one file of 128.
dlbench_insights_test(shared_file_contention_np2 2
  "${INS_HEALTHY} ++workload.dataset.record_length_bytes=1024 ++workload.dataset.num_files_train=1 ++workload.dataset.num_files_eval=0 ++workload.dataset.num_samples_per_file=128 ++workload.workflow.evaluation=False"
  "--fires shared_file_contention --names img_0_of_1")

# Across runs: compare, report and trace summary show what differs between a healthy run and a
# storage-bound one.
set(dir ${SCRATCH}/insights_across_runs)
set(mem /dev/shm/dlbench-cli-insights_across_runs)
set(INS_SLOW "${INS_HEALTHY} ++workload.storage.tiers.pfs.path=${dir}/pfs ++workload.dataset.data_folder=${dir}/pfs/data ++workload.storage.tiers.pfs.latency=10ms")
dlbench_cli_test(insights_across_runs 0
  --match "^Insights that differ \\(current against baseline\\): storage_bound appeared \\((warning|high)\\)"
  --match "^  \\[(warning|high)\\] storage_bound: "
  --match "report: Insights storage_bound"
  -- /bin/sh -c
  "trap 'rm -rf ${mem}' EXIT && rm -rf ${dir} ${mem} && ${DLBENCH} run ${INS_YAML} ${INS_HEALTHY} ++workload.dataset.data_folder=${mem}/data -q --output ${dir}/healthy && ${DLBENCH} run ${INS_YAML} ${INS_SLOW} -q --output ${dir}/slow && ( ${DLBENCH} compare ${dir}/healthy ${dir}/slow --force || test $? -eq 4 ) && ${DLBENCH} trace summary ${dir}/slow && ${DLBENCH} report ${dir}/healthy ${dir}/slow --output ${dir}/report.html && grep -q '<h2>Insights</h2>' ${dir}/report.html && grep -q 'storage_bound appeared' ${dir}/report.html && echo 'report: Insights storage_bound'")
set_tests_properties(cli.insights_across_runs PROPERTIES TIMEOUT 120)
