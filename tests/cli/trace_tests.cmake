# `--trace` (docs/tracing.md): every rank's trace parses, nests and counts exactly what the run did
# (check_trace.py), for every format at 2 ranks with reader threads and without, and for
# checkpoint-only mode; bad trace options are usage errors. Included from tests/CMakeLists.txt
# after tests/cli, whose dlbench_cli_test function it uses.
set(EXPECT ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
set(SCRATCH ${CMAKE_CURRENT_BINARY_DIR}/cli/scratch)
set(DATA ${PROJECT_SOURCE_DIR}/tests/data)
set(DLBENCH $<TARGET_FILE:dlbench>)
set(TRAIN_YAML ${DATA}/workloads/train/tiny_train.yaml)
set(TENSORFLOW "++workload.reader.data_loader=tensorflow ++workload.framework=tensorflow")
string(JOIN " " MPIEXEC_LINE ${DLBENCH_MPIEXEC} ${MPIEXEC_NUMPROC_FLAG})
set(CHECK_TRACE ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_trace.py)
string(JOIN " " CHECK_TRACE_LINE ${CHECK_TRACE})

function(dlbench_trace_test name ranks overrides checks)
  set(dir ${SCRATCH}/trace_${name})
  # --trace alone asks for no external profiler: no notice about DLIO's default (iostat).
  dlbench_cli_test(trace_${name} 0 --match "check_trace: OK" --no-match "profiling.profiler"
    -- /bin/sh -c "rm -rf ${dir} && ${MPIEXEC_LINE} ${ranks} $<TARGET_FILE:dlbench> run ${TRAIN_YAML} --trace --quiet --output ${dir}/out ++workload.dataset.data_folder=${dir}/data ${overrides} && ${CHECK_TRACE_LINE} ${dir}/out ${ranks} ${checks}")
  set_tests_properties(cli.trace_${name} PROPERTIES LABELS "cli;mpi")
endfunction()

foreach(format npz npy tfrecord hdf5 indexed_binary synthetic csv parquet)
  set(overrides "++workload.dataset.format=${format}")
  if(format STREQUAL "tfrecord")
    string(APPEND overrides " ${TENSORFLOW}")
  endif()
  dlbench_trace_test(${format} 2 "${overrides}" "--threads trainer --threads reader-1")
  dlbench_trace_test(${format}_no_threads 2 "${overrides} ++workload.reader.read_threads=0"
    "--threads trainer")
endforeach()

set(dir ${SCRATCH}/trace_checkpoint)
dlbench_cli_test(trace_checkpoint 0 --match "check_trace: OK" -- /bin/sh -c
  "rm -rf ${dir} && $<TARGET_FILE:dlbench> checkpoint ${DATA}/workloads/tiny_checkpoint.yaml --trace --quiet --output ${dir}/out ++workload.checkpoint.checkpoint_folder=${dir}/ckpt && ${CHECK_TRACE_LINE} ${dir}/out 1 --expect checkpoint.save=2 --expect capture=4 --expect checkpoint.load=2 --expect restart=4")

# The tracer only watches: a traced generation makes the same file-system calls on the data folder
# as an untraced one (the same O_TMPFILE opens and links, the same renames), counted with strace.
find_program(STRACE strace)
if(STRACE AND NOT DLBENCH_SANITIZE)
  dlbench_cli_test(trace_same_calls 0 --match "trace_same_calls: OK"
    -- ${DLBENCH_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/trace_same_calls.py ${DLBENCH} ${TRAIN_YAML}
    ${SCRATCH}/trace_same_calls)
endif()

dlbench_cli_test(trace_bad_sample 2 --once "profiling.trace_sample"
  -- ${DLBENCH} config show default ++workload.profiling.trace_sample=0)
dlbench_cli_test(trace_bad_compression 2 --once "profiling.trace_compression_level"
  -- ${DLBENCH} config show default ++workload.profiling.trace_compression_level=0)
dlbench_cli_test(trace_bad_policy 2 --once "profiling.trace_policy"
  -- ${DLBENCH} config show default ++workload.profiling.trace_policy=sometimes)
dlbench_cli_test(trace_bad_writer_priority 2 --once "profiling.trace_writer_priority: 'lowest' is not one of idle, low or normal"
  -- ${DLBENCH} config show default ++workload.profiling.trace_writer_priority=lowest)
# The writer's priority reaches the run: summary.json says which the writer ran at.
set(dir ${SCRATCH}/trace_writer_priority)
dlbench_cli_test(trace_writer_priority_low 0 --match "\"writer_priority\": \"low\"" -- /bin/sh -c
  "rm -rf ${dir} && $<TARGET_FILE:dlbench> run ${TRAIN_YAML} --trace --quiet --output ${dir}/out ++workload.dataset.data_folder=${dir}/data ++workload.profiling.trace_writer_priority=low && cat ${dir}/out/summary.json")
# A run's file given instead of its folder: a usage error naming the folder (was exit 3, "list
# X: Not a directory").
dlbench_cli_test(trace_summary_of_a_file 2
  --once "trace summary: ${DATA}/bad/unknown_key.yaml is a file. give the run folder that holds it \\(${DATA}/bad\\)"
  -- ${DLBENCH} trace summary ${DATA}/bad/unknown_key.yaml)
