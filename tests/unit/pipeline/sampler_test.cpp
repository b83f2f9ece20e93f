#include "pipeline/sampler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

using config::Shuffle;

SamplerOptions Options(std::uint64_t files, std::uint64_t spf, int ranks, std::uint64_t batch) {
  SamplerOptions o;
  o.files = files;
  o.samples_per_file = spf;
  o.ranks = ranks;
  o.batch_size = batch;
  return o;
}

// Every sample read in `epoch` by all ranks, in (rank, step, i) order.
std::vector<SampleRef> ReadOrder(SamplerOptions o, int epoch) {
  std::vector<SampleRef> out;
  for (int r = 0; r < o.ranks; ++r) {
    o.rank = r;
    Sampler sampler(o);
    const EpochOrder order = sampler.epoch(epoch);
    std::vector<SampleRef> batch(o.batch_size);
    for (std::uint64_t s = 0; s < sampler.steps_per_epoch(); ++s) {
      sampler.batch(order, s, batch);
      for (std::uint64_t i = 0; i < o.batch_size; ++i) {
        EXPECT_EQ(batch[i], sampler.sample(order, s, i));
        out.push_back(batch[i]);
      }
    }
  }
  return out;
}

std::uint64_t Global(const SampleRef& s, std::uint64_t spf) { return s.file * spf + s.index; }

struct Shuffles {
  Shuffle file;
  Shuffle sample;
  SampleOrder order;
};

TEST(Sampler, EverySampleAtMostOnceAndEqualStepsOverTheGrid) {
  const Shuffles variants[] = {{Shuffle::kOff, Shuffle::kOff, SampleOrder::kIndex},
                               {Shuffle::kSeed, Shuffle::kOff, SampleOrder::kIndex},
                               {Shuffle::kOff, Shuffle::kSeed, SampleOrder::kIndex},
                               {Shuffle::kRandom, Shuffle::kSeed, SampleOrder::kIndex},
                               {Shuffle::kOff, Shuffle::kSeed, SampleOrder::kFileMajor}};
  for (int ranks : {1, 2, 3, 5}) {
    for (std::uint64_t files : {13, 24, 25, 145}) {
      for (std::uint64_t spf = 1; spf <= 7; ++spf) {
        for (std::uint64_t batch : {1, 4}) {
          for (const Shuffles& v : variants) {
            SamplerOptions o = Options(files, spf, ranks, batch);
            o.file_shuffle = v.file;
            o.sample_shuffle = v.sample;
            o.order = v.order;
            o.random_seed = 99;
            const std::uint64_t n = files * spf;
            const std::uint64_t q = n / static_cast<std::uint64_t>(ranks);
            if (q < batch) {
              EXPECT_THROW(Sampler{o}, Error);
              continue;
            }
            const std::uint64_t steps = q / batch;
            const Sampler sampler(o);
            ASSERT_EQ(sampler.steps_per_epoch(), steps);
            for (int epoch : {1, 2}) {
              const auto reads = ReadOrder(o, epoch);
              ASSERT_EQ(reads.size(), steps * batch * static_cast<std::uint64_t>(ranks));
              std::set<std::uint64_t> distinct;
              for (const SampleRef& s : reads) {
                ASSERT_LT(s.file, files);
                ASSERT_LT(s.index, spf);
                distinct.insert(Global(s, spf));
              }
              ASSERT_EQ(distinct.size(), reads.size())
                  << "a sample read twice: P=" << ranks << " files=" << files << " spf=" << spf;
            }
            const EpochShape& shape = sampler.shape();
            EXPECT_EQ(shape.read_samples + shape.sharding_remainder + shape.partial_batches +
                          shape.capped,
                      n);
          }
        }
      }
    }
  }
}

TEST(Sampler, DivisibleDatasetIsReadExactlyOnce) {
  SamplerOptions o = Options(24, 5, 3, 4);  // 120 samples, 40 per rank, 10 steps of 4
  o.sample_shuffle = Shuffle::kSeed;
  auto reads = ReadOrder(o, 3);
  std::vector<std::uint64_t> globals;
  for (const SampleRef& s : reads) globals.push_back(Global(s, 5));
  std::sort(globals.begin(), globals.end());
  std::vector<std::uint64_t> all(120);
  for (std::uint64_t g = 0; g < 120; ++g) all[g] = g;
  EXPECT_EQ(globals, all);
  const Sampler sampler(o);
  const EpochShape& shape = sampler.shape();
  EXPECT_EQ(shape.sharding_remainder + shape.partial_batches + shape.capped, 0u);
}

TEST(Sampler, OffReadsInSortedOrderWithContiguousShards) {
  SamplerOptions o = Options(10, 3, 2, 2);  // 30 samples, 15 per rank, 7 steps, 1 dropped each
  auto reads = ReadOrder(o, 1);
  std::vector<std::uint64_t> expected;
  for (std::uint64_t g = 0; g < 14; ++g) expected.push_back(g);
  for (std::uint64_t g = 15; g < 29; ++g) expected.push_back(g);
  std::vector<std::uint64_t> globals;
  for (const SampleRef& s : reads) globals.push_back(Global(s, 3));
  EXPECT_EQ(globals, expected);
  EXPECT_EQ(ReadOrder(o, 1), ReadOrder(o, 2));  // off: every epoch the same
  const Sampler sampler(o);
  const EpochShape& shape = sampler.shape();
  EXPECT_EQ(shape.partial_batches, 2u);
  EXPECT_EQ(shape.sharding_remainder, 0u);
}

TEST(Sampler, FileMajorOrderReadsRecordsOfAFileInOrder) {
  SamplerOptions o = Options(20, 6, 1, 3);
  o.order = SampleOrder::kFileMajor;
  o.file_shuffle = Shuffle::kSeed;
  o.sample_shuffle = Shuffle::kSeed;
  const auto reads = ReadOrder(o, 1);
  std::vector<FileIndex> files;
  for (std::size_t i = 0; i < reads.size(); ++i) {
    EXPECT_EQ(reads[i].index, i % 6);
    if (i % 6 == 0) files.push_back(reads[i].file);
  }
  std::vector<FileIndex> sorted = files;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_NE(files, sorted);  // the files were shuffled
}

TEST(Sampler, FileShuffleKeepsSamplesOfAFileTogether) {
  SamplerOptions o = Options(30, 4, 1, 4);
  o.file_shuffle = Shuffle::kSeed;
  const auto reads = ReadOrder(o, 1);
  for (std::size_t i = 0; i < reads.size(); ++i) {
    EXPECT_EQ(reads[i].index, i % 4);
    EXPECT_EQ(reads[i].file, reads[i - i % 4].file);
  }
}

TEST(Sampler, SameSeedSameOrderAndSeedOrEpochChangeIt) {
  for (SampleOrder order : {SampleOrder::kIndex, SampleOrder::kFileMajor}) {
    for (Shuffles v : {Shuffles{Shuffle::kSeed, Shuffle::kOff, order},
                       Shuffles{Shuffle::kOff, Shuffle::kSeed, order},
                       Shuffles{Shuffle::kSeed, Shuffle::kSeed, order}}) {
      SamplerOptions o = Options(25, 3, 3, 2);
      o.file_shuffle = v.file;
      o.sample_shuffle = v.sample;
      o.order = v.order;
      const auto base = ReadOrder(o, 1);
      EXPECT_EQ(base, ReadOrder(o, 1));
      EXPECT_NE(base, ReadOrder(o, 2));  // seed_change_epoch
      SamplerOptions other_seed = o;
      other_seed.seed = 124;
      EXPECT_NE(base, ReadOrder(other_seed, 1));
      SamplerOptions fixed = o;
      fixed.seed_change_epoch = false;
      EXPECT_EQ(ReadOrder(fixed, 1), ReadOrder(fixed, 2));
      SamplerOptions off = o;
      off.file_shuffle = off.sample_shuffle = Shuffle::kOff;
      EXPECT_NE(base, ReadOrder(off, 1));
    }
  }
}

TEST(Sampler, RandomModeUsesTheRunSeed) {
  SamplerOptions o = Options(40, 2, 2, 2);
  o.sample_shuffle = Shuffle::kRandom;
  o.random_seed = 1;
  SamplerOptions other = o;
  other.random_seed = 2;
  SamplerOptions other_train_seed = o;
  other_train_seed.seed = 5;
  EXPECT_NE(ReadOrder(o, 1), ReadOrder(other, 1));
  EXPECT_EQ(ReadOrder(o, 1), ReadOrder(other_train_seed, 1));
}

TEST(Sampler, ShuffledShardsChangeFilesBetweenEpochs) {
  SamplerOptions o = Options(64, 1, 4, 4);
  o.file_shuffle = Shuffle::kSeed;
  o.rank = 1;
  const Sampler sampler(o);
  auto files_of = [&](int epoch) {
    std::set<FileIndex> files;
    const EpochOrder order = sampler.epoch(epoch);
    for (std::uint64_t s = 0; s < sampler.steps_per_epoch(); ++s)
      for (std::uint64_t i = 0; i < 4; ++i) files.insert(sampler.sample(order, s, i).file);
    return files;
  };
  EXPECT_NE(files_of(1), files_of(2));
}

TEST(Sampler, StepCapLimitsStepsAndCountsTheRest) {
  SamplerOptions o = Options(100, 1, 2, 5);  // 50 per rank, 10 steps available
  o.step_cap = 4;
  const Sampler sampler(o);
  EXPECT_EQ(sampler.steps_per_epoch(), 4u);
  EXPECT_EQ(sampler.shape().available_steps, 10u);
  EXPECT_EQ(sampler.shape().capped, 60u);
  EXPECT_EQ(sampler.shape().read_samples, 40u);
}

TEST(Sampler, StepCapAboveTheAvailableStepsStatesTheMaximum) {
  SamplerOptions o = Options(100, 1, 2, 5);
  o.step_cap = 11;
  dlbench::test::ExpectError([&] { Sampler{o}; }, ExitCode::kUsage,
                             {"train.total_training_steps = 11", "at most 10"});
}

TEST(Sampler, TooFewSamplesForOneStepExplainsTheProduct) {
  SamplerOptions o = Options(3, 2, 4, 2);  // 6 samples, 1 per rank, batch 2
  o.files_key = "dataset.num_files_eval";
  o.batch_key = "reader.batch_size_eval";
  dlbench::test::ExpectError(
      [&] { Sampler{o}; }, ExitCode::kUsage,
      {"dataset.num_files_eval", "reader.batch_size_eval = 2", "at least 8"});
}

TEST(Sampler, RejectsZeroSizes) {
  EXPECT_THROW(Sampler{Options(0, 1, 1, 1)}, Error);
  EXPECT_THROW(Sampler{Options(1, 0, 1, 1)}, Error);
  EXPECT_THROW(Sampler{Options(1, 1, 1, 0)}, Error);
}

TEST(Sampler, OneSharedFileWithManySamples) {
  SamplerOptions o = Options(1, 1000, 4, 8);
  o.sample_shuffle = Shuffle::kSeed;
  const auto reads = ReadOrder(o, 1);
  std::set<std::uint64_t> idx;
  for (const SampleRef& s : reads) {
    EXPECT_EQ(s.file, 0u);
    idx.insert(s.index);
  }
  EXPECT_EQ(idx.size(), 4u * 31 * 8);
}

TEST(Sampler, HandlesBillionsOfSamplesWithoutMaterialisingThem) {
  SamplerOptions o = Options(1'000'000, 5000, 512, 400);  // 5e9 samples
  o.sample_shuffle = Shuffle::kSeed;
  o.rank = 511;
  const Sampler sampler(o);
  const EpochOrder order = sampler.epoch(1);
  std::vector<SampleRef> batch(400);
  sampler.batch(order, sampler.steps_per_epoch() - 1, batch);
  for (const SampleRef& s : batch) {
    EXPECT_LT(s.file, 1'000'000u);
    EXPECT_LT(s.index, 5000u);
  }
}

}  // namespace
}  // namespace dlbench::pipeline
