#include "generation/generation_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "util/error.h"

namespace dlbench::generation {
namespace {

TEST(GenerationPlan, FilesOfRankAreRoundRobin) {
  EXPECT_EQ(FilesOfRank(10, 3, 0), (std::vector<FileIndex>{0, 3, 6, 9}));
  EXPECT_EQ(FilesOfRank(10, 3, 1), (std::vector<FileIndex>{1, 4, 7}));
  EXPECT_EQ(FilesOfRank(10, 3, 2), (std::vector<FileIndex>{2, 5, 8}));
  EXPECT_TRUE(FilesOfRank(2, 3, 2).empty());
}

TEST(GenerationPlan, ThreadsOfARankShareItsFilesRoundRobin) {
  // Rank 1 of 3 owns 1, 4, 7, 10, 13; thread 0 of 2 takes positions 0, 2, 4 of that list.
  std::vector<FileIndex> taken;
  FileIndex f = 0;
  for (std::uint64_t step = 0; FileAt(15, 3, 1, 2, 0, step, f); ++step) taken.push_back(f);
  EXPECT_EQ(taken, (std::vector<FileIndex>{1, 7, 13}));
  taken.clear();
  for (std::uint64_t step = 0; FileAt(15, 3, 1, 2, 1, step, f); ++step) taken.push_back(f);
  EXPECT_EQ(taken, (std::vector<FileIndex>{4, 10}));
}

TEST(GenerationPlan, EveryFileWrittenExactlyOnceByTheRankThatOwnsIt) {
  for (FileIndex total : {0, 1, 2, 5, 7, 16, 31}) {
    for (int ranks = 1; ranks <= 5; ++ranks) {
      for (int threads = 1; threads <= 4; ++threads) {
        std::vector<int> writes(total, 0);
        for (int rank = 0; rank < ranks; ++rank) {
          const std::vector<FileIndex> owned = FilesOfRank(total, ranks, rank);
          std::vector<FileIndex> by_threads;
          for (int thread = 0; thread < threads; ++thread) {
            FileIndex f = 0;
            for (std::uint64_t step = 0; FileAt(total, ranks, rank, threads, thread, step, f);
                 ++step) {
              ASSERT_LT(f, total);
              ASSERT_EQ(f % static_cast<FileIndex>(ranks), static_cast<FileIndex>(rank));
              ++writes[f];
              by_threads.push_back(f);
            }
          }
          std::sort(by_threads.begin(), by_threads.end());
          EXPECT_EQ(by_threads, owned) << total << " files, " << ranks << "x" << threads;
        }
        for (FileIndex f = 0; f < total; ++f) {
          EXPECT_EQ(writes[f], 1) << "file " << f << " of " << total << ", " << ranks << "x"
                                  << threads;
        }
      }
    }
  }
}

TEST(GenerationPlan, SharedFilesWhenNoMoreFilesThanRanks) {
  EXPECT_FALSE(UsesSharedFiles(1, 1));  // one rank writes whole files
  EXPECT_TRUE(UsesSharedFiles(1, 2));
  EXPECT_TRUE(UsesSharedFiles(3, 3));
  EXPECT_FALSE(UsesSharedFiles(4, 3));
  EXPECT_FALSE(UsesSharedFiles(0, 3));
}

TEST(GenerationPlan, RejectsImpossibleRankAndThreadNumbers) {
  FileIndex f = 0;
  EXPECT_THROW(FilesOfRank(4, 0, 0), Error);
  EXPECT_THROW(FilesOfRank(4, 2, 2), Error);
  EXPECT_THROW(FileAt(4, 2, 0, 0, 0, 0, f), Error);
}

}  // namespace
}  // namespace dlbench::generation
