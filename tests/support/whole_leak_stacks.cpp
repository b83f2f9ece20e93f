// Linked into the test executables whose tests meet the leaks of other libraries that
// tests/sanitizers/lsan.supp suppresses: those that start MPI, and those that make HDF5 fail
// (tests/CMakeLists.txt: dlbench_unit_tests(... WHOLE_LEAK_STACKS), every dlbench_mpi_gtest).
// Under ASan their allocations keep whole stacks (fast_unwind_on_malloc=0): Debian's Open MPI and
// HDF5 are built without frame pointers, so ASan's fast unwinder stops one frame above malloc (in
// Open MPI's case, in a component MPI_Finalize has already unloaded), and the suppressions would
// match nothing. The other test executables keep the fast unwinder: a whole stack on every
// allocation made unit_config's tests ten times slower (28 s against 3 s). ASAN_OPTIONS from the
// environment still overrides this default.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options();
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }
#endif
