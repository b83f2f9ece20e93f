#include "util/count_text.h"

#include <gtest/gtest.h>

namespace dlbench {
namespace {

TEST(CountOf, AgreesWithTheCount) {
  EXPECT_EQ(CountOf(1, "file"), "1 file");
  EXPECT_EQ(CountOf(0, "file"), "0 files");
  EXPECT_EQ(CountOf(16, "metric"), "16 metrics");
  EXPECT_EQ(CountOf(1, "copy", "copies"), "1 copy");
  EXPECT_EQ(CountOf(3, "copy", "copies"), "3 copies");
}

}  // namespace
}  // namespace dlbench
