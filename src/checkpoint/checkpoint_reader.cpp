#include "checkpoint/checkpoint_reader.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "checkpoint/chunk_schedule.h"
#include "checkpoint/manifest.h"
#include "checkpoint/tensor_content.h"
#include "metrics/clock.h"
#include "trace/record.h"
#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

using OpenReadFile = ChunkedFile<storage::ReadableFile>;

}  // namespace

CheckpointReaderOptions CheckpointReaderOptions::FromConfig(
    const config::CheckpointConfig& checkpoint) {
  CheckpointReaderOptions options;
  options.threads = checkpoint.write_threads;
  options.direct = checkpoint.odirect;
  options.verify = checkpoint.verify;
  return options;
}

CheckpointReader::CheckpointReader(storage::Env& env, const CheckpointReaderOptions& options)
    : env_(env), options_(options) {
  RequireThreadsAndBuffer(options_.threads, options_.buffer_bytes, "checkpoint.write_threads");
  for (int t = 0; t < options_.threads; ++t) {
    buffers_.emplace_back(options_.buffer_bytes);
    if (options_.verify) expected_.emplace_back(options_.buffer_bytes);
  }
}

Bytes CheckpointReader::buffer_bytes() const {
  Bytes total = 0;
  for (const storage::AlignedBuffer& b : buffers_) total += b.capacity();
  for (const storage::AlignedBuffer& b : expected_) total += b.capacity();
  return total;
}

RankIoResult CheckpointReader::read_rank(const std::string& folder, const RankPlan& plan) {
  RankIoResult result;
  result.start = metrics::Now();
  // The manifest lists every file of the job: of its entries (each checked by the parse) this
  // rank notes the size of the first naming each of its files (found by parsing the name), and
  // keeps none.
  const std::size_t n = plan.files.size();
  std::vector<std::optional<Bytes>> listed(n);
  const Manifest manifest = ReadManifest(env_, folder, [&](const ManifestEntry& e) {
    const std::optional<std::size_t> i = plan.files.find(e.name);
    if (i && !listed[*i]) listed[*i] = e.bytes;
    return false;
  });
  for (std::size_t i = 0; i < n; ++i) {
    if (!listed[i] || *listed[i] != plan.files.bytes(i)) {
      throw IoError("read checkpoint", JoinPath(folder, plan.files.name(i)), 0,
                    !listed[i] ? "not in the checkpoint's manifest (written with another model or "
                                 "rank count?)"
                               : "manifest lists " + std::to_string(*listed[i]) + " B, the plan " +
                                     std::to_string(plan.files.bytes(i)) + " B");
    }
  }

  std::vector<Bytes> sizes;
  for (std::size_t i = 0; i < n; ++i) sizes.push_back(plan.files.bytes(i));
  const ChunkSchedule schedule(sizes, options_.buffer_bytes);
  std::unique_ptr<OpenReadFile[]> files(new OpenReadFile[n]);
  for (std::size_t i = 0; i < n; ++i) {
    files[i].chunks_left.store(schedule.chunks_in_file(i), std::memory_order_relaxed);
    files[i].key = ContentKey(manifest.content.seed, manifest.checkpoint, plan.files.name(i));
  }
  std::atomic<std::uint64_t> next_chunk{0};
  const storage::OpenOptions open{.direct = options_.direct};

  ThreadTeam team(options_.threads);
  team.run([&](int thread) {
    storage::AlignedBuffer& buffer = buffers_[static_cast<std::size_t>(thread)];
    while (!team.stop()) {
      const std::uint64_t index = next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (index >= schedule.size()) return;
      const Chunk chunk = schedule.at(index);
      OpenReadFile& file = files[chunk.file];
      const std::string name = plan.files.name(chunk.file);
      storage::ReadableFile* in = nullptr;
      {
        std::lock_guard lock(file.mutex);
        if (!file.open_attempted) {
          file.open_attempted = true;
          file.start = metrics::Now();
          std::unique_ptr<storage::ReadableFile> opened =
              env_.open_read(JoinPath(folder, name), open);
          if (opened->size() != plan.files.bytes(chunk.file)) {
            throw IoError("read checkpoint", opened->path(), 0,
                          "size " + std::to_string(opened->size()) + " B, planned " +
                              std::to_string(plan.files.bytes(chunk.file)) + " B");
          }
          file.handle = std::move(opened);
        }
        if (!file.handle) return;  // another thread failed to open it; the team is stopping
        in = file.handle.get();
      }
      if (chunk.length > 0) {
        // O_DIRECT reads whole aligned blocks; the file's end shortens the last one.
        const Bytes request = options_.direct ? storage::AlignUp(chunk.length) : chunk.length;
        const Bytes got = in->read_at(chunk.offset, buffer.data(), request);
        if (got < chunk.length) {
          throw IoError("read checkpoint", in->path(), 0,
                        "short read at offset " + std::to_string(chunk.offset) + ": " +
                            std::to_string(got) + " of " + std::to_string(chunk.length) + " B");
        }
        if (options_.verify) {
          std::span<std::byte> want = expected_[static_cast<std::size_t>(thread)].span().first(
              static_cast<std::size_t>(chunk.length));
          FillContent(file.key, manifest.content.randomize, chunk.offset, want);
          if (std::memcmp(want.data(), buffer.data(), want.size()) != 0) {
            std::size_t at = 0;
            while (want[at] == buffer.data()[at]) ++at;
            throw IoError("verify checkpoint", in->path(), 0,
                          "content differs from what was written at offset " +
                              std::to_string(chunk.offset + at));
          }
        }
      }
      if (file.chunks_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        file.end = metrics::Now();
        std::lock_guard lock(file.mutex);
        file.handle.reset();
      }
    }
  });
  for (std::size_t i = 0; i < n; ++i) {
    result.files.push_back({plan.files.name(i), plan.files.bytes(i), files[i].start, files[i].end});
    result.bytes += plan.files.bytes(i);
  }
  result.end = metrics::Now();
  TraceFiles(trace::Event::kRestart, result);
  return result;
}

}  // namespace dlbench::checkpoint
