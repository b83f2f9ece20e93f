#include "generation/generation_plan.h"

#include <algorithm>

#include "util/error.h"

namespace dlbench::generation {
namespace {

void RequirePositive(int value, const char* what) {
  if (value < 1) {
    throw InternalError(std::string("generation plan: ") + what + " must be at least 1, got " +
                        std::to_string(value));
  }
}

void RequireIndex(int index, int count, const char* what) {
  RequirePositive(count, what);
  if (index < 0 || index >= count) {
    throw InternalError(std::string("generation plan: ") + what + " index " +
                        std::to_string(index) + " outside [0, " + std::to_string(count) + ")");
  }
}

}  // namespace

std::vector<FileIndex> FilesOfRank(FileIndex total_files, int ranks, int rank) {
  RequireIndex(rank, ranks, "rank");
  std::vector<FileIndex> files;
  for (FileIndex f = static_cast<FileIndex>(rank); f < total_files;
       f += static_cast<FileIndex>(ranks)) {
    files.push_back(f);
  }
  return files;
}

bool FileAt(FileIndex total_files, int ranks, int rank, int threads, int thread, std::uint64_t step,
            FileIndex& file) {
  RequireIndex(rank, ranks, "rank");
  RequireIndex(thread, threads, "thread");
  const std::uint64_t position =
      static_cast<std::uint64_t>(thread) + static_cast<std::uint64_t>(threads) * step;
  const FileIndex candidate =
      static_cast<FileIndex>(rank) + static_cast<FileIndex>(ranks) * position;
  // Guard the multiplication: a position beyond total_files / ranks is past the end anyway.
  if (position > total_files || candidate >= total_files) return false;
  file = candidate;
  return true;
}

bool UsesSharedFiles(FileIndex total_files, int ranks) {
  return ranks > 1 && total_files >= 1 && total_files <= static_cast<FileIndex>(ranks);
}

}  // namespace dlbench::generation
