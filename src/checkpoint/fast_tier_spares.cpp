#include "checkpoint/fast_tier_spares.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "storage/atomic_file.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {

FastTierSpares::FastTierSpares(storage::Env& env, std::string folder)
    : env_(env), folder_(std::move(folder)) {}

std::uint64_t FastTierSpares::next_number() {
  if (!created_) {
    env_.create_directories(folder_);
    created_ = true;
  }
  return next_++;
}

std::string FastTierSpares::path_of(std::uint64_t number) const {
  return JoinPath(folder_, std::to_string(number));
}

void FastTierSpares::keep(Bytes size, std::uint64_t number) {
  std::deque<NumberRun>& runs = files_[size];
  if (!runs.empty() && runs.back().first + runs.back().count == number) {
    ++runs.back().count;
  } else {
    runs.push_back({number, 1});
  }
  bytes_ += size;
}

void FastTierSpares::preallocate(const PlannedFiles& files, int sets,
                                 storage::AlignedBuffer& buffer) {
  for (int set = 0; set < sets; ++set) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const Bytes size = files.bytes(i);
      const std::uint64_t number = next_number();
      std::unique_ptr<storage::WritableFile> file = env_.create(path_of(number), {});
      for (Bytes done = 0; done < size;) {
        const Bytes length = std::min(buffer.size(), size - done);
        file->write_at(done, buffer.data(), length);
        done += length;
      }
      file->close();
      keep(size, number);
    }
    ++sets_;
  }
}

void FastTierSpares::give(const std::string& folder, const PlannedFiles& files) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::uint64_t number = next_number();
    env_.rename(JoinPath(folder, files.name(i)), path_of(number));
    keep(files.bytes(i), number);
  }
  ++sets_;
}

std::vector<bool> FastTierSpares::take(const std::string& folder, const PlannedFiles& files) {
  std::vector<bool> taken(files.size(), false);
  if (sets_ == 0) return taken;
  --sets_;
  for (std::size_t i = 0; i < files.size(); ++i) {
    // The smallest spare at least as large, the oldest of its size.
    const auto spare = files_.lower_bound(files.bytes(i));
    if (spare == files_.end()) continue;
    NumberRun& run = spare->second.front();
    env_.rename(path_of(run.first), storage::PartialPathFor(JoinPath(folder, files.name(i))));
    bytes_ -= spare->first;
    ++run.first;
    if (--run.count == 0) spare->second.pop_front();
    if (spare->second.empty()) files_.erase(spare);
    taken[i] = true;
  }
  return taken;
}

std::function<std::optional<std::string>()> FastTierSpares::release() {
  auto pool = std::make_shared<Pool>(std::move(files_));
  files_.clear();
  sets_ = 0;
  bytes_ = 0;
  created_ = false;
  return [pool, folder = folder_]() -> std::optional<std::string> {
    while (!pool->empty()) {
      std::deque<NumberRun>& runs = pool->begin()->second;
      if (runs.empty()) {
        pool->erase(pool->begin());
        continue;
      }
      NumberRun& run = runs.front();
      const std::uint64_t number = run.first++;
      if (--run.count == 0) runs.pop_front();
      return JoinPath(folder, std::to_string(number));
    }
    return std::nullopt;
  };
}

}  // namespace dlbench::checkpoint
