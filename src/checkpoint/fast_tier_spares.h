// Spare files on a burst buffer's fast tier: the space of evicted checkpoints, and with
// checkpoint.burst_buffer.preallocate the space taken when the store starts, kept for later saves
// to overwrite in place rather than freed and allocated again. On a memory-backed tier in a
// virtual machine, first touching memory the host has reclaimed costs more than writing it: on
// this project's VM, tmpfs pages beyond the few GiB freed recently filled at ~380 MB/s against
// ~3 GB/s for pages in use (results/checkpoint.md, part e). A save that overwrites a spare never
// pays that; one that allocates does, and so would a real job's checkpoint on such a node.
//
// The spares of one rank live in <tier>/.dlbench-spare/<rank>/ (file_names::kSpareFolder), under
// numbers; a set is one checkpoint's worth of this rank's files. The pool holds, for each size,
// runs of consecutive numbers (a checkpoint's files of one size are given numbers in a row), not
// a path a spare. Only for a tier that can rename and overwrite at offsets (a file system). Not
// thread-safe: the store's (trainer's) thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/plan.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

class FastTierSpares {
 public:
  // `folder`: this rank's spare folder, created when the first spare arrives.
  FastTierSpares(storage::Env& env, std::string folder);

  int sets() const { return sets_; }
  Bytes bytes() const { return bytes_; }

  // Writes `sets` sets of files of the sizes of `files` (zeros from `buffer`, whose size is the
  // write size), so that their space is allocated and touched. Throws Error(kIo) naming the file.
  void preallocate(const PlannedFiles& files, int sets, storage::AlignedBuffer& buffer);
  // Moves `files` of `folder`, one evicted checkpoint's (complete, no longer readable), in as
  // one set.
  void give(const std::string& folder, const PlannedFiles& files);
  // Takes one set: for each of `files`, moves a spare at least as large to the partial path of
  // <folder>/<name> (storage::PartialPathFor; the folder must exist), to be overwritten in place
  // and cut to size. Returns, per file, whether it got one.
  std::vector<bool> take(const std::string& folder, const PlannedFiles& files);
  // Empties the pool: each call of the returned source gives the path of one spare, for the
  // caller to remove, then nothing; then the folder (the next spare creates it again).
  std::function<std::optional<std::string>()> release();
  const std::string& folder() const { return folder_; }
  // This pool made its folder since the last release() (ask before releasing).
  bool created() const { return created_; }

 private:
  // Numbers first .. first + count - 1.
  struct NumberRun {
    std::uint64_t first = 0;
    std::uint64_t count = 0;
  };
  using Pool = std::map<Bytes, std::deque<NumberRun>>;  // by size, oldest first

  // The number of a new spare (its folder created the first time).
  std::uint64_t next_number();
  std::string path_of(std::uint64_t number) const;
  void keep(Bytes size, std::uint64_t number);

  storage::Env& env_;
  std::string folder_;
  Pool files_;
  int sets_ = 0;
  Bytes bytes_ = 0;
  std::uint64_t next_ = 0;  // names the next spare
  bool created_ = false;
};

}  // namespace dlbench::checkpoint
