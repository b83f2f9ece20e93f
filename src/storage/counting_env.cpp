#include "storage/counting_env.h"

#include <utility>

namespace dlbench::storage {
namespace {

class CountingReadableFile final : public ReadableFileWrapper {
 public:
  CountingReadableFile(std::unique_ptr<ReadableFile> target, CountingEnv& env)
      : ReadableFileWrapper(std::move(target)), env_(env) {}
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
    env_.add(&IoCounts::reads);
    env_.add(&IoCounts::bytes_read, n);
    return n;
  }

 private:
  CountingEnv& env_;
};

class CountingWritableFile final : public WritableFileWrapper {
 public:
  CountingWritableFile(std::unique_ptr<WritableFile> target, CountingEnv& env)
      : WritableFileWrapper(std::move(target)), env_(env) {}
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    WritableFileWrapper::write_at(offset, buffer, length);
    count_write(length);
  }
  void append(const void* buffer, Bytes length) override {
    WritableFileWrapper::append(buffer, length);
    count_write(length);
  }
  void sync() override {
    WritableFileWrapper::sync();
    env_.add(&IoCounts::syncs);
  }
  void close() override {
    WritableFileWrapper::close();
    env_.add(&IoCounts::closes);
  }

 private:
  void count_write(Bytes length) {
    env_.add(&IoCounts::writes);
    env_.add(&IoCounts::bytes_written, length);
  }
  CountingEnv& env_;
};

// A shared file's writes and reads count as a file's; its bytes are this process's share.
class CountingSharedFile final : public SharedFileWrapper {
 public:
  CountingSharedFile(std::unique_ptr<SharedFile> target, CountingEnv& env)
      : SharedFileWrapper(std::move(target)), env_(env) {}
  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    SharedFileWrapper::write_at_all(offset, data, length);
    count_write(length);
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    SharedFileWrapper::write_at(offset, data, length);
    count_write(length);
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    return count_read(SharedFileWrapper::read_at(offset, data, length));
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    return count_read(SharedFileWrapper::read_at_all(offset, data, length));
  }
  void sync() override {
    SharedFileWrapper::sync();
    env_.add(&IoCounts::syncs);
  }
  void close() override {
    SharedFileWrapper::close();
    env_.add(&IoCounts::closes);
  }

 private:
  void count_write(Bytes length) {
    env_.add(&IoCounts::writes);
    env_.add(&IoCounts::bytes_written, length);
  }
  Bytes count_read(Bytes n) {
    env_.add(&IoCounts::reads);
    env_.add(&IoCounts::bytes_read, n);
    return n;
  }
  CountingEnv& env_;
};

}  // namespace

IoCounts CountingEnv::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

void CountingEnv::reset() {
  std::lock_guard lock(mutex_);
  counts_ = {};
}

void CountingEnv::add(std::uint64_t IoCounts::*count, std::uint64_t amount) {
  std::lock_guard lock(mutex_);
  counts_.*count += amount;
}

std::unique_ptr<ReadableFile> CountingEnv::open_read(const std::string& path,
                                                     const OpenOptions& options) {
  auto file = std::make_unique<CountingReadableFile>(target().open_read(path, options), *this);
  add(&IoCounts::opens);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::create(const std::string& path,
                                                  const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(target().create(path, options), *this);
  add(&IoCounts::creates);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::open_write(const std::string& path,
                                                      const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(target().open_write(path, options), *this);
  add(&IoCounts::creates);
  return file;
}

std::unique_ptr<SharedFile> CountingEnv::open_shared(const std::string& path,
                                                     SharedFileOpener& opener) {
  auto file = std::make_unique<CountingSharedFile>(target().open_shared(path, opener), *this);
  add(&IoCounts::creates);
  return file;
}

void CountingEnv::rename(const std::string& from, const std::string& to) {
  target().rename(from, to);
  add(&IoCounts::renames);
}

void CountingEnv::create_directories(const std::string& path) {
  target().create_directories(path);
  add(&IoCounts::mkdirs);
}

void CountingEnv::remove(const std::string& path) {
  target().remove(path);
  add(&IoCounts::removes);
}

void CountingEnv::remove_tree(const std::string& path) {
  target().remove_tree(path);
  add(&IoCounts::tree_removes);
}

std::vector<DirectoryEntry> CountingEnv::list_directory(const std::string& path) {
  std::vector<DirectoryEntry> entries = target().list_directory(path);
  add(&IoCounts::lists);
  return entries;
}

void CountingEnv::sync_directory(const std::string& path) {
  target().sync_directory(path);
  add(&IoCounts::directory_syncs);
}

Bytes CountingEnv::free_space(const std::string& path) {
  const Bytes free = target().free_space(path);
  add(&IoCounts::free_space_queries);
  return free;
}

bool CountingEnv::exists(const std::string& path) {
  const bool found = target().exists(path);
  add(&IoCounts::stats);
  return found;
}

Bytes CountingEnv::file_size(const std::string& path) {
  const Bytes size = target().file_size(path);
  add(&IoCounts::stats);
  return size;
}

}  // namespace dlbench::storage
