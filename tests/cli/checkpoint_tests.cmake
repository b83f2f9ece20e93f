# CLI tests of `dlbench checkpoint` (included from tests/CMakeLists.txt after tests/cli, whose
# dlbench_cli_test function they use).
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(MPIEXEC ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe ${MPIEXEC_NUMPROC_FLAG})

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
