#include "workflow/unnamed_data_file.h"

#include <cstddef>
#include <span>
#include <utility>

#include "util/error.h"

namespace dlbench::workflow {
namespace {

// The writer's handle on the unnamed data file: everything but close() goes to the file, which
// UnnamedDataFile owns; close() only ends the writer's use, the file stays open to be named.
class WriterHandle final : public storage::WritableFile {
 public:
  explicit WriterHandle(storage::WritableFile& file) : file_(file) {}
  const std::string& path() const override { return file_.path(); }
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    file_.write_at(offset, buffer, length);
  }
  void append(const void* buffer, Bytes length) override { file_.append(buffer, length); }
  // One gathered write stays one (the base class would split it into a write per piece).
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    file_.append_gathered(pieces);
  }
  Bytes appended() const override { return file_.appended(); }
  void truncate(Bytes size) override { file_.truncate(size); }
  void sync() override { file_.sync(); }
  void close() override {}
  void link(const std::string& /*path*/) override {
    throw InternalError("a format writer named its data file " + file_.path());
  }

 private:
  storage::WritableFile& file_;
};

}  // namespace

UnnamedDataFile::UnnamedDataFile(storage::Env& target, std::string partial, std::string final_path)
    : EnvWrapper(target), partial_(std::move(partial)), final_(std::move(final_path)) {}

UnnamedDataFile::~UnnamedDataFile() = default;

std::unique_ptr<storage::WritableFile> UnnamedDataFile::create(
    const std::string& path, const storage::OpenOptions& options) {
  if (path != partial_ || created_) {
    refuse_by_name(path, "create");
    return target().create(path, options);
  }
  created_ = true;
  unnamed_ = target().create_unnamed(final_, options);
  if (!unnamed_) return target().create(path, options);
  return std::make_unique<WriterHandle>(*unnamed_);
}

void UnnamedDataFile::publish() {
  if (!created_) throw InternalError("the format writer did not create " + partial_);
  if (!unnamed_) {
    target().rename(partial_, final_);
    return;
  }
  try {
    unnamed_->link(final_);
  } catch (const Error&) {
    // A file of that name (an incomplete one a rerun redoes, or a symbolic link) is replaced, as
    // rename would; a failure again is the error to report.
    target().remove(final_);
    unnamed_->link(final_);
  }
  std::unique_ptr<storage::WritableFile> file = std::move(unnamed_);
  file->close();
}

std::unique_ptr<storage::ReadableFile> UnnamedDataFile::open_read(
    const std::string& path, const storage::OpenOptions& options) {
  refuse_by_name(path, "open_read");
  return target().open_read(path, options);
}

std::unique_ptr<storage::WritableFile> UnnamedDataFile::open_write(
    const std::string& path, const storage::OpenOptions& options) {
  refuse_by_name(path, "open_write");
  return target().open_write(path, options);
}

void UnnamedDataFile::rename(const std::string& from, const std::string& to) {
  refuse_by_name(from, "rename");
  refuse_by_name(to, "rename");
  target().rename(from, to);
}

void UnnamedDataFile::remove(const std::string& path) {
  refuse_by_name(path, "remove");
  target().remove(path);
}

bool UnnamedDataFile::exists(const std::string& path) {
  refuse_by_name(path, "exists");
  return target().exists(path);
}

Bytes UnnamedDataFile::file_size(const std::string& path) {
  refuse_by_name(path, "file_size");
  return target().file_size(path);
}

void UnnamedDataFile::refuse_by_name(const std::string& path, const char* operation) const {
  if (unnamed_ && path == partial_) {
    throw InternalError(std::string("a format writer called ") + operation + " on " + path +
                        ", which has no name until it is complete");
  }
}

}  // namespace dlbench::workflow
