#include "storage/atomic_file.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "util/error.h"

namespace dlbench::storage {
namespace fs = std::filesystem;

namespace {

// Where the base name of `path` starts (after the last '/'). Plain string work: generation maps
// names once per file, and std::filesystem::path would allocate for every component.
std::size_t NameStart(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? 0 : slash + 1;
}

}  // namespace

std::string PartialPathFor(const std::string& final_path) {
  const std::size_t name = NameStart(final_path);
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
  const std::size_t name = NameStart(partial_path);
  const std::string_view file_name = std::string_view(partial_path).substr(name);
  if (!IsPartialFileName(file_name)) return "";
  std::string final_path(partial_path, 0, name);
  final_path.append(file_name.substr(1, file_name.size() - 1 - kPartialSuffix.size()));
  return final_path;
}

std::vector<std::string> FindPartialFiles(const std::string& folder, bool recursive) {
  std::vector<std::string> found;
  std::error_code ec;
  if (!fs::exists(folder, ec)) return found;
  auto consider = [&](const fs::directory_entry& entry) {
    if (IsPartialFileName(entry.path().filename().string())) found.push_back(entry.path().string());
  };
  if (recursive) {
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      consider(*it);
    }
  } else {
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      consider(*it);
    }
  }
  if (ec) throw IoError("list", folder, ec.value());
  std::sort(found.begin(), found.end());
  return found;
}

AtomicFileWriter::AtomicFileWriter(Env& env, std::string final_path, const OpenOptions& options)
    : env_(env), final_path_(std::move(final_path)), temp_path_(PartialPathFor(final_path_)) {
  file_ = env_.create(temp_path_, options);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (renamed_) return;
  try {
    abort();
  } catch (...) {  // a destructor must not throw; the partial file is detectable later
  }
}

void AtomicFileWriter::commit(bool fsync) {
  if (renamed_) return;
  if (fsync) file_->sync();
  file_->close();
  env_.rename(temp_path_, final_path_);
  renamed_ = true;
  if (fsync) {
    const std::string folder = fs::path(final_path_).parent_path().string();
    env_.sync_directory(folder.empty() ? "." : folder);
  }
}

void AtomicFileWriter::abort() {
  if (renamed_) return;
  if (file_) {
    try {
      file_->close();
    } catch (...) {  // the file is being discarded; its close error does not matter
    }
    file_.reset();
  }
  env_.remove(temp_path_);
}

}  // namespace dlbench::storage
