#include "s3/object_writer.h"

#include <gtest/gtest.h>

namespace dlbench::s3 {
namespace {

TEST(PartSize, DoublesEveryThousandPartsUpToFiveGiB) {
  EXPECT_EQ(PartSize(16 * MiB, 1), 16 * MiB);
  EXPECT_EQ(PartSize(16 * MiB, 1000), 16 * MiB);
  EXPECT_EQ(PartSize(16 * MiB, 1001), 32 * MiB);
  EXPECT_EQ(PartSize(16 * MiB, 2001), 64 * MiB);
  EXPECT_EQ(PartSize(16 * MiB, 8001), 4 * GiB);
  EXPECT_EQ(PartSize(16 * MiB, 9001), kLargestPart);
  EXPECT_EQ(PartSize(3 * GiB, 1001), kLargestPart);
  EXPECT_EQ(PartSize(3 * GiB, 10000), kLargestPart);
}

// 10,000 parts of 16 MiB would stop at 156 GiB; growing parts carry S3's largest object (5 TiB),
// and a 781 GiB checkpoint file (a 70B model's optimizer states on one tensor-parallel rank).
TEST(PartSize, TenThousandPartsCarryTheLargestObjectS3Holds) {
  EXPECT_GE(MultipartCapacity(16 * MiB), 5 * 1024 * GiB);
  Bytes total = 0;
  int parts = 0;
  while (total < 781 * GiB) total += PartSize(16 * MiB, ++parts);
  EXPECT_LE(parts, kMostParts);
  EXPECT_LE(PartSize(16 * MiB, parts), 512 * MiB) << "the memory a writer holds stays bounded";
}

}  // namespace
}  // namespace dlbench::s3
