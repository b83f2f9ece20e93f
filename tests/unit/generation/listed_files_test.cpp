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
#include "util/path_text.h"

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

// Entries are matched to files by the number in their names and then by path, so that a
// listing streams through: other names, numbers past the split's files, a name that only starts
// like a file's, and files in the wrong subfolder are not taken for the dataset's.
TEST(ListedFiles, EntriesThatOnlyLookLikeTheDatasetsFilesAreNotTakenForThem) {
  test::MemoryObjectEnv objects;
  config::Config config = Generated(objects, "/bucket/data");
  const DatasetFiles files(config.dataset);
  const std::string train = "/bucket/data/train/";
  objects.remove(files.file(3).path);
  objects.put(files.file(3).path + ".bak", std::string(test::kNpyDatasetFileBytes, 'x'));
  objects.remove(files.file(4).path);
  objects.put(train + "4/" + BaseName(files.file(4).path), "in a folder of that name");
  objects.put(train + "img_9_of_6.npy", std::string(test::kNpyDatasetFileBytes, 'x'));
  objects.put(train + "img_x_of_6.npy", "x");
  objects.put(train + "img_", "x");
  objects.put(train + "notes.txt", "x");
  const ListedFiles listed =
      FindWith(objects, config, ExistingFiles::kTrusted, test::kNpyDatasetFileBytes);
  for (FileIndex g = 0; g < files.total(); ++g) {
    EXPECT_EQ(listed.at(g), g == 3 || g == 4 ? Listed::kWrite : Listed::kComplete) << g;
  }
}

TEST(ListedFiles, FilesInSubfoldersAreFoundWhereTheNamingRulePutsThem) {
  test::TempDir dir;
  config::Config config = test::NpyDataset((dir / "data").string(), 7, 0);
  config.dataset.num_subfolders_train = 3;
  GenerateDataset(config, test::World(), storage::PosixEnv());
  const DatasetFiles files(config.dataset);
  std::filesystem::rename(files.file(5).path,
                          (dir / "data/train/0" / BaseName(files.file(5).path)));
  const ListedFiles listed =
      FindWith(storage::PosixEnv(), config, ExistingFiles::kTrusted, test::kNpyDatasetFileBytes);
  for (FileIndex g = 0; g < 7; ++g) {
    EXPECT_EQ(listed.at(g), g == 5 ? Listed::kWrite : Listed::kAskSize) << g;
  }
}

TEST(ListedFiles, WithoutCompanionsADataFileListedIsEnough) {
  test::MemoryObjectEnv objects;
  const config::Config config = Generated(objects, "/bucket/data", config::Format::kTfrecord);
  const DatasetFiles files(config.dataset);
  objects.remove(files.file(2).companions[0]);
  objects.remove(files.file(5).path);
  const ListedFiles listed = ListedFiles::Find(
      objects, files, ExistingFiles::kTrusted,
      [](const DatasetFile&) { return std::optional<Bytes>(); }, /*with_companions=*/false);
  for (FileIndex g = 0; g < files.total(); ++g) {
    EXPECT_EQ(listed.at(g), g == 5 ? Listed::kWrite : Listed::kComplete) << g;
  }
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
