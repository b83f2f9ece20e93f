#include "staging/file_copy.h"

#include <chrono>
#include <exception>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "storage/atomic_file.h"
#include "util/crc32c.h"
#include "util/error.h"

namespace dlbench::staging {
namespace {

std::string ParentOf(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

// The CRC32C of the first `bytes` bytes of `file`, read through `buffer`.
std::uint32_t ChecksumOf(storage::ReadableFile& file, Bytes bytes, std::vector<char>& buffer) {
  std::uint32_t crc = 0;
  for (Bytes offset = 0; offset < bytes;) {
    const Bytes got =
        file.read_at(offset, buffer.data(), std::min<Bytes>(buffer.size(), bytes - offset));
    if (got == 0) break;
    crc = crc32c::Extend(crc, buffer.data(), got);
    offset += got;
  }
  return crc;
}

// Reads the copy at `path` back (its cached pages dropped first) and throws Error(kIo) unless it
// has the source's size and checksum `crc`.
void Verify(storage::Env& env, const std::string& path, const FileCopy& file, Bytes size,
            std::uint32_t crc, std::vector<char>& buffer) {
  const std::unique_ptr<storage::ReadableFile> copy = env.open_read(path);
  copy->drop_cache();
  if (copy->size() != size || ChecksumOf(*copy, size, buffer) != crc) {
    throw Error(ExitCode::kIo, "staging verification failed: the copy of " + file.from + " at " +
                                   file.to + " differs from the source");
  }
}

}  // namespace

void CopyStats::add(const CopyStats& other) {
  files_copied += other.files_copied;
  files_skipped += other.files_skipped;
  bytes_copied += other.bytes_copied;
  bytes_skipped += other.bytes_skipped;
}

CopyStats CopyFile(storage::Env& env, const FileCopy& file, std::vector<char>& buffer,
                   const CopyOptions& options) {
  CopyStats stats;
  const std::unique_ptr<storage::ReadableFile> source = env.open_read(file.from);
  const Bytes size = source->size();
  if (env.exists(file.to) && env.file_size(file.to) == size) {
    stats.files_skipped = 1;
    stats.bytes_skipped = size;
    return stats;
  }
  storage::AtomicFileWriter writer(env, file.to);
  std::uint32_t crc = 0;
  Bytes offset = 0;
  while (offset < size) {
    const Bytes got =
        source->read_at(offset, buffer.data(), std::min<Bytes>(buffer.size(), size - offset));
    if (got == 0) {
      throw Error(ExitCode::kIo, "staging " + file.from + ": the file ended at byte " +
                                     std::to_string(offset) + " of " + std::to_string(size) +
                                     " while being copied");
    }
    writer.file().append(buffer.data(), got);
    if (options.verify) crc = crc32c::Extend(crc, buffer.data(), got);
    offset += got;
  }
  if (!options.verify) {
    writer.commit(options.fsync);
  } else if (writer.temp_path() != file.to) {
    writer.file().sync();  // so that dropping the cache makes the re-read come from the device
    Verify(env, writer.temp_path(), file, size, crc, buffer);
    writer.commit(options.fsync);
  } else {
    // The copy has no name of its own until published (an object store): it is read back under
    // its final name, and removed again if it differs.
    writer.commit(options.fsync);
    try {
      Verify(env, file.to, file, size, crc, buffer);
    } catch (...) {
      env.remove(file.to);
      throw;
    }
  }
  stats.files_copied = 1;
  stats.bytes_copied = size;
  return stats;
}

void ForEachInParallel(int threads, std::size_t count, Bytes buffer_bytes,
                       const std::atomic<bool>* cancel,
                       const std::function<void(std::size_t, std::vector<char>&)>& fn) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr error;
  auto work = [&] {
    try {
      std::vector<char> buffer(std::max<Bytes>(buffer_bytes, 1));
      for (std::size_t i = next++; i < count && !failed; i = next++) {
        if (cancel != nullptr && cancel->load()) break;
        fn(i, buffer);
      }
    } catch (...) {
      failed = true;
      const std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
    }
  };
  const auto wanted = static_cast<std::size_t>(std::max(1, threads));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < std::min(wanted, count); ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  if (error) std::rethrow_exception(error);
}

CopyStats CopyFiles(storage::Env& env, const std::vector<FileCopy>& files,
                    const CopyOptions& options) {
  return CopyUnits(
      env, files.size(), [&](std::size_t i) { return std::vector<FileCopy>{files[i]}; }, options);
}

CopyStats CopyUnits(storage::Env& env, std::size_t units, const CopiesOfUnit& copies_of,
                    const CopyOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::mutex mutex;
  std::set<std::string> folders;  // created so far: a dataset has few
  CopyStats total;
  ForEachInParallel(options.threads, units, options.buffer_bytes, options.cancel,
                    [&](std::size_t i, std::vector<char>& buffer) {
                      for (const FileCopy& file : copies_of(i)) {
                        std::string folder = ParentOf(file.to);
                        {
                          const std::lock_guard lock(mutex);
                          if (folders.insert(folder).second) env.create_directories(folder);
                        }
                        const CopyStats one = CopyFile(env, file, buffer, options);
                        const std::lock_guard lock(mutex);
                        total.add(one);
                      }
                    });
  total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return total;
}

}  // namespace dlbench::staging
