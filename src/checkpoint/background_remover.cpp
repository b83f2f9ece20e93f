#include "checkpoint/background_remover.h"

#include <exception>
#include <utility>

#include "util/thread_priority.h"

namespace dlbench::checkpoint {

BackgroundRemover::BackgroundRemover(storage::Env& env) : env_(env) {
  thread_ = std::thread([this] { run(); });
}

BackgroundRemover::~BackgroundRemover() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BackgroundRemover::remove(std::string folder, PathSource next) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(folder), std::move(next)});
  }
  changed_.notify_all();
}

void BackgroundRemover::remove(std::vector<std::string> paths) {
  if (paths.empty()) return;
  {
    std::lock_guard lock(mutex_);
    for (std::string& path : paths) {
      PathSource once = [path, given = false]() mutable -> std::optional<std::string> {
        if (given) return std::nullopt;
        given = true;
        return path;
      };
      queue_.push_back({std::move(path), std::move(once)});
    }
  }
  changed_.notify_all();
}

void BackgroundRemover::hold() {
  std::lock_guard lock(mutex_);
  ++held_;
}

void BackgroundRemover::release() {
  {
    std::lock_guard lock(mutex_);
    if (held_ > 0) --held_;
  }
  changed_.notify_all();
}

bool BackgroundRemover::any_under(const std::string& folder) const {
  const std::string prefix = folder.ends_with('/') ? folder : folder + "/";
  if (running_.starts_with(prefix)) return true;
  for (const Removal& removal : queue_) {
    // Its paths are under `removal.folder`: they may be under `folder` if either folder holds
    // the other.
    const std::string inside = removal.folder + "/";
    if (inside.starts_with(prefix) || prefix.starts_with(inside)) return true;
  }
  return false;
}

void BackgroundRemover::wait_folder(const std::string& folder) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !any_under(folder); });
}

void BackgroundRemover::wait_idle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && running_.empty(); });
}

std::string BackgroundRemover::take_error() {
  std::lock_guard lock(mutex_);
  return std::exchange(error_, std::string());
}

void BackgroundRemover::run() {
  LowerThisThread(ThreadPriority::kLowest);
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || (!queue_.empty() && held_ == 0); });
    if (queue_.empty()) return;  // stopping, and everything queued is done
    std::optional<std::string> next = queue_.front().next();
    if (!next) {
      queue_.pop_front();
      changed_.notify_all();
      continue;
    }
    running_ = std::move(*next);
    const std::string path = running_;
    lock.unlock();
    std::string error;
    try {
      env_.remove(path);
    } catch (const std::exception& e) {
      error = e.what();
    }
    lock.lock();
    if (error_.empty()) error_ = std::move(error);
    running_.clear();
    changed_.notify_all();
  }
}

}  // namespace dlbench::checkpoint
