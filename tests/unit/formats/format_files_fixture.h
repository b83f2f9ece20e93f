// The fixture of one format's file tests: Spec() describes a file in a fresh temporary folder,
// OpenError() opens it with the format's reader (or another one) and returns the I/O error's
// message; ReadError() the error of opening it and reading its first sample, ReadEveryError() of
// reading every sample; ExpectDamageIsAnIoErrorOrHarmless() damages each byte of the file in turn.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "format_test_support.h"
#include "formats/format.h"
#include "storage/file.h"
#include "support/expect_error.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::formats::test {

// Fails, showing `text`, unless `part` occurs in it.
inline void ExpectContains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "\"" << part << "\" not in: " << text;
}

template <typename Reader>
class FormatFiles : public ::testing::Test {
 protected:
  // `file_name` in the temporary folder; `file_index` seeds the file's content.
  FormatFiles(std::string file_name, FileIndex file_index)
      : file_name_(std::move(file_name)), file_index_(file_index) {}

  FileSpec make_spec(std::vector<std::int64_t> dims, std::int64_t samples,
                     std::string dtype = "uint8") {
    FileSpec spec;
    spec.path = (dir_ / file_name_).string();
    spec.file_index = file_index_;
    spec.sample_dims = std::move(dims);
    spec.samples = samples;
    spec.dtype = std::move(dtype);
    return spec;
  }

  // `OtherReader`: a second reader of the same files (mmap_indexed_binary).
  template <typename OtherReader = Reader>
  std::string open_error(const FileSpec& spec,
                         std::source_location where = std::source_location::current()) {
    return dlbench::test::ExpectError([&] { OtherReader().open(storage::PosixEnv(), spec, {}); },
                                      ExitCode::kIo, {}, where);
  }

  // `name` in the temporary folder.
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Opens the file and returns its first sample (decoded pixels for images).
  static std::vector<std::byte> FirstSample(const FileSpec& spec) {
    const auto reader = Reader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> sample(reader->sample_bytes());
    reader->read_sample(0, sample);
    return sample;
  }
  static void ReadFirst(const FileSpec& spec) { FirstSample(spec); }
  // The I/O error (naming the file) that reading the first sample throws.
  std::string read_error(const FileSpec& spec,
                         std::source_location where = std::source_location::current()) {
    return dlbench::test::ExpectError([&] { ReadFirst(spec); }, ExitCode::kIo, {spec.path}, where);
  }

  // Opens the file and reads every sample, in order.
  static void ReadEvery(const FileSpec& spec) {
    const auto reader = Reader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> sample(reader->sample_bytes());
    for (std::int64_t k = 0; k < reader->samples(); ++k) reader->read_sample(k, sample);
  }
  // The I/O error (naming the file) that opening the file and reading every sample throws.
  static std::string ReadEveryError(const FileSpec& spec,
                                    std::source_location where = std::source_location::current()) {
    return dlbench::test::ExpectError([&] { ReadEvery(spec); }, ExitCode::kIo, {spec.path}, where);
  }

  // Sets every byte of the file to three values in turn (in place: a truncating rewrite makes
  // ext4 flush): opening and reading every sample must either work (the byte did not matter) or
  // end in Error(kIo) — never a crash, a hang or another error — and most damage must be found.
  static void ExpectDamageIsAnIoErrorOrHarmless(const FileSpec& spec) {
    const std::string good = ReadAll(spec.path);
    int errors = 0;
    for (std::size_t at = 0; at < good.size(); ++at) {
      for (const char value : {'\x00', '\x7f', '\xff'}) {
        if (good[at] == value) continue;
        PutByte(spec.path, at, value);
        try {
          ReadEvery(spec);
        } catch (const Error& e) {
          ASSERT_EQ(e.code(), ExitCode::kIo) << "byte " << at << ": " << e.what();
          ++errors;
        }
      }
      PutByte(spec.path, at, good[at]);
    }
    EXPECT_GT(errors, static_cast<int>(good.size()));  // most damage is detected
  }

  dlbench::test::TempDir dir_;

 private:
  std::string file_name_;
  FileIndex file_index_;
};

}  // namespace dlbench::formats::test
