// DLBENCH_FAULTS's text (storage/fault_environment.h) and the actions beyond errors: short
// transfers, slow operations, a killed process.
#include "storage/fault_environment.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::ExpectError;
using test::TempDir;

TEST(ParseFaults, ReadsEveryField) {
  const std::vector<Fault> faults = ParseFaults(
      "op=write,nth=3,error=ENOSPC,path=ckpt,keep;op=any,nth=40,kill;op=read,short;"
      "op=sync_dir,slow=0.25;op=rename,error=28;op=read,interrupt",
      0);
  ASSERT_EQ(faults.size(), 6u);
  EXPECT_EQ(faults[0].op, FaultOp::kWrite);
  EXPECT_EQ(faults[0].nth_match, 3u);
  EXPECT_EQ(faults[0].error_value, ENOSPC);
  EXPECT_EQ(faults[0].path_contains, "ckpt");
  EXPECT_TRUE(faults[0].keeps_failing);
  EXPECT_EQ(faults[0].action, FaultAction::kError);
  EXPECT_TRUE(faults[1].any_operation);
  EXPECT_EQ(faults[1].nth_match, 40u);
  EXPECT_EQ(faults[1].action, FaultAction::kKill);
  EXPECT_EQ(faults[2].op, FaultOp::kRead);
  EXPECT_EQ(faults[2].action, FaultAction::kShort);
  EXPECT_EQ(faults[2].error_value, EIO);  // the default
  EXPECT_EQ(faults[3].op, FaultOp::kSyncDirectory);
  EXPECT_EQ(faults[3].action, FaultAction::kSlow);
  EXPECT_DOUBLE_EQ(faults[3].delay, 0.25);
  EXPECT_EQ(faults[4].error_value, 28);
  EXPECT_EQ(faults[5].action, FaultAction::kInterrupt);
}

TEST(ParseFaults, KeepsOnlyThisRanksFaults) {
  EXPECT_EQ(ParseFaults("op=write,rank=1;op=read", 0).size(), 1u);
  EXPECT_EQ(ParseFaults("op=write,rank=1;op=read", 1).size(), 2u);
  EXPECT_TRUE(ParseFaults("none", 0).empty());
}

TEST(ParseFaults, RejectsMalformedTextNamingTheVariableAndTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "no fault"},
      {"nth=3", "no op="},
      {"op=wrote", "unknown operation 'wrote'"},
      {"op=write,op=read", "op= given twice"},
      {"op=write,nth=0", "nth= must be a whole number"},
      {"op=write,nth=x", "nth= must be a whole number"},
      {"op=write,rank=-1", "rank= must be a whole number"},
      {"op=write,path=", "path= needs"},
      {"op=write,error=EWHAT", "error= must be an errno name"},
      {"op=write,slow=fast", "slow= must be a number of seconds"},
      {"op=write,slow=-1", "slow= must be a number of seconds"},
      {"op=write,kill,short", "give one of"},
      {"op=write,interrupt,slow=1", "give one of"},
      {"op=write,often", "unknown field 'often'"},
  };
  for (const auto& [text, fragment] : cases) {
    ExpectError([&] { ParseFaults(text, 0); }, ExitCode::kUsage, {"DLBENCH_FAULTS", fragment});
  }
}

TEST(FaultActions, AShortReadTransfersHalfTheBytes) {
  TempDir dir;
  {
    auto out = PosixEnv().create(dir / "f.bin");
    out->append("abcdefgh", 8);
    out->close();
  }
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kRead).nth(2).cut_short());
  auto in = env.open_read(dir / "f.bin");
  char back[8] = {};
  EXPECT_EQ(in->read_at(0, back, 8), 8u);
  EXPECT_EQ(in->read_at(0, back, 8), 4u);  // as if the file ended at byte 4
  EXPECT_EQ(in->read_at(0, back, 8), 8u);
}

TEST(FaultActions, AShortWriteWritesHalfThenFailsAsAFullDisk) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kWrite).nth(2).cut_short());
  auto out = env.create(dir / "f.bin");
  out->append("ab", 2);
  ExpectError([&] { out->append("cdef", 4); }, ExitCode::kIo,
              {"write", "f.bin", "offset 2, length 4", "short write, 2 of 4 bytes written",
               "errno " + std::to_string(ENOSPC), "injected"});
  out->close();
  EXPECT_EQ(PosixEnv().file_size(dir / "f.bin"), 4u);  // "ab" and half of "cdef"
}

TEST(FaultActions, AShortFaultOnAnotherOperationFailsWithEnospc) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault::AnyOperation().cut_short());
  ExpectError([&] { env.create_directories(dir / "sub"); }, ExitCode::kIo,
              {"mkdir", "sub", "errno " + std::to_string(ENOSPC), "injected"});
  EXPECT_EQ(env.operations(), 1u);
}

TEST(FaultActions, ASlowOperationSleepsThenSucceeds) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kCreateDirectories).slow_down(0.05));
  const auto start = std::chrono::steady_clock::now();
  env.create_directories(dir / "sub");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  EXPECT_TRUE(PosixEnv().exists(dir / "sub"));
  EXPECT_EQ(env.injected(), 1u);
}

TEST(FaultActions, InterruptedSystemCallsAreRetriedAndCounted) {
  TempDir dir;
  FaultInjectionEnv env(PosixEnv());
  env.inject(Fault(FaultOp::kWrite).interrupt().keep_failing());
  env.inject(Fault(FaultOp::kRead).interrupt().keep_failing());
  const IoRetries before = PosixRetries();
  auto out = env.create(dir / "f.bin");
  out->append("abcd", 4);
  out->write_at(4, "ef", 2);
  out->close();
  auto in = env.open_read(dir / "f.bin");
  char back[8] = {};
  EXPECT_EQ(in->read_at(0, back, 8), 6u);
  EXPECT_EQ(std::string(back, 6), "abcdef");
  const IoRetries after = PosixRetries();
  // One per write; the read is interrupted before its data and before the end-of-file call.
  EXPECT_EQ(after.interrupted - before.interrupted, 4u);
  EXPECT_EQ(after.short_transfers, before.short_transfers);
  EXPECT_EQ(env.injected(), 3u);
  // Outside the fault, nothing is interrupted.
  EXPECT_EQ(PosixEnv().open_read(dir / "f.bin")->read_at(0, back, 8), 6u);
  EXPECT_EQ(PosixRetries().interrupted, after.interrupted);
}

TEST(FaultActions, AKillFaultKillsTheProcessAtTheNthOperation) {
  TempDir dir;
  EXPECT_EXIT(
      {
        FaultInjectionEnv env(PosixEnv());
        env.inject(Fault::AnyOperation().nth(2).kill());
        env.create_directories(dir / "a");
        env.create_directories(dir / "b");
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGKILL), "");
  EXPECT_TRUE(PosixEnv().exists(dir / "a"));
  EXPECT_FALSE(PosixEnv().exists(dir / "b"));
}

}  // namespace
}  // namespace dlbench::storage
