#include "formats/tfrecord/tfrecord_example.h"

#include <cstring>

#include "util/crc32c.h"

namespace dlbench::formats::tfrecord {
namespace {

constexpr std::byte kTagField1Bytes{0x0A};  // field 1, length-delimited
constexpr std::byte kTagField2Bytes{0x12};  // field 2, length-delimited
constexpr std::byte kTagInt64List{0x1A};    // Feature.int64_list: field 3, length-delimited
constexpr char kImageKey[] = "image";
constexpr char kSizeKey[] = "size";

class Emitter {
 public:
  explicit Emitter(std::byte* out) : out_(out) {}
  void byte(std::byte b) { out_[n_++] = b; }
  void varint(std::uint64_t v) { n_ += EncodeVarint(v, out_ + n_); }
  void text(const char* s, std::size_t length) {
    std::memcpy(out_ + n_, s, length);
    n_ += length;
  }
  std::size_t length() const { return n_; }

 private:
  std::byte* out_;
  std::size_t n_ = 0;
};

}  // namespace

std::size_t EncodeVarint(std::uint64_t value, std::byte* out) {
  std::size_t n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<std::byte>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<std::byte>(value);
  return n;
}

ExampleLayout::ExampleLayout(Bytes image_bytes) : image_bytes_(image_bytes) {
  const Bytes b = image_bytes;
  const Bytes image_key = sizeof(kImageKey) - 1;
  const Bytes size_key = sizeof(kSizeKey) - 1;
  const Bytes bl = 1 + VarintLength(b) + b;                                   // BytesList
  const Bytes fb = 1 + VarintLength(bl) + bl;                                 // Feature{bytes_list}
  const Bytes e1 = 2 + image_key + 1 + VarintLength(fb) + fb;                 // map entry "image"
  const Bytes il = 1 + 1 + VarintLength(b);                                   // Int64List, packed
  const Bytes fi = 1 + VarintLength(il) + il;                                 // Feature{int64_list}
  const Bytes e2 = 2 + size_key + 1 + VarintLength(fi) + fi;                  // map entry "size"
  const Bytes f = (1 + VarintLength(e1) + e1) + (1 + VarintLength(e2) + e2);  // Features

  Emitter p(prefix_.data());
  p.byte(kTagField1Bytes);  // Example.features
  p.varint(f);
  p.byte(kTagField1Bytes);  // Features.feature entry
  p.varint(e1);
  p.byte(kTagField1Bytes);  // key
  p.varint(image_key);
  p.text(kImageKey, image_key);
  p.byte(kTagField2Bytes);  // value
  p.varint(fb);
  p.byte(kTagField1Bytes);  // Feature.bytes_list
  p.varint(bl);
  p.byte(kTagField1Bytes);  // BytesList.value
  p.varint(b);
  prefix_length_ = p.length();

  Emitter s(suffix_.data());
  s.byte(kTagField1Bytes);  // Features.feature entry
  s.varint(e2);
  s.byte(kTagField1Bytes);  // key
  s.varint(size_key);
  s.text(kSizeKey, size_key);
  s.byte(kTagField2Bytes);  // value
  s.varint(fi);
  s.byte(kTagInt64List);
  s.varint(il);
  s.byte(kTagField1Bytes);  // Int64List.value, packed
  s.varint(VarintLength(b));
  s.varint(b);
  suffix_length_ = s.length();
}

std::array<std::byte, kHeaderBytes> EncodeHeader(Bytes payload_bytes) {
  std::array<std::byte, kHeaderBytes> header{};
  for (int i = 0; i < 8; ++i) header[i] = static_cast<std::byte>(payload_bytes >> (8 * i));
  const std::uint32_t crc = crc32c::Mask(crc32c::Value(header.data(), 8));
  for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<std::byte>(crc >> (8 * i));
  return header;
}

}  // namespace dlbench::formats::tfrecord
