#include "staging/file_copy.h"

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include "storage/atomic_file.h"
#include "storage/counting_env.h"
#include "storage/env_wrapper.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/memory_object_env.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::staging {
namespace {

using test::TempDir;

std::string Content(std::size_t n, char seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7 + i / 13);
  return s;
}

// Ten files of several sizes (0 bytes, below, at and above the copy buffer) in src/a and src/b.
std::vector<FileCopy> MakeFiles(const TempDir& dir) {
  std::vector<FileCopy> files;
  const std::size_t sizes[] = {0, 1, 100, 4096, 4097, 10000, 65536, 70001, 3, 12345};
  for (int i = 0; i < 10; ++i) {
    const std::string rel = std::string(i % 2 ? "a" : "b") + "/f" + std::to_string(i);
    dir.write("src/" + rel, Content(sizes[i], static_cast<char>(i)));
    files.push_back({(dir / ("src/" + rel)).string(), (dir / ("dst/" + rel)).string()});
  }
  return files;
}

CopyOptions Small(int threads, bool verify) {
  CopyOptions options;
  options.threads = threads;
  options.buffer_bytes = 4096;
  options.verify = verify;
  return options;
}

TEST(CopyFiles, StagedFilesAreIdenticalToTheSource) {
  for (const int threads : {1, 3}) {
    for (const bool verify : {false, true}) {
      TempDir dir;
      const std::vector<FileCopy> files = MakeFiles(dir);
      const CopyStats stats = CopyFiles(storage::PosixEnv(), files, Small(threads, verify));
      EXPECT_EQ(stats.files_copied, 10u);
      EXPECT_EQ(stats.files_skipped, 0u);
      Bytes total = 0;
      for (const FileCopy& f : files) {
        EXPECT_EQ(test::ReadFile(f.to), test::ReadFile(f.from)) << f.to;
        total += std::filesystem::file_size(f.from);
      }
      EXPECT_EQ(stats.bytes_copied, total);
      EXPECT_TRUE(storage::FindPartialFiles(storage::PosixEnv(), (dir / "dst/a").string()).empty());
    }
  }
}

// A unit's paths are asked for when a thread takes it, once, and never all at once; a unit's
// companions (the second copy) are copied with it, into folders created as they are first met.
TEST(CopyUnits, AsksForEachUnitsCopiesOnceWhenItIsTaken) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);  // 10 files: 5 units of 2
  std::mutex mutex;
  std::vector<int> asked(5, 0);
  const CopyStats stats = CopyUnits(
      storage::PosixEnv(), 5,
      [&](std::size_t i) {
        const std::lock_guard lock(mutex);
        ++asked[i];
        return std::vector<FileCopy>{files[2 * i], files[2 * i + 1]};
      },
      Small(3, false));
  EXPECT_EQ(asked, std::vector<int>(5, 1));
  EXPECT_EQ(stats.files_copied, 10u);
  for (const FileCopy& f : files) EXPECT_EQ(test::ReadFile(f.to), test::ReadFile(f.from)) << f.to;
}

TEST(CopyFiles, EveryByteGoesThroughTheEnv) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);
  storage::CountingEnv env(storage::PosixEnv());
  const CopyStats stats = CopyFiles(env, files, Small(2, false));
  EXPECT_EQ(env.counts().bytes_read, stats.bytes_copied);
  EXPECT_EQ(env.counts().bytes_written, stats.bytes_copied);
  EXPECT_EQ(env.counts().renames, 10u);
}

// A copy killed mid-file (the 5th write fails) leaves no file under a final name that is not
// complete; a rerun copies only the files that were missing and ends identical to the source.
TEST(CopyFiles, InterruptedStagingResumes) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);
  storage::FaultInjectionEnv faulty(storage::PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kWrite).nth(5));
  EXPECT_THROW(CopyFiles(faulty, files, Small(1, false)), Error);
  std::uint64_t complete = 0;
  for (const FileCopy& f : files) {
    if (!std::filesystem::exists(f.to)) continue;
    EXPECT_EQ(test::ReadFile(f.to), test::ReadFile(f.from))
        << "a partial file under a final name: " << f.to;
    ++complete;
  }
  EXPECT_GT(complete, 0u);
  EXPECT_LT(complete, 10u);

  storage::CountingEnv env(storage::PosixEnv());
  const CopyStats stats = CopyFiles(env, files, Small(2, true));
  EXPECT_EQ(stats.files_skipped, complete);
  EXPECT_EQ(stats.files_copied, 10u - complete);
  EXPECT_EQ(env.counts().renames, 10u - complete);
  for (const FileCopy& f : files) EXPECT_EQ(test::ReadFile(f.to), test::ReadFile(f.from));
  EXPECT_TRUE(storage::FindPartialFiles(storage::PosixEnv(), (dir / "dst/a").string()).empty());
  EXPECT_TRUE(storage::FindPartialFiles(storage::PosixEnv(), (dir / "dst/b").string()).empty());
}

// An Env whose writes flip the first byte of every buffer: only verification can notice.
class CorruptingEnv final : public storage::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options) override {
    return std::make_unique<File>(target().create(path, options));
  }
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options) override {
    return std::make_unique<File>(target().create_for_publish(path, options));
  }

 private:
  class File final : public storage::WritableFileWrapper {
   public:
    using WritableFileWrapper::WritableFileWrapper;
    void append(const void* buffer, Bytes length) override {
      std::string copy(static_cast<const char*>(buffer), length);
      if (length > 0) copy[0] = static_cast<char>(copy[0] ^ 1);
      target().append(copy.data(), length);
    }
  };
};

TEST(CopyFiles, VerificationCatchesACorruptCopy) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);
  CorruptingEnv corrupting(storage::PosixEnv());
  const std::vector<FileCopy> one{files[5]};
  EXPECT_NO_THROW(CopyFiles(corrupting, one, Small(1, false)));  // unverified: goes unnoticed
  std::filesystem::remove(files[5].to);
  dlbench::test::ExpectError([&] { CopyFiles(corrupting, one, Small(1, true)); }, ExitCode::kIo,
                             {"verification failed"});
  EXPECT_FALSE(std::filesystem::exists(files[5].to));
}

// The same files staged within an object store (support/memory_object_env.h): the copies are
// published whole, and verified after publishing (a copy has no name before): a corrupt one is
// removed again.
TEST(CopyFiles, StagesWithinAnObjectStore) {
  for (const bool verify : {false, true}) {
    TempDir dir;
    dlbench::test::MemoryObjectEnv objects;
    std::vector<FileCopy> files = MakeFiles(dir);
    for (FileCopy& f : files) {
      f.from = "/bucket" + f.from;
      f.to = "/bucket" + f.to;
      objects.put(f.from, test::ReadFile(f.from.substr(7)));
    }
    const CopyStats stats = CopyFiles(objects, files, Small(3, verify));
    EXPECT_EQ(stats.files_copied, 10u);
    for (const FileCopy& f : files) EXPECT_EQ(objects.object(f.to), objects.object(f.from));
    EXPECT_EQ(CopyFiles(objects, files, Small(3, verify)).files_skipped, 10u);  // resumed
  }
  dlbench::test::MemoryObjectEnv objects;
  objects.put("/bucket/src", Content(5000, 1));
  CorruptingEnv corrupting(objects);
  dlbench::test::ExpectError(
      [&] {
        CopyFiles(corrupting, {{"/bucket/src", "/bucket/dst"}}, Small(1, true));
      },
      ExitCode::kIo, {"verification failed"});
  EXPECT_FALSE(objects.exists("/bucket/dst"));
}

TEST(CopyFiles, AFullTierIsAnIoErrorNamingTheFile) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);
  storage::FaultInjectionEnv faulty(storage::PosixEnv());
  faulty.inject(storage::Fault(storage::FaultOp::kWrite).error(ENOSPC).keep_failing());
  dlbench::test::ExpectError([&] { CopyFiles(faulty, files, Small(2, false)); }, ExitCode::kIo,
                             {"dst/"});
}

TEST(CopyFiles, CancelStopsBeforeTheNextFile) {
  TempDir dir;
  const std::vector<FileCopy> files = MakeFiles(dir);
  std::atomic<bool> cancel{true};
  CopyOptions options = Small(2, false);
  options.cancel = &cancel;
  EXPECT_EQ(CopyFiles(storage::PosixEnv(), files, options).files_copied, 0u);
}

}  // namespace
}  // namespace dlbench::staging
