#include "storage/recycled.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

namespace dlbench::storage {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)  // clang
constexpr bool kAsan = __has_feature(address_sanitizer);
#else
constexpr bool kAsan = false;
#endif

struct Base {
  virtual ~Base() = default;
};

struct Small final : Base, Recycled<Small> {
  std::uint64_t value = 7;
};

struct Large : Base, Recycled<Large> {
  char bytes[64] = {};
};
struct Larger final : Large {  // another size than the class that is recycled
  char more[64] = {};
};

TEST(Recycled, TheNextObjectOfTheClassOnTheThreadReusesTheFreedBlock) {
  if (kAsan) GTEST_SKIP() << "no reuse under AddressSanitizer, so that it sees every free";
  void* first = nullptr;
  {
    std::unique_ptr<Base> a = std::make_unique<Small>();
    first = a.get();
  }  // deleted through the base: the derived class's operator delete keeps the block
  const auto b = std::make_unique<Small>();
  EXPECT_EQ(b.get(), first);
  EXPECT_EQ(b->value, 7u);                   // constructed anew in the reused block
  const auto c = std::make_unique<Small>();  // the one cached block is in use: a new one
  EXPECT_NE(c.get(), first);
}

TEST(Recycled, ADerivedClassOfAnotherSizeIsNotCachedAsTheBase) {
  void* freed = nullptr;
  {
    std::unique_ptr<Base> larger = std::make_unique<Larger>();
    freed = larger.get();
  }  // Larger's size is not Large's: back to the global operator delete, not cached
  // Cached, the block would come back here (too small for a Larger, but handed out as a Large);
  // glibc's malloc keeps the sizes apart (another bin), so the block does not.
  const auto large = std::make_unique<Large>();
  EXPECT_NE(static_cast<void*>(large.get()), freed);
}

TEST(Recycled, EachThreadKeepsItsOwnBlockAndFreesItAtExit) {
  if (kAsan) GTEST_SKIP() << "no reuse under AddressSanitizer, so that it sees every free";
  void* main_block = nullptr;
  {
    const auto a = std::make_unique<Small>();
    main_block = a.get();
  }
  void* other_first = nullptr;
  void* other_second = nullptr;
  std::thread([&] {
    {
      const auto a = std::make_unique<Small>();  // not this thread's cached block
      other_first = a.get();
    }
    const auto b = std::make_unique<Small>();
    other_second = b.get();
  }).join();  // the thread's block is freed at its exit (a leak here would fail LeakSanitizer)
  EXPECT_NE(other_first, main_block);
  EXPECT_EQ(other_second, other_first);
  const auto back = std::make_unique<Small>();
  EXPECT_EQ(back.get(), main_block);
}

TEST(SpareString, TakeGivesTheBufferOfTheLargestStringKeptOnTheThread) {
  if (kAsan) GTEST_SKIP() << "no reuse under AddressSanitizer, so that it sees every free";
  (void)SpareString::Take();  // whatever an earlier test left
  std::string path(200, 'p');
  const char* buffer = path.data();
  SpareString::Keep(std::move(path));
  SpareString::Keep(std::string(50, 'q'));  // smaller: the spare keeps the 200-byte buffer
  std::string taken = SpareString::Take();
  EXPECT_TRUE(taken.empty());
  EXPECT_GE(taken.capacity(), 200u);
  const std::string path2(180, 'r');
  taken = path2;  // copied within the capacity (as PosixReadableFile does): the same buffer
  EXPECT_EQ(static_cast<const void*>(taken.data()), static_cast<const void*>(buffer));
  EXPECT_EQ(SpareString::Take().capacity(), std::string().capacity());  // taken: none left
}

TEST(SpareString, ThreadsDoNotShareTheirSpare) {
  SpareString::Keep(std::string(300, 'm'));
  std::size_t other = 0;
  std::thread([&] { other = SpareString::Take().capacity(); }).join();
  EXPECT_EQ(other, std::string().capacity());
}

}  // namespace
}  // namespace dlbench::storage
