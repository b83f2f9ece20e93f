// PublishedFiles: the data file has no name until publish(), replaces an older file of its name,
// leaves nothing behind without publish(), gets a partial name and a rename where the Env has no
// unnamed files, publishes companions before the data file, and refuses a writer that touches
// its files by name.
#include "generation/published_files.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "storage/file.h"
#include "support/expect_error.h"
#include "support/test_support.h"

namespace dlbench::generation {
namespace {

std::vector<std::string> Names(const test::TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : storage::PosixEnv().list_directory(dir.path().string())) {
    names.push_back(entry.name);
  }
  return names;
}

std::string Contents(const std::string& path) {
  auto in = storage::PosixEnv().open_read(path);
  std::string text(in->size(), '\0');
  in->read_at(0, text.data(), text.size());
  return text;
}

// What a format writer does: create the data file under its partial name, write, sync, close.
void WriteLikeAWriter(storage::Env& env, const std::string& partial, const std::string& text) {
  auto file = env.create(partial);
  file->append(text.data(), text.size());
  file->sync();
  file->close();
}

TEST(PublishedFiles, HasNoNameUntilPublishedAndReplacesAnOlderFile) {
  test::TempDir dir;
  const std::string final_path = dir.write("a.npy", "old, incomplete").string();
  const std::string partial = storage::PartialPathFor(final_path);
  storage::CountingEnv counting(storage::PosixEnv());
  {
    PublishedFiles data(counting, partial, final_path);
    WriteLikeAWriter(data, partial, "complete");
    EXPECT_EQ(Names(dir), std::vector<std::string>{"a.npy"});  // no partial name, old file kept
    EXPECT_EQ(Contents(final_path), "old, incomplete");
    data.publish();
  }
  EXPECT_EQ(Names(dir), std::vector<std::string>{"a.npy"});
  EXPECT_EQ(Contents(final_path), "complete");
  const storage::IoCounts counts = counting.counts();
  EXPECT_EQ(counts.creates, 1u);
  EXPECT_EQ(counts.syncs, 1u);
  EXPECT_EQ(counts.closes, 1u);
  EXPECT_EQ(counts.renames, 0u);
  EXPECT_EQ(counts.bytes_written, 8u);
}

// The assembled formats write a file as one gathered write (formats/io/gathered_appender.h): it
// reaches the file as one write, not one per piece.
TEST(PublishedFiles, AGatheredWriteStaysOneWrite) {
  test::TempDir dir;
  const std::string final_path = dir.path().string() + "/a.jpeg";
  const std::string partial = storage::PartialPathFor(final_path);
  storage::CountingEnv counting(storage::PosixEnv());
  {
    PublishedFiles data(counting, partial, final_path);
    storage::Env& env = data;
    auto file = env.create(partial);
    const std::string a = "gath", b = "ered ", c = "write";
    const std::vector<std::span<const std::byte>> pieces = {
        std::as_bytes(std::span(a)), std::as_bytes(std::span(b)), std::as_bytes(std::span(c))};
    file->append_gathered(pieces);
    file->close();
    data.publish();
  }
  EXPECT_EQ(Contents(final_path), "gathered write");
  EXPECT_EQ(counting.counts().writes, 1u);
  EXPECT_EQ(counting.counts().bytes_written, 14u);
}

TEST(PublishedFiles, WithoutPublishNothingIsLeft) {
  test::TempDir dir;
  const std::string final_path = (dir / "b.npy").string();
  {
    PublishedFiles data(storage::PosixEnv(), storage::PartialPathFor(final_path), final_path);
    WriteLikeAWriter(data, storage::PartialPathFor(final_path), "half");
  }
  EXPECT_TRUE(Names(dir).empty());
}

// What PosixEnv does on a file system without O_TMPFILE files.
class WithoutUnnamedFiles final : public storage::EnvWrapper {
 public:
  using EnvWrapper::EnvWrapper;
  std::unique_ptr<storage::WritableFile> create_for_publish(
      const std::string& path, const storage::PublishOptions& options) override {
    storage::PublishOptions named = options;
    named.partial_name = true;
    return EnvWrapper::create_for_publish(path, named);
  }
};

TEST(PublishedFiles, AnEnvWithoutUnnamedFilesGetsThePartialNameAndARename) {
  test::TempDir dir;
  const std::string final_path = (dir / "c.npy").string();
  const std::string partial = storage::PartialPathFor(final_path);
  WithoutUnnamedFiles declining(storage::PosixEnv());
  PublishedFiles data(declining, partial, final_path);
  WriteLikeAWriter(data, partial, "text");
  EXPECT_EQ(Names(dir), std::vector<std::string>{".c.npy.dlbench-partial"});
  data.publish();
  EXPECT_EQ(Names(dir), std::vector<std::string>{"c.npy"});
  EXPECT_EQ(Contents(final_path), "text");
}

TEST(PublishedFiles, AFailedLinkNamesTheFileAndLeavesNothing) {
  test::TempDir dir;
  const std::string final_path = (dir / "d.npy").string();
  const std::string partial = storage::PartialPathFor(final_path);
  storage::FaultInjectionEnv faults(storage::PosixEnv());
  faults.inject(storage::Fault(storage::FaultOp::kRename)
                    .error(EIO)
                    .on_paths_containing("d.npy")
                    .keep_failing());
  {
    PublishedFiles data(faults, partial, final_path);
    WriteLikeAWriter(data, partial, "text");
    test::ExpectError([&] { data.publish(); }, ExitCode::kIo, {final_path});
  }
  EXPECT_TRUE(Names(dir).empty());
}

TEST(PublishedFiles, AWriterTouchingItsDataFileByNameIsABug) {
  test::TempDir dir;
  const std::string final_path = (dir / "e.npy").string();
  const std::string partial = storage::PartialPathFor(final_path);
  PublishedFiles data(storage::PosixEnv(), partial, final_path);
  auto file = data.create(partial, {});
  test::ExpectError([&] { data.exists(partial); }, ExitCode::kInternal, {"exists", partial});
  test::ExpectError([&] { data.file_size(partial); }, ExitCode::kInternal, {"file_size"});
  test::ExpectError([&] { data.open_read(partial, {}); }, ExitCode::kInternal, {"open_read"});
  test::ExpectError([&] { data.create(partial, {}); }, ExitCode::kInternal, {"create"});
  test::ExpectError([&] { data.remove(partial); }, ExitCode::kInternal, {"remove"});
  test::ExpectError([&] { file->publish(); }, ExitCode::kInternal, {"published its file"});
  test::ExpectError([&] { file->abandon(); }, ExitCode::kInternal, {"abandoned its file"});
  EXPECT_FALSE(data.exists(dir / "other"));  // other paths pass through
  PublishedFiles untouched(storage::PosixEnv(), partial, final_path);
  test::ExpectError([&] { untouched.publish(); }, ExitCode::kInternal, {"did not create"});
}

// Index files (indexed_binary, DALI) are companions: published before the data file, so that a
// data file under its final name always has them; none is visible before publish().
TEST(PublishedFiles, CompanionsArePublishedBeforeTheDataFile) {
  test::TempDir dir;
  const std::string final_path = (dir / "f.bin").string();
  const std::string partial = storage::PartialPathFor(final_path);
  const std::string index = storage::PartialPathFor((dir / "f.idx").string());
  storage::FaultInjectionEnv faults(storage::PosixEnv());
  faults.inject(storage::Fault(storage::FaultOp::kRename).on_paths_containing("f.bin"));
  {
    PublishedFiles data(faults, partial, final_path);
    WriteLikeAWriter(data, partial, "data");
    WriteLikeAWriter(data, index, "index");
    test::ExpectError([&] { data.exists(index); }, ExitCode::kInternal, {"exists", index});
    EXPECT_TRUE(Names(dir).empty());
    test::ExpectError([&] { data.publish(); }, ExitCode::kIo, {final_path});
  }
  EXPECT_EQ(Names(dir), std::vector<std::string>{"f.idx"});  // the index first, then the failure
  {
    PublishedFiles data(storage::PosixEnv(), partial, final_path);
    WriteLikeAWriter(data, index, "index");
    WriteLikeAWriter(data, partial, "data");
    data.publish();
  }
  EXPECT_EQ(Names(dir), (std::vector<std::string>{"f.bin", "f.idx"}));
  EXPECT_EQ(Contents(final_path), "data");
}

}  // namespace
}  // namespace dlbench::generation
