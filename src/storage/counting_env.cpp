#include "storage/counting_env.h"

#include <utility>

namespace dlbench::storage {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

class CountingReadableFile final : public ReadableFileWrapper {
 public:
  CountingReadableFile(std::unique_ptr<ReadableFile> target, CountingEnv::Counters& counters)
      : ReadableFileWrapper(std::move(target)), counters_(counters) {}
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
    counters_.reads.fetch_add(1, kRelaxed);
    counters_.bytes_read.fetch_add(n, kRelaxed);
    return n;
  }

 private:
  CountingEnv::Counters& counters_;
};

class CountingWritableFile final : public WritableFileWrapper {
 public:
  CountingWritableFile(std::unique_ptr<WritableFile> target, CountingEnv::Counters& counters)
      : WritableFileWrapper(std::move(target)), counters_(counters) {}
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    WritableFileWrapper::write_at(offset, buffer, length);
    count(length);
  }
  void append(const void* buffer, Bytes length) override {
    WritableFileWrapper::append(buffer, length);
    count(length);
  }
  void sync() override {
    WritableFileWrapper::sync();
    counters_.syncs.fetch_add(1, kRelaxed);
  }
  void close() override {
    WritableFileWrapper::close();
    counters_.closes.fetch_add(1, kRelaxed);
  }

 private:
  void count(Bytes length) {
    counters_.writes.fetch_add(1, kRelaxed);
    counters_.bytes_written.fetch_add(length, kRelaxed);
  }
  CountingEnv::Counters& counters_;
};

}  // namespace

IoCounts CountingEnv::counts() const {
  const Counters& c = counters_;
  return IoCounts{c.opens.load(kRelaxed),
                  c.creates.load(kRelaxed),
                  c.reads.load(kRelaxed),
                  c.writes.load(kRelaxed),
                  c.syncs.load(kRelaxed),
                  c.closes.load(kRelaxed),
                  c.renames.load(kRelaxed),
                  c.directory_syncs.load(kRelaxed),
                  c.removes.load(kRelaxed),
                  c.mkdirs.load(kRelaxed),
                  c.tree_removes.load(kRelaxed),
                  c.lists.load(kRelaxed),
                  c.free_space_queries.load(kRelaxed),
                  c.bytes_read.load(kRelaxed),
                  c.bytes_written.load(kRelaxed)};
}

void CountingEnv::reset() {
  for (auto* counter :
       {&counters_.opens, &counters_.creates, &counters_.reads, &counters_.writes, &counters_.syncs,
        &counters_.closes, &counters_.renames, &counters_.directory_syncs, &counters_.removes,
        &counters_.mkdirs, &counters_.tree_removes, &counters_.lists, &counters_.free_space_queries,
        &counters_.bytes_read, &counters_.bytes_written}) {
    counter->store(0, kRelaxed);
  }
}

std::unique_ptr<ReadableFile> CountingEnv::open_read(const std::string& path,
                                                     const OpenOptions& options) {
  auto file = std::make_unique<CountingReadableFile>(target().open_read(path, options), counters_);
  counters_.opens.fetch_add(1, kRelaxed);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::create(const std::string& path,
                                                  const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(target().create(path, options), counters_);
  counters_.creates.fetch_add(1, kRelaxed);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::open_write(const std::string& path,
                                                      const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(target().open_write(path, options), counters_);
  counters_.creates.fetch_add(1, kRelaxed);
  return file;
}

void CountingEnv::rename(const std::string& from, const std::string& to) {
  target().rename(from, to);
  counters_.renames.fetch_add(1, kRelaxed);
}

void CountingEnv::create_directories(const std::string& path) {
  target().create_directories(path);
  counters_.mkdirs.fetch_add(1, kRelaxed);
}

void CountingEnv::remove(const std::string& path) {
  target().remove(path);
  counters_.removes.fetch_add(1, kRelaxed);
}

void CountingEnv::remove_tree(const std::string& path) {
  target().remove_tree(path);
  counters_.tree_removes.fetch_add(1, kRelaxed);
}

std::vector<DirectoryEntry> CountingEnv::list_directory(const std::string& path) {
  std::vector<DirectoryEntry> entries = target().list_directory(path);
  counters_.lists.fetch_add(1, kRelaxed);
  return entries;
}

Bytes CountingEnv::free_space(const std::string& path) {
  const Bytes free = target().free_space(path);
  counters_.free_space_queries.fetch_add(1, kRelaxed);
  return free;
}

void CountingEnv::sync_directory(const std::string& path) {
  target().sync_directory(path);
  counters_.directory_syncs.fetch_add(1, kRelaxed);
}

}  // namespace dlbench::storage
