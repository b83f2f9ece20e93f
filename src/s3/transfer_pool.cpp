#include "s3/transfer_pool.h"

#include "util/error.h"

namespace dlbench::s3 {

TransferPool::TransferPool(std::size_t max_threads) : max_threads_(max_threads) {
  if (max_threads_ == 0) throw InternalError("s3: a transfer pool of no thread");
}

TransferPool::~TransferPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

std::size_t TransferPool::threads() const {
  const std::lock_guard lock(mutex_);
  return threads_.size();
}

void TransferPool::post(Task task) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
    // Queued tasks beyond the free threads get a new thread each, up to the limit.
    if (queue_.size() > free_ && threads_.size() < max_threads_) {
      try {
        threads_.emplace_back([this] { work(); });
      } catch (...) {  // no thread to be had: the caller learns it, no task waits for nothing
        queue_.pop_back();
        throw;
      }
      ++free_;
    }
  }
  wake_.notify_one();
}

void TransferPool::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    Task task = std::move(queue_.front());
    queue_.pop_front();
    --free_;
    lock.unlock();
    const std::function<void()> make_known = task();
    lock.lock();
    ++free_;
    lock.unlock();
    make_known();
    lock.lock();
  }
}

}  // namespace dlbench::s3
