// DLIO's tf.train.Example {image: bytes_list[1], size: int64_list[1]} hand-encoded in protobuf
// wire format, and the TFRecord framing sizes around it. The
// encoding around the image bytes depends only on the image length, so a writer emits a prefix,
// streams the image, then emits a suffix.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "util/units.h"

namespace dlbench::formats::tfrecord {

// Length of the record framing: 8-byte length, 4-byte length CRC, 4-byte payload CRC.
inline constexpr Bytes kHeaderBytes = 12;
inline constexpr Bytes kFooterBytes = 4;

constexpr std::size_t VarintLength(std::uint64_t value) {
  std::size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}
// Writes `value` at `out` and returns the bytes written (at most 10).
std::size_t EncodeVarint(std::uint64_t value, std::byte* out);

// The Example bytes before and after the image, for an image of `image_bytes`.
class ExampleLayout {
 public:
  explicit ExampleLayout(Bytes image_bytes);
  std::span<const std::byte> prefix() const { return {prefix_.data(), prefix_length_}; }
  std::span<const std::byte> suffix() const { return {suffix_.data(), suffix_length_}; }
  Bytes payload_bytes() const { return prefix_length_ + image_bytes_ + suffix_length_; }
  Bytes record_bytes() const { return kHeaderBytes + payload_bytes() + kFooterBytes; }

 private:
  Bytes image_bytes_;
  std::array<std::byte, 48> prefix_{};
  std::size_t prefix_length_ = 0;
  std::array<std::byte, 40> suffix_{};
  std::size_t suffix_length_ = 0;
};

// The 12 header bytes of a record whose payload is `payload_bytes` long.
std::array<std::byte, kHeaderBytes> EncodeHeader(Bytes payload_bytes);

}  // namespace dlbench::formats::tfrecord
