#include "generation/listed_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "config/config.h"
#include "generation/dataset_files.h"
#include "generation/generation.h"
#include "storage/file.h"
#include "support/expect_error.h"
#include "support/memory_object_env.h"
#include "support/npy_dataset.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::generation {
namespace {

// A dataset of 6 + 2 npy files (or tfrecord with a DALI index each) generated into `env`.
config::Config Generated(storage::Env& env, const std::string& folder,
                         config::Format format = config::Format::kNpy) {
  config::Config config = test::NpyDataset(folder, 6, 2);
  config.dataset.format = format;
  GenerateDataset(config, test::World(), env);
  return config;
}

ListedFiles FindWith(storage::Env& env, const config::Config& config, ExistingFiles policy,
                     std::optional<Bytes> size, int* asked = nullptr) {
  return ListedFiles::Find(env, DatasetFiles(config.dataset), policy, [&](const DatasetFile&) {
    if (asked != nullptr) ++*asked;
    return size;
  });
}

TEST(ListedFiles, AnObjectStoresListingDecidesEveryFileWithoutAQuestionPerFile) {
  test::MemoryObjectEnv objects;
  const config::Config config = Generated(objects, "/bucket/data");
  const DatasetFiles files(config.dataset);
  objects.remove(files.file(1).path);
  objects.put(files.file(6).path, std::string(100, 'x'));  // replaced by a shorter object
  int asked = 0;
  const ListedFiles listed =
      FindWith(objects, config, ExistingFiles::kTrusted, test::kNpyDatasetFileBytes, &asked);
  for (FileIndex g = 0; g < files.total(); ++g) {
    const bool rewrite = g == 1 || g == 6;
    EXPECT_EQ(listed.at(g), rewrite ? Listed::kWrite : Listed::kComplete) << g;
  }
  EXPECT_EQ(asked, 7);  // every listed file, never the missing one
}

TEST(ListedFiles, AFileWhoseCompanionIsNotListedIsRewritten) {
  test::MemoryObjectEnv objects;
  const config::Config config = Generated(objects, "/bucket/data", config::Format::kTfrecord);
  const DatasetFiles files(config.dataset);
  ASSERT_EQ(files.file(3).companions.size(), 1u);
  objects.remove(files.file(3).companions[0]);
  const ListedFiles listed = FindWith(objects, config, ExistingFiles::kTrusted, std::nullopt);
  for (FileIndex g = 0; g < files.total(); ++g) {
    EXPECT_EQ(listed.at(g), g == 3 ? Listed::kWrite : Listed::kComplete) << g;
  }
}

TEST(ListedFiles, WithoutAPredictableSizeOnlyATrustedMarkerKeepsAndTheWriterIsAskedOnce) {
  test::MemoryObjectEnv objects;
  const config::Config config = Generated(objects, "/bucket/data");
  int asked = 0;
  const ListedFiles trusted =
      FindWith(objects, config, ExistingFiles::kTrusted, std::nullopt, &asked);
  const ListedFiles size_only = FindWith(objects, config, ExistingFiles::kSizeOnly, std::nullopt);
  for (FileIndex g = 0; g < 8; ++g) {
    EXPECT_EQ(trusted.at(g), Listed::kComplete) << g;
    EXPECT_EQ(size_only.at(g), Listed::kWrite) << g;
  }
  EXPECT_EQ(asked, 1);
}

TEST(ListedFiles, APosixListingGivesNoSizeSoListedFilesAreLeftToAskAbout) {
  test::TempDir dir;
  const config::Config config = Generated(storage::PosixEnv(), (dir / "data").string());
  std::filesystem::remove(DatasetFiles(config.dataset).file(7).path);
  int asked = 0;
  const ListedFiles listed = FindWith(storage::PosixEnv(), config, ExistingFiles::kTrusted,
                                      test::kNpyDatasetFileBytes, &asked);
  for (FileIndex g = 0; g < 8; ++g) {
    EXPECT_EQ(listed.at(g), g == 7 ? Listed::kWrite : Listed::kAskSize) << g;
  }
  EXPECT_EQ(asked, 0);
}

TEST(ListedFiles, PackedBytesHoldFourFilesEachAndRefuseAnotherCount) {
  test::MemoryObjectEnv objects;
  const config::Config config = Generated(objects, "/bucket/data");
  objects.remove(DatasetFiles(config.dataset).file(5).path);
  const ListedFiles listed =
      FindWith(objects, config, ExistingFiles::kTrusted, test::kNpyDatasetFileBytes);
  ASSERT_EQ(listed.packed().size(), 2u);
  const ListedFiles received = ListedFiles::Unpack(listed.packed(), 8);
  for (FileIndex g = 0; g < 8; ++g) EXPECT_EQ(received.at(g), listed.at(g)) << g;
  test::ExpectError([&] { ListedFiles::Unpack(listed.packed(), 9); }, ExitCode::kInternal,
                    {"2 bytes do not hold 9 files"});
  test::ExpectError([&] { FindWith(objects, config, ExistingFiles::kNone, std::nullopt); },
                    ExitCode::kInternal, {"no data file"});
}

}  // namespace
}  // namespace dlbench::generation
