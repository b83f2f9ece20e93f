#include "storage/throttled_env.h"

#include <algorithm>
#include <utility>

namespace dlbench::storage {
namespace {

class ThrottledReadableFile final : public ReadableFile {
 public:
  ThrottledReadableFile(std::unique_ptr<ReadableFile> base, ThrottledEnv& env)
      : base_(std::move(base)), env_(env) {}
  const std::string& path() const override { return base_->path(); }
  Bytes size() const override { return base_->size(); }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    // Charged for what the read returns, not what it asked for (a read at the end is short).
    const Bytes n = base_->read_at(offset, buffer, length);
    env_.Throttle(n);
    return n;
  }
  void drop_cache() override { base_->drop_cache(); }

 private:
  std::unique_ptr<ReadableFile> base_;
  ThrottledEnv& env_;
};

class ThrottledWritableFile final : public WritableFile {
 public:
  ThrottledWritableFile(std::unique_ptr<WritableFile> base, ThrottledEnv& env)
      : base_(std::move(base)), env_(env) {}
  const std::string& path() const override { return base_->path(); }
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    env_.Throttle(length);
    base_->write_at(offset, buffer, length);
  }
  void append(const void* buffer, Bytes length) override {
    env_.Throttle(length);
    base_->append(buffer, length);
  }
  Bytes appended() const override { return base_->appended(); }
  void sync() override {
    env_.Throttle(0);
    base_->sync();
  }
  void close() override { base_->close(); }

 private:
  std::unique_ptr<WritableFile> base_;
  ThrottledEnv& env_;
};

}  // namespace

ThrottledEnv::ThrottledEnv(Env& base, const ThrottleOptions& options, ThrottleClock& clock)
    : base_(base), clock_(clock), latency_(options.latency) {
  if (options.bandwidth) {
    const Bytes burst = options.burst > 0
                            ? options.burst
                            : std::max<Bytes>(MiB, static_cast<Bytes>(*options.bandwidth / 10));
    bucket_.emplace(*options.bandwidth, burst, clock);
  }
}

void ThrottledEnv::Throttle(Bytes bytes) {
  if (latency_ > 0) clock_.sleep_for(latency_);
  if (bucket_ && bytes > 0) bucket_->acquire(bytes);
}

std::unique_ptr<ReadableFile> ThrottledEnv::open_read(const std::string& path,
                                                      const OpenOptions& options) {
  Throttle(0);
  return std::make_unique<ThrottledReadableFile>(base_.open_read(path, options), *this);
}

std::unique_ptr<WritableFile> ThrottledEnv::create(const std::string& path,
                                                   const OpenOptions& options) {
  Throttle(0);
  return std::make_unique<ThrottledWritableFile>(base_.create(path, options), *this);
}

std::unique_ptr<WritableFile> ThrottledEnv::open_write(const std::string& path,
                                                       const OpenOptions& options) {
  Throttle(0);
  return std::make_unique<ThrottledWritableFile>(base_.open_write(path, options), *this);
}

void ThrottledEnv::rename(const std::string& from, const std::string& to) {
  Throttle(0);
  base_.rename(from, to);
}

void ThrottledEnv::create_directories(const std::string& path) {
  Throttle(0);
  base_.create_directories(path);
}

void ThrottledEnv::remove(const std::string& path) {
  Throttle(0);
  base_.remove(path);
}

bool ThrottledEnv::exists(const std::string& path) {
  Throttle(0);
  return base_.exists(path);
}

Bytes ThrottledEnv::file_size(const std::string& path) {
  Throttle(0);
  return base_.file_size(path);
}

void ThrottledEnv::sync_directory(const std::string& path) {
  Throttle(0);
  base_.sync_directory(path);
}

}  // namespace dlbench::storage
