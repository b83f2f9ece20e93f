#include "workflow/folder_claim.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "generation/generation_resume.h"
#include "support/expect_error.h"
#include "support/limited_env.h"
#include "support/test_support.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

void Claim(const fs::path& folder, bool force = false) {
  ClaimFolder(storage::PosixEnv(), folder.string(), "output folder", force);
}

TEST(ClaimFolder, CreatesAMissingFolderWithItsMarker) {
  test::TempDir dir;
  Claim(dir / "a" / "b");
  EXPECT_TRUE(fs::is_regular_file(dir / "a" / "b" / file_names::kFolderMarker));
  Claim(dir / "a" / "b");  // claimed: again is fine
}

TEST(ClaimFolder, AcceptsAnEmptyFolderAndMarksIt) {
  test::TempDir dir;
  fs::create_directory(dir / "empty");
  Claim(dir / "empty");
  EXPECT_TRUE(fs::is_regular_file(dir / "empty" / file_names::kFolderMarker));
}

TEST(ClaimFolder, RefusesAForeignFolderUnlessForced) {
  test::TempDir dir;
  dir.write("theirs/notes.txt", "mine");
  test::ExpectError([&] { Claim(dir / "theirs"); }, ExitCode::kUsage,
                    {"is not empty (it holds notes.txt) and was not made by dlbench", "--force"});
  EXPECT_FALSE(fs::exists(dir / "theirs" / file_names::kFolderMarker));  // refused: nothing written
  Claim(dir / "theirs", /*force=*/true);
  EXPECT_TRUE(fs::is_regular_file(dir / "theirs" / file_names::kFolderMarker));
  Claim(dir / "theirs");  // claimed by --force once, then dlbench's
}

TEST(ClaimFolder, AcceptsADataFolderGenerationMarked) {
  test::TempDir dir;
  dir.write(std::string("data/") + file_names::kDatasetMarker, "{}");
  dir.write("data/train/img_0_of_1.npz", "x");
  Claim(dir / "data");
}

TEST(ClaimFolder, RefusesALinkAtTheTopEvenForced) {
  test::TempDir dir;
  dir.write(std::string("out/") + file_names::kFolderMarker, "");
  fs::create_directory(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "out" / "run");
  fs::create_symlink(dir / "nowhere", dir / "out" / "dangling");
  for (bool force : {false, true}) {
    test::ExpectError([&] { Claim(dir / "out", force); }, ExitCode::kUsage,
                      {"holds a symbolic link, dangling", "never through a link"});
  }
}

TEST(ClaimFolder, RefusesALinkToAFolderAtAnyDepthEvenForced) {
  test::TempDir dir;
  dir.write(std::string("data/") + file_names::kFolderMarker, "");
  dir.write("data/train/a/img_0_of_1.npz", "x");
  dir.write("elsewhere/precious", "x");
  fs::create_directory_symlink(dir / "elsewhere", dir / "data" / "train" / "a" / "b");
  for (bool force : {false, true}) {
    test::ExpectError([&] { Claim(dir / "data", force); }, ExitCode::kUsage,
                      {"holds a symbolic link, train/a/b", "never through a link"});
  }
  // A link to a file below the top is not a folder dlbench could write into: the storage layer's
  // O_NOFOLLOW and renames already keep it from being written through.
  fs::remove(dir / "data" / "train" / "a" / "b");
  fs::create_symlink(dir / "elsewhere" / "precious", dir / "data" / "train" / "a" / "file");
  Claim(dir / "data");
}

// Node-local tiers nvme (the burst buffer) and scratch (holding the data folder), and a shared
// tier pfs holding the checkpoint folder.
config::Config WithNodeLocalTiers(const fs::path& root) {
  config::Config config;
  config.dataset.data_folder = (root / "scratch" / "data").string();
  config.checkpoint.checkpoint_folder = (root / "pfs" / "ckpt").string();
  const auto tier = [&](const char* name, bool node_local) {
    config::TierConfig t;
    t.name = name;
    t.path = (root / name).string();
    t.node_local = node_local;
    return t;
  };
  config.storage.tiers = {tier("nvme", true), tier("scratch", true), tier("pfs", false)};
  config.checkpoint.burst_buffer = config::BurstBufferConfig{};
  config.checkpoint.burst_buffer->tier = "nvme";
  return config;
}

TEST(WrittenFolders, SaysWhichAreOnANodeLocalTier) {
  test::TempDir dir;
  const config::Config config = WithNodeLocalTiers(dir.path());
  const std::vector<WrittenFolder> all =
      WrittenFolders(config, {.generates = true, .stages = false, .checkpoints = true});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].key, "dataset.data_folder");
  EXPECT_TRUE(all[0].node_local);
  EXPECT_EQ(all[1].key, "checkpoint.checkpoint_folder");
  EXPECT_FALSE(all[1].node_local);
  EXPECT_EQ(all[2].key, "storage.tiers.nvme.path");
  EXPECT_TRUE(all[2].node_local);
  EXPECT_TRUE(WrittenFolders(config, {}).empty());
}

TEST(WrittenFolders, TheStagedDataFolderWhenStaging) {
  test::TempDir dir;
  config::Config config = WithNodeLocalTiers(dir.path());
  config.dataset.data_folder = (dir / "pfs" / "data").string();
  config.stage.to = "scratch";
  const std::vector<WrittenFolder> staged = WrittenFolders(config, {.stages = true});
  ASSERT_EQ(staged.size(), 1u);
  EXPECT_EQ(staged[0].folder, (dir / "scratch" / "data").string());
  EXPECT_TRUE(staged[0].node_local);
}

// Links are looked for only where the storage has them (an object store has none, and its
// listing is all it can show).
TEST(ClaimFolder, LooksForLinksOnlyWhereTheStorageHasThem) {
  test::TempDir dir;
  dir.write(std::string("out/") + file_names::kFolderMarker, "");
  fs::create_directory(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "out" / "run");
  storage::Capabilities no_links;
  no_links.symlinks = false;
  test::LimitedEnv env(storage::PosixEnv(), no_links);
  ClaimFolder(env, (dir / "out").string(), "output folder", false);
  test::ExpectError([&] { Claim(dir / "out"); }, ExitCode::kUsage, {"holds a symbolic link, run"});
}

TEST(ClaimFolders, OneRankClaimsEveryFolder) {
  test::TempDir dir;
  const config::Config config = WithNodeLocalTiers(dir.path());
  ClaimFolders(WrittenFolders(config, {.generates = true, .checkpoints = true}), false,
               storage::PosixEnv(), test::World());
  for (const char* folder : {"scratch/data", "pfs/ckpt", "nvme"}) {
    EXPECT_TRUE(fs::is_regular_file(dir / folder / file_names::kFolderMarker)) << folder;
  }
  dir.write("pfs/ckpt/notes.txt", "mine");
  fs::remove(dir / "pfs" / "ckpt" / file_names::kFolderMarker);
  test::ExpectError(
      [&] {
        ClaimFolders(WrittenFolders(config, {.checkpoints = true}), false, storage::PosixEnv(),
                     test::World());
      },
      ExitCode::kUsage, {"checkpoint.checkpoint_folder", "is not empty (it holds notes.txt)"});
}

TEST(ClaimFolder, RefusesTheRootAndAFileInTheWay) {
  test::ExpectError([&] { Claim("/", true); }, ExitCode::kUsage, {"'/' is a system folder"});
  test::TempDir dir;
  dir.write("file", "x");
  test::ExpectError([&] { Claim(dir / "file"); }, ExitCode::kIo, {"not a directory"});
}

}  // namespace
}  // namespace dlbench::workflow
