// One object written front to back: the bytes appended are buffered up to the part size; an
// object that stays below it is sent with one PUT at complete(), a larger one as a multipart
// upload whose parts go out while the writer appends, at most `parallel_parts` at once, so the
// memory held is at most (parallel_parts + 1) × the part size whatever the object's size. Nothing
// is visible under the key until complete() returns; abandon() (or destroying the writer before
// complete) aborts a started multipart upload, so a failed write leaves no object and no stored
// parts while the server answers.
//
// Part sizes: S3 takes at most 10,000 parts of at most 5 GiB, and the writer does not know the
// object's size beforehand, so the part size doubles every 1,000 parts (PartSize): 16 MiB parts
// carry objects up to 15.6 GiB, and 10,000 parts reach S3's 5 TiB object limit. An object that
// would need more parts fails at the first byte beyond, naming it (Error kIo).
//
// One thread at a time (storage/file.h's rule for a WritableFile); the part uploads run on the
// threads of a TransferPool, which keep their connections from one part to the next.
#pragma once

#include <cstddef>
#include <future>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "s3/client.h"
#include "s3/transfer_pool.h"
#include "util/units.h"

namespace dlbench::s3 {

struct WriteOptions {
  Bytes part_size = 16 * MiB;  // of the first 1,000 parts, and the size from which an object goes
                               // multipart; ≥ 5 MiB
  int parallel_parts = 4;      // part uploads in flight at once
};

inline constexpr int kMostParts = 10'000;       // of one multipart upload
inline constexpr Bytes kLargestPart = 5 * GiB;  // of one part
// The size of part `number` (from 1): `first` for parts 1..1000, doubled each 1,000 parts after,
// never above kLargestPart.
Bytes PartSize(Bytes first, int number);
// The largest object that kMostParts parts of PartSize(first, ·) carry.
Bytes MultipartCapacity(Bytes first);

class ObjectWriter {
 public:
  ObjectWriter(Client& client, TransferPool& pool, std::string bucket, std::string key,
               WriteOptions options);
  ~ObjectWriter();
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;

  // Throws Error(kIo) naming the object when a part upload failed (the upload is then aborted).
  void append(std::span<const std::byte> bytes);
  Bytes appended() const { return appended_; }
  // Sends what remains and makes the object visible: a PUT, or the last part and
  // CompleteMultipartUpload. Error(kIo) after aborting the upload when any of it fails.
  void complete();
  // Drops what was written: aborts a multipart upload; best effort, never throws.
  void abandon() noexcept;
  bool finished() const { return finished_; }

 private:
  void send_part();
  void wait_oldest();

  Bytes next_part_size() const { return PartSize(options_.part_size, parts_sent_ + 1); }

  Client& client_;
  TransferPool& pool_;
  std::string bucket_;
  std::string key_;
  WriteOptions options_;
  std::vector<std::byte> buffer_;
  Bytes appended_ = 0;
  std::string upload_id_;
  int parts_sent_ = 0;
  std::map<int, std::future<std::string>> in_flight_;  // part number → its ETag
  std::vector<std::string> etags_;                     // of parts 1..n, in order
  bool finished_ = false;
};

}  // namespace dlbench::s3
