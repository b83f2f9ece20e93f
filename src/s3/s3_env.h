// storage::Env over S3: paths are "s3://bucket/key", one object per file, and a "folder" is a key
// prefix ending in '/'.
//
// - open_read: opening costs no request. The object's first 256 KiB are fetched by one GET the
//   first time a read falls in them or size() is asked while unknown, and later reads there are
//   served from memory: a small file read in pieces (npz: its end, its directory, its arrays)
//   costs one GET and no HEAD. That GET is a plain GET of the whole object when the object is
//   expected to fit (every object of its folder this Env listed, wrote or read so far fitted;
//   one that turns out larger is cut at 256 KiB and read again by range), else a range GET.
//   Other reads are range GETs; every GET learns the object's size (Content-Range), which the
//   file keeps. A missing object fails at its first read or size(),
//   naming s3://bucket/key and NoSuchKey. A read of 4 MiB or more goes out as range GETs of
//   a quarter of it (2 to 8 MiB), four at once (after the first when the size is unknown): a
//   checkpoint's 8 MiB chunk is four parallel 2 MiB ranges. Part uploads and these ranges run on
//   the Env's transfer threads (s3/transfer_pool.h), which keep their connections.
// - create and create_for_publish: an s3/object_writer.h writer: appends only (write_at at the
//   current end is an append), PUT below the part size, multipart above it. close() (create) or
//   publish() (create_for_publish) makes the object visible, whole: an object store publishes by
//   completing the upload. A file abandoned, or destroyed before that, leaves nothing (a started
//   upload is aborted). PublishOptions::partial_name is ignored: unfinished objects have no name.
// - for_each_entry: ListObjectsV2 with delimiter '/', a page of 1000 keys at a time, each object
//   with its size (DirectoryEntry::size); exists, file_size and modified_ns: HEAD (exists then
//   asks for one key under the prefix, for a folder); remove: DELETE; remove_tree: a page of the
//   listing, then DeleteObjects of its keys, page after page; abort_pending_writes:
//   ListMultipartUploads of the folder's prefix (delimiter '/'), then an AbortMultipartUpload of
//   each upload found.
// - create_directories and sync_directory do nothing (prefixes need no creation; a complete
//   upload is durable); free_space reports no limit.
// - What an object store cannot do throws Error(kUsage) naming the operation and the path:
//   rename, open_write and write_at off the end (no writes in place), truncate to another size,
//   open_shared (no shared files), O_DIRECT.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "s3/client.h"
#include "s3/object_writer.h"
#include "s3/op_log.h"
#include "s3/transfer_pool.h"
#include "storage/file.h"

namespace dlbench::s3 {

class S3Env : public storage::Env {
 public:
  S3Env(ClientOptions options, WriteOptions write = {});

  Client& client() { return client_; }
  // The threads that carry part uploads and the ranges of a split read (s3/transfer_pool.h).
  TransferPool& transfers() { return transfers_; }
  static constexpr std::size_t kTransferThreads = 64;
  // Every request of the client from now on gets a line in `log` (s3/op_log.h), which this Env
  // keeps. Call before the Env is shared between threads.
  void set_op_log(std::unique_ptr<OpLog> log) {
    op_log_ = std::move(log);
    client_.set_op_log(op_log_.get());
  }

  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& options) override;
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options) override;
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options) override;
  std::unique_ptr<storage::WritableFile> open_write(const std::string& path,
                                                    const storage::OpenOptions& options) override;
  std::unique_ptr<storage::SharedFile> open_shared(const std::string& path,
                                                   storage::SharedFileOpener& opener) override;
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_files(const std::vector<std::string>& paths) override;
  void remove_tree(const std::string& path) override;
  std::size_t abort_pending_writes(const std::string& path) override;
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;
  // "S3": no random writes, shared writers, rename, O_DIRECT, page cache, mmap, free space,
  // folders or symbolic links.
  storage::Capabilities capabilities(const std::string& path) override;
  // The client's (s3/client.h requests()).
  std::vector<storage::RequestCounts> requests() override { return client_.requests(); }

  // The largest object this Env listed, wrote or read so far in the folder holding `path`
  // (note_size), or kUnknownSize when none: what the first read of an object expects. One
  // number per folder, none per object, so memory does not grow with the objects a run touches.
  static constexpr Bytes kUnknownSize = ~Bytes{0};
  Bytes largest_in_folder(const std::string& path) const;
  void note_size(const std::string& path, Bytes object_size);

 private:
  std::unique_ptr<storage::WritableFile> create_object(const std::string& path, bool direct,
                                                       bool for_publishing);

  Client client_;
  std::unique_ptr<OpLog> op_log_;  // after client_: destroyed before it
  WriteOptions write_;
  TransferPool transfers_;  // after client_: its threads end before the client goes
  mutable std::mutex largest_mutex_;
  std::map<std::string, Bytes, std::less<>> largest_;  // folder ("s3://b/k/") → largest object
};

}  // namespace dlbench::s3
