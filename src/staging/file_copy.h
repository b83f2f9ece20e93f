// Copies files between storage tiers through a storage::Env, in parallel (a fixed set of threads
// pulling the next file), so that every staged byte is throttled by its tiers, counted and traced
// like any other I/O. A file appears under its final name only when complete: it is created for
// publishing (storage::AtomicFileWriter; on POSIX under storage::PartialPathFor(destination),
// renamed into place), so an interrupted copy leaves at most partial files, which the next copy
// replaces, and a rerun skips every file already at its final name with the source's size
// (resume).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::staging {

struct FileCopy {
  std::string from;
  std::string to;
};

struct CopyOptions {
  int threads = 4;
  Bytes buffer_bytes = Bytes{4} << 20;  // per thread
  // Re-read every written byte (its cache dropped first) and compare its CRC32C with the
  // source's, before publishing it; a mismatch is Error(kIo) naming the file. Where the copy has
  // no name until published (an object store), it is read back after, and removed on a mismatch.
  bool verify = false;
  bool fsync = false;  // fsync each file and its folder before and after publishing it
  // When set by another thread, the copy stops after the files being copied (CopyStats says
  // how many were done); nullptr: never.
  const std::atomic<bool>* cancel = nullptr;
};

struct CopyStats {
  std::uint64_t files_copied = 0;
  std::uint64_t files_skipped = 0;  // already at their final name with the source's size
  Bytes bytes_copied = 0;
  Bytes bytes_skipped = 0;
  Seconds seconds = 0;

  void add(const CopyStats& other);
};

// Copies `files` (destination folders are created). Throws the first thread's error after every
// thread stopped (Error(kIo) naming the file; an ENOSPC says which tier is full).
CopyStats CopyFiles(storage::Env& env, const std::vector<FileCopy>& files,
                    const CopyOptions& options);

// The copies of unit i (a file and its companions), asked for when a thread takes the unit.
using CopiesOfUnit = std::function<std::vector<FileCopy>(std::size_t)>;
// CopyFiles of the copies of units [0, units), without holding every unit's paths at once: a
// dataset of a million files is a million path pairs, which the caller need not build. Each
// destination folder is created when a copy into it is first taken.
CopyStats CopyUnits(storage::Env& env, std::size_t units, const CopiesOfUnit& copies_of,
                    const CopyOptions& options);

// Runs fn(i, buffer) for i in [0, count) on `threads` threads (the caller's among them), each
// with its own buffer of `buffer_bytes`, stopping early when `cancel` is set or fn throws; then
// rethrows the first error.
void ForEachInParallel(int threads, std::size_t count, Bytes buffer_bytes,
                       const std::atomic<bool>* cancel,
                       const std::function<void(std::size_t, std::vector<char>&)>& fn);

// Copies one file (the unit of CopyFiles), with the caller's buffer of at least 1 byte.
CopyStats CopyFile(storage::Env& env, const FileCopy& file, std::vector<char>& buffer,
                   const CopyOptions& options);

}  // namespace dlbench::staging
