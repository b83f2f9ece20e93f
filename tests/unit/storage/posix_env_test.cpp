#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "storage/aligned_buffer.h"
#include "storage/atomic_file.h"
#include "storage/file.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::ExpectError;
using test::TempDir;

std::vector<char> Pattern(std::size_t n) {
  std::vector<char> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<char>(i * 7 + 3);
  return data;
}

TEST(PosixEnv, WriteThenReadRoundTrip) {
  TempDir dir;
  const std::string path = dir / "a.bin";
  const auto data = Pattern(100000);
  Env& env = PosixEnv();
  auto out = env.create(path);
  out->append(data.data(), 60000);
  out->append(data.data() + 60000, 40000);
  EXPECT_EQ(out->appended(), 100000u);
  out->sync();
  out->close();
  EXPECT_EQ(env.file_size(path), 100000u);

  auto in = env.open_read(path);
  EXPECT_EQ(in->size(), 100000u);
  EXPECT_EQ(in->path(), path);
  std::vector<char> back(100000);
  EXPECT_EQ(in->read_at(0, back.data(), back.size()), 100000u);
  EXPECT_EQ(back, data);
  std::vector<char> middle(10);
  EXPECT_EQ(in->read_at(12345, middle.data(), 10), 10u);
  EXPECT_EQ(0, std::memcmp(middle.data(), data.data() + 12345, 10));
  in->drop_cache();
}

TEST(PosixEnv, WriteAtPositionsAndOpenWriteKeepsContent) {
  TempDir dir;
  const std::string path = dir / "b.bin";
  Env& env = PosixEnv();
  {
    auto out = env.create(path);
    out->write_at(4, "5678", 4);
    out->write_at(0, "1234", 4);
    EXPECT_EQ(out->appended(), 0u);
    out->close();
  }
  {
    auto out = env.open_write(path);
    out->write_at(8, "9", 1);
    out->close();
  }
  auto in = env.open_read(path);
  char back[9];
  ASSERT_EQ(in->read_at(0, back, 9), 9u);
  EXPECT_EQ(std::string(back, 9), "123456789");
}

TEST(PosixEnv, CreateTruncates) {
  TempDir dir;
  const std::string path = dir.write("c.bin", "old content").string();
  auto out = PosixEnv().create(path);
  out->close();
  EXPECT_EQ(PosixEnv().file_size(path), 0u);
}

TEST(PosixEnv, TruncateCutsAndExtendsWithZerosKeepingTheAppendPosition) {
  TempDir dir;
  const std::string path = dir / "t.bin";
  auto out = PosixEnv().create(path);
  out->append("abcdef", 6);
  out->truncate(2);
  EXPECT_EQ(PosixEnv().file_size(path), 2u);
  out->truncate(5);
  EXPECT_EQ(out->appended(), 6u);
  out->close();
  auto in = PosixEnv().open_read(path);
  char back[8];
  ASSERT_EQ(in->read_at(0, back, sizeof back), 5u);
  EXPECT_EQ(std::string(back, 5), std::string("ab\0\0\0", 5));
  ExpectError([&] { out->truncate(1); }, ExitCode::kIo, {"truncate", "t.bin", "file closed"});
}

TEST(PosixEnv, ShortReadAtEndOfFileReturnsFewerBytes) {
  TempDir dir;
  const std::string path = dir.write("short.bin", "0123456789").string();
  auto in = PosixEnv().open_read(path);
  char buffer[32];
  EXPECT_EQ(in->read_at(6, buffer, sizeof buffer), 4u);
  EXPECT_EQ(std::string(buffer, 4), "6789");
  EXPECT_EQ(in->read_at(10, buffer, sizeof buffer), 0u);
  EXPECT_EQ(in->read_at(1000, buffer, sizeof buffer), 0u);
}

TEST(PosixEnv, OpenMissingFileNamesPathAndErrno) {
  TempDir dir;
  const std::string path = dir / "missing.bin";
  ExpectError([&] { PosixEnv().open_read(path); }, ExitCode::kIo,
              {"open for reading", path, "errno " + std::to_string(ENOENT)});
}

// A FIFO where a file should be opens without waiting for a writer (the open used to block
// forever), and its size and reads fail naming it.
TEST(PosixEnv, AFifoOpensAtOnceAndIsNotARegularFile) {
  TempDir dir;
  const std::string path = dir / "fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  auto in = PosixEnv().open_read(path);
  ExpectError([&] { in->size(); }, ExitCode::kIo, {"read", path, "not a regular file"});
  char buffer[16];
  ExpectError([&] { in->read_at(0, buffer, sizeof buffer); }, ExitCode::kIo,
              {"read", path, "not a regular file"});
  // Env::file_size holds to the same rule (a FIFO's size 0 passed for a file's).
  ExpectError([&] { PosixEnv().file_size(path); }, ExitCode::kIo,
              {"stat", path, "not a regular file"});
  ExpectError([&] { PosixEnv().file_size(dir.path().string()); }, ExitCode::kIo,
              {"stat", dir.path().string(), "errno " + std::to_string(EISDIR)});
}

// What tells which of two saves of a checkpoint is newer (burst_buffer_store.cpp): stat's
// st_mtim, so a file set to a later time reads as later; an absent file is an I/O error naming it.
TEST(PosixEnv, ModifiedTimeIsTheFilesAndAbsentIsAnIoError) {
  TempDir dir;
  const std::string older = dir.write("older", "x").string();
  const std::string newer = dir.write("newer", "y").string();
  const struct timespec times[2] = {{1000, 5}, {1000, 5}};
  ASSERT_EQ(::utimensat(AT_FDCWD, older.c_str(), times, 0), 0);
  EXPECT_EQ(PosixEnv().modified_ns(older), 1000 * 1'000'000'000LL + 5);
  EXPECT_GT(PosixEnv().modified_ns(newer), PosixEnv().modified_ns(older));
  const std::string absent = (dir / "absent").string();
  ExpectError([&] { PosixEnv().modified_ns(absent); }, ExitCode::kIo,
              {"stat", absent, "errno " + std::to_string(ENOENT)});
}

TEST(PosixEnv, CreateUnderARegularFileFailsWithENotDir) {
  TempDir dir;
  const std::string file = dir.write("plain", "x").string();
  const std::string path = file + "/child.bin";
  ExpectError([&] { PosixEnv().create(path); }, ExitCode::kIo,
              {path, "errno " + std::to_string(ENOTDIR)});
  ExpectError([&] { PosixEnv().create_directories(file + "/sub/dir"); }, ExitCode::kIo,
              {"mkdir", file, "errno " + std::to_string(ENOTDIR)});
  ExpectError([&] { PosixEnv().file_size(path); }, ExitCode::kIo, {"stat", path});
  ExpectError([&] { PosixEnv().sync_directory(file + "/sub"); }, ExitCode::kIo, {file + "/sub"});
  ExpectError([&] { PosixEnv().rename(dir / "nope", dir / "other"); }, ExitCode::kIo,
              {"rename", dir / "nope", dir / "other", "errno " + std::to_string(ENOENT)});
  EXPECT_FALSE(PosixEnv().exists(path));
}

TEST(PosixEnv, ReadErrorNamesOffsetLengthAndErrno) {
  // Reading a directory descriptor fails with EISDIR at the requested offset.
  TempDir dir;
  auto in = PosixEnv().open_read(dir.path().string());
  char buffer[16];
  ExpectError(
      [&] { in->read_at(42, buffer, 16); }, ExitCode::kIo,
      {"read", dir.path().string(), "offset 42, length 16", "errno " + std::to_string(EISDIR)});
}

TEST(PosixEnv, WriteErrorNamesOffsetLengthAndErrno) {
  // /dev/full fails every write with ENOSPC.
  auto out = PosixEnv().open_write("/dev/full");
  ExpectError([&] { out->write_at(8, "abcd", 4); }, ExitCode::kIo,
              {"write", "/dev/full", "offset 8, length 4", "errno " + std::to_string(ENOSPC)});
}

TEST(PosixEnv, CloseTwiceAndUseAfterCloseAreReported) {
  TempDir dir;
  auto out = PosixEnv().create(dir / "closed.bin");
  out->close();
  out->close();  // a second close is a no-op
  ExpectError([&] { out->append("x", 1); }, ExitCode::kIo, {"write", "closed.bin", "file closed"});
  ExpectError([&] { out->sync(); }, ExitCode::kIo, {"fsync", "closed.bin"});
}

std::string Contents(const std::string& path) {
  auto in = PosixEnv().open_read(path);
  std::string text(in->size(), '\0');
  in->read_at(0, text.data(), text.size());
  return text;
}

std::vector<std::string> Names(const TempDir& dir) {
  std::vector<std::string> names;
  for (const DirectoryEntry& entry : PosixEnv().list_directory(dir.path().string())) {
    names.push_back(entry.name);
  }
  return names;
}

// The folders tests write in (ext4, tmpfs) have O_TMPFILE files: a partial name here means the
// Env lost them, not a file system without them.
TEST(PosixEnv, AFileForPublishingIsUnnamedUntilPublishedAndGoneIfNot) {
  TempDir dir;
  const std::string path = dir / "u.bin";
  Env& env = PosixEnv();
  {
    auto out = env.create_for_publish(path);
    EXPECT_EQ(out->path(), path);
    out->append("abc", 3);
    out->sync();
    EXPECT_TRUE(env.list_directory(dir.path().string()).empty());
    out->publish();
  }
  EXPECT_EQ(Contents(path), "abc");
  {
    auto abandoned = env.create_for_publish(dir / "never.bin");
    abandoned->append("x", 1);
    abandoned->abandon();
    auto destroyed = env.create_for_publish(dir / "never.bin");
    destroyed->append("x", 1);
  }
  EXPECT_EQ(Names(dir), std::vector<std::string>{"u.bin"});
}

// With a partial name, O_DIRECT or reuse, the file is written under its partial name and renamed.
TEST(PosixEnv, AFileForPublishingUnderItsPartialNameIsRenamedOrRemoved) {
  TempDir dir;
  Env& env = PosixEnv();
  const std::string path = dir / "p.bin";
  for (const PublishOptions options :
       {PublishOptions{.partial_name = true}, PublishOptions{.direct = true}}) {
    std::unique_ptr<WritableFile> out;
    try {
      out = env.create_for_publish(path, options);
    } catch (const Error&) {
      ASSERT_TRUE(options.direct) << "only O_DIRECT may be missing here";
      continue;
    }
    EXPECT_EQ(out->path(), PartialPathFor(path));
    EXPECT_EQ(Names(dir), std::vector<std::string>{".p.bin.dlbench-partial"});
    out->abandon();
    EXPECT_TRUE(Names(dir).empty());
    out = env.create_for_publish(path, options);
    AlignedBuffer bytes(kDirectAlignment);  // O_DIRECT's buffers are aligned
    std::memcpy(bytes.data(), "abc", 3);
    out->append(bytes.data(), 3);
    out->publish();
    EXPECT_EQ(Contents(path), "abc");
    EXPECT_EQ(Names(dir), std::vector<std::string>{"p.bin"});
    env.remove(path);
  }
  // reuse: the caller moved an earlier copy to the partial name; it is written over in place.
  dir.write(".p.bin.dlbench-partial", "earlier copy");
  auto out = env.create_for_publish(path, {.reuse = true});
  out->write_at(0, "later", 5);
  out->truncate(5);
  out->publish();
  EXPECT_EQ(Contents(path), "later");
}

TEST(PosixEnv, PublishingReplacesAnOlderFileAndRefusesFilesNotForPublishing) {
  TempDir dir;
  const std::string taken = dir.write("taken.bin", "old").string();
  for (const bool partial : {false, true}) {
    auto out = PosixEnv().create_for_publish(taken, {.partial_name = partial});
    out->append(partial ? "renamed" : "linked", partial ? 7 : 6);
    EXPECT_EQ(Contents(taken), partial ? "linked" : "old");
    out->publish();
    EXPECT_EQ(Contents(taken), partial ? "renamed" : "linked");
    ExpectError([&] { out->publish(); }, ExitCode::kIo, {"publish", "file closed"});
    out->abandon();  // finished already: nothing to do
  }
  EXPECT_EQ(Names(dir), std::vector<std::string>{"taken.bin"});
  auto named = PosixEnv().create(dir / "named.bin");
  ExpectError([&] { named->publish(); }, ExitCode::kIo,
              {"named.bin", "not created for publishing"});
  ExpectError([&] { named->abandon(); }, ExitCode::kIo,
              {"named.bin", "not created for publishing"});
  ExpectError([&] { PosixEnv().create_for_publish(dir / "missing" / "x.bin"); }, ExitCode::kIo,
              {"x.bin", "errno " + std::to_string(ENOENT)});
}

TEST(PosixEnv, DirectoriesExistsRemove) {
  TempDir dir;
  Env& env = PosixEnv();
  const std::string deep = dir / "a/b/c";
  env.create_directories(deep);
  env.create_directories(deep);  // already there
  EXPECT_TRUE(env.exists(deep));
  const std::string file = deep + "/f";
  env.create(file)->close();
  EXPECT_TRUE(env.exists(file));
  env.rename(file, deep + "/g");
  EXPECT_FALSE(env.exists(file));
  EXPECT_TRUE(env.exists(deep + "/g"));
  env.sync_directory(deep);
  env.remove(deep + "/g");
  env.remove(deep + "/g");  // absent: no error
  EXPECT_FALSE(env.exists(deep + "/g"));
  env.remove(deep);  // an empty folder
  EXPECT_FALSE(env.exists(deep));
  env.create(dir / "a/b/x")->close();
  ExpectError([&] { env.remove(dir / "a/b"); }, ExitCode::kIo, {"remove", dir / "a/b"});
}

TEST(PosixEnv, ListDirectorySortsNamesAndTellsFoldersAndLinks) {
  TempDir dir;
  Env& env = PosixEnv();
  env.create_directories(dir / "d/sub");
  env.create(dir / "d/b.bin")->close();
  env.create(dir / "d/a.bin")->close();
  ASSERT_EQ(::symlink((dir / "d/sub").c_str(), (dir / "d/link-to-sub").c_str()), 0);
  ASSERT_EQ(::symlink((dir / "nowhere").c_str(), (dir / "d/dangling").c_str()), 0);
  const std::vector<DirectoryEntry> entries = env.list_directory(dir / "d");
  std::vector<std::tuple<std::string, bool, bool>> got;
  for (const DirectoryEntry& entry : entries) {
    got.emplace_back(entry.name, entry.is_directory, entry.is_symlink);
  }
  const std::vector<std::tuple<std::string, bool, bool>> expected = {{"a.bin", false, false},
                                                                     {"b.bin", false, false},
                                                                     {"dangling", false, true},
                                                                     {"link-to-sub", true, true},
                                                                     {"sub", true, false}};
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(env.list_directory(dir / "d/sub").empty());
  EXPECT_TRUE(env.list_directory(dir / "absent").empty());  // as remove of an absent path
  ExpectError([&] { env.list_directory(dir / "d/a.bin"); }, ExitCode::kIo,
              {"list", dir / "d/a.bin", "errno " + std::to_string(ENOTDIR)});
}

TEST(PosixEnv, RemoveTreeRemovesEverythingButFollowsNoLink) {
  TempDir dir;
  Env& env = PosixEnv();
  env.create_directories(dir / "keep");
  env.create(dir / "keep/k")->close();
  env.create_directories(dir / "t/a/b");
  env.create(dir / "t/a/b/f")->close();
  env.create(dir / "t/g")->close();
  ASSERT_EQ(::symlink((dir / "keep").c_str(), (dir / "t/link").c_str()), 0);
  env.remove_tree(dir / "t");
  EXPECT_FALSE(env.exists(dir / "t"));
  EXPECT_TRUE(env.exists(dir / "keep/k"));  // the link went, not what it pointed to
  env.remove_tree(dir / "t");               // absent: no error
  env.remove_tree(dir / "keep/k");          // a plain file
  EXPECT_FALSE(env.exists(dir / "keep/k"));
  env.create(dir / "file")->close();
  ExpectError([&] { env.remove_tree(dir / "file/x"); }, ExitCode::kIo,
              {"remove", dir / "file/x", "errno " + std::to_string(ENOTDIR)});
}

TEST(PosixEnv, FreeSpaceIsWhatStatvfsSays) {
  TempDir dir;
  Env& env = PosixEnv();
  const Bytes free = env.free_space(dir.path());
  EXPECT_GT(free, 0u);
  struct statvfs st {};
  ASSERT_EQ(::statvfs(dir.path().c_str(), &st), 0);
  const Bytes now = static_cast<Bytes>(st.f_bavail) * st.f_frsize;
  // Other processes write meanwhile: equal within 1 GiB.
  EXPECT_LT(free > now ? free - now : now - free, GiB);
  ExpectError([&] { env.free_space(dir / "absent"); }, ExitCode::kIo,
              {"statvfs", dir / "absent", "errno " + std::to_string(ENOENT)});
}

// /dev/shm is tmpfs on Linux; /proc is not a file system of files in memory.
TEST(PosixEnv, CapabilitiesSayWhetherThePathsFileSystemIsInMemory) {
  Env& env = PosixEnv();
  EXPECT_TRUE(env.capabilities("/dev/shm").memory);
  EXPECT_TRUE(env.capabilities("/dev/shm/dlbench-absent/a/b").memory) << "nearest existing folder";
  EXPECT_FALSE(env.capabilities("/proc/self").memory);
  EXPECT_FALSE(env.capabilities("/proc/dlbench-absent/x").memory);
  // Everything else is as it always is on POSIX.
  Capabilities can = env.capabilities("/dev/shm");
  can.memory = false;
  EXPECT_EQ(can, Capabilities{});
}

TEST(PosixEnv, DirectRoundTripWithUnalignedTail) {
  TempDir dir;  // under $TMPDIR, a disk file system that supports O_DIRECT
  const std::string path = dir / "direct.bin";
  const Bytes size = 3 * kDirectAlignment + 100;
  AlignedBuffer buffer(size);
  for (Bytes i = 0; i < size; ++i) buffer.data()[i] = static_cast<std::byte>(i % 251);
  OpenOptions direct{.direct = true};
  std::unique_ptr<WritableFile> out;
  try {
    out = PosixEnv().create(path, direct);
  } catch (const Error& e) {
    GTEST_SKIP() << "$TMPDIR does not support O_DIRECT: " << e.what();
  }
  out->append(buffer.data(), size);
  out->sync();
  out->close();
  EXPECT_EQ(PosixEnv().file_size(path), size);

  auto in = PosixEnv().open_read(path, direct);
  AlignedBuffer back(AlignUp(size));
  EXPECT_EQ(in->read_at(0, back.data(), back.size()), size);  // short read at the end
  EXPECT_EQ(0, std::memcmp(back.data(), buffer.data(), size));
  ExpectError([&] { in->read_at(1, back.data(), kDirectAlignment); }, ExitCode::kIo,
              {"read", path, "offset 1", "aligned to 4096"});
  ExpectError([&] { in->read_at(0, back.data() + 1, kDirectAlignment); }, ExitCode::kIo,
              {"aligned to 4096"});
  auto again = PosixEnv().open_write(path, direct);
  ExpectError([&] { again->write_at(3, buffer.data(), kDirectAlignment); }, ExitCode::kIo,
              {"write", path, "offset 3", "aligned to 4096"});
}

TEST(PosixEnv, DirectUnsupportedGivesClearError) {
  // procfs refuses O_DIRECT with EINVAL, like tmpfs on kernels before 6.6.
  ExpectError(
      [&] { PosixEnv().open_read("/proc/self/status", {.direct = true}); }, ExitCode::kIo,
      {"O_DIRECT", "/proc/self/status", "not supported", "errno " + std::to_string(EINVAL)});
}

TEST(PosixEnv, DirectOnDevShmWorksOrSaysUnsupported) {
  const std::string path = "/dev/shm/dlbench-direct-test-" + std::to_string(::getpid());
  try {
    auto out = PosixEnv().create(path, {.direct = true});
    AlignedBuffer buffer(kDirectAlignment);
    out->append(buffer.data(), kDirectAlignment);
    out->close();
    EXPECT_EQ(PosixEnv().file_size(path), kDirectAlignment);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("O_DIRECT is not supported"), std::string::npos)
        << e.what();
    EXPECT_FALSE(PosixEnv().exists(path)) << "a refused create must not leave a file";
  }
  PosixEnv().remove(path);
}

TEST(AlignedBuffer, AlignedAndReusable) {
  AlignedBuffer buffer(100);
  EXPECT_TRUE(IsAligned(buffer.data()));
  EXPECT_EQ(buffer.size(), 100u);
  EXPECT_EQ(buffer.capacity(), kDirectAlignment);
  std::byte* first = buffer.data();
  buffer.resize(kDirectAlignment);
  EXPECT_EQ(buffer.data(), first);  // fits: no reallocation
  buffer.resize(kDirectAlignment + 1);
  EXPECT_TRUE(IsAligned(buffer.data()));
  EXPECT_EQ(buffer.capacity(), 2 * kDirectAlignment);
  EXPECT_EQ(buffer.span().size(), kDirectAlignment + 1);
  EXPECT_EQ(AlignUp(0), 0u);
  EXPECT_EQ(AlignUp(1), kDirectAlignment);
  EXPECT_EQ(AlignDown(kDirectAlignment + 5), kDirectAlignment);
  EXPECT_FALSE(IsAligned(Bytes{5}));
}

}  // namespace
}  // namespace dlbench::storage
