#include "pipeline/format_sample_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::pipeline {
namespace {

// A format whose files hold `spec.samples` samples of 8 bytes each: sample k reads as k repeated.
class FakeFileReader final : public formats::FileReader {
 public:
  explicit FakeFileReader(const formats::FileSpec& spec)
      : path_(spec.path), samples_(spec.samples) {}
  const std::string& path() const override { return path_; }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return 8; }
  Bytes open_bytes() const override { return 3; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    for (std::size_t i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(k);
    return 12;  // framing included
  }

 private:
  std::string path_;
  std::int64_t samples_;
};

class FakeFormat final : public formats::FormatReader {
 public:
  mutable std::vector<std::string> opened;
  mutable formats::FileReadOptions last_options;
  std::unique_ptr<formats::FileReader> open(
      storage::Env&, const formats::FileSpec& spec,
      const formats::FileReadOptions& options) const override {
    opened.push_back(spec.path);
    last_options = options;
    if (spec.path == "/data/missing") throw IoError("open", spec.path, 2);
    return std::make_unique<FakeFileReader>(spec);
  }
};

void SpecOf(FileIndex file, formats::FileSpec& spec, bool /*again*/) {
  spec.path = file == 9 ? "/data/missing" : "/data/f" + std::to_string(file);
  spec.samples = file == 5 ? 2 : 4;
}

TEST(FormatSampleSource, OpensTheSpecOfTheFileAndReadsThroughTheFormat) {
  FakeFormat format;
  FormatSampleSource source(format, storage::PosixEnv(), formats::FileReadOptions{}, SpecOf);
  auto file = source.open(3);
  EXPECT_EQ(format.opened, std::vector<std::string>{"/data/f3"});
  EXPECT_EQ(file->sample_bytes(), 8u);
  EXPECT_EQ(file->open_bytes(), 3u);
  std::vector<std::byte> buffer(8);
  EXPECT_EQ(file->read(2, buffer), 12u);
  EXPECT_EQ(buffer[7], std::byte{2});
}

TEST(FormatSampleSource, EachOpenGetsItsFilesSpecThoughTheThreadReusesOne) {
  FakeFormat format;
  FormatSampleSource source(format, storage::PosixEnv(), formats::FileReadOptions{}, SpecOf);
  auto five = source.open(5);  // 2 samples
  auto three = source.open(3);
  auto twelve = source.open(12);
  EXPECT_EQ(format.opened, (std::vector<std::string>{"/data/f5", "/data/f3", "/data/f12"}));
  EXPECT_EQ(five->sample_bytes(), 8u);
  std::vector<std::byte> buffer(8);
  EXPECT_EQ(three->read(3, buffer), 12u);
  dlbench::test::ExpectError([&] { five->read(2, buffer); }, ExitCode::kIo,
                             {"/data/f5", "sample 2 asked, the file holds 2"});
}

TEST(FormatSampleSource, AnIndexBeyondTheFileIsAnIoErrorNamingThePath) {
  FakeFormat format;
  FormatSampleSource source(format, storage::PosixEnv(), formats::FileReadOptions{}, SpecOf);
  auto file = source.open(1);
  std::vector<std::byte> buffer(8);
  dlbench::test::ExpectError([&] { file->read(4, buffer); }, ExitCode::kIo, {"/data/f1"});
}

TEST(FormatSampleSource, ReadOnceOpensReadsAndCountsTheOpenBytes) {
  FakeFormat format;
  FormatSampleSource source(format, storage::PosixEnv(), formats::FileReadOptions{}, SpecOf);
  SampleBuffer buffer;
  Bytes open_bytes = 10;
  const SampleSource::OnceRead once = source.read_once(3, 2, buffer, open_bytes);
  EXPECT_EQ(format.opened, std::vector<std::string>{"/data/f3"});
  EXPECT_EQ(once.read, 12u);
  EXPECT_EQ(once.sample_bytes, 8u);
  EXPECT_EQ(open_bytes, 13u);
  EXPECT_EQ(buffer.get(8)[7], std::byte{2});
  // An index beyond the file: the open's bytes still count.
  dlbench::test::ExpectError([&] { source.read_once(5, 2, buffer, open_bytes); }, ExitCode::kIo,
                             {"/data/f5", "sample 2 asked, the file holds 2"});
  EXPECT_EQ(open_bytes, 16u);
  EXPECT_THROW(source.read_once(9, 0, buffer, open_bytes), Error);
  EXPECT_EQ(open_bytes, 16u);
}

// read_once offers the thread's buffer to the format as far as it has grown (a one-sample npy
// file reads its sample straight into it), with SampleBuffer::kHeadroom writable bytes before it
// for the header; a format that writes all of them stays inside the buffer (ASan checks it).
TEST(FormatSampleSource, ReadOnceOffersTheBufferWithItsHeadroomToTheFormat) {
  FakeFormat format;
  formats::FileReadOptions configured;
  configured.transfer_size = 777;
  FormatSampleSource source(format, storage::PosixEnv(), configured, SpecOf);
  SampleBuffer buffer;
  Bytes open_bytes = 0;
  source.read_once(3, 0, buffer, open_bytes);
  EXPECT_TRUE(format.last_options.sample_into.empty());  // not grown yet
  source.read_once(3, 1, buffer, open_bytes);
  const std::span<std::byte> into = format.last_options.sample_into;
  EXPECT_EQ(into.data(), buffer.get(8).data());
  EXPECT_EQ(into.size(), 8u);  // what the first sample grew it to
  EXPECT_EQ(format.last_options.sample_into_headroom, SampleBuffer::kHeadroom);
  EXPECT_EQ(format.last_options.transfer_size, 777u);  // the rest as configured
  std::fill(into.data() - SampleBuffer::kHeadroom, into.data() + into.size(), std::byte{7});
  EXPECT_EQ(buffer.get(8)[0], std::byte{7});
  // The source's own open (the memory read type) offers no buffer.
  source.open(3);
  EXPECT_TRUE(format.last_options.sample_into.empty());
}

// `again` tells the spec function that the thread's spec holds what it wrote for an earlier
// file: never on the thread's first call, nor after another source or a call that threw wrote it.
TEST(FormatSampleSource, TheSpecFunctionLearnsWhetherTheThreadsSpecIsItsOwn) {
  FakeFormat format;
  std::vector<bool> calls_a, calls_b;
  const auto recording = [](std::vector<bool>& calls) {
    return [&calls](FileIndex file, formats::FileSpec& spec, bool again) {
      calls.push_back(again);
      SpecOf(file, spec, again);
    };
  };
  FormatSampleSource a(format, storage::PosixEnv(), formats::FileReadOptions{}, recording(calls_a));
  FormatSampleSource b(format, storage::PosixEnv(), formats::FileReadOptions{}, recording(calls_b));
  std::thread([&] {
    a.open(1);
    a.open(2);
    b.open(3);
    a.open(4);
    EXPECT_THROW(a.open(9), Error);  // written by `a`, but the format failed after
    a.open(5);
  }).join();
  a.open(6);  // another thread: its own spec
  EXPECT_EQ(calls_a, (std::vector<bool>{false, true, false, true, true, false}));
  EXPECT_EQ(calls_b, std::vector<bool>{false});
  FormatSampleSource throwing(
      format, storage::PosixEnv(), formats::FileReadOptions{},
      [](FileIndex, formats::FileSpec&, bool) { throw IoError("stat", "/data/x", 2); });
  EXPECT_THROW(throwing.open(1), Error);
  a.open(7);  // the spec `throwing` may have half written is not `a`'s
  EXPECT_EQ(calls_a.back(), false);
}

TEST(FormatSampleSource, OpenErrorsPropagate) {
  FakeFormat format;
  FormatSampleSource source(format, storage::PosixEnv(), formats::FileReadOptions{}, SpecOf);
  EXPECT_THROW(source.open(9), Error);
}

}  // namespace
}  // namespace dlbench::pipeline
