// Darshan's cross-rank reduction on real ranks (mpiexec -n 2 and -n 3): every rank reads its own
// quarter-file-sized part of one shared file in 1 KiB reads and writes a file of its own; rank 0
// checks the run's summary.json against values worked out from Darshan's rules.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "storage/counting_env.h"
#include "support/shared_temp_dir.h"
#include "support/test_support.h"
#include "workflow/run_counters.h"

namespace dlbench::workflow {
namespace {

TEST(CountersMpi, SharedFileIsReducedAndOwnFilesKeepTheirRank) {
  const mpi::Communicator world = test::World();
  const int r = world.rank(), p = world.size();
  ASSERT_GE(p, 2) << "run with mpiexec -n 2 or more";
  test::SharedTempDir dir(world);
  const std::string shared = (dir / "shared.bin").string();
  if (world.is_root()) {
    const std::string bytes(static_cast<std::size_t>(4096 * p), 's');
    auto out = storage::PosixEnv().create(shared);
    out->append(bytes.data(), bytes.size());
    out->close();
  }
  world.barrier();

  storage::CountingEnv counting(storage::PosixEnv());
  {
    auto in = counting.open_read(shared);
    char buffer[1024];
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(in->read_at(static_cast<Bytes>(4096 * r + 1024 * i), buffer, 1024), 1024u);
    }
    auto own = counting.create((dir / ("own" + std::to_string(r))).string());
    own->append(buffer, 100);
    own->close();
  }
  RunResults results(dir.path(), world);
  WriteRunCounters(counting, world, results, /*quiet=*/true);
  world.barrier();

  EXPECT_TRUE(std::filesystem::exists(dir / (std::to_string(r) + "_posix_counters.json")));
  if (world.is_root()) {
    std::ifstream file(dir / "summary.json");
    const nlohmann::json summary = nlohmann::json::parse(file);
    const nlohmann::json& counters = summary.at("posix_counters");
    EXPECT_EQ(counters.at("shared_files"), 1);
    EXPECT_EQ(counters.at("records"), p + 1);
    EXPECT_EQ(counters.at("total_bytes"), 4096 * p + 100 * p);
    const nlohmann::json& totals = counters.at("totals");
    EXPECT_EQ(totals.at("POSIX_OPENS"), 2 * p);
    EXPECT_EQ(totals.at("POSIX_READS"), 4 * p);
    EXPECT_EQ(totals.at("POSIX_WRITES"), p);
    EXPECT_EQ(totals.at("POSIX_SIZE_READ_100_1K"), 4 * p);  // 1024 is the top of 100_1K
    EXPECT_EQ(totals.at("POSIX_SIZE_WRITE_100_1K"), 0);
    EXPECT_EQ(totals.at("POSIX_SIZE_WRITE_0_100"), p);
    bool found_shared = false;
    for (const nlohmann::json& record : counters.at("top_files")) {
      const nlohmann::json& c = record.at("counters");
      if (record.at("file") != shared) {
        EXPECT_GE(record.at("rank"), 0);
        EXPECT_EQ(c.at("POSIX_BYTES_WRITTEN"), 100);
        continue;
      }
      found_shared = true;
      EXPECT_EQ(record.at("rank"), -1);
      EXPECT_EQ(c.at("POSIX_OPENS"), p);
      EXPECT_EQ(c.at("POSIX_BYTES_READ"), 4096 * p);
      EXPECT_EQ(c.at("POSIX_MAX_BYTE_READ"), 4096 * p - 1);
      // Per rank: 3 consecutive reads, and the first is sequential unless it is at offset 0.
      EXPECT_EQ(c.at("POSIX_CONSEC_READS"), 3 * p);
      EXPECT_EQ(c.at("POSIX_SEQ_READS"), 3 * p + (p - 1));
      EXPECT_EQ(c.at("POSIX_ACCESS1_ACCESS"), 1024);
      EXPECT_EQ(c.at("POSIX_ACCESS1_COUNT"), 4 * p);
      EXPECT_EQ(c.at("POSIX_FASTEST_RANK_BYTES"), 4096);
      EXPECT_EQ(c.at("POSIX_SLOWEST_RANK_BYTES"), 4096);
      EXPECT_GE(c.at("POSIX_SLOWEST_RANK").get<int>(), 0);
      EXPECT_LT(c.at("POSIX_SLOWEST_RANK").get<int>(), p);
      EXPECT_GE(c.at("POSIX_F_SLOWEST_RANK_TIME").get<double>(),
                c.at("POSIX_F_FASTEST_RANK_TIME").get<double>());
      EXPECT_FALSE(c.contains("POSIX_F_VARIANCE_RANK_BYTES"));  // 0, so left out (sparse)
    }
    EXPECT_TRUE(found_shared);
    // Each rank's read time over its own records, in rank order: they add up to the total.
    const nlohmann::json& per_rank = counters.at("read_time_per_rank_seconds");
    ASSERT_EQ(per_rank.size(), static_cast<std::size_t>(p));
    double sum = 0;
    for (const nlohmann::json& seconds : per_rank) {
      EXPECT_GT(seconds.get<double>(), 0);
      sum += seconds.get<double>();
    }
    EXPECT_NEAR(sum, totals.at("POSIX_F_READ_TIME").get<double>(), 1e-9);
    EXPECT_GT(summary.at("metric").at("posix_agg_perf_by_slowest_MiB_per_second").get<double>(), 0);
  }
}

}  // namespace
}  // namespace dlbench::workflow
