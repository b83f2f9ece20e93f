#include "generation/listed_files.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::generation {
namespace {

// What one folder entry said of a file, four bits a file while the folders are listed.
constexpr unsigned kDataMask = 3u;   // the data file: not listed (0), or its Verdict
constexpr unsigned kCompanion = 4u;  // companion k listed: bit 2 + k (at most two companions)

enum Verdict : unsigned { kListedAskSize = 1, kListedComplete = 2, kListedRewrite = 3 };

class Seen {
 public:
  explicit Seen(FileIndex total) : nibbles_((total + 1) / 2, 0) {}
  unsigned at(FileIndex g) const { return (nibbles_[g / 2] >> (4 * (g % 2))) & 15u; }
  void add(FileIndex g, unsigned bits) {
    nibbles_[g / 2] = static_cast<std::uint8_t>(nibbles_[g / 2] | (bits << (4 * (g % 2))));
  }

 private:
  std::vector<std::uint8_t> nibbles_;
};

// The folders holding a data file or (`with_companions`) a companion: those of each split's first
// files, one per subfolder (file i lives in subfolder i % num_subfolders; companions beside it or
// in one index folder per split).
std::set<std::string> FoldersHoldingFiles(const DatasetFiles& files, bool with_companions) {
  std::set<std::string> folders;
  const dataset::DatasetLayout& layout = files.layout();
  for (const dataset::Split split : {dataset::Split::kTrain, dataset::Split::kEval}) {
    const FileIndex first =
        std::min(layout.num_files(split), std::max<FileIndex>(1, layout.num_subfolders(split)));
    for (FileIndex i = 0; i < first; ++i) {
      const DatasetFile file = files.file(layout.global_file(split, i));
      folders.insert(std::string(ParentFolder(file.path)));
      if (!with_companions) continue;
      for (const std::string& companion : file.companions) {
        folders.insert(std::string(ParentFolder(companion)));
      }
    }
  }
  return folders;
}

}  // namespace

ListedFiles ListedFiles::Find(storage::Env& env, const DatasetFiles& files, ExistingFiles policy,
                              const ExpectedSize& expected, bool with_companions) {
  if (policy == ExistingFiles::kNone) {
    throw InternalError("ListedFiles::Find: nothing to find when the folders hold no data file");
  }
  const dataset::DatasetLayout& layout = files.layout();
  Seen seen(files.total());
  bool sizes_unknown = false;
  std::string path;
  // Each entry is matched to the file its name numbers, in either split, by that file's paths:
  // nothing is held per entry, so a folder of millions of files streams through.
  const auto match = [&](const storage::DirectoryEntry& entry, FileIndex g) {
    const DatasetFile file = files.file(g);
    if (file.path == path) {
      unsigned verdict = kListedAskSize;
      if (entry.size && !entry.is_directory && !entry.is_symlink) {
        const std::optional<Bytes> size = sizes_unknown ? std::nullopt : expected(file);
        sizes_unknown = !size;
        const bool keep = size ? *entry.size == *size : policy == ExistingFiles::kTrusted;
        verdict = keep ? kListedComplete : kListedRewrite;
      }
      seen.add(g, verdict);
    }
    for (std::size_t k = 0; k < file.companions.size(); ++k) {
      if (file.companions[k] == path) seen.add(g, kCompanion << k);
    }
  };
  for (const std::string& folder : FoldersHoldingFiles(files, with_companions)) {
    env.for_each_entry(folder, [&](const storage::DirectoryEntry& entry) {
      const std::optional<FileIndex> number = layout.number_in_name(entry.name);
      if (!number) return true;
      path = JoinPath(folder, entry.name);
      for (const dataset::Split split : {dataset::Split::kTrain, dataset::Split::kEval}) {
        if (*number < layout.num_files(split)) match(entry, layout.global_file(split, *number));
      }
      return true;
    });
  }
  ListedFiles listed;
  listed.bits_.assign((files.total() + 3) / 4, '\0');
  const unsigned companions =
      files.total() == 0 || !with_companions ? 0 : files.file(0).companions.size();
  const unsigned all_companions = ((1u << companions) - 1) * kCompanion;
  for (FileIndex g = 0; g < files.total(); ++g) {
    const unsigned bits = seen.at(g);
    if ((bits & all_companions) != all_companions) continue;  // kWrite
    if ((bits & kDataMask) == kListedAskSize) listed.set(g, Listed::kAskSize);
    if ((bits & kDataMask) == kListedComplete) listed.set(g, Listed::kComplete);
  }
  return listed;
}

ListedFiles ListedFiles::Unpack(std::string packed, FileIndex total) {
  if (packed.size() != (total + 3) / 4) {
    throw InternalError("ListedFiles: " + std::to_string(packed.size()) + " bytes do not hold " +
                        std::to_string(total) + " files");
  }
  ListedFiles listed;
  listed.bits_ = std::move(packed);
  return listed;
}

Listed ListedFiles::at(FileIndex g) const {
  const auto byte = static_cast<unsigned char>(bits_.at(g / 4));
  return static_cast<Listed>((byte >> (2 * (g % 4))) & 3u);
}

void ListedFiles::set(FileIndex g, Listed listed) {
  auto byte = static_cast<unsigned char>(bits_.at(g / 4));
  byte = static_cast<unsigned char>(byte & ~(3u << (2 * (g % 4))));
  byte = static_cast<unsigned char>(byte | (static_cast<unsigned>(listed) << (2 * (g % 4))));
  bits_[g / 4] = static_cast<char>(byte);
}

}  // namespace dlbench::generation
