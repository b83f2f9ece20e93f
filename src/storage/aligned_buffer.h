// A heap buffer whose address and capacity are multiples of kDirectAlignment, as O_DIRECT needs.
// Reused across I/Os: growing reallocates, shrinking keeps the allocation.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <span>

#include "storage/file.h"
#include "util/units.h"

namespace dlbench::storage {

// `value` rounded up to a multiple of `alignment` (a power of two).
constexpr Bytes AlignUp(Bytes value, Bytes alignment = kDirectAlignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}
// `value` rounded down to a multiple of `alignment` (a power of two).
constexpr Bytes AlignDown(Bytes value, Bytes alignment = kDirectAlignment) {
  return value & ~(alignment - 1);
}
constexpr bool IsAligned(Bytes value, Bytes alignment = kDirectAlignment) {
  return (value & (alignment - 1)) == 0;
}
bool IsAligned(const void* address, Bytes alignment = kDirectAlignment);

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  // A buffer of `size` bytes (capacity rounded up to the alignment), zero-filled.
  explicit AlignedBuffer(Bytes size);

  // Sets the size; reallocates (without keeping the contents) only if it exceeds the capacity.
  // New memory is zero-filled so that padding written with O_DIRECT is deterministic.
  void resize(Bytes size);

  std::byte* data() { return data_.get(); }
  const std::byte* data() const { return data_.get(); }
  Bytes size() const { return size_; }
  Bytes capacity() const { return capacity_; }
  std::span<std::byte> span() { return {data_.get(), static_cast<std::size_t>(size_)}; }
  std::span<const std::byte> span() const { return {data_.get(), static_cast<std::size_t>(size_)}; }

 private:
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  std::unique_ptr<std::byte, Free> data_;
  Bytes size_ = 0;
  Bytes capacity_ = 0;
};

}  // namespace dlbench::storage
