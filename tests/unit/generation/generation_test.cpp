#include "generation/generation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "generation/dataset_files.h"
#include "generation/generation_resume.h"
#include "storage/atomic_file.h"
#include "storage/counting_env.h"
#include "storage/env_wrapper.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "support/npy_dataset.h"
#include "support/pending_writes_env.h"
#include "support/question_counter.h"
#include "support/test_support.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::generation {
namespace {

namespace fs = std::filesystem;

// 6 train + 2 eval NPY files of 2 samples of 32x32 bytes: 128 + 2048 bytes each.
config::Config TinyNpy(const fs::path& folder) { return test::NpyDataset(folder / "data", 6, 2); }

constexpr Bytes kNpyFileBytes = test::kNpyDatasetFileBytes;

std::string ReadAll(const fs::path& path) {
  std::string bytes(fs::file_size(path), '\0');
  std::ifstream in(path, std::ios::binary);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

std::vector<fs::path> Listing(const fs::path& folder) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t CountEnding(const std::vector<fs::path>& files, const std::string& suffix) {
  return static_cast<std::size_t>(std::count_if(files.begin(), files.end(), [&](const auto& p) {
    return p.filename().string().ends_with(suffix);
  }));
}

TEST(GenerateDataset, WritesEveryFileWithItsExactSizeAndMarksTheDatasetComplete) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  const RankGeneration result = GenerateDataset(config, test::World(), storage::PosixEnv());

  EXPECT_EQ(result.io.files, 8u);
  EXPECT_EQ(result.io.bytes, 8 * kNpyFileBytes);
  EXPECT_LE(result.io.start, result.io.end);
  EXPECT_FALSE(result.shared_files);
  const fs::path data = config.dataset.data_folder;
  for (const char* name : {"train/img_0_of_6.npy", "train/img_5_of_6.npy", "valid/img_0_of_2.npy",
                           "valid/img_1_of_2.npy"}) {
    ASSERT_TRUE(fs::exists(data / name)) << name;
    EXPECT_EQ(fs::file_size(data / name), kNpyFileBytes) << name;
  }
  const auto files = Listing(data);
  EXPECT_EQ(CountEnding(files, ".npy"), 8u);
  EXPECT_EQ(CountEnding(files, ".dlbench-partial"), 0u);
  EXPECT_TRUE(IsDatasetComplete(storage::PosixEnv(), config));
}

TEST(GenerateDataset, ThreadsWriteTheSameDatasetAsOneThread) {
  test::TempDir one_dir, many_dir;
  config::Config one = TinyNpy(one_dir.path());
  config::Config many = TinyNpy(many_dir.path());
  many.dataset.generation_threads = 3;
  GenerateDataset(one, test::World(), storage::PosixEnv());
  const RankGeneration result = GenerateDataset(many, test::World(), storage::PosixEnv());
  EXPECT_EQ(result.io.files, 8u);
  for (const char* name :
       {"train/img_0_of_6.npy", "train/img_4_of_6.npy", "valid/img_1_of_2.npy"}) {
    const std::string bytes_a = ReadAll(fs::path(one.dataset.data_folder) / name);
    const std::string bytes_b = ReadAll(fs::path(many.dataset.data_folder) / name);
    EXPECT_EQ(bytes_a.size(), kNpyFileBytes);
    EXPECT_EQ(bytes_a, bytes_b) << name << ": content depends only on (seed, file, offset)";
  }
}

TEST(GenerateDataset, FilesDifferFromEachOther) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  GenerateDataset(config, test::World(), storage::PosixEnv());
  const std::string bytes_a =
      ReadAll(fs::path(config.dataset.data_folder) / "train/img_0_of_6.npy");
  const std::string bytes_b =
      ReadAll(fs::path(config.dataset.data_folder) / "train/img_1_of_6.npy");
  EXPECT_EQ(bytes_a.substr(0, 128), bytes_b.substr(0, 128));  // same header
  EXPECT_NE(bytes_a.substr(128), bytes_b.substr(128));
}

TEST(GenerateDataset, FailedWriteNamesTheFileExitsThreeAndLeavesNoPartialFileUnderAFinalName) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  storage::FaultInjectionEnv faulty(storage::PosixEnv());
  // Files are small (one write each): the 4th write to a data file is the 4th file, img_3_of_6.
  faulty.inject(
      storage::Fault(storage::FaultOp::kWrite).nth(4).error(ENOSPC).on_paths_containing(".npy"));
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), faulty); }, ExitCode::kIo,
                             {"train/img_3_of_6.npy", "No space left"});
  const fs::path data = config.dataset.data_folder;
  for (const fs::path& file : Listing(data)) {
    if (file.extension() == ".npy") {
      EXPECT_EQ(fs::file_size(file), kNpyFileBytes) << file;
    }
    EXPECT_FALSE(file.filename().string().ends_with(".dlbench-partial")) << file;
  }
  EXPECT_FALSE(fs::exists(data / "train/img_3_of_6.npy"));
  EXPECT_FALSE(IsDatasetComplete(storage::PosixEnv(), config));

  // The rerun keeps the three complete files and writes the other five.
  const RankGeneration rerun = GenerateDataset(config, test::World(), storage::PosixEnv());
  EXPECT_EQ(rerun.files_kept, 3u);
  EXPECT_EQ(rerun.io.files, 5u);
  EXPECT_EQ(CountEnding(Listing(data), ".npy"), 8u);
  EXPECT_TRUE(IsDatasetComplete(storage::PosixEnv(), config));
}

// HDF5 writes through the Env too (formats/hdf5/hdf5_env_driver.h): a failed data write, or a
// failed fsync while HDF5 closes the file, is the Env's error, and the partial file goes.
TEST(GenerateDataset, FailedHdf5WriteOrSyncExitsThreeNamingFileAndOperationAndLeavesNoPartial) {
  for (const storage::FaultOp op : {storage::FaultOp::kWrite, storage::FaultOp::kSync}) {
    test::TempDir dir;
    config::Config config = TinyNpy(dir.path());
    config.dataset.format = config::Format::kHdf5;
    config.dataset.fsync = true;
    storage::FaultInjectionEnv faulty(storage::PosixEnv());
    faulty.inject(storage::Fault(op).error(ENOSPC).on_paths_containing("img_3_of_6"));
    dlbench::test::ExpectError(
        [&] { GenerateDataset(config, test::World(), faulty); }, ExitCode::kIo,
        {"train/img_3_of_6.hdf5", std::string(storage::ToString(op)) + " ", "injected"});
    const fs::path data = config.dataset.data_folder;
    EXPECT_EQ(CountEnding(Listing(data), ".dlbench-partial"), 0u);
    EXPECT_FALSE(fs::exists(data / "train/img_3_of_6.hdf5"));
    EXPECT_FALSE(IsDatasetComplete(storage::PosixEnv(), config));
    const RankGeneration rerun = GenerateDataset(config, test::World(), storage::PosixEnv());
    EXPECT_EQ(rerun.files_kept + rerun.io.files, 8u);
    EXPECT_TRUE(IsDatasetComplete(storage::PosixEnv(), config));
  }
}

TEST(GenerateDataset, RerunRemovesOurPartialFilesRedoesShortFilesAndKeepsForeignFiles) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  GenerateDataset(config, test::World(), storage::PosixEnv());
  const fs::path data = config.dataset.data_folder;
  // An interrupted run: a truncated file under a final name cannot happen through dlbench, but a
  // copy gone wrong can; a partial file of ours; files that are not ours.
  fs::resize_file(data / "train/img_2_of_6.npy", 100);
  std::ofstream(storage::PartialPathFor((data / "train/img_4_of_6.npy").string())) << "half";
  std::ofstream(data / "train/notes.txt") << "mine";
  std::ofstream(data / "train/.hidden.dlbench") << "mine too";
  fs::remove(data / file_names::kDatasetMarker);

  const RankGeneration rerun = GenerateDataset(config, test::World(), storage::PosixEnv());
  EXPECT_EQ(rerun.io.files, 1u);
  EXPECT_EQ(rerun.files_kept, 7u);
  EXPECT_EQ(rerun.partials_removed, 1u);
  EXPECT_EQ(fs::file_size(data / "train/img_2_of_6.npy"), kNpyFileBytes);
  EXPECT_TRUE(fs::exists(data / "train/notes.txt"));
  EXPECT_TRUE(fs::exists(data / "train/.hidden.dlbench"));
  EXPECT_EQ(CountEnding(Listing(data), ".dlbench-partial"), 0u);
}

// An object store keeps the uploads a killed run started: a rerun aborts those of each folder it
// writes, before writing, and counts them with the partial files.
TEST(GenerateDataset, ARerunAbortsThePendingWritesOfTheFoldersItWrites) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  test::PendingWritesEnv env(storage::PosixEnv(), 2);
  const RankGeneration run = GenerateDataset(config, test::World(), env);
  std::vector<std::string> asked = env.asked;
  std::sort(asked.begin(), asked.end());
  const std::string data = config.dataset.data_folder;
  EXPECT_EQ(asked,
            (std::vector<std::string>{data, JoinPath(data, "train"), JoinPath(data, "valid")}));
  EXPECT_EQ(run.partials_removed, 6u);
  EXPECT_EQ(run.io.files, 8u);
}

TEST(GenerateDataset, ChangedFingerprintRegeneratesFilesOfTheSameSize) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  GenerateDataset(config, test::World(), storage::PosixEnv());
  config.dataset.content.seed = 99;  // same sizes, other content
  const RankGeneration rerun = GenerateDataset(config, test::World(), storage::PosixEnv());
  // Sizes are predictable, so same-size files are kept even though the seed changed...
  EXPECT_EQ(rerun.files_kept, 8u);
  // ...but a fully kept dataset is still marked with the new fingerprint only after the run.
  EXPECT_TRUE(IsDatasetComplete(storage::PosixEnv(), config));
}

TEST(GenerateDataset, UnwritableFolderIsAnIoErrorNamingIt) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  storage::FaultInjectionEnv faulty(storage::PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kCreateDirectories).error(EACCES));
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), faulty); }, ExitCode::kIo,
                             {config.dataset.data_folder});
}

// A file system with `free` bytes free.
class FreeSpaceEnv final : public storage::EnvWrapper {
 public:
  FreeSpaceEnv(Env& target, Bytes free) : EnvWrapper(target), free_(free) {}
  Bytes free_space(const std::string&) override { return free_; }

 private:
  Bytes free_;
};

// A fresh dataset beyond the free space is refused before a data file is written (exit 3,
// naming both sizes and the folder); one byte more free and it is written. A rerun's folders
// hold files already, which it keeps: they are not counted, so a full disk does not refuse it.
TEST(GenerateDataset, AFreshDatasetBeyondTheFreeSpaceIsAnIoErrorBeforeAnyWrite) {
  test::TempDir dir;
  const config::Config config = TinyNpy(dir.path());
  storage::Env& posix = storage::PosixEnv();
  FreeSpaceEnv small(posix, 10000);
  const std::string message =
      dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), small); },
                                 ExitCode::kIo, {"8 files", config.dataset.data_folder});
  EXPECT_NE(message.find("take 17 KiB but only 9.766 KiB is free"), std::string::npos) << message;
  EXPECT_EQ(CountEnding(Listing(dir.path()), ".npy"), 0u);
  FreeSpaceEnv one_byte_short(posix, 8 * kNpyFileBytes - 1);
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), one_byte_short); },
                             ExitCode::kIo, {"is free at"});

  FreeSpaceEnv enough(posix, 8 * kNpyFileBytes);
  EXPECT_EQ(GenerateDataset(config, test::World(), enough).io.files, 8u);
  FreeSpaceEnv full(posix, 0);
  EXPECT_EQ(GenerateDataset(config, test::World(), full).files_kept, 8u);
}

TEST(GenerateDataset, ImpossibleSizesAreUsageErrors) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  config.dataset.record_length_bytes = 1e18;
  config.dataset.num_samples_per_file = 1000;
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), storage::PosixEnv()); },
                             ExitCode::kUsage, {"num_samples_per_file"});
  EXPECT_FALSE(fs::exists(config.dataset.data_folder));  // refused by every rank before any write
}

// config::Validate refuses both when the generate phase runs (tests/unit/config): a generator
// handed them is a bug.
TEST(GenerateDataset, NothingToGenerateOrNoThreadIsAnInternalError) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  config.dataset.num_files_train = 0;
  config.dataset.num_files_eval = 0;
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), storage::PosixEnv()); },
                             ExitCode::kInternal, {"num_files_train"});
  config = TinyNpy(dir.path());
  config.dataset.generation_threads = 0;
  dlbench::test::ExpectError([&] { GenerateDataset(config, test::World(), storage::PosixEnv()); },
                             ExitCode::kInternal, {"dataset.generation_threads"});
}

// Records the folders fsync'd through it and counts existence and size questions (on top of a
// CountingEnv, which counts the rest).
class RecordingEnv final : public test::QuestionCounter {
 public:
  explicit RecordingEnv(storage::Env& target) : QuestionCounter(target) {}
  std::map<std::string, int> synced;  // folder -> directory syncs

  void sync_directory(const std::string& path) override {
    QuestionCounter::sync_directory(path);
    const std::lock_guard lock(mutex_);
    ++synced[path];
  }

 private:
  std::mutex mutex_;
};

TEST(GenerateDataset, WithoutFsyncIssuesNoFsyncAtAll) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  config.dataset.generation_threads = 2;
  storage::CountingEnv counting(storage::PosixEnv());
  GenerateDataset(config, test::World(), counting);
  const storage::IoCounts counts = counting.counts();
  // The two markers; the 8 data files are created without a name and linked (the test folder's
  // file system has O_TMPFILE: storage::Env::create_for_publish), never renamed.
  EXPECT_EQ(counts.renames, 2u);
  EXPECT_EQ(counts.creates, 8u + 2u);
  EXPECT_EQ(counts.syncs, 0u);
  EXPECT_EQ(counts.directory_syncs, 0u);
}

TEST(GenerateDataset, WithFsyncSyncsEveryFileAndEachFolderOncePerRank) {
  for (const int threads : {1, 3}) {
    test::TempDir dir;
    config::Config config = TinyNpy(dir.path());
    config.dataset.fsync = true;
    config.dataset.generation_threads = threads;
    storage::CountingEnv counting(storage::PosixEnv());
    RecordingEnv env(counting);
    GenerateDataset(config, test::World(), env);
    EXPECT_EQ(counting.counts().syncs, 8u + 2u) << threads;  // the files and the two markers
    const std::string data = config.dataset.data_folder;
    const std::map<std::string, int> expected = {
        {data, 2},  // the "incomplete" and "complete" markers
        {data + "/train", 1},
        {data + "/valid", 1}};
    EXPECT_EQ(env.synced, expected) << threads << " threads";
  }
}

TEST(GenerateDataset, WithFsyncSyncsTheFoldersOfCompanionFilesToo) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  config.dataset.format = config::Format::kTfrecord;  // + a DALI index per file in its own folder
  config.dataset.fsync = true;
  config.dataset.generation_threads = 2;
  storage::CountingEnv counting(storage::PosixEnv());
  RecordingEnv env(counting);
  GenerateDataset(config, test::World(), env);
  EXPECT_EQ(counting.counts().syncs, 2u * 8u + 2u);  // data file + index, and the markers
  const std::string data = config.dataset.data_folder;
  std::map<std::string, int> expected = {{data, 2}};
  for (const std::string& folder : DatasetFiles(config.dataset).folders()) expected[folder] = 1;
  EXPECT_EQ(expected.size(), 5u);  // data, train, valid and their two index folders
  EXPECT_EQ(env.synced, expected);
}

TEST(GenerateDataset, IntoEmptyFoldersLooksUpNoFileAndARerunOnlyTheListedOnes) {
  test::TempDir dir;
  config::Config config = TinyNpy(dir.path());
  config.dataset.generation_threads = 2;
  RecordingEnv fresh(storage::PosixEnv());
  EXPECT_EQ(GenerateDataset(config, test::World(), fresh).io.files, 8u);
  EXPECT_EQ(fresh.exists_calls, 1);  // the marker only
  EXPECT_EQ(fresh.size_calls, 0);

  // One file missing: the other seven are found and kept. The folders' listings show which
  // files are there; a POSIX listing gives no sizes, so each listed file is asked about, and the
  // missing one is not.
  fs::remove(fs::path(config.dataset.data_folder) / "valid/img_1_of_2.npy");
  RecordingEnv rerun(storage::PosixEnv());
  const RankGeneration again = GenerateDataset(config, test::World(), rerun);
  EXPECT_EQ(again.files_kept, 7u);
  EXPECT_EQ(again.io.files, 1u);
  EXPECT_EQ(rerun.exists_calls, 1 + 7);
  EXPECT_EQ(rerun.size_calls, 7);
}

TEST(FoldersHoldNoDataFiles, IgnoresSubfoldersPartialFilesAndTheMarker) {
  test::TempDir dir;
  const fs::path folder = dir.path() / "data";
  EXPECT_TRUE(FoldersHoldNoDataFiles(storage::PosixEnv(), {folder.string()}));  // missing
  fs::create_directories(folder / "train");
  std::ofstream(folder / file_names::kDatasetMarker) << "{}";
  std::ofstream(storage::PartialPathFor((folder / "train/img_0_of_1.npy").string())) << "x";
  EXPECT_TRUE(
      FoldersHoldNoDataFiles(storage::PosixEnv(), {folder.string(), (folder / "train").string()}));
  std::ofstream(folder / "train/notes.txt") << "not ours";
  EXPECT_FALSE(
      FoldersHoldNoDataFiles(storage::PosixEnv(), {folder.string(), (folder / "train").string()}));
  EXPECT_TRUE(FoldersHoldNoDataFiles(storage::PosixEnv(), {folder.string()}));  // not recursive
}

TEST(FoldersHoldNoDataFiles, UnlistableFolderIsAnIoErrorNamingIt) {
  test::TempDir dir;
  const fs::path file = dir.path() / "plain";
  std::ofstream(file) << "x";
  dlbench::test::ExpectError([&] { FoldersHoldNoDataFiles(storage::PosixEnv(), {file.string()}); },
                             ExitCode::kIo, {file.string()});
}

TEST(GenerationBuffer, IsBoundedWhateverTheConfiguredSize) {
  config::DatasetConfig dataset;  // generation_buffer_size 2 GiB by default
  EXPECT_EQ(GenerationBufferBytes(dataset), kMaxGenerationBuffer);
  dataset.generation_buffer_size = 64 * KiB;
  EXPECT_EQ(GenerationBufferBytes(dataset), 64 * KiB);
}

}  // namespace
}  // namespace dlbench::generation
