# CLI tests of staging (`workflow.stage`, `dlbench stage`; docs/staging.md), at 1 and 2 ranks:
# staged files identical to the source, training after staging reads only the fast tier (per-tier
# storage counts in summary.json), an interrupted staging resumes, a full fast tier is a clear
# error. Included from tests/CMakeLists.txt after tests/cli, whose dlbench_cli_test it uses.
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(STAGE_YAML ${PROJECT_SOURCE_DIR}/tests/data/workloads/train/tiny_train.yaml)
string(JOIN " " STAGE_MPIEXEC ${DLBENCH_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})
set(CHECK_STAGE "${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_stage.py")

# Tiers pfs (<dir>/pfs, holding the dataset) and nvme (<dir>/nvme) for the test folder <dir>.
function(stage_overrides out dir)
  set(${out} "++workload.dataset.data_folder=${dir}/pfs/data ++workload.storage.tiers.pfs.path=${dir}/pfs ++workload.storage.tiers.nvme.path=${dir}/nvme ++workload.stage.to=nvme" PARENT_SCOPE)
endfunction()

# dlbench_stage_test(NAME RANKS "RUN OVERRIDES" MODE [expect.sh options]): generates, then runs
# generate-less training with staging on, then checks with check_stage.py MODE.
function(dlbench_stage_test name ranks overrides mode)
  set(dir ${SCRATCH}/stage_${name})
  stage_overrides(tiers ${dir})
  dlbench_cli_test(stage_${name} 0 --match "check_stage: OK" ${ARGN} -- /bin/sh -c
    "rm -rf ${dir} && ${STAGE_MPIEXEC} ${ranks} ${DLBENCH} generate ${STAGE_YAML} ${tiers} -q --output ${dir}/gen && ${STAGE_MPIEXEC} ${ranks} ${DLBENCH} run ${STAGE_YAML} ${tiers} ++workload.workflow.generate_data=False ++workload.workflow.stage=True ${overrides} --output ${dir}/out && ${CHECK_STAGE} ${dir}/out ${dir}/pfs/data ${dir}/nvme/data ${mode}")
  set_tests_properties(cli.stage_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

dlbench_stage_test(before_training_np1 1 "" fast-only
  --once "staged \\(before_training\\) .* in 10 files \\(0 already there\\)")
dlbench_stage_test(before_training_np2 2 "++workload.stage.verify=True ++workload.stage.threads=3"
  fast-only --once "staged \\(before_training\\) .* in 10 files")
# Each rank stages only what it reads: one epoch without evaluation at 2 ranks reads every
# training file once between them, and no evaluation file.
dlbench_stage_test(only_read_files_np2 2
  "++workload.train.epochs=1 ++workload.workflow.evaluation=False ++workload.reader.file_shuffle=off ++workload.reader.sample_shuffle=off"
  fast-only --once "staged \\(before_training\\) .* in 8 files")
dlbench_stage_test(per_epoch_np2 2
  "++workload.stage.policy=per_epoch ++workload.storage.tiers.nvme.capacity=60KiB" both
  --once "staged \\(per_epoch\\)")
dlbench_stage_test(on_demand_np1 1
  "++workload.stage.policy=on_demand ++workload.storage.tiers.nvme.capacity=40KiB" both
  --once "staged \\(on_demand\\)")

# `dlbench stage` interrupted: a staged file removed and a partial file left (what a kill leaves)
# are redone, the other files are kept, and the result is identical to the source.
set(dir ${SCRATCH}/stage_resume)
stage_overrides(tiers ${dir})
dlbench_cli_test(stage_resume_np2 0 --once "in 2 files \\(8 already there\\)"
  --once "in 0 files \\(10 already there\\)"
  --match "check_stage: OK" -- /bin/sh -c
  "rm -rf ${dir} && ${DLBENCH} generate ${STAGE_YAML} ${tiers} -q --output ${dir}/gen && ${STAGE_MPIEXEC} 2 ${DLBENCH} stage ${STAGE_YAML} ${tiers} --all-files --output ${dir}/s1 && rm ${dir}/nvme/data/train/img_3_of_8.npz && printf half > ${dir}/nvme/data/train/.img_5_of_8.npz.dlbench-partial && rm ${dir}/nvme/data/valid/img_1_of_2.npz && ${STAGE_MPIEXEC} 2 ${DLBENCH} stage ${STAGE_YAML} ${tiers} --all-files --verify --output ${dir}/s2 && ${STAGE_MPIEXEC} 2 ${DLBENCH} run ${STAGE_YAML} ${tiers} ++workload.workflow.generate_data=False ++workload.workflow.stage=True --output ${dir}/out && ${CHECK_STAGE} ${dir}/out ${dir}/pfs/data ${dir}/nvme/data fast-only")
set_tests_properties(cli.stage_resume_np2 PROPERTIES LABELS "cli;mpi")

# A fast tier whose configured capacity is below the dataset: exit 2 before copying anything,
# printed once (a file system without the free space: tests/unit/workflow/stage_phase_test.cpp).
set(dir ${SCRATCH}/stage_full)
stage_overrides(tiers ${dir})
dlbench_cli_test(stage_full_tier_np2 2
  --once "more than tier nvme's capacity of 10 KiB \\(storage.tiers.nvme.capacity\\)"
  -- /bin/sh -c
  "trap 'test ! -e ${dir}/nvme/data/train/img_0_of_8.npz || exit 9' EXIT && rm -rf ${dir} && ${DLBENCH} generate ${STAGE_YAML} ${tiers} -q --output ${dir}/gen && ${STAGE_MPIEXEC} 2 ${DLBENCH} stage ${STAGE_YAML} ${tiers} ++workload.storage.tiers.nvme.capacity=10KiB --output ${dir}/out")
set_tests_properties(cli.stage_full_tier_np2 PROPERTIES LABELS "cli;mpi")
dlbench_cli_test(stage_unknown_tier 2 --once "stage.to: 'ssd' is not a storage.tiers entry"
  -- ${DLBENCH} stage ${STAGE_YAML} ++workload.storage.tiers.pfs.path=/tmp --to ssd)
dlbench_cli_test(stage_not_under_from 2 --once "data_folder .* is not under tier pfs"
  -- ${DLBENCH} stage ${STAGE_YAML} ++workload.dataset.data_folder=/nonexistent/data
  ++workload.storage.tiers.pfs.path=/tmp/pfs ++workload.storage.tiers.nvme.path=/tmp/nvme
  --from pfs --to nvme)

# A node-local fast tier on 2 emulated nodes: each node's copy is prepared by its lowest rank.
add_test(NAME cli.stage_node_local_np2 COMMAND env DLBENCH=${DLBENCH} "MPIEXEC_LINE=${STAGE_MPIEXEC}"
  TINY=${STAGE_YAML} EMULATE=${PROJECT_SOURCE_DIR}/scripts/slurm/emulate-nodes.sh
  ${CMAKE_CURRENT_LIST_DIR}/stage_node_local.sh ${SCRATCH}/stage_node_local)
set_tests_properties(cli.stage_node_local_np2 PROPERTIES LABELS "cli;mpi" TIMEOUT 90)
# Staging reruns copy only what is missing: `stage --repeat 3` reported 0 GiB/s for runs 2 and 3
# and a meaningless median; it is refused before anything is copied or written.
stage_overrides(repeat_tiers ${SCRATCH}/stage_repeat)
separate_arguments(repeat_tiers)
dlbench_cli_test(stage_repeat 2
  --once "stage --repeat: a rerun copies only what is missing, so runs 2..3 would copy nothing"
  --no-file ${SCRATCH}/stage_repeat/out
  -- ${DLBENCH} stage ${STAGE_YAML} ${repeat_tiers} --repeat 3 --output ${SCRATCH}/stage_repeat/out)
