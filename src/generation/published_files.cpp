#include "generation/published_files.h"

#include <cstddef>
#include <span>
#include <utility>

#include "storage/atomic_file.h"
#include "util/error.h"

namespace dlbench::generation {
namespace {

// The writer's handle on a file created for publishing: everything but close() goes to the file,
// which PublishedFiles owns; close() only ends the writer's use, the file stays open to be
// published.
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
  void publish() override {
    throw InternalError("a format writer published its file " + file_.path());
  }
  void abandon() override {
    throw InternalError("a format writer abandoned its file " + file_.path());
  }

 private:
  storage::WritableFile& file_;
};

}  // namespace

PublishedFiles::PublishedFiles(storage::Env& target, std::string partial, std::string final_path)
    : EnvWrapper(target), partial_(std::move(partial)), final_(std::move(final_path)) {}

PublishedFiles::~PublishedFiles() = default;  // each unpublished file abandons itself

std::unique_ptr<storage::WritableFile> PublishedFiles::create(const std::string& path,
                                                              const storage::OpenOptions& options) {
  refuse_by_name(path, "create");
  if (path == partial_) {
    created_ = true;
    data_ = target().create_for_publish(final_, {.direct = options.direct});
    return std::make_unique<WriterHandle>(*data_);
  }
  const std::string final_path = storage::FinalPathFor(path);
  if (final_path.empty()) return target().create(path, options);
  Companion& companion = companions_.emplace_back(Companion{path, nullptr});
  companion.file = target().create_for_publish(final_path, {.direct = options.direct});
  return std::make_unique<WriterHandle>(*companion.file);
}

void PublishedFiles::publish() {
  if (!created_) throw InternalError("the format writer did not create " + partial_);
  for (Companion& companion : companions_) {
    std::unique_ptr<storage::WritableFile> file = std::move(companion.file);
    file->publish();
  }
  std::unique_ptr<storage::WritableFile> file = std::move(data_);
  file->publish();
}

std::unique_ptr<storage::ReadableFile> PublishedFiles::open_read(
    const std::string& path, const storage::OpenOptions& options) {
  refuse_by_name(path, "open_read");
  return target().open_read(path, options);
}

std::unique_ptr<storage::WritableFile> PublishedFiles::open_write(
    const std::string& path, const storage::OpenOptions& options) {
  refuse_by_name(path, "open_write");
  return target().open_write(path, options);
}

void PublishedFiles::rename(const std::string& from, const std::string& to) {
  refuse_by_name(from, "rename");
  refuse_by_name(to, "rename");
  target().rename(from, to);
}

void PublishedFiles::remove(const std::string& path) {
  refuse_by_name(path, "remove");
  target().remove(path);
}

bool PublishedFiles::exists(const std::string& path) {
  refuse_by_name(path, "exists");
  return target().exists(path);
}

Bytes PublishedFiles::file_size(const std::string& path) {
  refuse_by_name(path, "file_size");
  return target().file_size(path);
}

void PublishedFiles::refuse_by_name(const std::string& path, const char* operation) const {
  bool created = created_ && path == partial_;
  for (const Companion& companion : companions_) created = created || companion.partial == path;
  if (created) {
    throw InternalError(std::string("a format writer called ") + operation + " on " + path +
                        ", which is not published until it is complete");
  }
}

}  // namespace dlbench::generation
