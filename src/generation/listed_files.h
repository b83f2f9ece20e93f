// Which files of the dataset a rerun of generation may keep, found by rank 0 with one listing of
// each folder that holds them, and broadcast to every rank at two bits a file. A rerun then asks
// storage nothing about a file that is not there and, where the listing gives sizes (an object
// store's does), nothing about one that is: without it every rank asked, for each of its files,
// whether it exists and how large it is (two HEADs per object on S3, two stats on POSIX).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "generation/dataset_files.h"
#include "generation/generation_resume.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::generation {

// What the listings say of one file of the dataset.
enum class Listed : std::uint8_t {
  kWrite = 0,     // its data file or a companion is not listed, or the listed size is not one to
                  // keep: (re)write it
  kAskSize = 1,   // listed with every companion, but the listing gives no size (POSIX) or names
                  // no regular file: IsFileComplete decides (generation_resume.h)
  kComplete = 2,  // listed with a size to keep (as IsFileComplete's rule) and every companion
};

class ListedFiles {
 public:
  // The size file `file` must have; nullopt when the writer cannot predict it.
  using ExpectedSize = std::function<std::optional<Bytes>(const DatasetFile&)>;

  // On rank 0, under ExistingFiles::kTrusted or kSizeOnly: lists each folder holding a data file
  // or a companion once (Env::for_each_entry, streamed: half a byte a file is held, no entry)
  // and decides every file of `files`. `expected` is asked only for files listed with a size,
  // and no more once it answered nullopt (a format whose sizes the content decides). Without
  // `with_companions`, a data file listed is enough (its companions are not looked for). Throws
  // what the listings and `expected` throw.
  static ListedFiles Find(storage::Env& env, const DatasetFiles& files, ExistingFiles policy,
                          const ExpectedSize& expected, bool with_companions = true);
  // The bytes to broadcast, and the ListedFiles they hold on any rank; Error(kInternal) when
  // `packed` does not hold `total` files.
  const std::string& packed() const { return bits_; }
  static ListedFiles Unpack(std::string packed, FileIndex total);

  Listed at(FileIndex g) const;

 private:
  void set(FileIndex g, Listed listed);
  std::string bits_;  // four files a byte, file g in bits 2 (g % 4) and up of byte g / 4
};

}  // namespace dlbench::generation
