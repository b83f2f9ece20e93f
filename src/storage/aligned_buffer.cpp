#include "storage/aligned_buffer.h"

#include <cstdint>
#include <cstring>
#include <new>

namespace dlbench::storage {

bool IsAligned(const void* address, Bytes alignment) {
  return (reinterpret_cast<std::uintptr_t>(address) & (alignment - 1)) == 0;
}

AlignedBuffer::AlignedBuffer(Bytes size) { resize(size); }

void AlignedBuffer::resize(Bytes size) {
  if (size > capacity_) {
    const Bytes capacity = AlignUp(size);
    void* memory = std::aligned_alloc(kDirectAlignment, capacity);
    if (memory == nullptr) throw std::bad_alloc();
    std::memset(memory, 0, capacity);
    data_.reset(static_cast<std::byte*>(memory));
    capacity_ = capacity;
  }
  size_ = size;
}

}  // namespace dlbench::storage
