// The storage interface every byte of dlbench goes through (after leveldb's Env). Readers and
// writers of formats and checkpoints take these, so tests can wrap them to inject faults and the
// tier layer can wrap them to emulate slower storage. One virtual call per I/O operation, never
// per byte. Wrappers derive from the bases in storage/env_wrapper.h. Which Env holds a path (the
// POSIX file system, a tier's emulation, the backend of a URI's scheme: "s3://bucket/key") is
// decided in one place, the run's mount table (storage/mount_table.h); each Env says what it can
// do (Capabilities, below).
//
// Publishing: a file that must be complete or absent under its name (every data file, checkpoint
// file, copy, marker, manifest and result file dlbench writes) is created with
// Env::create_for_publish, written, and then published (WritableFile::publish) or abandoned
// (WritableFile::abandon, or destroyed unpublished). Until publish() returns, no reader finds
// anything new under the final name; after an abandon, nothing of the file is left under the final
// name. How is the backend's business: PosixEnv writes an unnamed file (O_TMPFILE) and links it
// into place, or writes under a hidden partial name (storage/atomic_file.h PartialPathFor) and
// renames it; an object store completes a PUT or a multipart upload. Callers never implement
// "complete or absent" with rename or link themselves. Durability is separate and explicit: sync()
// before publish() makes the bytes durable, Env::sync_directory(folder) after it the name (a
// backend whose publish is durable makes that a no-op). Files several processes write together
// (open_shared) are published by one process after all closed them (formats/io/shared_writer.h).
//
// Thread safety (every implementation keeps it; wrappers too):
// - An Env may be used by any number of threads at once: every Env method may be called
//   concurrently (PosixEnv is stateless; wrappers keep their state in atomics or behind a mutex,
//   and a throttled tier's token bucket is shared by all threads using it).
// - A ReadableFile may be read by several threads at once: path(), size() and read_at() are
//   positional and may run concurrently (the drain engine copies one file with several threads).
//   drop_cache() may too. The exception is formats::DirectFile, which is one thread's at a time.
// - A WritableFile may take concurrent write_at() calls on disjoint ranges (pwrite; the drain
//   engine again). append(), appended(), truncate(), sync(), close(), publish() and abandon()
//   change or read the file's position or state: the caller makes sure no other call on that file
//   runs at the same time, and that close(), publish() or abandon() happens after every other
//   call (the file is then unusable).
// - A file does not belong to a thread: it may move between threads, ordered by the caller.
// - Lifetimes: a file opened through a wrapper Env refers to it, so the Env outlives its files; a
//   wrapper Env refers to its target, which outlives the wrapper.
// - Across processes, nothing is coordinated: ranks writing one shared file (open_write) write
//   disjoint ranges, and the caller orders create/publish/rename/remove of one path between ranks.
//   Files opened with open_shared are the exception: their collective calls coordinate the group
//   (storage/shared_file.h states their contract).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "storage/shared_file.h"
#include "util/units.h"

namespace dlbench::storage {

struct OpenOptions {
  bool direct = false;  // O_DIRECT: offsets, lengths and buffers must be aligned (see Alignment)
};

// What the storage behind an Env can do (Env::capabilities). POSIX file systems can do all of it
// (a default Capabilities); a backend without one of them (an object store: no random writes, no
// rename, no O_DIRECT, no page cache, no folders, no symbolic links) says so, and a wrapper that
// takes one away (env_wrapper.h) says so too. A run refuses, before any work, a configuration
// that needs a capability the storage of its folders lacks (workflow/run_storage.h); code that
// meets a missing one at run time takes another path where there is one, or throws naming it.
struct Capabilities {
  std::string backend = "POSIX";  // names the storage in messages: "POSIX", "S3"
  bool random_writes = true;      // WritableFile::write_at anywhere and truncate (header patching,
                                  // HDF5, checkpoint chunks written by several threads)
  bool shared_writers = true;     // several writers of one file: open_write by several ranks,
                                  // open_shared (MPI-IO's shared-file layouts)
  bool rename = true;             // Env::rename replaces atomically
  bool direct_io = true;          // OpenOptions::direct (O_DIRECT)
  bool page_cache = true;         // ReadableFile::drop_cache, dropping the node's page cache
  bool mmap = true;               // files can be mapped into memory (storage/mapped_file.h)
  bool free_space = true;         // Env::free_space answers
  bool directories = true;        // real folders: create_directories, sync_directory, empty ones
  bool symlinks = true;           // symbolic links exist (folder safety looks for them)
  // Not a capability but a property of the path's file system: its files live in the node's
  // memory (tmpfs, ramfs), so writing new space allocates memory, which on a virtual machine can
  // cost more than the write (checkpoint/fast_tier_spares.h).
  bool memory = false;
  // Nor is this: every read is a request to a server (an object store's range GET), so a wrapper
  // that cuts one read into pieces (storage/throttled_env.h) would send a request per piece.
  bool reads_are_requests = false;

  bool operator==(const Capabilities&) const = default;

  // An object store's: none of the file-system capabilities.
  static Capabilities ObjectStore(std::string backend) {
    return {.backend = std::move(backend),
            .random_writes = false,
            .shared_writers = false,
            .rename = false,
            .direct_io = false,
            .page_cache = false,
            .mmap = false,
            .free_space = false,
            .directories = false,
            .symlinks = false,
            .reads_are_requests = true};
  }
};

// How Env::create_for_publish writes a file until it is published.
struct PublishOptions {
  bool direct = false;  // as OpenOptions::direct
  // Write it under a name a later run can find (PosixEnv: the hidden partial name of
  // storage/atomic_file.h, which FindPartialFiles lists and a crash leaves behind) rather than
  // under none where the backend can (PosixEnv: O_TMPFILE, gone with a crash). A backend without
  // names for unfinished files (an object store) ignores it.
  bool partial_name = false;
  // Start from the file that the caller left under the partial name (an earlier copy it moved
  // there with Env::rename), opened without truncation, to be overwritten in place and cut to its
  // size with truncate() before publish(): on a memory-backed tier, writing over pages costs less
  // than freeing and allocating them. Implies partial_name; needs random writes and rename.
  bool reuse = false;

  OpenOptions open() const { return {.direct = direct}; }
};

// The requests of one kind that a backend sent to remote storage since the Env was made (an object
// store's HTTP requests: Env::requests). A request's time runs from its first attempt's start to
// its last attempt's last byte; its time to first byte, from the same start to the first byte of
// the answer. The histograms are in metrics::LatencyHistogram's layout (its counts() and max()),
// so that they merge across ranks.
struct RequestCounts {
  std::string operation;          // as the backend names it: "GET", "range GET", "PUT", ...
  std::uint64_t requests = 0;     // that ended, successfully or not
  std::uint64_t retries = 0;      // attempts after the first
  std::uint64_t failures = 0;     // requests that ended with an error
  std::uint64_t bytes = 0;        // payload sent or received
  double seconds = 0;             // Σ request times
  double first_byte_seconds = 0;  // Σ times to first byte
  std::vector<std::uint64_t> latency_buckets;  // request times
  double latency_max = 0;
  std::vector<std::uint64_t> first_byte_buckets;  // times to first byte
  double first_byte_max = 0;
};

// O_DIRECT alignment required for offsets, lengths and buffer addresses.
inline constexpr Bytes kDirectAlignment = 4096;

class ReadableFile {
 public:
  virtual ~ReadableFile() = default;
  virtual const std::string& path() const = 0;
  virtual Bytes size() const = 0;
  // Reads up to `length` bytes at `offset` into `buffer`, looping over short reads; returns the
  // bytes read, which is less than `length` only at end of file. Throws Error(kIo) naming the
  // path, the offset and errno.
  virtual Bytes read_at(Bytes offset, void* buffer, Bytes length) = 0;
  // Drops this file's pages from the page cache (posix_fadvise DONTNEED); best effort.
  virtual void drop_cache() = 0;
};

class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual const std::string& path() const = 0;
  // Writes all of `length` bytes at `offset`, looping over short writes. Throws Error(kIo).
  virtual void write_at(Bytes offset, const void* buffer, Bytes length) = 0;
  // Writes at the current end (the sum of previous appends). Throws Error(kIo).
  virtual void append(const void* buffer, Bytes length) = 0;
  // Appends `pieces` one after the other at the current end without copying them together: one
  // gathered write (pwritev, in chunks of IOV_MAX pieces, looping over short writes), counted as
  // one write of their total. The pieces must stay unchanged until it returns. The default
  // appends them one by one, so a wrapper that does not override it sees appends; so does an
  // O_DIRECT file, each piece then aligned as append requires. Throws Error(kIo).
  virtual void append_gathered(std::span<const std::span<const std::byte>> pieces);
  // Bytes appended so far.
  virtual Bytes appended() const = 0;
  // Sets the file's length to `size`, cutting it or extending it with zeros (ftruncate; the HDF5
  // driver's end-of-file). Leaves appended() unchanged. Throws Error(kIo).
  virtual void truncate(Bytes size) = 0;
  // fsync. Throws Error(kIo).
  virtual void sync() = 0;
  // Closes the descriptor, reporting a failed close. Called by the destructor if needed (which
  // then swallows errors), so call it explicitly on the success path. A file created for
  // publishing is finished by publish() or abandon() instead: close() abandons it.
  virtual void close() = 0;
  // Files made by Env::create_for_publish only (any other file throws Error(kIo), EINVAL, from
  // both, and close() is its end).
  // Closes the file and makes it appear under the name it was created for, whole and at once,
  // replacing a file of that name (PosixEnv: linkat of the unnamed file, removing an older file
  // first; or rename of the partial name). Does not sync: sync() before and Env::sync_directory
  // after make it durable. On failure, Error(kIo) naming the final path and the operation;
  // nothing new is under the final name then (the file is abandoned).
  virtual void publish() = 0;
  // Closes the file and discards it: nothing of it stays under the final name nor under any
  // other. Throws Error(kIo) when that fails (a partial name that could not be removed, which
  // FindPartialFiles finds later); the destructor of a file neither published nor abandoned
  // abandons it and swallows the error.
  virtual void abandon() = 0;
};

// One entry of a folder listing.
struct DirectoryEntry {
  std::string name;           // the base name; never "." or ".."
  bool is_directory = false;  // a folder, or a symbolic link to one
  bool is_symlink = false;    // a symbolic link, to anything or to nothing (never on a backend
                              // without Capabilities::symlinks)
  // The file's size, when the listing gives it without a question per file: an object store's
  // listing does, a POSIX directory does not. Never set for a folder.
  std::optional<Bytes> size = std::nullopt;
};

// A file system: POSIX by default; wrappers add fault injection, throttling and counters. Code
// above storage/ touches the storage a run measures (the dataset, its staged copy, checkpoints,
// the run's results and markers) only through an Env, never std::filesystem or POSIX calls, so
// that every operation can be counted, throttled and failed on purpose. Only the tool's own
// local files are read directly: workload YAMLs, the result folders that compare, report and
// sweep read afterwards, and /proc.
class Env {
 public:
  virtual ~Env() = default;
  virtual std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                                  const OpenOptions& options = {}) = 0;
  // Opens `path` for reading through a memory mapping: each read_at copies out of the mapping,
  // so that wrappers see, count, throttle and fail every access like a read. A file truncated
  // while mapped gives Error(kIo) naming it, never SIGBUS (storage/mapped_file.h). This default,
  // for an Env that cannot map (capabilities(path).mmap false), opens it for positional reads.
  virtual std::unique_ptr<ReadableFile> open_mapped(const std::string& path) {
    return open_read(path);
  }
  // Creates or truncates `path` for writing.
  virtual std::unique_ptr<WritableFile> create(const std::string& path,
                                               const OpenOptions& options = {}) = 0;
  // Creates a file to appear under `path` only when published (WritableFile::publish, the
  // contract at the top of this file); `path`'s folder must exist where the backend has folders.
  // The file's path() is the name it is written under meanwhile (PosixEnv: `path` itself for an
  // unnamed file, else its partial name), which errors and counters show. Throws Error(kIo)
  // naming `path`.
  virtual std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                           const PublishOptions& options = {}) = 0;
  // Opens `path` for writing without truncating it, creating it if absent (shared files written
  // in parts by several ranks, which may open it in any order).
  virtual std::unique_ptr<WritableFile> open_write(const std::string& path,
                                                   const OpenOptions& options = {}) = 0;
  // Collective over the opener's group: opens `path` as a file every process writes together
  // (storage/shared_file.h). PosixEnv hands the open to `opener` (the bytes are MPI-IO's);
  // wrappers wrap the file it returns.
  virtual std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                                  SharedFileOpener& opener) = 0;
  // Atomically replaces `to` with `from` (rename(2)). Not for publishing (create_for_publish).
  virtual void rename(const std::string& from, const std::string& to) = 0;
  virtual void create_directories(const std::string& path) = 0;
  // Removes a file or an empty folder; no error if absent.
  virtual void remove(const std::string& path) = 0;
  // Removes the files `paths`, each as remove() does; a backend that can removes many in one
  // request (S3: DeleteObjects, 1000 keys a request), else one by one (this default). Throws
  // Error(kIo) naming a file that could not go; others of `paths` may or may not be gone.
  virtual void remove_files(const std::vector<std::string>& paths);
  // Removes `path` and, if it is a folder, everything under it (symbolic links are removed, not
  // followed); no error if absent. Throws Error(kIo) naming the entry that could not go.
  virtual void remove_tree(const std::string& path) = 0;
  // Drops the writes started directly in folder `path` that were never published and have no
  // name there: an object store's multipart uploads started and neither completed nor aborted
  // (a killed run's, which a bucket keeps, and bills, until they are aborted). Returns how many.
  // File systems have none (0, this default): their unfinished files have partial names
  // (storage/atomic_file.h FindPartialFiles). Not for a folder other writers are writing in.
  virtual std::size_t abort_pending_writes(const std::string& path);
  // Calls `visit` with each entry of folder `path`, in no particular order, until it returns
  // false. Holds one page of the listing at a time (a readdir buffer, one ListObjectsV2
  // response), so a folder of millions of files costs no memory per file. An absent folder has
  // no entries (as an absent path removes without error); one that cannot be read (not a folder,
  // no permission) throws Error(kIo) naming it. What `visit` throws ends the listing and passes
  // through. An entry created or removed in the folder meanwhile may or may not be visited.
  using EntryVisitor = std::function<bool(const DirectoryEntry&)>;
  virtual void for_each_entry(const std::string& path, const EntryVisitor& visit) = 0;
  // for_each_entry's entries, collected and sorted by name: for folders of a few entries
  // (markers, saves, results), never for a dataset's (for_each_entry).
  std::vector<DirectoryEntry> list_directory(const std::string& path);
  virtual bool exists(const std::string& path) = 0;
  // The size of the regular file at `path`; Error(kIo) naming it when it is absent, or is a
  // folder, FIFO, socket or device (posix_file.h RequireRegularFile, the read side's rule too).
  virtual Bytes file_size(const std::string& path) = 0;
  // When the file or folder at `path` was last modified (stat's st_mtim), in nanoseconds since
  // the epoch of the clock of the file system that holds it; Error(kIo) naming it when absent.
  // Only comparable between files of one machine's clock (what decides which of two saves is
  // newer: burst_buffer_store.cpp).
  virtual std::int64_t modified_ns(const std::string& path) = 0;
  // fsync of a directory, so that a rename inside it is durable.
  virtual void sync_directory(const std::string& path) = 0;
  // Bytes an unprivileged user may still write on the file system holding `path` (statvfs:
  // f_bavail × f_frsize). Throws Error(kIo) naming the path.
  virtual Bytes free_space(const std::string& path) = 0;
  // What the storage holding `path` can do. One Env answers alike for every path; a mount table
  // (storage/mount_table.h) answers for the backend that holds `path`. Cheap and pure: no I/O.
  virtual Capabilities capabilities(const std::string& path) = 0;
  // The requests this Env's backends sent to remote storage, one entry per kind of request, in an
  // order fixed by the backend (every kind, requests or not, so that ranks line up); none for a
  // file system. A mount table lists those of its schemes' Envs.
  virtual std::vector<RequestCounts> requests() { return {}; }
};

// What the POSIX Env retried, process-wide, since the process started: system calls interrupted by
// a signal (EINTR) and transfers cut short that it continued (storage/posix_file.h). dlbench has
// no other retries: any other failure ends the operation with its error.
struct IoRetries {
  std::uint64_t interrupted = 0;
  std::uint64_t short_transfers = 0;
};
IoRetries PosixRetries();

// The bytes of a gathered write.
inline Bytes GatheredBytes(std::span<const std::span<const std::byte>> pieces) {
  Bytes total = 0;
  for (const std::span<const std::byte> piece : pieces) total += piece.size();
  return total;
}

inline void WritableFile::append_gathered(std::span<const std::span<const std::byte>> pieces) {
  for (const std::span<const std::byte> piece : pieces) append(piece.data(), piece.size());
}

// The process-wide POSIX Env (stateless; safe to share between threads). When DLBENCH_FAULTS is
// set (tests: storage/fault_environment.h), it is wrapped in the faults that variable asks for.
Env& PosixEnv();

}  // namespace dlbench::storage
