// Test helpers for O_DIRECT reading: an Env that records how every file was opened and every
// read its files made, and a temporary folder on a file system that accepts O_DIRECT.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "storage/aligned_buffer.h"
#include "storage/env_wrapper.h"
#include "util/error.h"

namespace dlbench::formats::test {

struct RecordedRead {
  std::string path;
  Bytes offset = 0;
  Bytes length = 0;
  Bytes got = 0;
};

struct RecordedOpen {
  std::string path;
  bool direct = false;
};

// Single-threaded: the tests read from one thread.
class RecordingEnv final : public storage::EnvWrapper {
 public:
  explicit RecordingEnv(storage::Env& target) : EnvWrapper(target) {}

  std::vector<RecordedOpen> opens;
  std::vector<RecordedRead> reads;

  // Bytes the reads since read `first` returned.
  Bytes bytes_since(std::size_t first) const {
    Bytes total = 0;
    for (std::size_t i = first; i < reads.size(); ++i) total += reads[i].got;
    return total;
  }

  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& options) override {
    auto file = EnvWrapper::open_read(path, options);
    opens.push_back({path, options.direct});
    return std::make_unique<File>(std::move(file), *this);
  }

 private:
  class File final : public storage::ReadableFileWrapper {
   public:
    File(std::unique_ptr<storage::ReadableFile> target, RecordingEnv& env)
        : ReadableFileWrapper(std::move(target)), env_(env) {}
    Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
      const Bytes got = ReadableFileWrapper::read_at(offset, buffer, length);
      env_.reads.push_back({path(), offset, length, got});
      return got;
    }

   private:
    RecordingEnv& env_;
  };
};

// A fresh folder on a file system that accepts O_DIRECT ($TMPDIR may be a tmpfs that does not):
// /var/tmp, else the working directory (the build tree under ctest). Removed when it dies.
class DirectTempDir {
 public:
  DirectTempDir() {
    for (const std::string& base :
         {std::string("/var/tmp"), std::filesystem::current_path().string()}) {
      std::string pattern = base + "/dlbench-odirect-test-XXXXXX";
      if (::mkdtemp(pattern.data()) == nullptr) continue;
      if (AcceptsDirect(pattern)) {
        path_ = pattern;
        return;
      }
      std::error_code ignored;
      std::filesystem::remove_all(pattern, ignored);
    }
  }
  ~DirectTempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  DirectTempDir(const DirectTempDir&) = delete;
  DirectTempDir& operator=(const DirectTempDir&) = delete;

  // Empty when no candidate accepts O_DIRECT (the tests then skip).
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  static bool AcceptsDirect(const std::string& folder) {
    const std::string probe = folder + "/probe";
    try {
      auto out = storage::PosixEnv().create(probe, {.direct = true});
      storage::AlignedBuffer block(storage::kDirectAlignment);
      out->append(block.data(), block.size());
      out->close();
      storage::PosixEnv().open_read(probe, {.direct = true});
      storage::PosixEnv().remove(probe);
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  std::filesystem::path path_;
};

}  // namespace dlbench::formats::test
