#include "staging/tier_counts.h"

#include <gtest/gtest.h>

#include "storage/counting_env.h"
#include "support/test_support.h"

namespace dlbench::staging {
namespace {

using test::TempDir;

TEST(CountsPerTier, CountsEachOperationUnderItsPathsTier) {
  TempDir dir;
  dir.write("pfs/data", std::string(100, 'p'));
  dir.write("nvme/data", std::string(30, 'n'));
  dir.write("other/data", std::string(7, 'o'));
  storage::TierEnv tiers(storage::PosixEnv(), {{.name = "pfs", .path = (dir / "pfs").string()},
                                               {.name = "nvme", .path = (dir / "nvme").string()},
                                               {.name = "idle", .path = (dir / "idle").string()}});
  storage::CountingEnv env(tiers);
  char buffer[200];
  for (const char* path : {"pfs/data", "nvme/data", "other/data", "nvme/data"}) {
    env.open_read((dir / path).string())->read_at(0, buffer, sizeof buffer);
  }
  auto out = env.create((dir / "nvme/new").string());
  out->append("abc", 3);
  out->close();
  env.rename((dir / "nvme/new").string(), (dir / "nvme/new2").string());

  const auto counts = CountsPerTier(tiers, env.files());
  EXPECT_EQ(counts.at("pfs").bytes_read, 100u);
  EXPECT_EQ(counts.at("pfs").opens, 1u);
  EXPECT_EQ(counts.at("nvme").bytes_read, 60u);
  EXPECT_EQ(counts.at("nvme").opens, 3u);  // two reads and the create: Darshan counts every open
  EXPECT_EQ(counts.at("nvme").creates, 1u);
  EXPECT_EQ(counts.at("nvme").bytes_written, 3u);
  EXPECT_EQ(counts.at("nvme").renames, 1u);
  EXPECT_EQ(counts.at("nvme").rename_targets, 1u);
  EXPECT_EQ(counts.at(kUntiered).bytes_read, 7u);
  EXPECT_EQ(counts.at("pfs").bytes_written, 0u);
  EXPECT_EQ(counts.at("idle").opens, 0u);  // a tier nothing touched is listed, with zeros
  EXPECT_EQ(counts.size(), 4u);
}

}  // namespace
}  // namespace dlbench::staging
