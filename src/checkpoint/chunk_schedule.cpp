#include "checkpoint/chunk_schedule.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "storage/aligned_buffer.h"
#include "util/error.h"
#include "util/host_memory.h"
#include "util/size_text.h"

namespace dlbench::checkpoint {

void AppendInOrder(storage::WritableFile& file, const Chunk& chunk, const void* bytes) {
  if (file.appended() != chunk.offset) {
    throw InternalError("chunk at offset " + std::to_string(chunk.offset) + " of " + file.path() +
                        " out of order: the file ends at " + std::to_string(file.appended()));
  }
  file.append(bytes, chunk.length);
}

void RequireThreadsAndBuffer(int threads, Bytes buffer_bytes, const char* threads_key) {
  if (threads < 1) {
    throw InternalError(std::string(threads_key) + " must be >= 1, got " + std::to_string(threads));
  }
  if (buffer_bytes == 0 || !storage::IsAligned(buffer_bytes)) {
    throw InternalError("checkpoint buffer size must be a positive multiple of " +
                        std::to_string(storage::kDirectAlignment) + " B, got " +
                        std::to_string(buffer_bytes));
  }
  // The buffers are allocated up front: drain_threads = 100000 asked for 781 GiB, and the kernel
  // killed the process (exit 137) while they were touched.
  const std::optional<double> host_memory = PhysicalMemoryBytes();
  if (!host_memory) return;  // unknown: nothing to hold it to
  const double memory = *host_memory;
  const double wanted = static_cast<double>(threads) * static_cast<double>(buffer_bytes);
  if (wanted > memory / 2) {
    throw UsageError(std::string(threads_key) + " = " + std::to_string(threads) +
                     ": its buffers, one of " + DescribeBytes(buffer_bytes) + " per thread (" +
                     DescribeBytes(static_cast<Bytes>(wanted)) +
                     "), are more than half of this host's memory (" +
                     DescribeBytes(static_cast<Bytes>(memory)) + "); use fewer threads");
  }
}

ChunkSchedule::ChunkSchedule(const std::vector<Bytes>& file_sizes, Bytes chunk_bytes)
    : sizes_(file_sizes), chunk_bytes_(chunk_bytes) {
  first_chunk_.reserve(sizes_.size() + 1);
  first_chunk_.push_back(0);
  for (Bytes size : sizes_) {
    // An empty file still gets one chunk, so that it is created and committed like the others.
    const std::uint64_t chunks = size == 0 ? 1 : (size + chunk_bytes_ - 1) / chunk_bytes_;
    first_chunk_.push_back(first_chunk_.back() + chunks);
  }
}

Chunk ChunkSchedule::at(std::uint64_t index) const {
  const auto it = std::upper_bound(first_chunk_.begin(), first_chunk_.end(), index);
  const std::size_t file = static_cast<std::size_t>(it - first_chunk_.begin()) - 1;
  Chunk chunk;
  chunk.file = file;
  chunk.offset = (index - first_chunk_[file]) * chunk_bytes_;
  chunk.length = std::min(chunk_bytes_, sizes_[file] - chunk.offset);
  return chunk;
}

struct ThreadTeam::State {
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr first_error;
};

bool ThreadTeam::stop() const { return state_->failed.load(std::memory_order_relaxed); }

void ThreadTeam::run(const std::function<void(int thread)>& work) {
  State state;
  state_ = &state;
  auto guarded = [&](int thread) {
    try {
      work(thread);
    } catch (...) {
      std::lock_guard lock(state.mutex);
      if (!state.first_error) state.first_error = std::current_exception();
      state.failed.store(true, std::memory_order_relaxed);
    }
  };
  {
    std::vector<std::jthread> helpers;
    helpers.reserve(static_cast<std::size_t>(std::max(0, threads_ - 1)));
    for (int t = 1; t < threads_; ++t) helpers.emplace_back(guarded, t);
    guarded(0);
  }  // joins
  state_ = nullptr;
  if (state.first_error) std::rethrow_exception(state.first_error);
}

}  // namespace dlbench::checkpoint
