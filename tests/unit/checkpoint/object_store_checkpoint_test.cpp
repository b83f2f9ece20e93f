// Checkpoints on an Env with an object store's rules (support/memory_object_env.h: whole objects,
// no writes at offsets, no rename, no folders): the writer takes its sequential path and writes
// the same bytes as on POSIX, the manifest completes the checkpoint, the reader verifies it, and
// the drain copies it whole (sequentially, markers and manifest published like every file).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checkpoint/checkpoint_reader.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/drain_engine.h"
#include "checkpoint/manifest.h"
#include "support/files.h"
#include "support/memory_object_env.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

constexpr int kObjectStoreRanks = 4;

CheckpointPlan SmallPlan() {
  return CheckpointPlan(test::Transformer(4, 100, 32, 64, 4, 2, 2, 1, 1), test::Default(),
                        kObjectStoreRanks);
}

WriterOptions SmallOptions() {
  WriterOptions o;
  o.threads = 3;
  o.buffer_bytes = 4096;  // files span several chunks
  o.content.seed = 42;
  return o;
}

TEST(ObjectStoreCheckpoint, WritesTheSameFilesAsOnPosixAndReadsThemVerified) {
  const CheckpointPlan plan = SmallPlan();
  dlbench::test::TempDir dir;
  dlbench::test::MemoryObjectEnv objects;
  const std::string on_disk = (dir / "global_epoch1_step1").string();
  const std::string in_bucket = "/bucket/ckpt/global_epoch1_step1";
  CheckpointWriter disk(storage::PosixEnv(), SmallOptions());
  CheckpointWriter bucket(objects, SmallOptions());
  for (Rank r = 0; r < kObjectStoreRanks; ++r) {
    disk.write_rank(on_disk, plan.for_rank(r));
    EXPECT_EQ(bucket.write_rank(in_bucket, plan.for_rank(r)).bytes, plan.for_rank(r).bytes);
  }
  EXPECT_FALSE(IsCheckpointComplete(objects, in_bucket));
  WriteManifest(objects, in_bucket, plan, SmallOptions().content, /*fsync=*/true);
  EXPECT_TRUE(IsCheckpointComplete(objects, in_bucket));
  std::size_t files = 0;
  for (Rank r = 0; r < kObjectStoreRanks; ++r) {
    for (const PlannedFile& f : plan.for_rank(r).files) {
      EXPECT_EQ(objects.object(JoinPath(in_bucket, f.name)),
                dlbench::test::ReadFile(JoinPath(on_disk, f.name)))
          << f.name;
      ++files;
    }
  }
  EXPECT_EQ(objects.keys().size(), files + 1);  // and the manifest: nothing else
  EXPECT_EQ(objects.refused(), 0u);

  CheckpointReaderOptions read;
  read.threads = 2;
  read.buffer_bytes = 4096;
  read.verify = true;
  CheckpointReader reader(objects, read);
  Bytes bytes = 0;
  for (Rank r = 0; r < kObjectStoreRanks; ++r) {
    bytes += reader.read_rank(in_bucket, plan.for_rank(r)).bytes;
  }
  EXPECT_EQ(bytes, plan.summarize().total_bytes);
}

TEST(ObjectStoreCheckpoint, DrainsFromOneFolderToAnotherWhole) {
  const CheckpointPlan plan = SmallPlan();
  dlbench::test::MemoryObjectEnv objects;
  const std::string fast = "/bucket/bb/global_epoch1_step1";
  const std::string capacity = "/bucket/pfs/global_epoch1_step1";
  CheckpointWriter writer(objects, SmallOptions());
  for (Rank r = 0; r < kObjectStoreRanks; ++r) writer.write_rank(fast, plan.for_rank(r));
  WriteManifest(objects, fast, plan, SmallOptions().content, false);
  DrainOptions options;
  options.buffer_bytes = 4096;
  options.marker_timeout = 600;
  options.poll_interval = 0.001;
  std::vector<std::unique_ptr<DrainEngine>> engines;
  for (Rank r = 0; r < kObjectStoreRanks; ++r) {
    DrainJob job;
    job.name = "global_epoch1_step1";
    job.fast_folder = fast;
    job.capacity_folder = capacity;
    job.files = plan.for_rank(r).files;
    job.marks = {r};
    job.world = kObjectStoreRanks;
    job.finisher = r == 0;
    job.manifest = ManifestText(ReadManifest(objects, fast));
    job.token = "save1";
    engines.push_back(std::make_unique<DrainEngine>(objects, options));
    engines.back()->enqueue(std::move(job));
  }
  for (auto it = engines.rbegin(); it != engines.rend(); ++it) {
    for (const DrainOutcome& outcome : (*it)->wait_all()) EXPECT_EQ(outcome.error, "");
  }
  EXPECT_TRUE(IsCheckpointComplete(objects, capacity));
  for (const ManifestEntry& e : ReadManifest(objects, capacity).files) {
    EXPECT_EQ(objects.object(JoinPath(capacity, e.name)), objects.object(JoinPath(fast, e.name)));
  }
  EXPECT_EQ(objects.refused(), 0u);
}

}  // namespace
}  // namespace dlbench::checkpoint
