// Reading a data file with O_DIRECT (reader.odirect) at any offset and length. O_DIRECT wants
// offset, length and buffer aligned to kDirectAlignment (4 KiB), sample ranges are not: every
// read fetches the aligned blocks that cover the request (offset rounded down, end rounded up; the
// final block of the file comes back short) into an aligned staging buffer, and the wanted bytes
// are copied out of it or looked at in place.
//
// The staging buffer belongs to the thread, not to the open file: with read_type on_demand every
// sample opens its file, and allocating (and zeroing) a sample-sized aligned buffer per open
// would cost more than the read. It grows to the largest request the thread has made and is
// reused by every DirectFile the thread reads.
//
// bytes_read() counts what storage delivered: whole blocks, clamped at the end of the file.
// Unlike other ReadableFiles (storage/file.h), a DirectFile is one thread's at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "formats/format.h"
#include "storage/env_wrapper.h"
#include "util/units.h"

namespace dlbench::formats {

class DirectFile final : public storage::ReadableFileWrapper {
 public:
  // Opens `path` through `env` with O_DIRECT. When the open fails but the file opens without
  // O_DIRECT (a file system that refuses O_DIRECT), the Error(kIo) says how to turn it off.
  static std::unique_ptr<DirectFile> Open(storage::Env& env, const std::string& path);

  // `file` must have been opened with OpenOptions{.direct = true}.
  explicit DirectFile(std::unique_ptr<storage::ReadableFile> file);

  // Copies [offset, offset + length) ∩ file into `buffer`; returns the bytes copied.
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override;

  // The bytes [offset, offset + length) ∩ file, in place in the staging buffer: valid until the
  // next read of any DirectFile on this thread.
  std::span<std::byte> view(Bytes offset, Bytes length);

  // Forgets the blocks staged by earlier reads, so that the next read fetches from storage.
  // Readers call it per sample: each sample is its own read, whatever the previous one left.
  void discard_staged();

  // Bytes storage delivered to this file so far (aligned blocks, the last one short at EOF).
  Bytes bytes_read() const { return bytes_read_; }

 private:
  std::uint64_t id_;  // which DirectFile the thread's staged blocks belong to
  Bytes bytes_read_ = 0;
};

// Readers without an O_DIRECT path call this in open: options.direct there is a bug upstream
// (config validation refuses reader.odirect for their format), never silently ignored.
// Throws Error(kUsage) naming the format.
void RejectDirect(const FileReadOptions& options, const char* format);

// The file a reader reads `path` from: opened plainly, or through a DirectFile (O_DIRECT with
// aligned staging) when `direct` is true, in which case `direct_file` points at it.
struct OpenedFile {
  std::unique_ptr<storage::ReadableFile> file;
  DirectFile* direct_file = nullptr;
};
OpenedFile OpenForReading(storage::Env& env, const std::string& path, bool direct);

}  // namespace dlbench::formats
