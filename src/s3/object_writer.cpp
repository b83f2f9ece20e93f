#include "s3/object_writer.h"

#include <algorithm>
#include <utility>

#include "util/error.h"

namespace dlbench::s3 {

ObjectWriter::ObjectWriter(Client& client, std::string bucket, std::string key,
                           WriteOptions options)
    : client_(client), bucket_(std::move(bucket)), key_(std::move(key)), options_(options) {
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
    const std::size_t room = options_.part_size - buffer_.size();
    const std::size_t take = std::min(room, bytes.size());
    if (buffer_.capacity() < options_.part_size) buffer_.reserve(options_.part_size);
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
    bytes = bytes.subspan(take);
    // A full buffer goes out only when more bytes follow: the last part may be the whole object.
    if (buffer_.size() == options_.part_size && !bytes.empty()) send_part();
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
    if (upload_id_.empty()) upload_id_ = client_.create_multipart(bucket_, key_);
    while (static_cast<int>(in_flight_.size()) >= options_.parallel_parts) wait_oldest();
    const int number = ++parts_sent_;
    in_flight_.emplace(number,
                       std::async(std::launch::async, [this, number, part = std::move(buffer_)] {
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
