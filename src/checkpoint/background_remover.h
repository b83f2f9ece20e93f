// Removes files on a background thread at background priority, so that the trainer's thread never
// frees their pages: unlinking the last name of a 300 MB tmpfs file frees its pages in that call
// (~0.03 s of CPU, 0.2-0.3 s wall on a busy 2-core machine), which used to happen inside the next
// save when a durable checkpoint was evicted from the fast tier. Removals run in queue order.
// Errors are kept for the owner to report at its next collective call (TakeError). A removal of
// many files names them one at a time as their turn comes (a PathSource), so that a queued
// checkpoint's files take a few runs of memory, not a path each.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
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

  // Each call gives the next path of a removal, or nothing once every path was given.
  using PathSource = std::function<std::optional<std::string>()>;
  // Removes the paths `next` gives, each asked for when its turn comes; every one is inside
  // `folder` (what wait_folder goes by).
  void remove(std::string folder, PathSource next);
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
  struct Removal {
    std::string folder;  // every path `next` gives is inside it
    PathSource next;
  };
  void run();
  bool any_under(const std::string& folder) const;  // under mutex_

  storage::Env& env_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Removal> queue_;  // the front one's paths are being removed
  std::string running_;        // the path being removed, "" when idle
  std::string error_;
  bool stopping_ = false;
  int held_ = 0;
  std::thread thread_;
};

}  // namespace dlbench::checkpoint
