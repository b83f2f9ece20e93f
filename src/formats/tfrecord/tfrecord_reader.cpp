#include "formats/tfrecord/tfrecord_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "formats/io/buffered_reader.h"
#include "formats/io/direct_file.h"
#include "formats/tfrecord/tfrecord_example.h"
#include "storage/file.h"
#include "util/crc32c.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

std::string Hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08X", v);
  return text;
}

std::uint64_t LoadLe(const std::byte* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

enum WireType : int { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class TfrecordFileReader final : public FileReader {
 public:
  TfrecordFileReader(std::unique_ptr<storage::ReadableFile> file, const FileSpec& spec,
                     const FileReadOptions& options)
      : file_(std::move(file)),
        stream_(*file_, options.transfer_size),
        verify_(options.verify_checksums),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()),
        record_offsets_(static_cast<std::size_t>(spec.samples) + 1, 0) {}

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return 0; }

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    const Bytes before = stream_.bytes_read();
    while (known_ < k) skip_record(known_);
    read_record(k, out);
    return stream_.bytes_read() - before;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw CorruptDataError(path(), "tfrecord", what);
  }

  // Reads and checks record k's header; returns the payload length.
  Bytes read_header(std::int64_t k) {
    const Bytes offset = record_offsets_[static_cast<std::size_t>(k)];
    stream_.seek(offset);
    const std::span<const std::byte> h = stream_.peek(tfrecord::kHeaderBytes);
    if (h.size() < tfrecord::kHeaderBytes) {
      if (offset == file_->size() || h.empty()) {
        fail("file ends after " + std::to_string(k) + " records at offset " +
             std::to_string(offset) + ", expected " + std::to_string(samples_));
      }
      fail("truncated record header at offset " + std::to_string(offset) + ": " +
           std::to_string(h.size()) + " of 12 bytes");
    }
    const Bytes length = LoadLe(h.data(), 8);
    // Always: a damaged length would send every later record of the file astray.
    const std::uint32_t expected = crc32c::Mask(crc32c::Value(h.data(), 8));
    const auto found = static_cast<std::uint32_t>(LoadLe(h.data() + 8, 4));
    if (expected != found) {
      fail("wrong length CRC of record " + std::to_string(k) + " at offset " +
           std::to_string(offset) + ": expected " + Hex(expected) + ", found " + Hex(found));
    }
    stream_.advance(tfrecord::kHeaderBytes);
    const Bytes end = offset + tfrecord::kHeaderBytes + length + tfrecord::kFooterBytes;
    if (length > file_->size() || end > file_->size()) {
      fail("truncated record at offset " + std::to_string(offset) + ": payload length " +
           std::to_string(length) + " needs " + std::to_string(end) + " bytes, file has " +
           std::to_string(file_->size()));
    }
    record_offsets_[static_cast<std::size_t>(k) + 1] = end;
    return length;
  }

  void skip_record(std::int64_t k) {
    read_header(k);
    ++known_;
  }

  void read_record(std::int64_t k, std::span<std::byte> out) {
    const Bytes offset = record_offsets_[static_cast<std::size_t>(k)];
    record_ = k;
    const Bytes length = read_header(k);
    crc_ = 0;
    image_found_ = false;
    parse_example(stream_.position() + length, out);
    if (!image_found_)
      fail("record " + std::to_string(k) + " at offset " + std::to_string(offset) +
           " has no 'image' bytes feature");
    const std::span<const std::byte> f = stream_.peek(tfrecord::kFooterBytes);
    if (f.size() < tfrecord::kFooterBytes)
      fail("truncated record at offset " + std::to_string(offset));
    if (verify_) {
      const std::uint32_t expected = crc32c::Mask(crc_);
      const auto found = static_cast<std::uint32_t>(LoadLe(f.data(), 4));
      if (expected != found) {
        fail("wrong data CRC of record " + std::to_string(k) + " at offset " +
             std::to_string(offset) + ": expected " + Hex(expected) + ", found " + Hex(found));
      }
    }
    stream_.advance(tfrecord::kFooterBytes);
    if (known_ == k) ++known_;
  }

  // --- protobuf over the stream; every payload byte goes through Take/Copy/Skip for the CRC.

  [[noreturn]] void malformed(const std::string& what) const {
    fail("malformed Example in record " + std::to_string(record_) + " at offset " +
         std::to_string(record_offsets_[static_cast<std::size_t>(record_)]) + ": " + what);
  }

  void take(std::byte* dst, std::size_t n) {
    const std::span<const std::byte> avail = stream_.peek(n);
    if (avail.size() < n) malformed("unexpected end of file");
    std::memcpy(dst, avail.data(), n);
    if (verify_) crc_ = crc32c::Extend(crc_, avail.data(), n);
    stream_.advance(n);
  }

  void copy(std::byte* dst, Bytes n) {
    if (stream_.read(dst, n) != n) malformed("unexpected end of file");
    if (verify_) crc_ = crc32c::Extend(crc_, dst, n);
  }

  void skip(Bytes n) {
    if (!verify_) {
      stream_.skip(n);
      return;
    }
    while (n > 0) {
      const std::span<const std::byte> avail =
          stream_.peek(static_cast<std::size_t>(std::min<Bytes>(n, stream_.capacity())));
      if (avail.empty()) malformed("unexpected end of file");
      const std::size_t m = static_cast<std::size_t>(std::min<Bytes>(avail.size(), n));
      crc_ = crc32c::Extend(crc_, avail.data(), m);
      stream_.advance(m);
      n -= m;
    }
  }

  std::uint64_t varint(Bytes end) {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (stream_.position() >= end) malformed("varint runs past its message");
      std::byte b;
      take(&b, 1);
      value |= static_cast<std::uint64_t>(b & std::byte{0x7F}) << shift;
      if ((b & std::byte{0x80}) == std::byte{0}) return value;
    }
    malformed("varint longer than 10 bytes");
  }

  // A length-delimited field's end offset, checked against its parent's end.
  Bytes nested(Bytes end) {
    const std::uint64_t length = varint(end);
    if (length > end - stream_.position()) malformed("field length runs past its message");
    return stream_.position() + length;
  }

  void skip_field(std::uint64_t tag, Bytes end) {
    switch (static_cast<int>(tag & 7)) {
      case kVarint:
        varint(end);
        return;
      case kFixed64:
        skip_bounded(8, end);
        return;
      case kFixed32:
        skip_bounded(4, end);
        return;
      case kLengthDelimited: {
        const Bytes field_end = nested(end);
        skip(field_end - stream_.position());
        return;
      }
      default:
        malformed("unsupported wire type " + std::to_string(tag & 7));
    }
  }

  void skip_bounded(Bytes n, Bytes end) {
    if (n > end - stream_.position()) malformed("field runs past its message");
    skip(n);
  }

  void parse_example(Bytes end, std::span<std::byte> out) {
    while (stream_.position() < end) {
      const std::uint64_t tag = varint(end);
      if (tag == 0x0A) {
        parse_features(nested(end), out);
      } else {
        skip_field(tag, end);
      }
    }
  }

  void parse_features(Bytes end, std::span<std::byte> out) {
    while (stream_.position() < end) {
      const std::uint64_t tag = varint(end);
      if (tag == 0x0A) {
        parse_entry(nested(end), out);
      } else {
        skip_field(tag, end);
      }
    }
  }

  // One map<string, Feature> entry. The key normally comes first and the image is then copied
  // straight into `out`; if the value comes first, its location is remembered and fetched once
  // the key turns out to be "image".
  void parse_entry(Bytes end, std::span<std::byte> out) {
    enum class Key { kUnknown, kImage, kOther } key = Key::kUnknown;
    Bytes late_offset = 0;
    Bytes late_length = 0;
    bool late_value = false;
    while (stream_.position() < end) {
      const std::uint64_t tag = varint(end);
      if (tag == 0x0A) {
        const Bytes key_end = nested(end);
        const Bytes key_length = key_end - stream_.position();
        constexpr std::string_view kImage = "image";
        if (key_length == kImage.size()) {
          char text[kImage.size()];
          take(reinterpret_cast<std::byte*>(text), kImage.size());
          key = std::string_view(text, kImage.size()) == kImage ? Key::kImage : Key::kOther;
        } else {
          skip(key_length);
          key = Key::kOther;
        }
      } else if (tag == 0x12) {
        const Bytes value_end = nested(end);
        if (key == Key::kImage) {
          parse_feature(value_end, out, nullptr, nullptr);
          late_value = false;
        } else if (key == Key::kUnknown) {
          late_value = parse_feature(value_end, {}, &late_offset, &late_length);
        } else {
          skip(value_end - stream_.position());
        }
      } else {
        skip_field(tag, end);
      }
    }
    if (key == Key::kImage && late_value) fetch_late(late_offset, late_length, out);
  }

  // A Feature: copies its first bytes_list value into `out`, or, when `out` is empty, records
  // where it is. Returns whether a bytes value was seen.
  bool parse_feature(Bytes end, std::span<std::byte> out, Bytes* where, Bytes* length) {
    bool seen = false;
    while (stream_.position() < end) {
      const std::uint64_t tag = varint(end);
      if (tag != 0x0A) {
        skip_field(tag, end);
        continue;
      }
      const Bytes list_end = nested(end);
      while (stream_.position() < list_end) {
        const std::uint64_t value_tag = varint(list_end);
        if (value_tag != 0x0A || seen) {
          skip_field(value_tag, list_end);
          continue;
        }
        const Bytes value_end = nested(list_end);
        const Bytes n = value_end - stream_.position();
        seen = true;
        if (where != nullptr) {
          *where = stream_.position();
          *length = n;
          skip(n);
        } else {
          check_image_length(n);
          copy(out.data(), n);
          image_found_ = true;
        }
      }
    }
    if (where == nullptr && !seen) malformed("'image' feature holds no bytes value");
    return seen;
  }

  void check_image_length(Bytes n) const {
    if (n != sample_bytes_) {
      malformed("'image' holds " + std::to_string(n) + " bytes, expected " +
                std::to_string(sample_bytes_));
    }
  }

  // The image of an entry whose value preceded its key: read it again by offset.
  void fetch_late(Bytes offset, Bytes n, std::span<std::byte> out) {
    check_image_length(n);
    const Bytes resume = stream_.position();
    const bool verify = verify_;
    verify_ = false;  // its bytes already went into the CRC when they were skipped
    stream_.seek(offset);
    if (stream_.read(out.data(), n) != n) malformed("unexpected end of file");
    verify_ = verify;
    stream_.seek(resume);
    image_found_ = true;
  }

  std::unique_ptr<storage::ReadableFile> file_;
  BufferedReader stream_;
  bool verify_;
  std::int64_t samples_;
  Bytes sample_bytes_;
  std::vector<Bytes> record_offsets_;  // [k] valid for k <= known_
  std::int64_t known_ = 0;             // records whose end offset is known
  std::int64_t record_ = 0;            // record being parsed, for messages
  std::uint32_t crc_ = 0;
  bool image_found_ = false;
};

}  // namespace

std::unique_ptr<FileReader> TfrecordReader::open(storage::Env& env, const FileSpec& spec,
                                                 const FileReadOptions& options) const {
  RejectDirect(options, "tfrecord");
  return std::make_unique<TfrecordFileReader>(env.open_read(spec.path), spec, options);
}

}  // namespace dlbench::formats
