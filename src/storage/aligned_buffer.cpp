#include "storage/aligned_buffer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

namespace dlbench::storage {

bool IsAligned(const void* address, Bytes alignment) {
  return (reinterpret_cast<std::uintptr_t>(address) & (alignment - 1)) == 0;
}

std::byte* AllocateBuffer(Bytes size, Bytes alignment) {
  const bool huge = size >= kHugePageBytes;
  if (huge) alignment = std::max(alignment, kHugePageBytes);
  const Bytes capacity = AlignUp(std::max<Bytes>(size, 1), alignment);
  void* memory = std::aligned_alloc(alignment, capacity);
  if (memory == nullptr) throw std::bad_alloc();
  // Advice only: a kernel without transparent huge pages (or with them off) keeps 4 KiB pages.
  if (huge) madvise(memory, capacity, MADV_HUGEPAGE);
  return static_cast<std::byte*>(memory);
}

AlignedBuffer::AlignedBuffer(Bytes size) { resize(size); }

void AlignedBuffer::resize(Bytes size) {
  if (size > capacity_) {
    const Bytes capacity = AlignUp(size);
    data_.reset();  // before the new allocation: the two never coexist
    capacity_ = size_ = 0;
    data_.reset(AllocateBuffer(capacity));
    std::memset(data_.get(), 0, capacity);
    capacity_ = capacity;
  }
  size_ = size;
}

}  // namespace dlbench::storage
