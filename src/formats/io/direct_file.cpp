#include "formats/io/direct_file.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "storage/aligned_buffer.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// The aligned blocks a thread last fetched, [begin, end) of the file of DirectFile `owner`.
struct Staging {
  storage::AlignedBuffer buffer;
  std::uint64_t owner = 0;  // 0: nothing staged
  Bytes begin = 0;
  Bytes end = 0;
};

thread_local Staging staging;

// Identities are never reused (an address could be), so staged blocks of a closed file are
// never mistaken for those of a file opened later at the same address.
std::atomic<std::uint64_t> next_id{1};

}  // namespace

std::unique_ptr<DirectFile> DirectFile::Open(storage::Env& env, const std::string& path) {
  std::unique_ptr<storage::ReadableFile> file;
  try {
    file = env.open_read(path, {.direct = true});
  } catch (const Error& e) {
    if (e.code() != ExitCode::kIo) throw;
    bool opens_buffered = false;
    try {
      env.open_read(path);
      opens_buffered = true;
    } catch (const Error&) {
    }
    if (!opens_buffered) throw;
    throw Error(ExitCode::kIo,
                std::string(e.what()) +
                    "; the file opens without O_DIRECT: set reader.odirect: False "
                    "(++workload.reader.odirect=False) to read through the page cache");
  }
  return std::make_unique<DirectFile>(std::move(file));
}

DirectFile::DirectFile(std::unique_ptr<storage::ReadableFile> file)
    : ReadableFileWrapper(std::move(file)), id_(next_id.fetch_add(1, std::memory_order_relaxed)) {}

std::span<std::byte> DirectFile::view(Bytes offset, Bytes length) {
  const Bytes size = target().size();
  if (offset >= size || length == 0) return {};
  const Bytes end = std::min(size, offset + std::min(length, size - offset));
  Staging& s = staging;
  if (s.owner != id_ || offset < s.begin || end > s.end) {
    const Bytes begin = storage::AlignDown(offset);
    const Bytes want = storage::AlignUp(end) - begin;
    s.owner = 0;  // until the read has succeeded
    s.buffer.resize(want);
    const Bytes got = target().read_at(begin, s.buffer.data(), want);
    bytes_read_ += got;
    s.owner = id_;
    s.begin = begin;
    s.end = begin + got;
  }
  if (s.end <= offset) return {};  // the file shrank since it was opened
  return {s.buffer.data() + (offset - s.begin),
          static_cast<std::size_t>(std::min(end, s.end) - offset)};
}

Bytes DirectFile::read_at(Bytes offset, void* buffer, Bytes length) {
  const std::span<std::byte> bytes = view(offset, length);
  if (!bytes.empty()) std::memcpy(buffer, bytes.data(), bytes.size());
  return bytes.size();
}

void DirectFile::discard_staged() {
  if (staging.owner == id_) staging.owner = 0;
}

void RejectDirect(const FileReadOptions& options, const char* format) {
  if (options.direct) {
    throw UsageError(std::string("reader.odirect: O_DIRECT reading is not available for ") +
                     format + " (only npz, npy, indexed_binary, csv, jpeg, png and parquet)");
  }
}

OpenedFile OpenForReading(storage::Env& env, const std::string& path, bool direct) {
  if (!direct) return {env.open_read(path), nullptr};
  std::unique_ptr<DirectFile> file = DirectFile::Open(env, path);
  DirectFile* staging = file.get();
  return {std::move(file), staging};
}

}  // namespace dlbench::formats
