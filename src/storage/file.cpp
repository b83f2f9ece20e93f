#include "storage/file.h"

#include <algorithm>

namespace dlbench::storage {

void Env::remove_files(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) remove(path);
}

std::size_t Env::abort_pending_writes(const std::string& /*path*/) { return 0; }

std::vector<DirectoryEntry> Env::list_directory(const std::string& path) {
  std::vector<DirectoryEntry> entries;
  for_each_entry(path, [&](const DirectoryEntry& entry) {
    entries.push_back(entry);
    return true;
  });
  std::sort(entries.begin(), entries.end(),
            [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.name < b.name; });
  return entries;
}

}  // namespace dlbench::storage
