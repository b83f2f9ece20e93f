// <rank>_posix_counters.json.gz holds JSON written without building a JSON tree (RankCountersJson):
// its text must be, byte for byte, what the tree it replaced dumped — every counter type, doubles
// of every magnitude, paths that need escaping and paths beyond ASCII; the file is that text
// gzip'd (RankCountersGzip).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <limits>
#include <string>

#include "metrics/json_fields.h"
#include "storage/counts_wire.h"
#include "trace/gzip_members.h"
#include "workflow/run_counters.h"

namespace dlbench::workflow {
namespace {

using metrics::Json;

// What WriteRunCounters built and dumped before.
std::string TreeText(const storage::CountsOfRank& counts, int rank) {
  Json rank_file = Json::object();
  rank_file["rank"] = rank;
  rank_file["totals"] = storage::CountsToJson<Json>(counts.totals);
  Json files = Json::array();
  for (const storage::FileCounts& record : counts.files) {
    Json json = Json::object();
    json["file"] = record.path;
    json["rank"] = record.rank;
    json["counters"] = storage::CountsToJson<Json>(record.counts, /*sparse=*/true);
    files.push_back(std::move(json));
  }
  rank_file["files"] = std::move(files);
  return rank_file.dump() + "\n";
}

storage::IoCounts Varied(std::uint64_t seed) {
  storage::IoCounts counts;
  std::uint64_t n = seed;
  const double doubles[] = {0.1,
                            1e-7,
                            123456.789,
                            1e16,
                            3.0,
                            2.5e-5,
                            0.0001,
                            1e-5,
                            1e21,
                            42.0,
                            1e15,
                            -0.5,
                            1.0 / 3,
                            5e-324,
                            1.7e308,
                            100000,
                            0.30000000000000004};
  storage::VisitCounters(
      [&](const char*, auto& value) {
        using T = std::remove_reference_t<decltype(value)>;
        ++n;
        if constexpr (std::is_floating_point_v<T>) {
          value = doubles[n % std::size(doubles)];
        } else if (n % 3 != 0) {  // some counters stay at their defaults (left out when sparse)
          value = static_cast<T>(n * 1000003 % 9973);
        }
      },
      counts);
  return counts;
}

TEST(RankCountersJson, IsTheTextTheJsonTreeDumped) {
  storage::CountsOfRank counts;
  counts.totals = Varied(0);
  counts.files.push_back({"/data/train/img_1_of_8.npy", 3, Varied(1)});
  counts.files.push_back({"quote\" back\\slash\ttab\nnl\x01\x1f\x7f\b\f\r cr", 3, Varied(2)});
  counts.files.push_back({"/données/été/ファイル.npz", -1, Varied(3)});
  counts.files.push_back({"", 0, storage::IoCounts{}});
  storage::IoCounts odd;
  odd.read_time = std::numeric_limits<double>::infinity();  // dumped as null
  odd.meta_time = std::nan("");
  odd.max_byte_read = std::numeric_limits<std::int64_t>::min();
  odd.bytes_read = std::numeric_limits<std::uint64_t>::max();
  counts.files.push_back({"odd", 7, odd});
  EXPECT_EQ(RankCountersJson(counts, 3), TreeText(counts, 3));
  EXPECT_EQ(RankCountersJson({}, 0), TreeText({}, 0));
}

TEST(RankCountersJson, APathThatIsNotUtf8FailsAsTheTreeDid) {
  storage::CountsOfRank counts;
  counts.files.push_back({"bad\xff", 0, storage::IoCounts{}});
  EXPECT_THROW(TreeText(counts, 0), Json::exception);
  EXPECT_THROW(RankCountersJson(counts, 0), Json::exception);
}

// The text of the first gzip member of `bytes` (zlib stops at its end).
std::string FirstMember(const std::string& bytes) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  std::string text(bytes.size() * 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(text.data());
  z.avail_out = static_cast<uInt>(text.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  text.resize(z.total_out);
  inflateEnd(&z);
  return text;
}

TEST(RankCountersGzip, IsTheJsonTextInGzipMembersOfBoundedText) {
  storage::CountsOfRank counts;
  counts.totals = Varied(0);
  for (int i = 0; i < 3000; ++i) {
    counts.files.push_back({"/data/train/img_" + std::to_string(i) + "_of_3000.npy", 0,
                            Varied(static_cast<std::uint64_t>(i) + 1)});
  }
  const std::string text = RankCountersJson(counts, 1);
  ASSERT_GT(text.size(), 2 * kCountersMemberBytes);
  const std::string bytes = RankCountersGzip(counts, 1);
  EXPECT_EQ(bytes.substr(0, 3), "\x1f\x8b\x08");  // gzip's magic, deflate
  const trace::Inflated inflated = trace::InflateMembers(bytes);
  EXPECT_TRUE(inflated.complete);
  EXPECT_EQ(inflated.text, text);
  EXPECT_EQ(FirstMember(bytes), text.substr(0, kCountersMemberBytes));
  EXPECT_LT(bytes.size(), text.size() / 4) << "compact: " << bytes.size() << " of " << text.size();
}

TEST(RankCountersGzip, ASmallFileIsOneMember) {
  const std::string bytes = RankCountersGzip({}, 0);
  EXPECT_EQ(FirstMember(bytes), RankCountersJson({}, 0));
  EXPECT_EQ(trace::InflateMembers(bytes).text, RankCountersJson({}, 0));
}

}  // namespace
}  // namespace dlbench::workflow
