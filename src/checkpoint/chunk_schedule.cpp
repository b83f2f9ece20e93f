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

ChunkSchedule::ChunkSchedule(const std::vector<SizeRun>& runs, Bytes chunk_bytes)
    : chunk_bytes_(chunk_bytes) {
  for (const SizeRun& run : runs) add(run);
}

ChunkSchedule::ChunkSchedule(const PlannedFiles& files, Bytes chunk_bytes)
    : chunk_bytes_(chunk_bytes) {
  for (const FileRun& run : files.runs()) add({run.bytes, run.count});
}

ChunkSchedule::ChunkSchedule(const std::vector<Bytes>& file_sizes, Bytes chunk_bytes)
    : chunk_bytes_(chunk_bytes) {
  for (Bytes size : file_sizes) add({size, 1});
}

void ChunkSchedule::add(const SizeRun& run) {
  if (run.files == 0) return;
  // Files of one size in a row are one run, whatever list they came from.
  if (!runs_.empty() && runs_.back().size == run.size) {
    files_ += run.files;
    chunks_ += run.files * runs_.back().chunks_per_file;
    return;
  }
  // An empty file still gets one chunk, so that it is created and committed like the others.
  const std::uint64_t per_file = run.size == 0 ? 1 : (run.size + chunk_bytes_ - 1) / chunk_bytes_;
  runs_.push_back({run.size, files_, chunks_, per_file});
  files_ += run.files;
  chunks_ += run.files * per_file;
}

const ChunkSchedule::Run& ChunkSchedule::run_of_file(std::size_t file) const {
  const auto it = std::upper_bound(runs_.begin(), runs_.end(), file,
                                   [](std::size_t f, const Run& r) { return f < r.first_file; });
  return *(it - 1);
}

Chunk ChunkSchedule::at(std::uint64_t index) const {
  const auto it = std::upper_bound(runs_.begin(), runs_.end(), index,
                                   [](std::uint64_t i, const Run& r) { return i < r.first_chunk; });
  const Run& run = *(it - 1);
  const std::uint64_t in_run = index - run.first_chunk;
  Chunk chunk;
  chunk.file = static_cast<std::size_t>(run.first_file + in_run / run.chunks_per_file);
  chunk.offset = (in_run % run.chunks_per_file) * chunk_bytes_;
  chunk.length = std::min(chunk_bytes_, run.size - chunk.offset);
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
