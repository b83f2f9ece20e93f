#include "generation/listed_files.h"

#include <algorithm>
#include <map>
#include <vector>

#include "util/error.h"

namespace dlbench::generation {
namespace {

// The listings of the folders asked about so far, each fetched once.
class Listings {
 public:
  explicit Listings(storage::Env& env) : env_(env) {}

  // The entry of `path` in its folder's listing; nullptr when the folder does not list it.
  const storage::DirectoryEntry* find(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    auto [at, fresh] = folders_.try_emplace(folder);
    if (fresh) at->second = env_.list_directory(folder);  // sorted by name (storage/file.h)
    const std::vector<storage::DirectoryEntry>& entries = at->second;
    const auto found = std::lower_bound(entries.begin(), entries.end(), name,
                                        [](const storage::DirectoryEntry& entry,
                                           const std::string& key) { return entry.name < key; });
    return found != entries.end() && found->name == name ? &*found : nullptr;
  }

 private:
  storage::Env& env_;
  std::map<std::string, std::vector<storage::DirectoryEntry>> folders_;
};

}  // namespace

ListedFiles ListedFiles::Find(storage::Env& env, const DatasetFiles& files, ExistingFiles policy,
                              const ExpectedSize& expected) {
  if (policy == ExistingFiles::kNone) {
    throw InternalError("ListedFiles::Find: nothing to find when the folders hold no data file");
  }
  ListedFiles listed;
  listed.bits_.assign((files.total() + 3) / 4, '\0');
  Listings listings(env);
  bool sizes_unknown = false;
  for (FileIndex g = 0; g < files.total(); ++g) {
    const DatasetFile file = files.file(g);
    const storage::DirectoryEntry* data = listings.find(file.path);
    if (data == nullptr ||
        !std::all_of(file.companions.begin(), file.companions.end(),
                     [&](const std::string& companion) { return listings.find(companion); })) {
      continue;  // kWrite
    }
    if (!data->size || data->is_directory || data->is_symlink) {
      listed.set(g, Listed::kAskSize);
      continue;
    }
    const std::optional<Bytes> size = sizes_unknown ? std::nullopt : expected(file);
    sizes_unknown = !size;
    const bool keep = size ? *data->size == *size : policy == ExistingFiles::kTrusted;
    if (keep) listed.set(g, Listed::kComplete);
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
