// AllocateBuffer's alignment and huge-page advice, and AlignedBuffer's growth onto huge pages.
#include "storage/aligned_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

namespace dlbench::storage {
namespace {

using Buffer = std::unique_ptr<std::byte, FreeBuffer>;

TEST(AllocateBuffer, SmallBuffersTakeTheAlignmentAsked) {
  for (const Bytes alignment : {Bytes{16}, Bytes{64}, kDirectAlignment}) {
    const Buffer buffer(AllocateBuffer(100, alignment));
    EXPECT_TRUE(IsAligned(buffer.get(), alignment)) << alignment;
    std::memset(buffer.get(), 1, 100);  // writable over the size asked
  }
  const Buffer empty(AllocateBuffer(0));
  EXPECT_NE(empty.get(), nullptr);
}

TEST(AllocateBuffer, LargeBuffersAreHugePageAligned) {
  for (const Bytes size : {kHugePageBytes, kHugePageBytes + 1, 5 * kHugePageBytes + 100}) {
    const Buffer buffer(AllocateBuffer(size, 16));
    EXPECT_TRUE(IsAligned(buffer.get(), kHugePageBytes)) << size;
    std::memset(buffer.get(), 1, size);
  }
}

// The kernel's own record of the advice: /proc/self/smaps marks the mapping holding a large
// buffer as eligible for transparent huge pages, where THP is "madvise" or "always".
TEST(AllocateBuffer, LargeBuffersAreAdvisedToUseHugePages) {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(setting, modes);
  if (modes.empty() || modes.find("[never]") != std::string::npos) {
    GTEST_SKIP() << "transparent huge pages are off here: " << modes;
  }
  const Bytes size = 8 * kHugePageBytes;
  const Buffer buffer(AllocateBuffer(size));
  const auto address = reinterpret_cast<std::uintptr_t>(buffer.get());
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  std::string eligible;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      eligible = line;
      break;
    }
  }
  if (eligible.empty()) GTEST_SKIP() << "this kernel's smaps has no THPeligible field";
  EXPECT_NE(eligible.find('1'), std::string::npos) << eligible;
}

// (Its 4 KiB alignment and reuse: posix_env_test.cpp.) Growing onto huge pages still zero-fills.
TEST(AlignedBuffer, GrowingLargeIsHugePageAlignedAndZeroFilled) {
  AlignedBuffer buffer(100);
  std::memset(buffer.data(), 7, 100);
  buffer.resize(3 * kHugePageBytes);
  EXPECT_EQ(buffer.capacity(), 3 * kHugePageBytes);
  EXPECT_TRUE(IsAligned(buffer.data(), kHugePageBytes));
  for (Bytes i = 0; i < buffer.size(); i += 4096) EXPECT_EQ(buffer.data()[i], std::byte{0}) << i;
}

}  // namespace
}  // namespace dlbench::storage
