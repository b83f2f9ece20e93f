#include "storage/counting_env.h"

#include <utility>

namespace dlbench::storage {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

class CountingReadableFile final : public ReadableFile {
 public:
  CountingReadableFile(std::unique_ptr<ReadableFile> base, CountingEnv::Counters& counters)
      : base_(std::move(base)), counters_(counters) {}
  const std::string& path() const override { return base_->path(); }
  Bytes size() const override { return base_->size(); }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const Bytes n = base_->read_at(offset, buffer, length);
    counters_.reads.fetch_add(1, kRelaxed);
    counters_.bytes_read.fetch_add(n, kRelaxed);
    return n;
  }
  void drop_cache() override { base_->drop_cache(); }

 private:
  std::unique_ptr<ReadableFile> base_;
  CountingEnv::Counters& counters_;
};

class CountingWritableFile final : public WritableFile {
 public:
  CountingWritableFile(std::unique_ptr<WritableFile> base, CountingEnv::Counters& counters)
      : base_(std::move(base)), counters_(counters) {}
  const std::string& path() const override { return base_->path(); }
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    base_->write_at(offset, buffer, length);
    Count(length);
  }
  void append(const void* buffer, Bytes length) override {
    base_->append(buffer, length);
    Count(length);
  }
  Bytes appended() const override { return base_->appended(); }
  void sync() override {
    base_->sync();
    counters_.syncs.fetch_add(1, kRelaxed);
  }
  void close() override {
    base_->close();
    counters_.closes.fetch_add(1, kRelaxed);
  }

 private:
  void Count(Bytes length) {
    counters_.writes.fetch_add(1, kRelaxed);
    counters_.bytes_written.fetch_add(length, kRelaxed);
  }
  std::unique_ptr<WritableFile> base_;
  CountingEnv::Counters& counters_;
};

}  // namespace

IoCounts CountingEnv::counts() const {
  const Counters& c = counters_;
  return IoCounts{
      c.opens.load(kRelaxed),   c.creates.load(kRelaxed),         c.reads.load(kRelaxed),
      c.writes.load(kRelaxed),  c.syncs.load(kRelaxed),           c.closes.load(kRelaxed),
      c.renames.load(kRelaxed), c.directory_syncs.load(kRelaxed), c.removes.load(kRelaxed),
      c.mkdirs.load(kRelaxed),  c.bytes_read.load(kRelaxed),      c.bytes_written.load(kRelaxed),
      c.stats.load(kRelaxed)};
}

void CountingEnv::reset() {
  for (auto* counter :
       {&counters_.opens, &counters_.creates, &counters_.reads, &counters_.writes, &counters_.syncs,
        &counters_.closes, &counters_.renames, &counters_.directory_syncs, &counters_.removes,
        &counters_.mkdirs, &counters_.bytes_read, &counters_.bytes_written, &counters_.stats}) {
    counter->store(0, kRelaxed);
  }
}

std::unique_ptr<ReadableFile> CountingEnv::open_read(const std::string& path,
                                                     const OpenOptions& options) {
  auto file = std::make_unique<CountingReadableFile>(base_.open_read(path, options), counters_);
  counters_.opens.fetch_add(1, kRelaxed);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::create(const std::string& path,
                                                  const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(base_.create(path, options), counters_);
  counters_.creates.fetch_add(1, kRelaxed);
  return file;
}

std::unique_ptr<WritableFile> CountingEnv::open_write(const std::string& path,
                                                      const OpenOptions& options) {
  auto file = std::make_unique<CountingWritableFile>(base_.open_write(path, options), counters_);
  counters_.creates.fetch_add(1, kRelaxed);
  return file;
}

void CountingEnv::rename(const std::string& from, const std::string& to) {
  base_.rename(from, to);
  counters_.renames.fetch_add(1, kRelaxed);
}

void CountingEnv::create_directories(const std::string& path) {
  base_.create_directories(path);
  counters_.mkdirs.fetch_add(1, kRelaxed);
}

void CountingEnv::remove(const std::string& path) {
  base_.remove(path);
  counters_.removes.fetch_add(1, kRelaxed);
}

void CountingEnv::sync_directory(const std::string& path) {
  base_.sync_directory(path);
  counters_.directory_syncs.fetch_add(1, kRelaxed);
}

bool CountingEnv::exists(const std::string& path) {
  const bool found = base_.exists(path);
  counters_.stats.fetch_add(1, kRelaxed);
  return found;
}

Bytes CountingEnv::file_size(const std::string& path) {
  const Bytes size = base_.file_size(path);
  counters_.stats.fetch_add(1, kRelaxed);
  return size;
}

}  // namespace dlbench::storage
