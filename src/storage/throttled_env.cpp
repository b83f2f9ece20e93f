#include "storage/throttled_env.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace dlbench::storage {
namespace {

// Reads and writes move in pieces of at most ThrottledEnv::chunk() bytes, each paid for before
// it moves: a large transfer then trickles through at the limit rather than passing whole after
// one long wait, so no window sees more than one piece beyond the limit. A file whose reads are
// requests (Capabilities::reads_are_requests: an object store) pays for a read piece by piece
// and then reads it whole, so the server sees the requests it would without the throttle.
class ThrottledReadableFile final : public ReadableFileWrapper {
 public:
  ThrottledReadableFile(std::unique_ptr<ReadableFile> target, ThrottledEnv& env, bool whole_reads)
      : ReadableFileWrapper(std::move(target)), env_(env), whole_reads_(whole_reads) {}
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    // Each piece pays for what the file holds there (a read at the end is short); a file that
    // changed size meanwhile pays or gets back the difference.
    env_.throttle(0);
    const Bytes size = ReadableFileWrapper::size();
    const Bytes expected = offset < size ? std::min(length, size - offset) : 0;
    if (whole_reads_) {
      for (Bytes paid = 0; paid < expected; paid += env_.chunk())
        env_.throttle_bytes(std::min(env_.chunk(), expected - paid));
      const Bytes n = ReadableFileWrapper::read_at(offset, buffer, length);
      if (n > expected) env_.throttle_bytes(n - expected);
      if (n < expected) env_.refund(expected - n);
      return n;
    }
    auto* out = static_cast<char*>(buffer);
    Bytes done = 0;
    while (done < length) {
      const Bytes piece = std::min(env_.chunk(), length - done);
      const Bytes due = done < expected ? std::min(piece, expected - done) : 0;
      env_.throttle_bytes(due);
      const Bytes n = ReadableFileWrapper::read_at(offset + done, out + done, piece);
      if (n > due) env_.throttle_bytes(n - due);
      if (n < due) env_.refund(due - n);
      done += n;
      if (n < piece) break;
    }
    return done;
  }

 private:
  ThrottledEnv& env_;
  bool whole_reads_;
};

class ThrottledWritableFile final : public WritableFileWrapper {
 public:
  ThrottledWritableFile(std::unique_ptr<WritableFile> target, ThrottledEnv& env)
      : WritableFileWrapper(std::move(target)), env_(env) {}
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    pieces(buffer, length, [&](Bytes done, const char* piece, Bytes bytes) {
      WritableFileWrapper::write_at(offset + done, piece, bytes);
    });
  }
  void append(const void* buffer, Bytes length) override {
    pieces(buffer, length, [&](Bytes, const char* piece, Bytes bytes) {
      WritableFileWrapper::append(piece, bytes);
    });
  }
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    env_.throttle(0);
    // Consecutive pieces up to chunk() bytes in all (a larger piece split) per gathered write.
    std::vector<std::span<const std::byte>> group;
    Bytes grouped = 0;
    const auto flush = [&] {
      env_.throttle_bytes(grouped);
      WritableFileWrapper::append_gathered(group);
      group.clear();
      grouped = 0;
    };
    for (std::span<const std::byte> piece : pieces) {
      while (!piece.empty()) {
        const Bytes take = std::min<Bytes>(piece.size(), env_.chunk() - grouped);
        group.push_back(piece.first(take));
        grouped += take;
        piece = piece.subspan(take);
        if (grouped == env_.chunk()) flush();
      }
    }
    if (!group.empty()) flush();
    if (GatheredBytes(pieces) == 0) WritableFileWrapper::append_gathered(pieces);
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
  // One latency, then `write(done, piece, bytes)` for each chunk of `buffer`, each paid first.
  template <class Write>
  void pieces(const void* buffer, Bytes length, Write&& write) {
    env_.throttle(0);
    const auto* in = static_cast<const char*>(buffer);
    Bytes done = 0;
    do {
      const Bytes bytes = std::min(env_.chunk(), length - done);
      env_.throttle_bytes(bytes);
      write(done, in + done, bytes);
      done += bytes;
    } while (done < length);
  }

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
    const Bytes burst =
        options.burst > 0
            ? options.burst
            : std::max<Bytes>(
                  1, static_cast<Bytes>(*options.bandwidth * ThrottleOptions::kBurstSeconds));
    bucket_.emplace(*options.bandwidth, burst, clock);
    // At most the burst, in whole blocks (O_DIRECT transfers stay aligned), at least one block.
    chunk_ = std::max(kDirectAlignment, burst / kDirectAlignment * kDirectAlignment);
  }
}

void ThrottledEnv::throttle(Bytes bytes) {
  if (latency_ > 0) clock_.sleep_for(latency_);
  throttle_bytes(bytes);
}

bool ThrottledEnv::reads_are_requests(const std::string& path) {
  int known = reads_are_requests_.load(std::memory_order_relaxed);
  if (known < 0) {
    known = target().capabilities(path).reads_are_requests ? 1 : 0;
    reads_are_requests_.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

Bytes ThrottledEnv::chunk() const { return bucket_ ? chunk_ : ~Bytes{0}; }

void ThrottledEnv::throttle_bytes(Bytes bytes) {
  if (bucket_ && bytes > 0) bucket_->acquire(bytes);
}

void ThrottledEnv::refund(Bytes bytes) {
  if (bucket_ && bytes > 0) bucket_->refund(bytes);
}

std::unique_ptr<ReadableFile> ThrottledEnv::open_read(const std::string& path,
                                                      const OpenOptions& options) {
  throttle(0);
  return std::make_unique<ThrottledReadableFile>(target().open_read(path, options), *this,
                                                 reads_are_requests(path));
}

std::unique_ptr<ReadableFile> ThrottledEnv::open_mapped(const std::string& path) {
  throttle(0);
  return std::make_unique<ThrottledReadableFile>(target().open_mapped(path), *this,
                                                 reads_are_requests(path));
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

void ThrottledEnv::remove_files(const std::vector<std::string>& paths) {
  throttle(0);
  target().remove_files(paths);
}

void ThrottledEnv::remove_tree(const std::string& path) {
  throttle(0);
  target().remove_tree(path);
}

void ThrottledEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  throttle(0);
  target().for_each_entry(path, visit);
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
