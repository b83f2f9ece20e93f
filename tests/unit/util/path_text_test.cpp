#include "util/path_text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

TEST(PathText, UrisHaveASchemeAnAuthorityAndAKey) {
  EXPECT_EQ(UriScheme("s3://bucket/a/b"), "s3");
  EXPECT_EQ(UriScheme("my+s3.x-y://b"), "my+s3.x-y");
  EXPECT_EQ(UriScheme("/s3://b"), "");
  EXPECT_EQ(UriScheme("data/s3://b"), "");
  EXPECT_EQ(UriScheme("3s://b"), "");  // a scheme starts with a letter
  EXPECT_EQ(UriScheme("s3:/b"), "");
  EXPECT_EQ(UriScheme("C:"), "");
  const std::optional<UriParts> uri = SplitUri("s3://bucket/a/b");
  ASSERT_TRUE(uri.has_value());
  EXPECT_EQ(uri->scheme, "s3");
  EXPECT_EQ(uri->authority, "bucket");
  EXPECT_EQ(uri->key, "a/b");
  EXPECT_EQ(SplitUri("s3://bucket")->key, "");
  EXPECT_EQ(SplitUri("s3:///k")->authority, "");
  EXPECT_FALSE(SplitUri("bucket/key").has_value());
}

// A URI is never made absolute against the working folder: once, s3://bucket/key became
// <cwd>/s3:/bucket/key.
TEST(PathText, UrisAreNormalInTheirKeyAndNeverLocal) {
  EXPECT_EQ(AbsoluteFolder("s3://bucket/key"), "s3://bucket/key");
  EXPECT_EQ(AbsoluteFolder("s3://bucket/x/../y//z/"), "s3://bucket/y/z");
  EXPECT_EQ(AbsoluteFolder("s3://bucket/../../up"), "s3://bucket/up");
  EXPECT_EQ(AbsoluteFolder("s3://bucket/"), "s3://bucket");
  EXPECT_EQ(ResolvedFolder("s3://bucket/a/./b"), "s3://bucket/a/b");
  EXPECT_EQ(ParentFolder("s3://bucket/a/b"), "s3://bucket/a");
  EXPECT_EQ(ParentFolder("s3://bucket/a"), "s3://bucket");
  EXPECT_EQ(ParentFolder("s3://bucket"), "s3://bucket");
  EXPECT_EQ(JoinPath("s3://bucket", "k"), "s3://bucket/k");
  EXPECT_TRUE(FolderContains("s3://bucket/a", "s3://bucket/a/b"));
  EXPECT_FALSE(FolderContains("s3://bucket", "s3://bucket2/a"));
  EXPECT_FALSE(FolderContains("/", "s3://bucket/a"));
  EXPECT_EQ(PathBelow("s3://bucket/a", "s3://bucket/a/b/c"), "b/c");
  EXPECT_EQ(PathBelow("/x", "/x"), "");
  EXPECT_EQ(PathBelow("/", "/x/y"), "x/y");
  EXPECT_FALSE(PathBelow("/x", "/xy").has_value());
  EXPECT_EQ(UnsafeFolderReason("s3://bucket/data"), "");
  EXPECT_EQ(UnsafeFolderReason("s3:///data"), "'s3:///data' names no s3 bucket or host");
}

TEST(PathText, TheDeepestFolderHoldingAPathWins) {
  const std::vector<std::string> folders = {"/a", "/a/b", "/p", "s3://b/k"};
  EXPECT_EQ(DeepestFolderHolding(folders, "/a/x"), 0u);
  EXPECT_EQ(DeepestFolderHolding(folders, "/a/b/c"), 1u);
  EXPECT_EQ(DeepestFolderHolding(folders, "/a/bc"), 0u);
  EXPECT_EQ(DeepestFolderHolding(folders, "s3://b/k/x"), 3u);
  EXPECT_EQ(DeepestFolderHolding(folders, "/q"), std::string::npos);
}

}  // namespace
}  // namespace dlbench
