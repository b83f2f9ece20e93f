// The cost of the always-on POSIX counters (storage/counting_env.h) per operation: a 4 KiB read
// from the page cache, and a whole sample (open, read, close) of a 4 KiB file, through PosixEnv
// alone and through a CountingEnv over it. The difference is what every read of a run pays. The
// whole-sample cases run over 256 files (every record stays in the core's caches) and over 8,192
// (the read limit's npy dataset: ~7 MiB of records, more than this VM's 4 MiB L2, as in a run).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "bench_main.h"
#include "storage/counting_env.h"

namespace dlbench::storage {
namespace {

constexpr int kFiles = 8192;

const std::string& Folder() {
  static const std::string kFolder = [] {
    const std::string path = "/dev/shm/dlbench-counting-bench-" + std::to_string(getpid());
    std::filesystem::create_directories(path);
    const std::string bytes(4096, 'x');
    for (int f = 0; f < kFiles; ++f) {
      auto out = PosixEnv().create(path + "/" + std::to_string(f));
      out->append(bytes.data(), bytes.size());
      out->close();
    }
    return path;
  }();
  return kFolder;
}

// One CountingEnv for every thread: with Threads(4) all threads update the same file's record
// (the worst case: one shared file).
CountingEnv& Counting() {
  static CountingEnv counting(PosixEnv());
  return counting;
}

void Read4KiB(benchmark::State& state, bool counted) {
  CountingEnv& counting = Counting();
  Env& env = counted ? static_cast<Env&>(counting) : PosixEnv();
  auto file = env.open_read(Folder() + "/0");
  alignas(4096) char buffer[4096];
  for (auto _ : state) benchmark::DoNotOptimize(file->read_at(0, buffer, sizeof buffer));
}

void OpenReadClose(benchmark::State& state, bool counted) {
  CountingEnv& counting = Counting();
  Env& env = counted ? static_cast<Env&>(counting) : PosixEnv();
  std::vector<std::string> paths;
  for (int f = 0; f < state.range(0); ++f) paths.push_back(Folder() + "/" + std::to_string(f));
  alignas(4096) char buffer[4096];
  std::size_t i = 0;
  for (auto _ : state) {
    auto file = env.open_read(paths[i++ % paths.size()]);
    benchmark::DoNotOptimize(file->read_at(0, buffer, sizeof buffer));
  }
}

BENCHMARK_CAPTURE(Read4KiB, posix, false);
BENCHMARK_CAPTURE(Read4KiB, posix_4_threads, false)->Threads(4);
BENCHMARK_CAPTURE(Read4KiB, counted, true);
BENCHMARK_CAPTURE(Read4KiB, counted_4_threads, true)->Threads(4);
BENCHMARK_CAPTURE(OpenReadClose, posix, false)->Arg(256)->Arg(kFiles);
BENCHMARK_CAPTURE(OpenReadClose, counted, true)->Arg(256)->Arg(kFiles);

}  // namespace
}  // namespace dlbench::storage

int main(int argc, char** argv) {
  return dlbench::bench::RunBenchmarksThenRemove(argc, argv, &dlbench::storage::Folder);
}
