#include "generation/dataset_check.h"

#include <gtest/gtest.h>

#include <string>

#include "generation/dataset_files.h"
#include "generation/generation.h"
#include "generation/generation_resume.h"
#include "support/expect_error.h"
#include "support/memory_object_env.h"
#include "support/npy_dataset.h"
#include "support/question_counter.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::generation {
namespace {

// A dataset another tool wrote (no dlbench marker) on an object store: accepted from one listing
// of its folder, with no question per object and no "folder/." (a key of its own on S3).
TEST(RequireDataset, ADatasetWithoutMarkerOnAnObjectStoreIsCheckedByListing) {
  test::MemoryObjectEnv objects;
  config::Config config = test::NpyDataset("/bucket/data", 40, 0);
  GenerateDataset(config, test::World(), objects);
  objects.remove(DatasetMarkerPath(config));
  test::QuestionCounter counted(objects);
  EXPECT_EQ(RequireDataset(config, counted, test::World()), "");
  EXPECT_LE(counted.exists_calls.load() + counted.size_calls.load(), 3);

  const DatasetFiles files(config.dataset);
  objects.remove(files.file(17).path);
  objects.remove(files.file(30).path);
  test::ExpectError(
      [&] { RequireDataset(config, counted, test::World()); }, ExitCode::kIo,
      {"is missing 2 of 40 configured files", "the first being " + files.file(17).path});
}

}  // namespace
}  // namespace dlbench::generation
