#include "staging/tier_counts.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace dlbench::staging {
namespace {

using test::TempDir;

TEST(TierCountingEnv, CountsEachOperationUnderItsPathsTier) {
  TempDir dir;
  dir.Write("pfs/data", std::string(100, 'p'));
  dir.Write("nvme/data", std::string(30, 'n'));
  dir.Write("other/data", std::string(7, 'o'));
  storage::TierEnv tiers(storage::PosixEnv(), {{.name = "pfs", .path = (dir / "pfs").string()},
                                               {.name = "nvme", .path = (dir / "nvme").string()}});
  TierCountingEnv env(tiers);
  char buffer[200];
  for (const char* path : {"pfs/data", "nvme/data", "other/data", "nvme/data"}) {
    env.open_read((dir / path).string())->read_at(0, buffer, sizeof buffer);
  }
  auto out = env.create((dir / "nvme/new").string());
  out->append("abc", 3);
  out->close();
  env.rename((dir / "nvme/new").string(), (dir / "nvme/new2").string());

  const auto counts = env.counts();
  EXPECT_EQ(counts.at("pfs").bytes_read, 100u);
  EXPECT_EQ(counts.at("pfs").opens, 1u);
  EXPECT_EQ(counts.at("nvme").bytes_read, 60u);
  EXPECT_EQ(counts.at("nvme").opens, 3u);  // two reads and the create: Darshan counts every open
  EXPECT_EQ(counts.at("nvme").creates, 1u);
  EXPECT_EQ(counts.at("nvme").bytes_written, 3u);
  EXPECT_EQ(counts.at("nvme").renames, 1u);
  EXPECT_EQ(counts.at(TierCountingEnv::kUntiered).bytes_read, 7u);
  EXPECT_EQ(counts.at("pfs").bytes_written, 0u);
  env.reset();
  EXPECT_EQ(env.counts().at("nvme").bytes_read, 0u);
}

}  // namespace
}  // namespace dlbench::staging
