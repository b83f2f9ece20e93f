// Removes files on a background thread at background priority, so that the trainer's thread never
// frees their pages: unlinking the last name of a 300 MB tmpfs file frees its pages in that call
// (~0.03 s of CPU, 0.2-0.3 s wall on a busy 2-core machine), which used to happen inside the next
// save when a durable checkpoint was evicted from the fast tier. Removals run in queue order.
// Errors are kept for the owner to report at its next collective call (TakeError).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/file.h"

namespace dlbench::checkpoint {

class BackgroundRemover {
 public:
  // `env` must outlive the remover.
  explicit BackgroundRemover(storage::Env& env);
  // Finishes the removals queued so far, then joins the thread.
  ~BackgroundRemover();
  BackgroundRemover(const BackgroundRemover&) = delete;
  BackgroundRemover& operator=(const BackgroundRemover&) = delete;

  void remove(std::vector<std::string> paths);
  // While held (a save is being written), no removal starts: freeing pages beside a save that
  // allocates its own slows it (see above). Counted; wait_folder and wait_idle must not be called
  // while this thread holds the remover.
  void hold();
  void release();
  // Blocks until no queued or running removal is a path inside `folder` (a save is about to write
  // files of the same names there).
  void wait_folder(const std::string& folder);
  // Blocks until every removal queued so far is done.
  void wait_idle();
  // The first removal error since the last call ("" when none).
  std::string take_error();

 private:
  void run();
  bool any_under(const std::string& folder) const;  // under mutex_

  storage::Env& env_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;
  std::string running_;  // the path being removed, "" when idle
  std::string error_;
  bool stopping_ = false;
  int held_ = 0;
  std::thread thread_;
};

}  // namespace dlbench::checkpoint
