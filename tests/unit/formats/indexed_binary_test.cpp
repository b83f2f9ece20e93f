#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/indexed/indexed_binary_reader.h"
#include "formats/indexed/indexed_binary_writer.h"
#include "formats/io/little_endian.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "storage/throttled_env.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

TEST(SharedFileSlice, CoversEverySampleOnce) {
  for (std::int64_t n : {0, 1, 7, 10, 1000003}) {
    for (int ranks : {1, 2, 3, 8, 13}) {
      std::int64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const SampleSlice s = SharedFileSlice(n, ranks, r);
        EXPECT_EQ(s.first, next) << n << " " << ranks << " " << r;
        EXPECT_TRUE(s.count == n / ranks || s.count == n / ranks + 1);
        next += s.count;
      }
      EXPECT_EQ(next, n);
    }
  }
  EXPECT_EQ(SharedFileSlice(10, 4, 0).count, 3);
  EXPECT_EQ(SharedFileSlice(10, 4, 2).first, 6);
  EXPECT_EQ(SharedFileSlice(10, 4, 3).count, 2);
  EXPECT_THROW(SharedFileSlice(10, 4, 4), Error);
}

class IndexedBinaryFiles : public test::FormatFiles<IndexedBinaryReader> {
 protected:
  IndexedBinaryFiles() : FormatFiles("img_0_of_1.indexed_binary", 2) {}
};

TEST_F(IndexedBinaryFiles, RoundTripsWithBothReaders) {
  const auto content = test::RandomContent();
  const FileSpec spec = make_spec({45, 45}, 9);
  const WriteResult written = test::WriteFile(IndexedBinaryWriter(), spec, content, 1000);
  EXPECT_EQ(written.data_bytes, 9u * 2025);
  EXPECT_EQ(IndexedBinaryWriter().file_size(spec), written.data_bytes);
  EXPECT_EQ(written.companion_bytes, 2u * 8 * 9);
  EXPECT_EQ(written.files,
            (std::vector<std::string>{spec.path, spec.path + ".off.idx", spec.path + ".sz.idx"}));
  const std::string offsets = test::ReadAll(spec.path + ".off.idx");
  const std::string sizes = test::ReadAll(spec.path + ".sz.idx");
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(GetLe(offsets.data() + 8 * i, 8), 2025u * i);
    EXPECT_EQ(GetLe(sizes.data() + 8 * i, 8), 2025u);
  }
  std::vector<std::unique_ptr<FileReader>> readers;
  readers.push_back(IndexedBinaryReader().open(storage::PosixEnv(), spec, {}));
  readers.push_back(MmapIndexedBinaryReader().open(storage::PosixEnv(), spec, {}));
  for (auto& reader : readers) {
    EXPECT_EQ(reader->open_bytes(), 144u);
    std::vector<std::byte> out(2025);
    for (std::int64_t k : {8, 0, 3}) {
      EXPECT_EQ(reader->read_sample(k, out), 2025u);
      EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k));
    }
  }
}

TEST_F(IndexedBinaryFiles, BrokenIndexesAreReported) {
  const FileSpec spec = make_spec({10, 10}, 4);
  test::WriteFile(IndexedBinaryWriter(), spec, test::RandomContent());
  const std::string offsets = test::ReadAll(spec.path + ".off.idx");

  // DLIO's chunk-restarted offsets are fine; offsets beyond the end are not.
  std::string beyond = offsets;
  beyond[8 * 3 + 1] = 0x10;
  test::WriteAll(spec.path + ".off.idx", beyond);
  for (const std::string& error :
       {open_error<IndexedBinaryReader>(spec), open_error<MmapIndexedBinaryReader>(spec)}) {
    EXPECT_NE(error.find("entry 3"), std::string::npos) << error;
    EXPECT_NE(error.find("beyond the end"), std::string::npos) << error;
  }
  test::WriteAll(spec.path + ".off.idx", offsets.substr(0, 24));
  EXPECT_NE(open_error<IndexedBinaryReader>(spec).find("bad index: it holds 3 entries, expected 4"),
            std::string::npos);
  test::WriteAll(spec.path + ".off.idx", offsets);
  EXPECT_NE(
      open_error<IndexedBinaryReader>(make_spec({10, 11}, 4)).find("says 100 bytes, expected 110"),
      std::string::npos);
  std::filesystem::remove(spec.path + ".sz.idx");
  EXPECT_NE(open_error<IndexedBinaryReader>(spec).find(".sz.idx"), std::string::npos);
}

// Another process truncating the data file while it is mapped (hardening3): the mmap reader died
// of SIGBUS; now the samples past the new end are an IoError naming the file, and those before it
// still read.
TEST_F(IndexedBinaryFiles, MmapReaderOfAFileTruncatedWhileMappedFailsTheLostSamples) {
  const auto content = test::RandomContent();
  const FileSpec spec = make_spec({64, 64}, 8);
  test::WriteFile(IndexedBinaryWriter(), spec, content);
  auto reader = MmapIndexedBinaryReader().open(storage::PosixEnv(), spec, {});
  std::filesystem::resize_file(spec.path, 3 * 4096);
  std::vector<std::byte> out(4096);
  for (std::int64_t k : {2, 7, 3, 0}) {
    if (k < 3) {
      EXPECT_EQ(reader->read_sample(k, out), 4096u);
      EXPECT_EQ(out, test::SampleFirstBytes(content, spec, k));
    } else {
      dlbench::test::ExpectError([&] { reader->read_sample(k, out); }, ExitCode::kIo,
                                 {"read " + spec.path, "truncated while mapped",
                                  "[" + std::to_string(k * 4096) + ", +4096)", "12288 bytes now"});
    }
  }
}

// A clock whose sleeps only add up (the throttle's waits, without waiting).
class SleepCounter final : public storage::ThrottleClock {
 public:
  Seconds now() override { return slept; }
  void sleep_for(Seconds duration) override {
    slept += duration;
    ++sleeps;
  }
  Seconds slept = 0;
  int sleeps = 0;
};

// The mapping is opened through the Env (Env::open_mapped): each sample read out of it is a read
// the counters count (the index files' bytes were all they saw before), a throttled tier waits
// for, and fault injection can fail.
TEST_F(IndexedBinaryFiles, MappedReadsGoThroughTheEnvsWrappers) {
  const FileSpec spec = make_spec({45, 45}, 9);
  test::WriteFile(IndexedBinaryWriter(), spec, test::RandomContent(), 1000);
  storage::CountingEnv counting(storage::PosixEnv());
  SleepCounter clock;
  storage::ThrottledEnv throttled(counting, {.bandwidth = std::nullopt, .latency = 0.001}, clock);
  storage::FaultInjectionEnv faults(throttled);
  const auto reader = MmapIndexedBinaryReader().open(faults, spec, {});
  const int sleeps_at_open = clock.sleeps;
  std::vector<std::byte> sample(reader->sample_bytes());
  for (std::int64_t k = 0; k < 9; ++k) EXPECT_EQ(reader->read_sample(k, sample), 2025u);
  EXPECT_EQ(counting.counts().bytes_read, 2u * 8 * 9 + 9u * 2025);
  for (const storage::FileCounts& file : counting.files()) {
    if (file.path == spec.path) {
      EXPECT_EQ(file.counts.reads, 9u);
    }
  }
  EXPECT_EQ(clock.sleeps - sleeps_at_open, 9);
  faults.inject(storage::Fault(storage::FaultOp::kRead).error(EIO));
  dlbench::test::ExpectError([&] { reader->read_sample(3, sample); }, ExitCode::kIo,
                             {spec.path, "injected"});
}

}  // namespace
}  // namespace dlbench::formats
