// Darshan's cross-rank reduction on real ranks (mpiexec -n 2 and -n 3): every rank reads its own
// quarter-file-sized part of one shared file in 1 KiB reads and writes a file of its own; rank 0
// checks the run's summary.json against values worked out from Darshan's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "storage/counting_env.h"
#include "storage/io_counts.h"
#include "support/shared_temp_dir.h"
#include "support/test_support.h"
#include "trace/gzip_members.h"
#include "util/file_names.h"
#include "workflow/run_counters.h"

namespace dlbench::workflow {
namespace {

// A rank's <rank>_posix_counters.json.gz, decompressed and parsed; a test failure if it is not
// gzip or its gzip is cut.
nlohmann::json RankCounters(const std::filesystem::path& folder, int rank) {
  std::ifstream file(folder / file_names::RankFile(rank, file_names::kRankCounters),
                     std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  EXPECT_EQ(bytes.substr(0, 2), "\x1f\x8b") << "rank " << rank << "'s counters are not gzip";
  const trace::Inflated inflated = trace::InflateMembers(bytes);
  EXPECT_TRUE(inflated.complete) << "rank " << rank;
  return nlohmann::json::parse(inflated.text);
}

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
  WriteRunCounters(counting, world, results, /*quiet=*/true, {});
  world.barrier();

  EXPECT_TRUE(std::filesystem::exists(dir / (std::to_string(r) + "_posix_counters.json.gz")));
  EXPECT_FALSE(std::filesystem::exists(dir / (std::to_string(r) + "_posix_counters.json")));
  EXPECT_EQ(RankCounters(dir.path(), r).at("rank"), r);
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

// Rank 0 reduces the ranks' records one rank at a time (shared paths agreed first, then each
// rank's shared records and its top files): the summary must be what Darshan's reduction of every
// rank's whole record set gives (storage::ReduceSharedFiles over the ranks' counters files), with
// a file every rank reads, one all but the last rank read, own files of varied sizes, and files
// folded beyond a budget.
TEST(CountersMpi, ReducingOneRankAtATimeGivesDarshansReduction) {
  const mpi::Communicator world = test::World();
  const int r = world.rank(), p = world.size();
  ASSERT_GE(p, 2) << "run with mpiexec -n 2 or more";
  test::SharedTempDir dir(world);
  const auto name = [&](const std::string& file) { return (dir / file).string(); };
  if (world.is_root()) {
    const std::string bytes(8192, 's');
    for (const char* file : {"all.bin", "most.bin"}) {
      auto out = storage::PosixEnv().create(name(file));
      out->append(bytes.data(), bytes.size());
      out->close();
    }
  }
  world.barrier();

  storage::CountingEnv counting(storage::PosixEnv());
  counting.limit_records(12 * storage::CountingEnv::RecordCost(name("own-0-00").size()));
  char buffer[8192] = {};
  {
    auto all = counting.open_read(name("all.bin"));
    all->read_at(static_cast<Bytes>(r) * 100, buffer, 1000 + 500 * static_cast<Bytes>(r));
    if (r < p - 1) counting.open_read(name("most.bin"))->read_at(0, buffer, 4096);
    for (int i = 0; i < 20; ++i) {
      const std::string own = name("own-" + std::to_string(r) + "-" + std::to_string(10 + i));
      auto out = counting.create(own);
      out->append(buffer, static_cast<Bytes>(100 * ((i * 7 + r * 3) % 13) + 1));
      out->close();
    }
  }
  RunResults results(dir.path(), world);
  WriteRunCounters(counting, world, results, /*quiet=*/true, {});
  world.barrier();
  if (!world.is_root()) return;

  std::vector<std::vector<storage::FileCounts>> per_rank;
  for (int rank = 0; rank < p; ++rank) {
    const nlohmann::json json = RankCounters(dir.path(), rank);
    std::vector<storage::FileCounts>& records = per_rank.emplace_back();
    for (const nlohmann::json& record : json.at("files")) {
      records.push_back({record.at("file").get<std::string>(), record.at("rank").get<int>(),
                         storage::CountsFromJson(record.at("counters")),
                         record.value("folded_files", std::uint64_t{0})});
    }
    ASSERT_EQ(records.size(), 13u) << "12 records and the folded one";
    EXPECT_GT(records.back().folded_files, 0u);
  }
  std::vector<storage::FileCounts> reduced = storage::ReduceSharedFiles(per_rank);
  const storage::AggregatePerformance perf = storage::PerformanceBySlowest(reduced);
  std::stable_sort(reduced.begin(), reduced.end(), [](const auto& a, const auto& b) {
    return a.counts.bytes_read + a.counts.bytes_written >
           b.counts.bytes_read + b.counts.bytes_written;
  });

  std::ifstream file(dir / "summary.json");
  const nlohmann::json counters = nlohmann::json::parse(file).at("posix_counters");
  EXPECT_EQ(counters.at("records"), reduced.size());
  // Darshan's shared files are those every rank opened: all.bin; most.bin misses the last rank.
  const auto shared_records =
      std::count_if(reduced.begin(), reduced.end(),
                    [](const storage::FileCounts& record) { return record.rank == -1; });
  EXPECT_EQ(shared_records, 1);
  EXPECT_EQ(counters.at("shared_files"), shared_records);
  EXPECT_EQ(counters.at("folded_records"), p);
  EXPECT_EQ(counters.at("total_bytes"), perf.bytes);
  EXPECT_NEAR(counters.at("agg_time_by_slowest_seconds").get<double>(), perf.time_by_slowest,
              1e-12);
  const nlohmann::json& top = counters.at("top_files");
  ASSERT_EQ(top.size(), kTopCounterFiles);
  for (std::size_t i = 0; i < kTopCounterFiles; ++i) {
    EXPECT_EQ(top[i].at("file"), reduced[i].path) << i;
    EXPECT_EQ(top[i].at("rank"), reduced[i].rank) << i;
    EXPECT_EQ(top[i].at("counters"),
              storage::CountsToJson<nlohmann::json>(reduced[i].counts, /*sparse=*/true))
        << i;
  }
}

// The read time of one rank's record of `file_part` in its <rank>_posix_counters.json.gz.
double RecordReadTime(const std::filesystem::path& folder, int rank, const std::string& file_part) {
  const nlohmann::json json = RankCounters(folder, rank);
  for (const nlohmann::json& record : json.at("files")) {
    if (record.at("file").get<std::string>().find(file_part) != std::string::npos) {
      return record.at("counters").value("POSIX_F_READ_TIME", 0.0);
    }
  }
  ADD_FAILURE() << "rank " << rank << " has no record of " << file_part;
  return 0;
}

TEST(CountersMpi, PerRankReadTimeLeavesTheCheckpointFoldersOut) {
  const mpi::Communicator world = test::World();
  const int r = world.rank(), p = world.size();
  test::SharedTempDir dir(world);
  if (world.is_root()) {
    std::filesystem::create_directories(dir / "data");
    std::filesystem::create_directories(dir / "ckpt");
  }
  world.barrier();
  const std::string rank_name = std::to_string(r) + ".bin";
  storage::CountingEnv counting(storage::PosixEnv());
  char buffer[4096] = {};
  for (const char* folder : {"data", "ckpt"}) {
    const std::string path = (dir / folder / rank_name).string();
    auto out = storage::PosixEnv().create(path);
    out->append(buffer, sizeof buffer);
    out->close();
    auto in = counting.open_read(path);
    for (int i = 0; i < 4; ++i) ASSERT_EQ(in->read_at(1024 * i, buffer, 1024), 1024u);
  }
  RunResults results(dir.path(), world);
  WriteRunCounters(counting, world, results, /*quiet=*/true, {(dir / "ckpt").string()});
  world.barrier();
  if (!world.is_root()) return;
  std::ifstream file(dir / "summary.json");
  const nlohmann::json per_rank =
      nlohmann::json::parse(file).at("posix_counters").at("read_time_per_rank_seconds");
  ASSERT_EQ(per_rank.size(), static_cast<std::size_t>(p));
  for (int rank = 0; rank < p; ++rank) {
    const std::string name = std::to_string(rank) + ".bin";
    // The totals and the records round their ticks apart (~1e-5 of the value): the checkpoint
    // file's read time is the scale that tells "left out" from "counted".
    const double checkpoint = RecordReadTime(dir.path(), rank, "ckpt/" + name);
    ASSERT_GT(checkpoint, 0);
    EXPECT_NEAR(per_rank[static_cast<std::size_t>(rank)].get<double>(),
                RecordReadTime(dir.path(), rank, "data/" + name), checkpoint / 2)
        << "rank " << rank << ": its reads of the dataset only";
  }
}

}  // namespace
}  // namespace dlbench::workflow
