#include "checkpoint/checkpoint_writer.h"

#include <atomic>
#include <memory>
#include <mutex>

#include "checkpoint/chunk_schedule.h"
#include "checkpoint/tensor_content.h"
#include "metrics/clock.h"
#include "storage/atomic_file.h"
#include "trace/record.h"
#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

using OpenWriteFile = ChunkedFile<storage::AtomicFileWriter>;

}  // namespace

WriterOptions WriterOptions::FromConfig(const config::CheckpointConfig& checkpoint,
                                        std::uint64_t content_seed) {
  WriterOptions options;
  options.threads = checkpoint.write_threads;
  options.fsync = checkpoint.fsync;
  options.direct = checkpoint.odirect;
  options.content.randomize = checkpoint.randomize_tensor;
  options.content.seed = content_seed;
  return options;
}

CheckpointWriter::CheckpointWriter(storage::Env& env, const WriterOptions& options)
    : env_(env), options_(options) {
  RequireThreadsAndBuffer(options_.threads, options_.buffer_bytes, "checkpoint.write_threads");
  buffers_.reserve(static_cast<std::size_t>(options_.threads));
  for (int t = 0; t < options_.threads; ++t) {
    buffers_.emplace_back(options_.buffer_bytes);
    // Constant content is generated once; random content per chunk, as it depends on the offset.
    if (!options_.content.randomize) FillContent(0, false, 0, buffers_.back().span());
  }
}

Bytes CheckpointWriter::buffer_bytes() const {
  Bytes total = 0;
  for (const storage::AlignedBuffer& b : buffers_) total += b.capacity();
  return total;
}

RankIoResult CheckpointWriter::write_rank(
    const std::string& folder, const RankPlan& plan,
    const std::function<void(std::size_t file)>& on_file_complete, const std::vector<bool>& reuse) {
  RankIoResult result;
  result.start = metrics::Now();
  env_.create_directories(folder);

  const std::size_t n = plan.files.size();
  const ChunkSchedule schedule(plan.files, options_.buffer_bytes);
  const std::string checkpoint = BaseName(folder);
  FileWindow<storage::AtomicFileWriter> window(FilesInFlight(options_.threads));
  // Each file's span for the trace, kept only while tracing (the trace records every file).
  std::vector<trace::Interval> traced(trace::Active() != nullptr ? n : 0);
  std::atomic<std::uint64_t> next_chunk{0};
  const storage::OpenOptions open{.direct = options_.direct};
  // Storage without random writes (an object store) takes each file's chunks in order: one
  // thread, which appends them (the schedule lists a file's chunks by offset, file after file).
  const bool sequential = !env_.capabilities(folder).random_writes;
  const auto reused = [&](std::size_t file) {
    return !sequential && file < reuse.size() && reuse[file];
  };

  ThreadTeam team(sequential ? 1 : options_.threads);
  team.run([&](int thread) {
    storage::AlignedBuffer& buffer = buffers_[static_cast<std::size_t>(thread)];
    window.guard([&] {
      while (!team.stop()) {
        const std::uint64_t index = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (index >= schedule.size()) return;
        const Chunk chunk = schedule.at(index);
        OpenWriteFile* file = window.enter(chunk.file, [&](OpenWriteFile& f) {
          f.chunks_left.store(schedule.chunks_in_file(chunk.file), std::memory_order_relaxed);
          f.key = ContentKey(options_.content.seed, checkpoint, plan.files.name(chunk.file));
        });
        if (file == nullptr) return;  // another thread failed; the team is stopping
        storage::WritableFile* out = nullptr;
        {
          std::lock_guard lock(file->mutex);
          if (!file->open_attempted) {
            file->open_attempted = true;
            file->start = metrics::Now();
            file->handle = std::make_unique<storage::AtomicFileWriter>(
                env_, JoinPath(folder, plan.files.name(chunk.file)), open, reused(chunk.file));
          }
          if (!file->handle) return;  // another thread failed to create it; the team is stopping
          out = &file->handle->file();
        }
        if (chunk.length > 0) {
          std::span<std::byte> bytes = buffer.span().first(static_cast<std::size_t>(chunk.length));
          if (options_.content.randomize) FillContent(file->key, true, chunk.offset, bytes);
          if (sequential) {
            AppendInOrder(*out, chunk, bytes.data());
          } else {
            out->write_at(chunk.offset, bytes.data(), chunk.length);
          }
        }
        // The thread that finishes a file's last chunk completes it: all its writes are done.
        if (file->chunks_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          if (reused(chunk.file)) out->truncate(plan.files.bytes(chunk.file));
          file->handle->commit(options_.fsync);
          file->end = metrics::Now();
          if (!traced.empty()) {
            traced[chunk.file] = {file->start, file->end,
                                  static_cast<std::int64_t>(plan.files.bytes(chunk.file))};
          }
          if (on_file_complete) on_file_complete(chunk.file);
          // Published and closed: its handle goes now, and its slot to a later file.
          window.close(chunk.file);
        }
      }
    });
  });
  // Reached only on success: every file committed.
  result.files = n;
  result.bytes = plan.files.total_bytes();
  if (options_.fsync) result.fsyncs = n;
  result.end = metrics::Now();
  trace::RecordOnTracks(trace::Event::kCapture, traced);
  return result;
}

}  // namespace dlbench::checkpoint
