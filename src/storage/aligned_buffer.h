// Memory for I/O buffers, and a heap buffer whose address and capacity are multiples of
// kDirectAlignment, as O_DIRECT needs.
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

// Buffers of kHugePageBytes or more are placed on huge pages.
inline constexpr Bytes kHugePageBytes = 2 * MiB;

// Memory for a buffer of `size` bytes at a multiple of `alignment` (a power of two), not
// initialised; released with std::free (FreeBuffer). Throws std::bad_alloc when there is none.
// From kHugePageBytes on, the memory is huge-page aligned and advised to use transparent huge
// pages (madvise MADV_HUGEPAGE, as numpy advises its arrays): its first touch then faults 2 MiB
// at a time. With 4 KiB pages a sample of unet3d's 140 MiB took 36,000 faults; on a VM, where a
// fault costs ~20 us, reading its samples spent more time faulting in buffers than reading.
std::byte* AllocateBuffer(Bytes size, Bytes alignment = kDirectAlignment);
struct FreeBuffer {
  void operator()(std::byte* p) const { std::free(p); }
};

// Reused across I/Os: growing reallocates, shrinking keeps the allocation.
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
  std::unique_ptr<std::byte, FreeBuffer> data_;
  Bytes size_ = 0;
  Bytes capacity_ = 0;
};

}  // namespace dlbench::storage
