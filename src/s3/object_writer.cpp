#include "s3/object_writer.h"

#include <algorithm>
#include <utility>

#include "util/error.h"
#include "util/size_text.h"

namespace dlbench::s3 {

Bytes PartSize(Bytes first, int number) {
  Bytes size = first;
  for (int doublings = (number - 1) / 1000; doublings > 0 && size < kLargestPart; --doublings)
    size *= 2;
  return std::min(size, kLargestPart);
}

Bytes MultipartCapacity(Bytes first) {
  Bytes total = 0;
  for (int block = 0; block < kMostParts / 1000; ++block)
    total += 1000 * PartSize(first, block * 1000 + 1);
  return total;
}

ObjectWriter::ObjectWriter(Client& client, TransferPool& pool, std::string bucket, std::string key,
                           WriteOptions options)
    : client_(client),
      pool_(pool),
      bucket_(std::move(bucket)),
      key_(std::move(key)),
      options_(options) {
  if (options_.part_size < 5 * MiB || options_.parallel_parts < 1) {
    throw InternalError("s3: a part size below 5 MiB or no parallel part (" +
                        std::to_string(options_.part_size) + ", " +
                        std::to_string(options_.parallel_parts) + ")");
  }
}

ObjectWriter::~ObjectWriter() {
  if (!finished_) abandon();
}

void ObjectWriter::append(std::span<const std::byte> bytes) {
  if (finished_)
    throw InternalError("s3: append to s3://" + bucket_ + "/" + key_ + " after it ended");
  appended_ += bytes.size();
  while (!bytes.empty()) {
    const Bytes part_size = next_part_size();
    const std::size_t take = std::min<std::size_t>(part_size - buffer_.size(), bytes.size());
    if (buffer_.capacity() < part_size) buffer_.reserve(part_size);
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
    bytes = bytes.subspan(take);
    // A full buffer goes out only when more bytes follow: the last part may be the whole object.
    if (buffer_.size() == part_size && !bytes.empty()) send_part();
  }
}

void ObjectWriter::wait_oldest() {
  auto oldest = in_flight_.begin();
  const int number = oldest->first;
  std::future<std::string> future = std::move(oldest->second);
  in_flight_.erase(oldest);
  std::string etag = future.get();  // rethrows the part's Error
  if (etags_.size() < static_cast<std::size_t>(number)) etags_.resize(number);
  etags_[number - 1] = std::move(etag);
}

void ObjectWriter::send_part() {
  try {
    if (parts_sent_ == kMostParts) {
      throw Error(ExitCode::kIo, "S3 multipart upload of s3://" + bucket_ + "/" + key_ +
                                     ": the object grows beyond the " +
                                     DescribeBytes(MultipartCapacity(options_.part_size)) +
                                     " that S3's 10,000 parts of an upload carry");
    }
    if (upload_id_.empty()) upload_id_ = client_.create_multipart(bucket_, key_);
    while (static_cast<int>(in_flight_.size()) >= options_.parallel_parts) wait_oldest();
    const int number = ++parts_sent_;
    in_flight_.emplace(number, pool_.submit([this, number, part = std::move(buffer_)] {
      return client_.upload_part(bucket_, key_, upload_id_, number, part);
    }));
    buffer_ = {};
  } catch (...) {
    abandon();
    throw;
  }
}

void ObjectWriter::complete() {
  if (finished_) return;
  try {
    if (upload_id_.empty()) {
      client_.put(bucket_, key_, buffer_);
    } else {
      if (!buffer_.empty()) send_part();
      while (!in_flight_.empty()) wait_oldest();
      client_.complete_multipart(bucket_, key_, upload_id_, etags_);
    }
    finished_ = true;
    buffer_ = {};
  } catch (...) {
    abandon();
    throw;
  }
}

void ObjectWriter::abandon() noexcept {
  if (finished_) return;
  finished_ = true;
  for (auto& [number, future] : in_flight_) {
    try {
      future.get();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the upload is being dropped
    }
  }
  in_flight_.clear();
  buffer_ = {};
  if (upload_id_.empty()) return;
  try {
    client_.abort_multipart(bucket_, key_, upload_id_);
  } catch (...) {  // NOLINT(bugprone-empty-catch): best effort; the bucket's lifecycle rules remain
  }
}

}  // namespace dlbench::s3
