#include "storage/fault_injection_env.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "memory_shared_file.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::ExpectError;
using test::TempDir;

TEST(FaultInjectionEnv, FailsOnlyTheNthWrite) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kWrite).nth(3).error(ENOSPC));
  auto out = env.create(dir / "f.bin");
  out->append("a", 1);
  out->append("b", 1);
  ExpectError(
      [&] { out->append("c", 1); }, ExitCode::kIo,
      {"write", "f.bin", "offset 2, length 1", "errno " + std::to_string(ENOSPC), "injected"});
  out->append("d", 1);  // succeeds again afterwards
  out->close();
  EXPECT_EQ(env.injected(), 1u);
  EXPECT_EQ(env.attempts(FaultOp::kWrite), 4u);
  // The failed append wrote nothing and did not advance the end.
  auto in = PosixEnv().open_read(dir / "f.bin");
  char back[8];
  ASSERT_EQ(in->read_at(0, back, sizeof back), 3u);
  EXPECT_EQ(std::string(back, 3), "abd");
}

TEST(FaultInjectionEnv, FailsSharedFileWritesAndStillClosesCollectively) {
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kWrite).nth(2).on_paths_containing("shared"));
  env.inject(Fault(FaultOp::kClose).on_paths_containing("shared"));
  test::MemorySharedOpener opener;
  auto file = env.open_shared("data/shared.npy.dlbench-partial", opener);
  file->write_at_all(0, "ab", 2);
  ExpectError([&] { file->write_at_all(2, "cd", 2); }, ExitCode::kIo,
              {"write", "data/shared.npy.dlbench-partial", "offset 2, length 2", "injected"});
  // The close fails, but the file is closed: the other ranks are not left waiting in it.
  ExpectError([&] { file->close(); }, ExitCode::kIo, {"close", "shared.npy", "injected"});
  const std::vector<std::string> calls = {"open data/shared.npy.dlbench-partial", "write_at_all",
                                          "close"};
  EXPECT_EQ(opener.calls, calls);
  EXPECT_EQ(opener.bytes, "ab");

  env.inject(Fault(FaultOp::kOpenWrite).on_paths_containing("other"));
  ExpectError([&] { env.open_shared("other.bin", opener); }, ExitCode::kIo,
              {"open for writing", "other.bin", "injected"});
}

TEST(FaultInjectionEnv, KeepFailingAfterTheNth) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kSync).nth(2).error(EIO).keep_failing());
  auto out = env.create(dir / "f.bin");
  out->sync();
  EXPECT_THROW(out->sync(), Error);
  EXPECT_THROW(out->sync(), Error);
  EXPECT_EQ(env.injected(), 2u);
  env.clear();
  out->sync();
  out->close();
}

TEST(FaultInjectionEnv, MatchesPathSubstring) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kCreate).nth(1).error(EIO).on_paths_containing("ckpt"));
  env.create(dir / "data.bin")->close();  // does not match, not counted for the rule
  ExpectError([&] { env.create(dir / "ckpt.bin"); }, ExitCode::kIo, {"ckpt.bin"});
  EXPECT_FALSE(PosixEnv().exists(dir / "ckpt.bin"));
  env.create(dir / "ckpt.bin")->close();  // only the first matching create fails
}

TEST(FaultInjectionEnv, EveryOperationKindCanFail) {
  TempDir dir;
  const std::string file = dir.write("in.bin", "0123456789").string();
  FaultInjectionEnv env(PosixEnv());
  for (FaultOp op :
       {FaultOp::kOpenRead, FaultOp::kOpenWrite, FaultOp::kRead, FaultOp::kClose, FaultOp::kRename,
        FaultOp::kCreateDirectories, FaultOp::kRemove, FaultOp::kSyncDirectory}) {
    env.inject(Fault(op).nth(1).error(EIO));
  }
  ExpectError([&] { env.open_read(file); }, ExitCode::kIo, {"open for reading"});
  auto in = env.open_read(file);
  char buffer[4];
  ExpectError([&] { in->read_at(5, buffer, 4); }, ExitCode::kIo, {"offset 5, length 4"});
  EXPECT_EQ(in->read_at(5, buffer, 4), 4u);
  EXPECT_THROW(env.open_write(file), Error);
  auto out = env.open_write(file);
  ExpectError([&] { out->close(); }, ExitCode::kIo, {"close"});
  out->close();  // already released: no second error
  ExpectError([&] { env.rename(file, dir / "renamed.bin"); }, ExitCode::kIo, {"renamed.bin"});
  EXPECT_TRUE(PosixEnv().exists(file));
  EXPECT_THROW(env.create_directories(dir / "sub"), Error);
  EXPECT_FALSE(PosixEnv().exists(dir / "sub"));
  EXPECT_THROW(env.remove(file), Error);
  EXPECT_TRUE(PosixEnv().exists(file));
  EXPECT_THROW(env.sync_directory(dir.path()), Error);
  EXPECT_EQ(env.injected(), 8u);
  // All rules were one-shot: everything works now.
  env.rename(file, dir / "renamed.bin");
  env.create_directories(dir / "sub");
  env.sync_directory(dir.path());
  env.remove(dir / "renamed.bin");
  EXPECT_FALSE(env.exists(dir / "renamed.bin"));
}

TEST(FaultInjectionEnv, TruncateFailsNamingPathAndSizeAndLeavesTheFile) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kTruncate).nth(1).error(EFBIG));
  auto out = env.create(dir / "f.bin");
  out->append("abcdef", 6);
  ExpectError([&] { out->truncate(2); }, ExitCode::kIo,
              {"truncate", "f.bin", "to 2", "errno " + std::to_string(EFBIG), "injected"});
  EXPECT_EQ(PosixEnv().file_size(dir / "f.bin"), 6u);
  out->truncate(2);  // one-shot
  out->close();
  EXPECT_EQ(PosixEnv().file_size(dir / "f.bin"), 2u);
  EXPECT_EQ(env.attempts(FaultOp::kTruncate), 2u);
}

TEST(FaultInjectionEnv, FolderOperationsFailNamingPathAndOperation) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  PosixEnv().create_directories(dir / "t/a");
  for (FaultOp op : {FaultOp::kListDirectory, FaultOp::kRemoveTree, FaultOp::kFreeSpace}) {
    env.inject(Fault(op).nth(1).error(EACCES).on_paths_containing("t"));
  }
  const std::string errno_text = "errno " + std::to_string(EACCES);
  ExpectError([&] { env.list_directory(dir / "t"); }, ExitCode::kIo,
              {"list " + (dir / "t").string(), errno_text});
  ExpectError([&] { env.remove_tree(dir / "t"); }, ExitCode::kIo,
              {"remove tree " + (dir / "t").string(), "injected"});
  EXPECT_TRUE(PosixEnv().exists(dir / "t/a"));  // nothing removed
  ExpectError([&] { env.free_space(dir / "t"); }, ExitCode::kIo,
              {"statvfs " + (dir / "t").string()});
  EXPECT_EQ(env.injected(), 3u);
  EXPECT_EQ(env.attempts(FaultOp::kListDirectory), 1u);
  // One-shot rules: the operations go through now.
  EXPECT_EQ(env.list_directory(dir / "t").size(), 1u);
  EXPECT_GT(env.free_space(dir / "t"), 0u);
  env.remove_tree(dir / "t");
  EXPECT_FALSE(PosixEnv().exists(dir / "t"));
}

}  // namespace
}  // namespace dlbench::storage
