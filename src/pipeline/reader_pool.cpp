#include "pipeline/reader_pool.h"

#include <algorithm>
#include <exception>
#include <string>

#include "pipeline/thread_policy.h"
#include "trace/record.h"
#include "util/error.h"

namespace dlbench::pipeline {

namespace {

// A slot whose vectors already hold a whole batch, so filling never allocates.
Batch Prototype(std::uint64_t batch_size) {
  Batch batch;
  batch.samples.reserve(batch_size);
  batch.read_seconds.reserve(batch_size);
  return batch;
}

}  // namespace

ReaderPool::ReaderPool(SampleSource& source, const Sampler& sampler, const EpochOrder& order,
                       std::uint64_t steps, const ReaderPoolOptions& options,
                       SampleBuffers* buffers, ReaderThreads* threads)
    : source_(source),
      sampler_(sampler),
      order_(order),
      steps_(steps),
      options_(options),
      // Never more slots than the epoch has batches: the slots are allocated here, and
      // reader.prefetch_size = 100000000 took 14 GiB, or ended "out of memory".
      queue_(options.threads > 0 ? std::min<std::uint64_t>(options.queue_capacity(),
                                                           std::max<std::uint64_t>(steps, 1))
                                 : 1,
             Prototype(sampler.batch_size())),
      own_buffers_(buffers ? nullptr : std::make_unique<SampleBuffers>(options.threads)),
      buffers_(buffers ? *buffers : *own_buffers_) {
  if (buffers_.size() < static_cast<std::size_t>(std::max(options_.threads, 1))) {
    throw Error(ExitCode::kInternal, "reader pool: fewer sample buffers than reader threads");
  }
  if (steps_ > sampler_.steps_per_epoch()) {
    throw Error(ExitCode::kInternal, "reader pool: " + std::to_string(steps_) +
                                         " steps asked, the sampler has " +
                                         std::to_string(sampler_.steps_per_epoch()));
  }
  if (options_.threads <= 0) {
    inline_reader_.emplace(source_, options_, order_.epoch(), buffers_.at(0));
    return;
  }
  if (threads == nullptr) own_threads_ = std::make_unique<ReaderThreads>(options_.threads);
  threads_ = threads != nullptr ? threads : own_threads_.get();
  threads_->start(static_cast<std::size_t>(options_.threads),
                  [this](std::size_t index) { run_thread(index); });
  running_ = true;
}

ReaderPool::~ReaderPool() { stop(); }

void ReaderPool::stop() {
  stopping_.store(true);
  queue_.close();
  if (running_) threads_->wait();
  running_ = false;
}

void ReaderPool::fill(Batch& batch, std::uint64_t step) {
  batch.reset(step);
  batch.samples.resize(sampler_.batch_size());
  sampler_.batch(order_, step, batch.samples);
}

bool ReaderPool::continues_previous_step(std::uint64_t step) const {
  return step > 0 && sampler_.options().order == SampleOrder::kFileMajor &&
         sampler_.sample(order_, step, 0).file ==
             sampler_.sample(order_, step - 1, sampler_.batch_size() - 1).file;
}

std::pair<std::uint64_t, std::uint64_t> ReaderPool::claim() {
  std::lock_guard lock(claim_mutex_);
  const std::uint64_t first = next_claim_;
  if (first >= steps_) return {first, first};
  std::uint64_t end = first + 1;
  while (end < steps_ && continues_previous_step(end)) ++end;
  next_claim_ = end;
  return {first, end};
}

void ReaderPool::run_thread(std::size_t index) {
  ApplyThreadPolicyOrWarn(options_.thread_policy);
  if (trace::Active() != nullptr) trace::NameThread("reader-" + std::to_string(index));
  BatchReader reader(source_, options_, order_.epoch(), buffers_.at(index));
  while (!stopping_.load(std::memory_order_relaxed)) {
    const auto [first, end] = claim();
    if (first >= end) return;  // every step is taken
    // A claimed step is always read and published (unless the queue closes): the consumer
    // waits for every step before a failed one.
    for (std::uint64_t step = first; step < end; ++step) {
      Batch* batch = queue_.acquire(step);
      if (batch == nullptr) return;  // closed
      try {
        fill(*batch, step);
        reader.read(*batch);
      } catch (...) {
        batch->error = std::current_exception();
      }
      const bool failed = static_cast<bool>(batch->error);
      queue_.publish(step);
      // Later steps are not worth reading once one failed: the consumer stops at this one.
      if (failed) {
        stopping_.store(true);
        return;
      }
    }
  }
}

const Batch& ReaderPool::next() { return *next_until(std::nullopt); }

const Batch* ReaderPool::next_for(std::chrono::nanoseconds timeout) {
  return next_until(std::chrono::steady_clock::now() + timeout);
}

const Batch* ReaderPool::next_until(std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (holding_) throw Error(ExitCode::kInternal, "reader pool: next() before release()");
  if (next_take_ >= steps_) {
    throw Error(ExitCode::kInternal, "reader pool: step " + std::to_string(next_take_) +
                                         " asked of an epoch of " + std::to_string(steps_));
  }
  const std::uint64_t step = next_take_;
  Batch* batch = nullptr;
  if (inline_reader_) {
    // One slot, used in step order on this thread, so it never waits.
    batch = queue_.acquire(step);
    if (batch != nullptr) {
      fill(*batch, step);
      inline_reader_->read(*batch);
      queue_.publish(step);
      batch = queue_.take(step);
    }
  } else {
    batch = deadline ? queue_.take_for(step, *deadline - std::chrono::steady_clock::now())
                     : queue_.take(step);
    if (batch == nullptr && deadline && !queue_.closed()) return nullptr;  // timed out
  }
  if (batch == nullptr) {
    throw Error(ExitCode::kInternal,
                "reader pool: step " + std::to_string(step) + " asked after the pool was stopped");
  }
  if (batch->error) {
    const std::exception_ptr error = batch->error;
    stop();
    std::rethrow_exception(error);
  }
  holding_ = true;
  return batch;
}

bool ReaderPool::behind() const {
  return !inline_reader_ && next_take_ < steps_ && !holding_ && !queue_.complete(next_take_);
}

bool ReaderPool::reading() const { return !inline_reader_ && queue_.filling(); }

void ReaderPool::release() {
  if (!holding_) throw Error(ExitCode::kInternal, "reader pool: release() without next()");
  holding_ = false;
  queue_.release(next_take_);
  ++next_take_;
}

}  // namespace dlbench::pipeline
