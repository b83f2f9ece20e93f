#include "sweep/grid.h"

#include <gtest/gtest.h>

#include "support/expect_error.h"

namespace dlbench::sweep {
namespace {

TEST(Grid, EveryCombinationLastAxisFastest) {
  const std::vector<GridPoint> points =
      ExpandGrid({ParseGridAxis("reader.read_threads=1,2,4"),
                  ParseGridAxis("++workload.reader.batch_size=8,16")});
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (GridPoint{{"reader.read_threads", "1"}, {"reader.batch_size", "8"}}));
  EXPECT_EQ(points[1], (GridPoint{{"reader.read_threads", "1"}, {"reader.batch_size", "16"}}));
  EXPECT_EQ(points[5], (GridPoint{{"reader.read_threads", "4"}, {"reader.batch_size", "16"}}));
  EXPECT_EQ(GridOverrides(points[3]),
            (std::vector<std::string>{"++workload.reader.read_threads=2",
                                      "++workload.reader.batch_size=16"}));
  EXPECT_EQ(GridFolderName(points[3]), "reader.read_threads=2,reader.batch_size=16");
  EXPECT_EQ(GridLabel(points[3]), "reader.read_threads=2 reader.batch_size=16");
}

TEST(Grid, NoAxesIsOneEmptyPoint) {
  const std::vector<GridPoint> points = ExpandGrid({});
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0].empty());
  EXPECT_EQ(GridFolderName(points[0]), "");
}

TEST(Grid, FolderNamesKeepToSafeCharacters) {
  EXPECT_EQ(GridFolderName({{"dataset.data_folder", "/dev/shm/a b"}}),
            "dataset.data_folder=_dev_shm_a_b");
}

TEST(Grid, RefusesMalformedAxes) {
  test::ExpectError([] { ParseGridAxis("reader.read_threads"); }, ExitCode::kUsage,
                    {"--grid 'reader.read_threads'", "KEY=V1,V2"});
  test::ExpectError([] { ParseGridAxis("=1,2"); }, ExitCode::kUsage, {"the key is empty"});
  test::ExpectError([] { ParseGridAxis("a.b=1,,2"); }, ExitCode::kUsage, {"empty value"});
  test::ExpectError([] { ParseGridAxis("a.b=1,2,1"); }, ExitCode::kUsage, {"'1' is given twice"});
  test::ExpectError(
      [] {
        ExpandGrid({ParseGridAxis("a.b=1"), ParseGridAxis("workload.a.b=2")});
      },
      ExitCode::kUsage, {"key 'a.b' is given twice"});
}

}  // namespace
}  // namespace dlbench::sweep
