#include "storage/throttled_env.h"

#include <algorithm>
#include <utility>

namespace dlbench::storage {
namespace {

class ThrottledReadableFile final : public ReadableFileWrapper {
 public:
  ThrottledReadableFile(std::unique_ptr<ReadableFile> target, ThrottledEnv& env)
      : ReadableFileWrapper(std::move(target)), env_(env) {}
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    // Charged for what the read returns, not what it asked for (a read at the end is short).
    const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
    env_.throttle(n);
    return n;
  }

 private:
  ThrottledEnv& env_;
};

class ThrottledWritableFile final : public WritableFileWrapper {
 public:
  ThrottledWritableFile(std::unique_ptr<WritableFile> target, ThrottledEnv& env)
      : WritableFileWrapper(std::move(target)), env_(env) {}
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    env_.throttle(length);
    WritableFileWrapper::write_at(offset, buffer, length);
  }
  void append(const void* buffer, Bytes length) override {
    env_.throttle(length);
    WritableFileWrapper::append(buffer, length);
  }
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    env_.throttle(GatheredBytes(pieces));
    WritableFileWrapper::append_gathered(pieces);
  }
  void sync() override {
    env_.throttle(0);
    WritableFileWrapper::sync();
  }
  void publish() override {
    env_.throttle(0);
    WritableFileWrapper::publish();
  }
  void abandon() override {
    env_.throttle(0);
    WritableFileWrapper::abandon();
  }

 private:
  ThrottledEnv& env_;
};

// Each process waits for its own bytes before it joins a collective write, so the group's rate is
// the sum of its processes' (a tier's bandwidth_limit is per rank, as for every other file).
class ThrottledSharedFile final : public SharedFileWrapper {
 public:
  ThrottledSharedFile(std::unique_ptr<SharedFile> target, ThrottledEnv& env)
      : SharedFileWrapper(std::move(target)), env_(env) {}
  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    env_.throttle(length);
    SharedFileWrapper::write_at_all(offset, data, length);
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    env_.throttle(length);
    SharedFileWrapper::write_at(offset, data, length);
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    const Bytes n = SharedFileWrapper::read_at(offset, data, length);
    env_.throttle(n);
    return n;
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    const Bytes n = SharedFileWrapper::read_at_all(offset, data, length);
    env_.throttle(n);
    return n;
  }
  void sync() override {
    env_.throttle(0);
    SharedFileWrapper::sync();
  }

 private:
  ThrottledEnv& env_;
};

}  // namespace

ThrottledEnv::ThrottledEnv(Env& target, const ThrottleOptions& options, ThrottleClock& clock)
    : EnvWrapper(target), clock_(clock), latency_(options.latency) {
  if (options.bandwidth) {
    const Bytes burst = options.burst > 0
                            ? options.burst
                            : std::max<Bytes>(MiB, static_cast<Bytes>(*options.bandwidth / 10));
    bucket_.emplace(*options.bandwidth, burst, clock);
  }
}

void ThrottledEnv::throttle(Bytes bytes) {
  if (latency_ > 0) clock_.sleep_for(latency_);
  if (bucket_ && bytes > 0) bucket_->acquire(bytes);
}

std::unique_ptr<ReadableFile> ThrottledEnv::open_read(const std::string& path,
                                                      const OpenOptions& options) {
  throttle(0);
  return std::make_unique<ThrottledReadableFile>(target().open_read(path, options), *this);
}

std::unique_ptr<ReadableFile> ThrottledEnv::open_mapped(const std::string& path) {
  throttle(0);
  return std::make_unique<ThrottledReadableFile>(target().open_mapped(path), *this);
}

std::unique_ptr<WritableFile> ThrottledEnv::create(const std::string& path,
                                                   const OpenOptions& options) {
  throttle(0);
  return std::make_unique<ThrottledWritableFile>(target().create(path, options), *this);
}

std::unique_ptr<WritableFile> ThrottledEnv::create_for_publish(const std::string& path,
                                                               const PublishOptions& options) {
  throttle(0);
  return std::make_unique<ThrottledWritableFile>(target().create_for_publish(path, options), *this);
}

std::unique_ptr<WritableFile> ThrottledEnv::open_write(const std::string& path,
                                                       const OpenOptions& options) {
  throttle(0);
  return std::make_unique<ThrottledWritableFile>(target().open_write(path, options), *this);
}

std::unique_ptr<SharedFile> ThrottledEnv::open_shared(const std::string& path,
                                                      SharedFileOpener& opener) {
  throttle(0);
  return std::make_unique<ThrottledSharedFile>(target().open_shared(path, opener), *this);
}

void ThrottledEnv::rename(const std::string& from, const std::string& to) {
  throttle(0);
  target().rename(from, to);
}

void ThrottledEnv::create_directories(const std::string& path) {
  throttle(0);
  target().create_directories(path);
}

void ThrottledEnv::remove(const std::string& path) {
  throttle(0);
  target().remove(path);
}

void ThrottledEnv::remove_tree(const std::string& path) {
  throttle(0);
  target().remove_tree(path);
}

std::vector<DirectoryEntry> ThrottledEnv::list_directory(const std::string& path) {
  throttle(0);
  return target().list_directory(path);
}

bool ThrottledEnv::exists(const std::string& path) {
  throttle(0);
  return target().exists(path);
}

Bytes ThrottledEnv::file_size(const std::string& path) {
  throttle(0);
  return target().file_size(path);
}

std::int64_t ThrottledEnv::modified_ns(const std::string& path) {
  throttle(0);
  return target().modified_ns(path);
}

void ThrottledEnv::sync_directory(const std::string& path) {
  throttle(0);
  target().sync_directory(path);
}

Bytes ThrottledEnv::free_space(const std::string& path) {
  throttle(0);
  return target().free_space(path);
}

}  // namespace dlbench::storage
