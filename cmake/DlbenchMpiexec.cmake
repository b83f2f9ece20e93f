# How tests start ranks: DLBENCH_MPIEXEC is mpiexec with the flags this machine's mpiexec needs,
# detected once here (tests/cli, tests/cli/checkpoint_tests.cmake and tests/mpi use it):
# - --allow-run-as-root only when configuring as root (containers, CI), since Open MPI refuses
#   root without it;
# - --oversubscribe, since the tests start up to 4 ranks, more than a CI machine may have cores.
# Each flag is added only when `mpiexec --help` or `mpiexec --help all` lists it: Open MPI's do,
# MPICH's and others' neither list nor need them. Set DLBENCH_MPIEXEC_FLAGS to override.
if(NOT DEFINED DLBENCH_MPIEXEC_FLAGS)
  set(help "")
  foreach(topic IN ITEMS "" "all")
    # Open MPI also refuses to print its help as root; its environment switch allows it for this
    # probe only (other MPIs ignore the variables).
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
              ${MPIEXEC_EXECUTABLE} --help ${topic}
      OUTPUT_VARIABLE out ERROR_VARIABLE out TIMEOUT 30)
    string(APPEND help "${out}")
  endforeach()
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(flags "")
  if(uid STREQUAL "0" AND help MATCHES "--allow-run-as-root")
    list(APPEND flags --allow-run-as-root)
  endif()
  if(help MATCHES "--oversubscribe")
    list(APPEND flags --oversubscribe)
  endif()
  set(DLBENCH_MPIEXEC_FLAGS "${flags}" CACHE STRING
    "Flags tests pass to mpiexec (detected: --allow-run-as-root as root, --oversubscribe)")
  message(STATUS "mpiexec flags for tests: ${DLBENCH_MPIEXEC_FLAGS}")
endif()
set(DLBENCH_MPIEXEC ${MPIEXEC_EXECUTABLE} ${DLBENCH_MPIEXEC_FLAGS})
