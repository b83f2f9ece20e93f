# `dlbench sweep` (docs/sweep.md).
add_test(NAME cli.sweep_end_to_end
  COMMAND ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/sweep_end_to_end.py ${DLBENCH}
  ${DATA}/workloads/train/tiny_train.yaml ${SCRATCH}/sweep_end_to_end ${MPIEXEC})
set_tests_properties(cli.sweep_end_to_end PROPERTIES LABELS "cli;mpi" TIMEOUT 300
  PASS_REGULAR_EXPRESSION "sweep_end_to_end: OK")

# The launcher's own failures: one clear error, exit 2, before anything is written.
set(SWEEP_TINY ${DATA}/workloads/train/tiny_train.yaml -o ${SCRATCH}/sweep_refused)
dlbench_cli_test(sweep_launcher_not_found 2
  --once "dlbench: error: --launcher 'dlbench-no-launcher -np \\{ranks\\}': 'dlbench-no-launcher' is not an executable file found in PATH"
  --no-file ${SCRATCH}/sweep_refused
  -- ${DLBENCH} sweep ${SWEEP_TINY} --launcher "dlbench-no-launcher -np {ranks}" --max-accelerators 2)
dlbench_cli_test(sweep_launcher_unknown_placeholder 2 --once "unknown placeholder \\{np\\}"
  --no-file ${SCRATCH}/sweep_refused
  -- ${DLBENCH} sweep ${SWEEP_TINY} --launcher "mpirun -np {np}" --max-accelerators 2)
dlbench_cli_test(sweep_launcher_without_ranks 2 --once "no \\{ranks\\}"
  --no-file ${SCRATCH}/sweep_refused
  -- ${DLBENCH} sweep ${SWEEP_TINY} --launcher "mpirun -np 4" --max-accelerators 2)
dlbench_cli_test(sweep_bad_grid 2 --once "--grid 'reader.read_threads': expected KEY=V1,V2"
  --no-file ${SCRATCH}/sweep_refused
  -- ${DLBENCH} sweep ${SWEEP_TINY} --launcher "sh {ranks}" --grid reader.read_threads)
dlbench_cli_test(sweep_without_launcher 2 --once "--launcher is required"
  -- ${DLBENCH} sweep ${SWEEP_TINY} --max-accelerators 2)
