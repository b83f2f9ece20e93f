#include "pipeline/prefetch_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "support/watchdog.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using namespace std::chrono_literals;
using dlbench::test::Watchdog;

TEST(PrefetchQueue, CapacityIsAtLeastOne) {
  EXPECT_EQ(PrefetchQueue<int>(0).capacity(), 1u);
  EXPECT_EQ(PrefetchQueue<int>(3).capacity(), 3u);
}

TEST(PrefetchQueue, HandsOutSlotsInSequenceAndReusesThem) {
  PrefetchQueue<int> queue(2, 7);
  int* a = queue.acquire(0);
  int* b = queue.acquire(1);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(*a, 7);  // slots start as the prototype
  EXPECT_NE(a, b);
  // Slot of batch 2 is batch 0's, still in use: not available yet.
  EXPECT_EQ(queue.acquire_for(2, 10ms), nullptr);
  *a = 100;
  *b = 101;
  queue.publish(1);
  EXPECT_EQ(queue.take_for(0, 10ms), nullptr);  // batch 0 not published: order is kept
  queue.publish(0);
  int* first = queue.take(0);
  ASSERT_EQ(first, a);
  EXPECT_EQ(*first, 100);
  queue.release(0);
  int* c = queue.acquire_for(2, 1s);
  EXPECT_EQ(c, a);  // reused, not allocated
  EXPECT_EQ(*queue.take(1), 101);
}

TEST(PrefetchQueue, FillingWhileAProducerHoldsAnUnpublishedSlot) {
  PrefetchQueue<int> queue(2);
  EXPECT_FALSE(queue.filling());
  ASSERT_NE(queue.acquire(0), nullptr);
  EXPECT_TRUE(queue.filling());
  queue.publish(0);
  EXPECT_FALSE(queue.filling());
  ASSERT_NE(queue.take(0), nullptr);
  EXPECT_FALSE(queue.filling());
}

TEST(PrefetchQueue, CloseWakesWaitersAndKeepsPublishedBatches) {
  Watchdog watchdog(30s);
  PrefetchQueue<int> queue(1);
  int* slot = queue.acquire(0);
  ASSERT_NE(slot, nullptr);
  *slot = 5;
  queue.publish(0);
  std::atomic<bool> producer_done{false};
  std::thread producer([&] {
    EXPECT_EQ(queue.acquire(1), nullptr);  // blocks (slot busy) until close
    producer_done = true;
  });
  std::thread consumer([&] { EXPECT_EQ(queue.take(7), nullptr); });  // never published
  queue.close();
  producer.join();
  consumer.join();
  EXPECT_TRUE(producer_done);
  EXPECT_TRUE(queue.closed());
  int* published = queue.take(0);
  ASSERT_NE(published, nullptr);
  EXPECT_EQ(*published, 5);
}

TEST(PrefetchQueue, ProtocolViolationsAreInternalErrors) {
  PrefetchQueue<int> queue(2);
  EXPECT_THROW(queue.publish(0), Error);  // not acquired
  ASSERT_NE(queue.acquire(0), nullptr);
  EXPECT_THROW(queue.release(0), Error);  // not taken
  queue.publish(0);
  ASSERT_NE(queue.take(0), nullptr);
  queue.release(0);
  EXPECT_THROW(queue.acquire(0), Error);  // acquired twice
}

// Many producers fill out of order, one consumer checks it sees every batch in order with its
// content; bounded iterations, a watchdog instead of unbounded waits.
TEST(PrefetchQueue, StressManyProducersDeliverInOrder) {
  Watchdog watchdog(60s);
  constexpr std::uint64_t kBatches = 20000;
  for (std::size_t capacity : {1, 2, 5}) {
    PrefetchQueue<std::uint64_t> queue(capacity);
    std::atomic<std::uint64_t> next{0};
    std::vector<std::thread> producers;
    for (int t = 0; t < 4; ++t) {
      producers.emplace_back([&] {
        for (;;) {
          const std::uint64_t seq = next.fetch_add(1);
          if (seq >= kBatches) return;
          std::uint64_t* slot = queue.acquire(seq);
          if (slot == nullptr) return;
          *slot = seq * 3 + 1;
          queue.publish(seq);
        }
      });
    }
    struct Joiner {  // also on a failed assertion: no producer left waiting
      PrefetchQueue<std::uint64_t>& queue;
      std::vector<std::thread>& threads;
      ~Joiner() {
        queue.close();
        for (std::thread& t : threads) t.join();
      }
    } joiner{queue, producers};
    for (std::uint64_t seq = 0; seq < kBatches; ++seq) {
      std::uint64_t* slot = queue.take_for(seq, 20s);
      ASSERT_NE(slot, nullptr) << "batch " << seq << " never arrived";
      ASSERT_EQ(*slot, seq * 3 + 1);
      queue.release(seq);
    }
  }
}

}  // namespace
}  // namespace dlbench::pipeline
