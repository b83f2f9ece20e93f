#include "trace/tracing_env.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "support/expect_error.h"
#include "support/test_support.h"
#include "trace/recorder.h"
#include "trace_lines.h"
#include "unit/storage/memory_shared_file.h"

namespace dlbench::trace {
namespace {

using test::Named;
using test::PathOf;
using test::ReadTrace;
using test::TestRecorderOptions;

TEST(TracingEnv, RecordsEveryOperationWithFileOffsetSizeAndResult) {
  test::TempDir dir;
  const std::string data = (dir / "data").string();
  const std::string file = data + "/a.bin";
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    TracingEnv env(storage::PosixEnv());
    env.create_directories(data);
    auto out = env.create(file);
    out->append("abcdefgh", 8);
    out->write_at(8, "ijkl", 4);
    out->sync();
    out->close();
    {
      auto in = env.open_read(file);
      char buffer[16];
      EXPECT_EQ(in->read_at(2, buffer, 16), 10u);
    }
    EXPECT_EQ(env.file_size(file), 12u);
    env.rename(file, data + "/b.bin");
    env.remove(data + "/b.bin");
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  const auto reads = Named(trace, "pread64");
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0]["cat"], "POSIX");
  EXPECT_EQ(reads[0]["args"]["ret"], 10);
  EXPECT_EQ(reads[0]["args"]["size"], 16);
  EXPECT_EQ(reads[0]["args"]["offset"], 2);
  EXPECT_EQ(PathOf(trace, reads[0]["args"]["fhash"]), file);
  const auto appends = Named(trace, "write");
  ASSERT_EQ(appends.size(), 1u);
  EXPECT_EQ(appends[0]["args"]["ret"], 8);
  const auto writes = Named(trace, "pwrite64");
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0]["args"]["offset"], 8);
  EXPECT_EQ(writes[0]["args"]["fhash"], reads[0]["args"]["fhash"]);
  EXPECT_EQ(Named(trace, "creat64").size(), 1u);
  EXPECT_EQ(Named(trace, "open64").size(), 1u);
  EXPECT_EQ(Named(trace, "fsync").size(), 1u);
  EXPECT_EQ(Named(trace, "close").size(), 2u);  // the written file's and the read one's
  EXPECT_EQ(Named(trace, "__xstat64").size(), 1u);
  EXPECT_EQ(Named(trace, "__xstat64")[0]["args"]["ret"], 12);
  EXPECT_EQ(Named(trace, "mkdir").size(), 1u);
  ASSERT_EQ(Named(trace, "rename").size(), 1u);
  EXPECT_EQ(PathOf(trace, Named(trace, "rename")[0]["args"]["fhash"]), data + "/b.bin");
  EXPECT_EQ(Named(trace, "unlink").size(), 1u);
}

// Publishing, shared files and mappings are recorded and forwarded unchanged: the tracer takes
// part in them without changing how the target does them (the file is still written without a
// name and linked into place: no partial name in the folder).
TEST(TracingEnv, RecordsPublishingSharedFilesAndMappingsWithoutChangingThem) {
  test::TempDir dir;
  const std::string data = (dir / "data").string();
  const std::string file = data + "/a.bin";
  dlbench::test::MemorySharedOpener opener;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    TracingEnv env(storage::PosixEnv());
    env.create_directories(data);
    auto out = env.create_for_publish(file);
    out->append("abcdefgh", 8);
    EXPECT_TRUE(storage::PosixEnv().list_directory(data).empty());
    out->publish();
    env.create_for_publish(data + "/b.bin")->abandon();
    {
      auto mapped = env.open_mapped(file);
      char buffer[4];
      EXPECT_EQ(mapped->read_at(4, buffer, 4), 4u);
      EXPECT_EQ(std::string(buffer, 4), "efgh");
    }
    auto shared = env.open_shared(data + "/s.bin", opener);
    shared->write_at_all(0, "xyz", 3);
    shared->close();
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  EXPECT_EQ(Named(trace, "creat64").size(), 2u);
  ASSERT_EQ(Named(trace, "rename").size(), 1u);
  EXPECT_EQ(PathOf(trace, Named(trace, "rename")[0]["args"]["fhash"]), file);
  EXPECT_EQ(Named(trace, "unlink").size(), 1u);
  EXPECT_EQ(Named(trace, "open64").size(), 2u);  // the mapping and the shared file
  ASSERT_EQ(Named(trace, "pread64").size(), 1u);
  EXPECT_EQ(Named(trace, "pread64")[0]["args"]["offset"], 4);
  ASSERT_EQ(Named(trace, "pwrite64").size(), 1u);
  EXPECT_EQ(Named(trace, "pwrite64")[0]["args"]["size"], 3);
  EXPECT_EQ(opener.bytes, "xyz");
  std::vector<std::string> names;
  for (const auto& entry : storage::PosixEnv().list_directory(data)) names.push_back(entry.name);
  EXPECT_EQ(names, std::vector<std::string>{"a.bin"});
}

TEST(TracingEnv, AFailedOperationIsRecordedWithRetMinusOneAndStillThrows) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    TracingEnv env(storage::PosixEnv());
    test::ExpectError([&] { env.open_read((dir / "missing").string()); }, ExitCode::kIo,
                      {"missing"});
    recorder.finish();
  }
  const auto opens = Named(ReadTrace(dir / "t.pfw.gz"), "open64");
  ASSERT_EQ(opens.size(), 1u);
  EXPECT_EQ(opens[0]["args"]["ret"], -1);
}

TEST(TracingEnv, AGatheredWriteIsOneWriteOfItsTotal) {
  test::TempDir dir;
  {
    Recorder recorder(TestRecorderOptions(dir / "t.pfw.gz"));
    TracingEnv env(storage::PosixEnv());
    auto out = env.create((dir / "a.bin").string());
    out->append("ab", 2);
    const std::string text = "cdefghij";
    const auto bytes = std::as_bytes(std::span(text));
    const std::vector<std::span<const std::byte>> pieces = {bytes.first(3), bytes.subspan(3)};
    out->append_gathered(pieces);
    out->close();
    recorder.finish();
  }
  const auto writes = Named(ReadTrace(dir / "t.pfw.gz"), "write");
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[1]["args"]["ret"], 8);
  EXPECT_EQ(writes[1]["args"]["size"], 8);
  EXPECT_EQ(writes[1]["args"]["offset"], 2);
  EXPECT_EQ(storage::PosixEnv().file_size((dir / "a.bin").string()), 10u);
}

TEST(TracingEnv, TheDataDirFilterLeavesOtherPathsUntraced) {
  test::TempDir dir;
  const auto traced = dir.write("data/x", "12345");
  const auto other = dir.write("other/y", "12345");
  RecorderOptions options = TestRecorderOptions(dir / "t.pfw.gz");
  options.data_dirs = {(dir / "data").string()};
  {
    Recorder recorder(options);
    TracingEnv env(storage::PosixEnv());
    char buffer[5];
    env.open_read(traced.string())->read_at(0, buffer, 5);
    env.open_read(other.string())->read_at(0, buffer, 5);
    recorder.finish();
  }
  const auto trace = ReadTrace(dir / "t.pfw.gz");
  ASSERT_EQ(Named(trace, "pread64").size(), 1u);
  EXPECT_EQ(PathOf(trace, Named(trace, "pread64")[0]["args"]["fhash"]), traced.string());
  EXPECT_EQ(Named(trace, "open64").size(), 1u);
  EXPECT_EQ(Named(trace, "close").size(), 1u);
}

TEST(TracingEnv, WithoutARecorderNothingIsWrappedOrRecorded) {
  test::TempDir dir;
  const auto path = dir.write("x", "12345");
  TracingEnv env(storage::PosixEnv());
  char buffer[5];
  EXPECT_EQ(env.open_read(path.string())->read_at(0, buffer, 5), 5u);
  EXPECT_TRUE(env.exists(path.string()));
}

}  // namespace
}  // namespace dlbench::trace
