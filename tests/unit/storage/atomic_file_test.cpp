#include "storage/atomic_file.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::TempDir;

TEST(AtomicFile, PartialNameIsHiddenAndDoesNotMatchTheExtension) {
  EXPECT_EQ(PartialPathFor("/d/train/img_0_of_8.npz"), "/d/train/.img_0_of_8.npz.dlbench-partial");
  EXPECT_EQ(PartialPathFor("rel.npz"), ".rel.npz.dlbench-partial");
  EXPECT_FALSE(std::string_view(PartialPathFor("/d/x.npz")).ends_with("npz"));
  EXPECT_TRUE(IsPartialFileName(".x.npz.dlbench-partial"));
  EXPECT_FALSE(IsPartialFileName("x.npz.dlbench-partial"));
  EXPECT_FALSE(IsPartialFileName("x.npz"));
  EXPECT_EQ(FinalPathFor("/d/.x.npz.dlbench-partial"), "/d/x.npz");
  EXPECT_EQ(FinalPathFor("/d/x.npz"), "");
}

TEST(AtomicFile, PartialAndFinalNamesRoundTripAtTheRootAndWithoutAFolder) {
  EXPECT_EQ(PartialPathFor("/x.npy"), "/.x.npy.dlbench-partial");
  EXPECT_EQ(PartialPathFor("a/b/c.npy"), "a/b/.c.npy.dlbench-partial");
  for (const std::string path : {"/x.npy", "rel.npy", "a/b/c.npy", "/d/.hidden"}) {
    EXPECT_EQ(FinalPathFor(PartialPathFor(path)), path) << path;
  }
  EXPECT_EQ(FinalPathFor(".dlbench-partial"), "");  // no name inside
  EXPECT_EQ(FinalPathFor("/d/..dlbench-partial"), "");
  EXPECT_EQ(FinalPathFor("/.d/x.npy"), "");  // a hidden folder is not a partial file
}

TEST(AtomicFile, CommitWithFsyncSyncsFileAndFolder) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  const std::string final_path = dir / "out.npz";
  {
    AtomicFileWriter writer(env, final_path);
    writer.file().append("payload", 7);
    EXPECT_FALSE(PosixEnv().exists(final_path));
    EXPECT_TRUE(PosixEnv().exists(writer.temp_path()));
    writer.commit(/*fsync=*/true);
    EXPECT_FALSE(PosixEnv().exists(writer.temp_path()));
  }
  EXPECT_EQ(PosixEnv().file_size(final_path), 7u);
  const IoCounts c = env.counts();
  EXPECT_EQ(c.syncs, 1u);
  EXPECT_EQ(c.directory_syncs, 1u);
  EXPECT_EQ(c.renames, 1u);
  EXPECT_TRUE(FindPartialFiles(PosixEnv(), dir.path()).empty());
}

TEST(AtomicFile, CommitWithoutFsyncIssuesNone) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  AtomicFileWriter writer(env, dir / "out.npz");
  writer.file().append("x", 1);
  writer.commit(false);
  EXPECT_EQ(env.counts().syncs, 0u);
  EXPECT_EQ(env.counts().directory_syncs, 0u);
  EXPECT_TRUE(PosixEnv().exists(dir / "out.npz"));
}

TEST(AtomicFile, DestructionWithoutCommitLeavesNothing) {
  TempDir dir;
  {
    AtomicFileWriter writer(PosixEnv(), dir / "out.npz");
    writer.file().append("partial", 7);
  }
  EXPECT_FALSE(PosixEnv().exists(dir / "out.npz"));
  EXPECT_TRUE(FindPartialFiles(PosixEnv(), dir.path()).empty());
  {
    AtomicFileWriter writer(PosixEnv(), dir / "out.npz");
    writer.abort();
    EXPECT_FALSE(PosixEnv().exists(writer.temp_path()));
  }
}

TEST(AtomicFile, FailedCommitLeavesNothingUnderTheFinalName) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kSync).nth(1).error(EIO));
  {
    AtomicFileWriter writer(env, dir / "out.npz");
    writer.file().append("data", 4);
    EXPECT_THROW(writer.commit(true), Error);
  }
  EXPECT_FALSE(PosixEnv().exists(dir / "out.npz"));
  EXPECT_TRUE(FindPartialFiles(PosixEnv(), dir.path()).empty());

  env.inject(Fault(FaultOp::kRename).nth(1).error(ENOSPC));
  {
    AtomicFileWriter writer(env, dir / "out.npz");
    EXPECT_THROW(writer.commit(false), Error);
  }
  EXPECT_FALSE(PosixEnv().exists(dir / "out.npz"));
  EXPECT_TRUE(FindPartialFiles(PosixEnv(), dir.path()).empty());
}

TEST(AtomicFile, DirectorySyncFailureAfterRenameKeepsTheFinalFile) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kSyncDirectory).nth(1).error(EIO));
  {
    AtomicFileWriter writer(env, dir / "out.npz");
    EXPECT_THROW(writer.commit(true), Error);
  }
  EXPECT_TRUE(PosixEnv().exists(dir / "out.npz"));
}

TEST(AtomicFile, FindsLeftoversOfAnInterruptedRun) {
  TempDir dir;
  dir.write("train/0/.img_0_of_4.npz.dlbench-partial", "half");
  dir.write("train/1/img_1_of_4.npz", "done");
  dir.write("train/.img_2_of_4.npz.dlbench-partial", "half");
  dir.write("train/.img_3_of_4.npz.dlbench-partial", "half");
  const std::vector<std::string> expected = {
      (dir / "train/.img_2_of_4.npz.dlbench-partial").string(),
      (dir / "train/.img_3_of_4.npz.dlbench-partial").string()};  // not in subfolders
  EXPECT_EQ(FindPartialFiles(PosixEnv(), dir / "train"), expected);
  EXPECT_EQ(FindPartialFiles(PosixEnv(), (dir / "train/").string()), expected);
  EXPECT_TRUE(FindPartialFiles(PosixEnv(), dir / "absent").empty());
}

}  // namespace
}  // namespace dlbench::storage
