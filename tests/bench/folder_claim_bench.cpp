// The cost of claiming a large existing data folder (workflow/folder_claim.h): the claim lists
// every sub-folder to find a symbolic link to a folder at any depth. The folder holds 100,000
// empty files in 100 sub-folders of train/ on /dev/shm, marked as dlbench's. The reference is
// the bare listing of the same folders through PosixEnv, which the claim cannot do without.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "bench_main.h"
#include "storage/file.h"
#include "util/file_names.h"
#include "workflow/folder_claim.h"

namespace dlbench::workflow {
namespace {

constexpr int kFolders = 100;
constexpr int kFilesPerFolder = 1000;

const std::string& DataFolder() {
  static const std::string folder = [] {
    const std::string path = "/dev/shm/dlbench-claim-bench-" + std::to_string(getpid());
    std::filesystem::create_directories(path);
    ::close(::open((path + "/" + file_names::kFolderMarker).c_str(), O_CREAT | O_WRONLY, 0644));
    for (int d = 0; d < kFolders; ++d) {
      const std::string sub = path + "/train/" + std::to_string(d);
      std::filesystem::create_directories(sub);
      for (int f = 0; f < kFilesPerFolder; ++f) {
        const std::string file = sub + "/img_" + std::to_string(f) + ".npz";
        ::close(::open(file.c_str(), O_CREAT | O_WRONLY, 0644));
      }
    }
    return path;
  }();
  return folder;
}

void ListAll(storage::Env& env, const std::string& folder) {
  for (const storage::DirectoryEntry& entry : env.list_directory(folder)) {
    if (entry.is_directory) ListAll(env, folder + "/" + entry.name);
  }
}

void BM_ListEveryFolder(benchmark::State& state) {
  const std::string& folder = DataFolder();
  for (auto _ : state) ListAll(storage::PosixEnv(), folder);
}
BENCHMARK(BM_ListEveryFolder)->Unit(benchmark::kMillisecond);

void BM_ClaimDataFolder(benchmark::State& state) {
  const std::string& folder = DataFolder();
  for (auto _ : state) ClaimFolder(storage::PosixEnv(), folder, "dataset.data_folder", false);
}
BENCHMARK(BM_ClaimDataFolder)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dlbench::workflow

int main(int argc, char** argv) {
  return dlbench::bench::RunBenchmarksThenRemove(argc, argv, &dlbench::workflow::DataFolder);
}
