#include "checkpoint/fast_tier_spares.h"

#include <algorithm>
#include <utility>

#include "storage/atomic_file.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {

FastTierSpares::FastTierSpares(storage::Env& env, std::string folder)
    : env_(env), folder_(std::move(folder)) {}

std::string FastTierSpares::next_path() {
  if (!created_) {
    env_.create_directories(folder_);
    created_ = true;
  }
  return JoinPath(folder_, std::to_string(next_++));
}

void FastTierSpares::preallocate(const std::vector<Bytes>& sizes, int sets,
                                 storage::AlignedBuffer& buffer) {
  for (int set = 0; set < sets; ++set) {
    for (const Bytes size : sizes) {
      const std::string path = next_path();
      std::unique_ptr<storage::WritableFile> file = env_.create(path, {});
      for (Bytes done = 0; done < size;) {
        const Bytes length = std::min(buffer.size(), size - done);
        file->write_at(done, buffer.data(), length);
        done += length;
      }
      file->close();
      files_.emplace(size, path);
      bytes_ += size;
    }
    ++sets_;
  }
}

void FastTierSpares::give(const std::vector<std::string>& paths, const std::vector<Bytes>& sizes) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string path = next_path();
    env_.rename(paths[i], path);
    files_.emplace(sizes[i], path);
    bytes_ += sizes[i];
  }
  ++sets_;
}

std::vector<bool> FastTierSpares::take(const std::string& folder, const PlannedFiles& files) {
  std::vector<bool> taken(files.size(), false);
  if (sets_ == 0) return taken;
  --sets_;
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto spare = files_.lower_bound(files.bytes(i));
    if (spare == files_.end()) continue;
    env_.rename(spare->second, storage::PartialPathFor(JoinPath(folder, files.name(i))));
    bytes_ -= spare->first;
    files_.erase(spare);
    taken[i] = true;
  }
  return taken;
}

std::vector<std::string> FastTierSpares::release() {
  std::vector<std::string> paths;
  for (const auto& [size, path] : files_) paths.push_back(path);
  files_.clear();
  sets_ = 0;
  bytes_ = 0;
  created_ = false;
  return paths;
}

}  // namespace dlbench::checkpoint
