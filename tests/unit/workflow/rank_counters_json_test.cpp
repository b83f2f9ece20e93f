// <rank>_posix_counters.json is written without building a JSON tree (RankCountersJson): its text
// must be, byte for byte, what the tree it replaced dumped — every counter type, doubles of every
// magnitude, paths that need escaping and paths beyond ASCII.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "metrics/json_fields.h"
#include "storage/counts_wire.h"
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

}  // namespace
}  // namespace dlbench::workflow
