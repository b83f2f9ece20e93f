#include "pipeline/reader_threads.h"

#include <string>
#include <system_error>
#include <utility>

#include "util/error.h"

namespace dlbench::pipeline {

ReaderThreads::ReaderThreads(int count) {
  threads_.reserve(static_cast<std::size_t>(count));
  try {
    for (int i = 0; i < count; ++i) {
      threads_.emplace_back([this, i] { run(static_cast<std::size_t>(i)); });
    }
  } catch (const std::system_error& e) {
    // The system's limit on threads (or their stacks' memory), not a bug: the value is too
    // large for this machine.
    const std::size_t started = threads_.size();
    end();
    throw Error(ExitCode::kUsage, "reader.read_threads = " + std::to_string(count) +
                                      ": could not start reader thread " +
                                      std::to_string(started + 1) + " (" + e.code().message() +
                                      "); use fewer reader threads");
  }
}

ReaderThreads::~ReaderThreads() {
  wait();
  end();
}

void ReaderThreads::end() {
  {
    std::lock_guard lock(mutex_);
    ending_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void ReaderThreads::start(std::size_t count, std::function<void(std::size_t)> work) {
  {
    std::lock_guard lock(mutex_);
    if (busy_ != 0 || count > threads_.size()) {
      throw Error(ExitCode::kInternal, "reader threads: a pass of " + std::to_string(count) +
                                           " started with " + std::to_string(busy_) +
                                           " still busy, of " + std::to_string(threads_.size()));
    }
    work_ = std::move(work);
    count_ = count;
    busy_ = count;
    ++passes_;
  }
  work_ready_.notify_all();
}

void ReaderThreads::wait() {
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, [&] { return busy_ == 0; });
}

void ReaderThreads::run(std::size_t index) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return ending_ || passes_ != seen; });
      if (ending_) return;  // never during a pass: the destructor waits for it first
      seen = passes_;
      if (index >= count_) continue;
    }
    work_(index);
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) work_done_.notify_all();
    }
  }
}

}  // namespace dlbench::pipeline
