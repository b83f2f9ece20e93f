// WritableFile::append_gathered through the POSIX file and every wrapper that sees writes:
// bytes in order, IOV_MAX chunks, EINTR and short writes resumed, faults, counters.
#include <gtest/gtest.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "storage/counting_env.h"
#include "storage/env_wrapper.h"
#include "storage/fault_injection_env.h"
#include "storage/posix_file.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::ExpectError;
using test::TempDir;
using Pieces = std::vector<std::span<const std::byte>>;

std::string ReadAll(const std::string& path) {
  auto in = BarePosixEnv().open_read(path);
  std::string back(in->size(), '\0');
  EXPECT_EQ(in->read_at(0, back.data(), back.size()), back.size());
  return back;
}

// `count` pieces of 1 to 7 bytes (and some empty ones) cut from `text`, which they cover.
Pieces Cut(const std::string& text) {
  Pieces pieces;
  const auto bytes = std::as_bytes(std::span(text));
  for (std::size_t at = 0, i = 0; at < bytes.size(); ++i) {
    const std::size_t length = std::min<std::size_t>(i % 8, bytes.size() - at);
    pieces.push_back(bytes.subspan(at, length));
    at += length;
  }
  return pieces;
}

std::string Text(std::size_t length) {
  std::string text(length, '\0');
  for (std::size_t i = 0; i < length; ++i) text[i] = static_cast<char>('a' + (i * 7) % 26);
  return text;
}

TEST(GatheredWrite, WritesMorePiecesThanIovMaxInOrderAfterAnAppend) {
  TempDir dir;
  const std::string text = Text(4 * IOV_MAX * 4);
  const Pieces pieces = Cut(text);
  ASSERT_GT(pieces.size(), 2u * IOV_MAX);
  auto out = BarePosixEnv().create(dir / "f.bin");
  out->append("head", 4);
  out->append_gathered(pieces);
  out->append_gathered({});
  EXPECT_EQ(out->appended(), 4 + text.size());
  out->append("tail", 4);
  out->close();
  EXPECT_EQ(ReadAll(dir / "f.bin"), "head" + text + "tail");
}

TEST(GatheredWrite, InterruptedCallsAreRetriedAndCounted) {
  TempDir dir;
  const std::string text = Text(3 * IOV_MAX * 4);
  FaultInjectionEnv env(BarePosixEnv());
  env.inject(Fault(FaultOp::kWrite).interrupt());
  const IoRetries before = PosixRetries();
  auto out = env.create(dir / "f.bin");
  out->append_gathered(Cut(text));
  out->close();
  EXPECT_EQ(ReadAll(dir / "f.bin"), text);
  // One interruption per pwritev call: at least one per IOV_MAX pieces.
  EXPECT_GE(PosixRetries().interrupted - before.interrupted, 3u);
}

TEST(GatheredWrite, AnUnnamedFileIsNamedWithItsGatheredBytes) {
  TempDir dir;
  auto out = BarePosixEnv().create_for_publish(dir / "f.bin");
  const std::string text = Text(1000);
  out->append_gathered(Cut(text));
  out->publish();
  EXPECT_EQ(ReadAll(dir / "f.bin"), text);
}

TEST(GatheredWrite, AFailedWriteNamesPathOffsetAndErrnoAndWritesNothing) {
  TempDir dir;
  FaultInjectionEnv env(BarePosixEnv());
  env.inject(Fault(FaultOp::kWrite).nth(2).error(ENOSPC));
  const std::string text = Text(100);
  auto out = env.create(dir / "f.bin");
  out->append("ab", 2);
  ExpectError(
      [&] { out->append_gathered(Cut(text)); }, ExitCode::kIo,
      {"write", "f.bin", "offset 2, length 100", "errno " + std::to_string(ENOSPC), "injected"});
  EXPECT_EQ(out->appended(), 2u);
  out->close();
  EXPECT_EQ(ReadAll(dir / "f.bin"), "ab");
}

TEST(GatheredWrite, AShortWriteWritesHalfTheBytesAndSaysSo) {
  TempDir dir;
  FaultInjectionEnv env(BarePosixEnv());
  env.inject(Fault(FaultOp::kWrite).cut_short());
  const std::string text = Text(101);
  auto out = env.create(dir / "f.bin");
  ExpectError([&] { out->append_gathered(Cut(text)); }, ExitCode::kIo,
              {"write", "f.bin", "short write, 50 of 101 bytes written"});
  out->close();
  EXPECT_EQ(ReadAll(dir / "f.bin"), text.substr(0, 50));
}

TEST(GatheredWrite, AClosedFileSaysSo) {
  TempDir dir;
  auto out = BarePosixEnv().create(dir / "f.bin");
  out->close();
  const std::string text = Text(10);
  ExpectError([&] { out->append_gathered(Cut(text)); }, ExitCode::kIo,
              {"write", "f.bin", "file closed"});
}

TEST(GatheredWrite, CountsOneWriteOfTheTotalAsDarshanCountsAWritev) {
  TempDir dir;
  CountingEnv env(BarePosixEnv());
  const std::string text = Text(5000);
  auto out = env.create(dir / "f.bin");
  out->append_gathered(Cut(text));  // pieces at odd addresses
  out->close();
  const IoCounts c = env.counts();
  EXPECT_EQ(c.writes, 1u);
  EXPECT_EQ(c.bytes_written, 5000u);
  EXPECT_EQ(c.mem_not_aligned, 1u);
  EXPECT_EQ(ReadAll(dir / "f.bin"), text);
}

// A wrapper that does not override append_gathered forwards it; the base class's default, for a
// file that does not override it either, appends piece by piece.
TEST(GatheredWrite, TheDefaultAppendsPieceByPiece) {
  TempDir dir;
  class Appends final : public WritableFileWrapper {
   public:
    using WritableFileWrapper::WritableFileWrapper;
    void append(const void* buffer, Bytes length) override {
      ++appends;
      WritableFileWrapper::append(buffer, length);
    }
    void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
      WritableFile::append_gathered(pieces);  // the default, through this->append
    }
    int appends = 0;
  };
  Appends out(BarePosixEnv().create(dir / "f.bin"));
  const std::string text = Text(40);
  const Pieces pieces = Cut(text);
  out.append_gathered(pieces);
  out.close();
  EXPECT_EQ(out.appends, static_cast<int>(pieces.size()));
  EXPECT_EQ(ReadAll(dir / "f.bin"), text);
}

}  // namespace
}  // namespace dlbench::storage
