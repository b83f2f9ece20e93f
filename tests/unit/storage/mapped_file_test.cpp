// storage::MappedFile: a file truncated while mapped is an IoError naming it for every reader
// thread that touches the lost pages, not a SIGBUS (hardening3); other SIGBUSes still end the
// process.
#include "storage/mapped_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

constexpr Bytes kPage = 4096;
constexpr Bytes kPages = 64;

std::string PagePattern() {
  std::string bytes(kPage * kPages, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + i / 4096);
  return bytes;
}

TEST(MappedFile, CopiesWhatTheFileHolds) {
  const test::TempDir dir;
  const std::string bytes = PagePattern();
  const std::string path = dir.write("data", bytes).string();
  const MappedFile file(path);
  EXPECT_EQ(file.size(), bytes.size());
  std::string out(5000, '\0');
  file.copy(3 * kPage + 17, out.data(), out.size());
  EXPECT_EQ(out, bytes.substr(3 * kPage + 17, 5000));
  test::ExpectError([&] { file.copy(bytes.size() - 10, out.data(), 11); }, ExitCode::kInternal,
                    {"beyond the 262144 bytes mapped of " + path});
  const MappedFile empty(dir.write("empty", "").string());
  EXPECT_EQ(empty.size(), 0u);
  empty.copy(0, out.data(), 0);
  test::ExpectError([] { MappedFile("/nonexistent/dlbench/x"); }, ExitCode::kIo,
                    {"/nonexistent/dlbench/x"});
}

// Before hardening3 the process died of SIGBUS at the first copy past the new end.
TEST(MappedFile, ATruncationWhileMappedIsAnIoErrorInEveryThread) {
  const test::TempDir dir;
  const std::string bytes = PagePattern();
  const std::string path = dir.write("data", bytes).string();
  const MappedFile file(path);
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(kPages / 2 * kPage)), 0);

  std::atomic<int> errors{0}, lost{0}, wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::string out(kPage, '\0');
      for (int round = 0; round < 200; ++round) {
        const Bytes page = static_cast<Bytes>((round * 5 + t * 3) % kPages);
        if (page >= kPages / 2) ++lost;
        try {
          file.copy(page * kPage, out.data(), kPage);
          if (page >= kPages / 2 || out != bytes.substr(page * kPage, kPage)) ++wrong;
        } catch (const Error& e) {
          if (page < kPages / 2 || e.code() != ExitCode::kIo) ++wrong;
          ++errors;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(errors.load(), lost.load());
  EXPECT_GT(lost.load(), 300);

  // A copy that starts inside the file and runs past the new end fails too, and says so.
  std::string out(2 * kPage, '\0');
  test::ExpectError([&] { file.copy((kPages / 2 - 1) * kPage, out.data(), 2 * kPage); },
                    ExitCode::kIo,
                    {path, "truncated while mapped: [126976, +8192) lies beyond its end",
                     "262144 bytes when mapped, 131072 bytes now"});
}

// Truncates the mapped file, fails a copy, then raises SIGBUS outside any copy.
void FailACopyThenRaiseSigbus(const MappedFile& file) {
  std::string out(kPage, '\0');
  if (::truncate(file.path().c_str(), 0) != 0) return;
  try {
    file.copy(0, out.data(), kPage);
  } catch (const Error&) {
  }
  ::raise(SIGBUS);
}

// Killed by SIGBUS, or, under ASan (whose handler ours passes other SIGBUSes to), its report's
// failing exit.
bool EndedBySigbus(int status) {
  return (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS) ||
         (WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

// The handler catches only the guarded copy's faults: a SIGBUS anywhere else still ends the
// process.
TEST(MappedFileDeathTest, ASigbusOutsideACopyStillEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const test::TempDir dir;
  const MappedFile file(dir.write("data", PagePattern()).string());  // installs the handler
  EXPECT_EXIT(FailACopyThenRaiseSigbus(file), EndedBySigbus, "");
}

}  // namespace
}  // namespace dlbench::storage
