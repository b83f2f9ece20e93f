// The threads that carry an S3 Env's part uploads and parallel range reads. A thread, once
// started, stays until the pool is destroyed, so the keep-alive connection it opened (s3/http.h:
// one per thread) carries its next requests too: a part or a range does not pay a new TCP (and
// TLS) handshake and a slow start. A task runs on an idle thread, else on a new one while fewer
// than `max_threads` run, else waits for one, first come first served. Tasks must not wait for
// other tasks of the same pool.
//
// Thread safety: submit() may be called from any number of threads at once. The destructor waits
// for the tasks submitted, then ends the threads; no submit() may race it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlbench::s3 {

class TransferPool {
 public:
  explicit TransferPool(std::size_t max_threads);
  ~TransferPool();
  TransferPool(const TransferPool&) = delete;
  TransferPool& operator=(const TransferPool&) = delete;

  // Runs `task` on a thread of the pool; the future holds its result or its exception. The
  // thread counts as free again before the future is ready, so a caller that waits for one task
  // and then submits the next finds that thread, not a new one.
  template <class Task>
  std::future<std::invoke_result_t<Task&>> submit(Task task) {
    using Result = std::invoke_result_t<Task&>;
    struct State {
      Task task;
      std::promise<Result> promise;
    };
    auto state = std::make_shared<State>(State{std::move(task), {}});
    std::future<Result> result = state->promise.get_future();
    post([state]() -> std::function<void()> {
      try {
        if constexpr (std::is_void_v<Result>) {
          state->task();
          return [state] { state->promise.set_value(); };
        } else {
          return [state, value = state->task()]() mutable {
            state->promise.set_value(std::move(value));
          };
        }
      } catch (...) {
        return
            [state, failure = std::current_exception()] { state->promise.set_exception(failure); };
      }
    });
    return result;
  }

  std::size_t threads() const;  // started so far

 private:
  // A task runs its work and returns the step that makes its outcome known (sets the future),
  // which the thread takes after it counts itself free.
  using Task = std::function<std::function<void()>()>;
  void post(Task task);
  void work();

  const std::size_t max_threads_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  std::size_t free_ = 0;  // threads not running a task's work
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace dlbench::s3
