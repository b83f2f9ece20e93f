#include "s3/s3_env.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <ctime>
#include <deque>
#include <exception>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.h"

namespace dlbench::s3 {
namespace {

// A read_at of at least two kMinRange is split into kParallelReads range GETs run at once, each
// of kMinRange to kReadChunk (a larger read takes more rounds of them): a checkpoint's 8 MiB
// chunk goes out as four 2 MiB ranges in parallel, as parallel clients (boto3's transfers,
// s3torchconnector) read large objects.
constexpr Bytes kMinRange = 2 * MiB;
constexpr Bytes kReadChunk = 8 * MiB;
// The object's first bytes, fetched by one GET the first time a read falls in them (or its size
// is asked): a format that reads a small file in pieces (npz: its end, its directory, its
// arrays) costs one request, not one per piece.
constexpr Bytes kHeadWindow = 256 * KiB;
constexpr std::size_t kParallelReads = 4;

// The size of the range GETs a read of `length` bytes is split into (`length`: not split).
Bytes RangeSize(Bytes length) {
  if (length < 2 * kMinRange) return length;
  return std::clamp((length + kParallelReads - 1) / kParallelReads, kMinRange, kReadChunk);
}

Error Unsupported(const std::string& operation, const std::string& path) {
  return UsageError("S3 storage cannot " + operation + " (" + path +
                    "): objects are written once, front to back, and never changed in place");
}

// The prefix listing the objects "in" folder `key`.
std::string FolderPrefix(const std::string& key) {
  if (key.empty() || key.back() == '/') return key;
  return key + "/";
}

class S3ReadableFile : public storage::ReadableFile {
 public:
  S3ReadableFile(S3Env& env, std::string path, ObjectName name)
      : env_(env), path_(std::move(path)), name_(std::move(name)) {}

  const std::string& path() const override { return path_; }

  // Unknown until then, the size comes with the head's GET (no HEAD request).
  Bytes size() const override {
    const Bytes size = size_.load(std::memory_order_relaxed);
    if (size != S3Env::kUnknownSize) return size;
    head();
    return size_.load(std::memory_order_relaxed);
  }

  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    const Bytes size = size_.load(std::memory_order_relaxed);
    if (size != S3Env::kUnknownSize) {
      if (offset >= size) return 0;
      length = std::min(length, size - offset);
    }
    if (length == 0) return 0;
    auto* bytes = static_cast<std::byte*>(buffer);
    if (offset + length <= kHeadWindow) {
      const std::vector<std::byte>& first = head();
      if (offset >= first.size()) return 0;
      const Bytes n = std::min<Bytes>(length, first.size() - offset);
      std::copy_n(first.data() + offset, n, bytes);
      return n;
    }
    // A read not split, or the first range when the size is unknown (it learns it), goes out on
    // this thread; the ranges of a split read go out in parallel.
    const Bytes range = RangeSize(length);
    Bytes done = 0;
    Bytes object_size = size;
    if (range == length || size == S3Env::kUnknownSize) {
      const GetResult result =
          env_.client().get(name_.bucket, name_.key, offset, std::span(bytes, range));
      size_.store(result.object_size, std::memory_order_relaxed);
      if (range == length || result.bytes < range) return result.bytes;
      done = range;
      object_size = result.object_size;
    }
    const Bytes end = std::min(offset + length, object_size);
    if (offset + done >= end) return done;
    return done + ReadRanges(offset + done, end, bytes + done, range);
  }

  void drop_cache() override {}

 private:
  // The object's bytes [0, min(size, kHeadWindow)), fetched once (the first caller's GET; others
  // wait for it). A failed fetch is retried by the next caller. An object expected to fit in
  // the window (every object of its folder listed, written or read so far did) is fetched whole
  // by a plain GET, as a bare client reads a small object; else, or when it turns out larger, a
  // range GET of the window, which learns the size too.
  const std::vector<std::byte>& head() const {
    const std::lock_guard lock(head_mutex_);
    if (!head_loaded_) {
      // The GET lands in this thread's scratch window and the file keeps only what the object
      // holds: a 256 KiB window allocated and zero-filled per file put memset, malloc and free
      // at the top of a profile of 4 KiB object reads.
      thread_local const std::unique_ptr<std::byte[]> scratch(new std::byte[kHeadWindow]);
      const std::span<std::byte> window(scratch.get(), kHeadWindow);
      std::optional<GetResult> result;
      if (env_.largest_in_folder(path_) <= kHeadWindow)
        result = env_.client().get_whole(name_.bucket, name_.key, window);
      if (!result) result = env_.client().get(name_.bucket, name_.key, 0, window);
      head_.assign(scratch.get(), scratch.get() + result->bytes);
      size_.store(result->object_size, std::memory_order_relaxed);
      env_.note_size(path_, result->object_size);
      head_loaded_ = true;
    }
    return head_;
  }

  // Reads object bytes [from, to) into `out` with range GETs of `range` bytes on the Env's
  // transfer threads, at most kParallelReads at once; returns the bytes read. Returns or throws
  // (the first failure) only once no range is in flight: they write into the caller's buffer.
  Bytes ReadRanges(Bytes from, Bytes to, std::byte* out, Bytes range) const {
    std::deque<std::future<GetResult>> reads;
    Bytes total = 0;
    std::exception_ptr failure;
    const auto settle_oldest = [&] {
      try {
        total += reads.front().get().bytes;
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
      reads.pop_front();
    };
    for (Bytes at = from; at < to && !failure; at += range) {
      if (reads.size() == kParallelReads) settle_oldest();
      if (failure) break;
      const std::span<std::byte> into(out + (at - from), std::min(range, to - at));
      try {
        reads.push_back(env_.transfers().submit(
            [this, at, into] { return env_.client().get(name_.bucket, name_.key, at, into); }));
      } catch (...) {  // no thread to run it
        failure = std::current_exception();
      }
    }
    while (!reads.empty()) settle_oldest();
    if (failure) std::rethrow_exception(failure);
    return total;
  }

  S3Env& env_;
  std::string path_;
  ObjectName name_;
  mutable std::atomic<Bytes> size_{S3Env::kUnknownSize};  // learned by the first GET
  mutable std::mutex head_mutex_;
  mutable bool head_loaded_ = false;
  mutable std::vector<std::byte> head_;
};

class S3WritableFile : public storage::WritableFile {
 public:
  S3WritableFile(S3Env& env, std::string path, const ObjectName& name, WriteOptions options,
                 bool for_publishing)
      : env_(env),
        path_(std::move(path)),
        writer_(env.client(), env.transfers(), name.bucket, name.key, options),
        for_publishing_(for_publishing) {}

  const std::string& path() const override { return path_; }

  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    if (offset != writer_.appended()) {
      throw Unsupported("write at offset " + std::to_string(offset) + " after " +
                            std::to_string(writer_.appended()) + " bytes",
                        path_);
    }
    append(buffer, length);
  }

  void append(const void* buffer, Bytes length) override {
    writer_.append(std::span(static_cast<const std::byte*>(buffer), length));
  }

  Bytes appended() const override { return writer_.appended(); }

  void truncate(Bytes size) override {
    if (size != writer_.appended()) {
      throw Unsupported("truncate to " + std::to_string(size) + " bytes", path_);
    }
  }

  void sync() override {}

  // A created object appears at close(); one created for publishing at publish(), and close()
  // abandons it (storage/file.h).
  void close() override {
    if (writer_.finished()) return;
    if (for_publishing_) {
      writer_.abandon();
    } else {
      complete();
    }
  }

  void publish() override {
    require_for_publishing("publish");
    if (writer_.finished()) throw IoError("publish", path_, EBADF, "file closed");
    complete();
  }

  void abandon() override {
    require_for_publishing("abandon");
    writer_.abandon();
  }

 private:
  void complete() {
    writer_.complete();
    env_.note_size(path_, writer_.appended());
  }

  void require_for_publishing(const char* operation) const {
    if (!for_publishing_) {
      throw IoError(operation, path_, EINVAL, "the file was not created for publishing");
    }
  }

  S3Env& env_;
  std::string path_;
  ObjectWriter writer_;
  bool for_publishing_;
};

}  // namespace

S3Env::S3Env(ClientOptions options, WriteOptions write)
    : client_(std::move(options)), write_(write), transfers_(kTransferThreads) {}

namespace {
// The folder part of an object's path ("s3://b/data/train/" of "s3://b/data/train/img_1.npz").
std::string_view FolderOf(const std::string& path) {
  return std::string_view(path).substr(0, path.rfind('/') + 1);
}
}  // namespace

Bytes S3Env::largest_in_folder(const std::string& path) const {
  const std::lock_guard lock(largest_mutex_);
  const auto found = largest_.find(FolderOf(path));
  return found == largest_.end() ? kUnknownSize : found->second;
}

void S3Env::note_size(const std::string& path, Bytes object_size) {
  const std::string_view folder = FolderOf(path);
  const std::lock_guard lock(largest_mutex_);
  auto found = largest_.find(folder);
  if (found == largest_.end()) found = largest_.emplace(folder, 0).first;
  found->second = std::max(found->second, object_size);
}

std::unique_ptr<storage::ReadableFile> S3Env::open_read(const std::string& path,
                                                        const storage::OpenOptions& options) {
  if (options.direct) throw Unsupported("open with O_DIRECT", path);
  ObjectName name = ParseObjectUri(path);
  return std::make_unique<S3ReadableFile>(*this, path, std::move(name));
}

std::unique_ptr<storage::WritableFile> S3Env::create(const std::string& path,
                                                     const storage::OpenOptions& options) {
  return create_object(path, options.direct, /*for_publishing=*/false);
}

std::unique_ptr<storage::WritableFile> S3Env::create_for_publish(
    const std::string& path, const storage::PublishOptions& options) {
  return create_object(path, options.direct, /*for_publishing=*/true);
}

std::unique_ptr<storage::WritableFile> S3Env::create_object(const std::string& path, bool direct,
                                                            bool for_publishing) {
  if (direct) throw Unsupported("open with O_DIRECT", path);
  const ObjectName name = ParseObjectUri(path);
  if (name.key.empty() || name.key.back() == '/') {
    throw UsageError("S3 storage cannot create '" + path +
                     "': it names no object (s3://bucket/key)");
  }
  return std::make_unique<S3WritableFile>(*this, path, name, write_, for_publishing);
}

std::unique_ptr<storage::WritableFile> S3Env::open_write(const std::string& path,
                                                         const storage::OpenOptions& /*options*/) {
  throw Unsupported("open an object for writing in place", path);
}

std::unique_ptr<storage::SharedFile> S3Env::open_shared(const std::string& path,
                                                        storage::SharedFileOpener& /*opener*/) {
  throw Unsupported("open a file written by several processes together", path);
}

void S3Env::rename(const std::string& from, const std::string& to) {
  throw Unsupported("rename to " + to, from);
}

void S3Env::create_directories(const std::string& path) { ParseObjectUri(path); }

void S3Env::remove(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  if (name.key.empty()) return;
  client_.delete_object(name.bucket, name.key);
}

void S3Env::remove_files(const std::vector<std::string>& paths) {
  // Each run of keys of one bucket in DeleteObjects requests (the client batches them).
  std::string bucket;
  std::vector<std::string> keys;
  for (const std::string& path : paths) {
    ObjectName name = ParseObjectUri(path);
    if (name.key.empty()) continue;
    if (name.bucket != bucket && !keys.empty()) {
      client_.delete_objects(bucket, keys);
      keys.clear();
    }
    bucket = std::move(name.bucket);
    keys.push_back(std::move(name.key));
  }
  if (!keys.empty()) client_.delete_objects(bucket, keys);
}

void S3Env::remove_tree(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  // A page of keys deleted at a time (DeleteObjects takes 1000, a listing's page): memory does
  // not grow with the objects under the prefix. The listing goes on after the last key listed,
  // so deleting what it listed does not disturb it.
  std::vector<std::string> keys;
  client_.list_pages(name.bucket, FolderPrefix(name.key), "", [&](const Listing& page) {
    keys.clear();
    for (const ObjectInfo& object : page.objects) keys.push_back(object.key);
    client_.delete_objects(name.bucket, keys);
    return true;
  });
  if (!name.key.empty() && name.key.back() != '/') client_.delete_object(name.bucket, name.key);
}

std::size_t S3Env::abort_pending_writes(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  const std::vector<PendingUpload> pending =
      client_.list_multipart_uploads(name.bucket, FolderPrefix(name.key), "/");
  for (const PendingUpload& upload : pending)
    client_.abort_multipart(name.bucket, upload.key, upload.upload_id);
  return pending.size();
}

void S3Env::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  const ObjectName name = ParseObjectUri(path);
  const std::string prefix = FolderPrefix(name.key);
  const std::string folder = "s3://" + name.bucket + "/" + prefix;
  storage::DirectoryEntry entry;
  client_.list_pages(name.bucket, prefix, "/", [&](const Listing& page) {
    Bytes largest = 0;
    for (const ObjectInfo& object : page.objects) largest = std::max(largest, object.size);
    if (!page.objects.empty()) note_size(folder, largest);
    for (const ObjectInfo& object : page.objects) {
      if (object.key.size() == prefix.size()) continue;  // the folder's own marker object
      entry.name.assign(object.key, prefix.size());
      entry.is_directory = false;
      entry.size = object.size;
      if (!visit(entry)) return false;
    }
    for (const std::string& common : page.common_prefixes) {
      // "<prefix><name>/"
      if (common.size() <= prefix.size() + 1) continue;
      entry.name.assign(common, prefix.size(), common.size() - prefix.size() - 1);
      entry.is_directory = true;
      entry.size.reset();
      if (!visit(entry)) return false;
    }
    return true;
  });
}

bool S3Env::exists(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  if (!name.key.empty() && name.key.back() != '/' && client_.head(name.bucket, name.key)) {
    return true;
  }
  const Listing listing = client_.list(name.bucket, FolderPrefix(name.key), "", 1, 1);
  return !listing.objects.empty();
}

Bytes S3Env::file_size(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  const std::optional<ObjectInfo> info = client_.head(name.bucket, name.key);
  if (!info) throw IoError("stat", path, 0, "no such object (HTTP 404)");
  return info->size;
}

std::int64_t S3Env::modified_ns(const std::string& path) {
  const ObjectName name = ParseObjectUri(path);
  const std::optional<ObjectInfo> info = client_.head(name.bucket, name.key);
  if (!info) throw IoError("stat", path, 0, "no such object (HTTP 404)");
  std::tm utc{};
  const char* end = strptime(info->last_modified.c_str(), "%a, %d %b %Y %H:%M:%S", &utc);
  if (end == nullptr) {
    throw IoError("stat", path, 0, "unreadable Last-Modified '" + info->last_modified + "'");
  }
  return static_cast<std::int64_t>(timegm(&utc)) * 1'000'000'000;
}

void S3Env::sync_directory(const std::string& /*path*/) {}

Bytes S3Env::free_space(const std::string& /*path*/) { return std::numeric_limits<Bytes>::max(); }

storage::Capabilities S3Env::capabilities(const std::string& /*path*/) {
  return storage::Capabilities::ObjectStore("S3");
}

}  // namespace dlbench::s3
