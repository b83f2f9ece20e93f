// The counter records a rank sends to rank 0 at the end of a run: every counter, of every type
// and at every position of the walk, comes back as it was; malformed bytes are refused.
#include "storage/counts_wire.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>

#include "util/error.h"

namespace dlbench::storage {
namespace {

// Two records that differ in every counter: `seed` makes each value distinct.
IoCounts EveryCounterSet(std::uint64_t seed) {
  IoCounts counts;
  std::uint64_t next = seed;
  VisitCounters(
      [&](const char*, auto& value) {
        using T = std::remove_reference_t<decltype(value)>;
        value = static_cast<T>(next++);
        if constexpr (std::is_floating_point_v<T>) value += 0.125;
      },
      counts);
  return counts;
}

void ExpectSameCounters(const IoCounts& a, const IoCounts& b) {
  VisitCounters([](const char* name, const auto& x,
                   const auto& y) { EXPECT_EQ(std::memcmp(&x, &y, sizeof x), 0) << name; },
                a, b);
}

TEST(CountsWire, EveryCounterRoundTrips) {
  CountsOfRank sent;
  sent.totals = EveryCounterSet(1000);
  sent.files.push_back({"/data/train/img_1_of_2.npy", 1, EveryCounterSet(1)});
  sent.files.push_back({"", 0, IoCounts{}});  // all at their defaults, empty path
  IoCounts extremes;
  extremes.mmaps = std::numeric_limits<std::int64_t>::min();
  extremes.bytes_read = std::numeric_limits<std::uint64_t>::max();
  extremes.read_time = -0.0;
  extremes.open_start = std::numeric_limits<double>::denorm_min();
  sent.files.push_back({std::string("a\0b\xff", 4), -1, extremes});

  const CountsOfRank got = DecodeCounts(EncodeCounts(sent));
  ExpectSameCounters(got.totals, sent.totals);
  ASSERT_EQ(got.files.size(), sent.files.size());
  for (std::size_t i = 0; i < sent.files.size(); ++i) {
    EXPECT_EQ(got.files[i].path, sent.files[i].path);
    EXPECT_EQ(got.files[i].rank, sent.files[i].rank);
    ExpectSameCounters(got.files[i].counts, sent.files[i].counts);
  }
}

TEST(CountsWire, OnlyCountersOffTheirDefaultsAreSent) {
  CountsOfRank one;
  one.files.push_back({"f", 0, IoCounts{}});
  const std::size_t empty = EncodeCounts(one).size();
  one.files[0].counts.reads = 3;
  EXPECT_EQ(EncodeCounts(one).size(), empty + 8);
}

TEST(CountsWire, MalformedBytesAreAnInternalError) {
  CountsOfRank sent;
  sent.files.push_back({"/data/f", 0, EveryCounterSet(7)});
  const std::string bytes = EncodeCounts(sent);
  for (const std::string& bad :
       {bytes.substr(0, bytes.size() - 1), bytes.substr(0, 20), bytes + "x", std::string()}) {
    try {
      DecodeCounts(bad);
      ADD_FAILURE() << "accepted " << bad.size() << " bytes";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kInternal);
    }
  }
  // A record count no input of this size can hold is refused before any allocation.
  std::string huge = EncodeCounts(CountsOfRank{});
  const std::uint64_t count = std::numeric_limits<std::uint64_t>::max();
  std::memcpy(huge.data() + huge.size() - 8, &count, 8);
  EXPECT_THROW(DecodeCounts(huge), Error);
}

}  // namespace
}  // namespace dlbench::storage
