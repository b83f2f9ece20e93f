#include "util/path_text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "support/test_support.h"

namespace dlbench {
namespace {

TEST(PathText, JoinsWithoutDoublingASlash) {
  EXPECT_EQ(JoinPath("a", "b"), "a/b");
  EXPECT_EQ(JoinPath("a/", "b"), "a/b");
  EXPECT_EQ(JoinPath("/", "b"), "/b");
  EXPECT_EQ(JoinPath("", "b"), "b");
}

TEST(PathText, ParentAndBaseName) {
  EXPECT_EQ(ParentFolder("a/b"), "a");
  EXPECT_EQ(ParentFolder("a/b/"), "a");
  EXPECT_EQ(ParentFolder("/b"), "/");
  EXPECT_EQ(ParentFolder("b"), ".");
  EXPECT_EQ(BaseName("x/global_epoch1_step2/"), "global_epoch1_step2");
  EXPECT_EQ(BaseName("name"), "name");
  EXPECT_EQ(BaseNameStart("a/bc"), 2u);
  EXPECT_EQ(BaseNameStart("bc"), 0u);
  EXPECT_EQ(TrimTrailingSlashes("/a//"), "/a");
  EXPECT_EQ(TrimTrailingSlashes("/"), "/");
}

TEST(PathText, FolderContainsComparesWholeComponents) {
  EXPECT_TRUE(FolderContains("/a", "/a"));
  EXPECT_TRUE(FolderContains("/a", "/a/b"));
  EXPECT_FALSE(FolderContains("/a", "/ab"));
  EXPECT_TRUE(FolderContains("/", "/x"));
  EXPECT_EQ(AbsoluteFolder("/a/b/../c/"), "/a/c");
}

TEST(PathText, UnsafeFoldersFollowSymbolicLinks) {
  EXPECT_EQ(UnsafeFolderReason("/"), "'/' is a system folder");
  EXPECT_EQ(UnsafeFolderReason("/usr/"), "'/usr/' is a system folder");
  EXPECT_EQ(UnsafeFolderReason(""), "'' is an empty path");  // threw (an internal error) before
  const test::TempDir dir;
  EXPECT_EQ(UnsafeFolderReason(dir.path().string()), "");
  std::filesystem::create_directory_symlink("/etc", dir / "etc");
  const std::string link = (dir / "etc").string();
  EXPECT_EQ(UnsafeFolderReason(link), "'" + link + "' resolves to /etc, a system folder");
  // A link to a dedicated folder, and a folder that does not exist yet, are fine.
  std::filesystem::create_directory(dir / "real");
  std::filesystem::create_directory_symlink(dir / "real", dir / "link");
  EXPECT_EQ(UnsafeFolderReason((dir / "link").string()), "");
  EXPECT_EQ(UnsafeFolderReason((dir / "not" / "yet").string()), "");
  if (const char* home = std::getenv("HOME"); home && *home) {
    EXPECT_EQ(UnsafeFolderReason(home), "'" + std::string(home) + "' is the home folder");
  }
}

}  // namespace
}  // namespace dlbench
