#include "workflow/folder_claim.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"
#include "workflow/generation_resume.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

void Claim(const fs::path& folder, bool force = false) {
  ClaimFolder(storage::PosixEnv(), folder.string(), "output folder", force);
}

TEST(ClaimFolder, CreatesAMissingFolderWithItsMarker) {
  test::TempDir dir;
  Claim(dir / "a" / "b");
  EXPECT_TRUE(fs::is_regular_file(dir / "a" / "b" / kFolderMarkerName));
  Claim(dir / "a" / "b");  // claimed: again is fine
}

TEST(ClaimFolder, AcceptsAnEmptyFolderAndMarksIt) {
  test::TempDir dir;
  fs::create_directory(dir / "empty");
  Claim(dir / "empty");
  EXPECT_TRUE(fs::is_regular_file(dir / "empty" / kFolderMarkerName));
}

TEST(ClaimFolder, RefusesAForeignFolderUnlessForced) {
  test::TempDir dir;
  dir.write("theirs/notes.txt", "mine");
  test::ExpectError([&] { Claim(dir / "theirs"); }, ExitCode::kUsage,
                    {"is not empty (it holds notes.txt) and was not made by dlbench", "--force"});
  EXPECT_FALSE(fs::exists(dir / "theirs" / kFolderMarkerName));  // refused: nothing written
  Claim(dir / "theirs", /*force=*/true);
  EXPECT_TRUE(fs::is_regular_file(dir / "theirs" / kFolderMarkerName));
  Claim(dir / "theirs");  // claimed by --force once, then dlbench's
}

TEST(ClaimFolder, AcceptsADataFolderGenerationMarked) {
  test::TempDir dir;
  dir.write(std::string("data/") + kDatasetMarkerName, "{}");
  dir.write("data/train/img_0_of_1.npz", "x");
  Claim(dir / "data");
}

TEST(ClaimFolder, RefusesALinkAtTheTopEvenForced) {
  test::TempDir dir;
  dir.write(std::string("out/") + kFolderMarkerName, "");
  fs::create_directory(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "out" / "run");
  fs::create_symlink(dir / "nowhere", dir / "out" / "dangling");
  for (bool force : {false, true}) {
    test::ExpectError([&] { Claim(dir / "out", force); }, ExitCode::kUsage,
                      {"holds a symbolic link, dangling", "never through a link"});
  }
}

TEST(ClaimFolder, RefusesTheRootAndAFileInTheWay) {
  test::ExpectError([&] { Claim("/", true); }, ExitCode::kUsage, {"'/' is a system folder"});
  test::TempDir dir;
  dir.write("file", "x");
  test::ExpectError([&] { Claim(dir / "file"); }, ExitCode::kIo, {"not a directory"});
}

}  // namespace
}  // namespace dlbench::workflow
