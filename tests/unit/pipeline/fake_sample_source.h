// A SampleSource for tests: files of `samples_per_file` samples of `sample_bytes`, optional
// delay per read, chosen samples that fail with an I/O error, and a record of every read and of
// the scheduling policy of the threads that read.
#pragma once

#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "pipeline/sample_source.h"
#include "pipeline/sampler.h"
#include "util/error.h"

namespace dlbench::pipeline::test {

class FakeSource : public SampleSource {
 public:
  Bytes sample_bytes = 100;
  Bytes open_bytes = 10;
  std::chrono::microseconds read_delay{0};
  std::set<std::pair<FileIndex, std::uint64_t>> corrupt;  // (file, index) that throw kIo
  std::set<FileIndex> missing;                            // files whose open throws kIo
  bool throw_internal = false;                            // corrupt samples throw kInternal
  std::atomic<int> reading{0};                            // reads in progress now

  std::unique_ptr<SampleFile> open(FileIndex file) override {
    {
      std::lock_guard lock(mutex_);
      ++opens_;
    }
    if (missing.count(file) != 0) throw IoError("open", "file" + std::to_string(file), 2);
    return std::make_unique<File>(*this, file);
  }

  std::vector<SampleRef> reads() const {
    std::lock_guard lock(mutex_);
    return reads_;
  }
  std::uint64_t opens() const {
    std::lock_guard lock(mutex_);
    return opens_;
  }
  // The kernel's ids (never reused soon, unlike std::thread::id) of the threads that read samples.
  std::set<pid_t> read_threads() const {
    std::lock_guard lock(mutex_);
    return read_threads_;
  }
  std::set<int> read_policies() const {  // sched_getscheduler() of the reading threads
    std::lock_guard lock(mutex_);
    return read_policies_;
  }

 private:
  class File : public SampleFile {
   public:
    File(FakeSource& source, FileIndex file) : source_(source), file_(file) {}
    Bytes sample_bytes() const override { return source_.sample_bytes; }
    Bytes open_bytes() const override { return source_.open_bytes; }
    Bytes read(std::uint64_t index, std::span<std::byte> buffer) override {
      if (buffer.size() < source_.sample_bytes) throw Error(ExitCode::kInternal, "short buffer");
      ++source_.reading;
      if (source_.read_delay.count() > 0) std::this_thread::sleep_for(source_.read_delay);
      --source_.reading;
      if (source_.corrupt.count({file_, index}) != 0) {
        if (source_.throw_internal) throw Error(ExitCode::kInternal, "bug");
        throw IoError("read", "file" + std::to_string(file_), 0, "corrupt sample");
      }
      std::memset(buffer.data(), 0x5a, source_.sample_bytes);
      std::lock_guard lock(source_.mutex_);
      source_.reads_.push_back(SampleRef{file_, index});
      source_.read_policies_.insert(sched_getscheduler(0));
      source_.read_threads_.insert(gettid());
      return source_.sample_bytes;
    }

   private:
    FakeSource& source_;
    FileIndex file_;
  };

  mutable std::mutex mutex_;
  std::vector<SampleRef> reads_;
  std::uint64_t opens_ = 0;
  std::set<int> read_policies_;
  std::set<pid_t> read_threads_;
};

}  // namespace dlbench::pipeline::test
