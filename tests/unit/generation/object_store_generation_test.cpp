// Generation into an Env with an object store's rules (support/memory_object_env.h: whole
// objects, no writes at offsets, no rename, no folders): every data file and companion is
// published whole, with the same bytes as on POSIX, and a second generation keeps them all.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "config/config.h"
#include "generation/generation.h"
#include "generation/generation_resume.h"
#include "storage/file.h"
#include "support/memory_object_env.h"
#include "support/npy_dataset.h"
#include "support/question_counter.h"
#include "support/test_support.h"
#include "util/file_names.h"

namespace dlbench::generation {
namespace {

// Every file under `root` through `env` (by listing, as generation sees them): relative path ->
// bytes.
std::map<std::string, std::string> Tree(storage::Env& env, const std::string& root,
                                        const std::string& relative = "") {
  std::map<std::string, std::string> files;
  const std::string folder = relative.empty() ? root : root + "/" + relative;
  for (const storage::DirectoryEntry& entry : env.list_directory(folder)) {
    const std::string name = relative.empty() ? entry.name : relative + "/" + entry.name;
    if (entry.is_directory) {
      files.merge(Tree(env, root, name));
      continue;
    }
    auto in = env.open_read(root + "/" + name);
    std::string bytes(in->size(), '\0');
    in->read_at(0, bytes.data(), bytes.size());
    files[name] = bytes;
  }
  return files;
}

class ObjectStoreGeneration : public ::testing::TestWithParam<config::Format> {};

TEST_P(ObjectStoreGeneration, PublishesTheSameFilesAsOnPosixAndKeepsThemOnARerun) {
  test::TempDir dir;
  test::MemoryObjectEnv objects;
  config::Config on_disk = test::NpyDataset(dir / "data", 4, 2);
  on_disk.dataset.format = GetParam();
  config::Config in_bucket = on_disk;
  in_bucket.dataset.data_folder = "/bucket/data";
  GenerateDataset(on_disk, test::World(), storage::PosixEnv());
  const RankGeneration first = GenerateDataset(in_bucket, test::World(), objects);
  EXPECT_EQ(first.io.files, 6u);
  EXPECT_EQ(objects.refused(), 0u);
  auto files = Tree(objects, in_bucket.dataset.data_folder);
  auto disk = Tree(storage::PosixEnv(), on_disk.dataset.data_folder);
  EXPECT_EQ(files.erase(file_names::kDatasetMarker), 1u);  // its text names the folder
  EXPECT_EQ(disk.erase(file_names::kDatasetMarker), 1u);
  EXPECT_EQ(files, disk);
  EXPECT_GE(files.size(), 6u);  // the data files and their companions

  // The listings give every object's size: the rerun asks nothing per object (on S3, a HEAD
  // each), only whether the dataset marker exists.
  test::QuestionCounter counter(objects);
  const RankGeneration again = GenerateDataset(in_bucket, test::World(), counter);
  EXPECT_EQ(again.io.files, 0u);
  EXPECT_EQ(again.files_kept, 6u);
  EXPECT_EQ(counter.exists_calls, 1);
  EXPECT_EQ(counter.size_calls, 0);
  auto kept = Tree(objects, in_bucket.dataset.data_folder);
  kept.erase(file_names::kDatasetMarker);
  EXPECT_EQ(kept, files);
}

INSTANTIATE_TEST_SUITE_P(Formats, ObjectStoreGeneration,
                         ::testing::Values(config::Format::kNpy, config::Format::kNpz,
                                           config::Format::kIndexedBinary,
                                           config::Format::kTfrecord),
                         [](const auto& test) { return config::ToString(test.param); });

}  // namespace
}  // namespace dlbench::generation
