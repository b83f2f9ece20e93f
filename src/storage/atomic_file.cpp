#include "storage/atomic_file.h"

#include <algorithm>
#include <utility>

#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::storage {

std::string PartialPathFor(const std::string& final_path) {
  const std::size_t name = BaseNameStart(final_path);
  std::string partial;
  partial.reserve(final_path.size() + 1 + kPartialSuffix.size());
  partial.append(final_path, 0, name).append(1, '.').append(final_path, name);
  partial.append(kPartialSuffix);
  return partial;
}

bool IsPartialFileName(std::string_view file_name) {
  return file_name.size() > kPartialSuffix.size() + 1 && file_name.front() == '.' &&
         file_name.ends_with(kPartialSuffix);
}

std::string FinalPathFor(const std::string& partial_path) {
  const std::size_t name = BaseNameStart(partial_path);
  const std::string_view file_name = std::string_view(partial_path).substr(name);
  if (!IsPartialFileName(file_name)) return "";
  std::string final_path(partial_path, 0, name);
  final_path.append(file_name.substr(1, file_name.size() - 1 - kPartialSuffix.size()));
  return final_path;
}

std::vector<std::string> FindPartialFiles(Env& env, const std::string& folder) {
  std::vector<std::string> found;
  env.for_each_entry(folder, [&](const DirectoryEntry& entry) {
    if (!entry.is_directory && IsPartialFileName(entry.name)) {
      found.push_back(folder + (folder.ends_with('/') ? "" : "/") + entry.name);
    }
    return true;
  });
  std::sort(found.begin(), found.end());
  return found;
}

AtomicFileWriter::AtomicFileWriter(Env& env, std::string final_path, const OpenOptions& options,
                                   bool reuse)
    : env_(env),
      final_path_(std::move(final_path)),
      file_(env_.create_for_publish(
          final_path_, {.direct = options.direct, .partial_name = true, .reuse = reuse})),
      temp_path_(file_->path()) {}

AtomicFileWriter::~AtomicFileWriter() {
  if (finished_) return;
  try {
    file_->abandon();
  } catch (...) {  // a destructor must not throw; the partial file is detectable later
  }
}

void AtomicFileWriter::commit(bool fsync) {
  if (finished_) return;
  if (fsync) file_->sync();
  finished_ = true;  // publish abandons the file when it fails
  file_->publish();
  if (fsync) env_.sync_directory(std::string(ParentFolder(final_path_)));
}

void AtomicFileWriter::abort() {
  if (finished_) return;
  finished_ = true;
  file_->abandon();
}

}  // namespace dlbench::storage
