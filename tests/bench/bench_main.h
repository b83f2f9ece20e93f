// The main of a benchmark whose fixtures write files: runs the benchmarks the command line asks
// for, then removes the scratch folder that `folder()` names (called after the runs, so a folder
// made lazily by a fixture is made only when a benchmark needs it).
#pragma once

#include <benchmark/benchmark.h>

#include <filesystem>

namespace dlbench::bench {

template <typename Folder>
int RunBenchmarksThenRemove(int argc, char** argv, Folder folder) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(folder());
  return 0;
}

}  // namespace dlbench::bench
