#include "checkpoint/checkpoint_reader.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
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

// Which of a rank's files a manifest lists, each by the first entry naming it: one bit a file,
// and the first file in plan order listed with a size other than the plan's.
class ListedFiles {
 public:
  explicit ListedFiles(const PlannedFiles& files) : files_(files), listed_(files.size(), false) {}

  void note(const ManifestEntry& entry) {
    const std::optional<std::size_t> i = files_.find(entry.name);
    if (!i || listed_[*i]) return;
    listed_[*i] = true;
    if (entry.bytes != files_.bytes(*i) && (!wrong_ || *i < wrong_->first)) {
      wrong_.emplace(*i, entry.bytes);
    }
  }

  // Throws Error(kIo) for the first file in plan order that is not listed or listed with another
  // size than the plan's.
  void check(const std::string& folder) const {
    const std::size_t wrong = wrong_ ? wrong_->first : listed_.size();
    std::size_t first = 0;
    while (first < wrong && listed_[first]) ++first;
    if (first == listed_.size()) return;
    const Bytes planned = files_.bytes(first);
    throw IoError("read checkpoint", JoinPath(folder, files_.name(first)), 0,
                  !listed_[first] ? "not in the checkpoint's manifest (written with another model "
                                    "or rank count?)"
                                  : "manifest lists " + std::to_string(wrong_->second) +
                                        " B, the plan " + std::to_string(planned) + " B");
  }

 private:
  const PlannedFiles& files_;
  std::vector<bool> listed_;
  std::optional<std::pair<std::size_t, Bytes>> wrong_;  // (file, listed size)
};

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
  // rank notes the first naming each of its files, and keeps none.
  const std::size_t n = plan.files.size();
  ListedFiles listed(plan.files);
  const Manifest manifest = ReadManifest(env_, folder, [&](const ManifestEntry& e) {
    listed.note(e);
    return false;
  });
  listed.check(folder);

  const ChunkSchedule schedule(plan.files, options_.buffer_bytes);
  FileWindow<storage::ReadableFile> window(FilesInFlight(options_.threads));
  // Each file's span for the trace, kept only while tracing (the trace records every file).
  std::vector<trace::Interval> traced(trace::Active() != nullptr ? n : 0);
  std::atomic<std::uint64_t> next_chunk{0};
  const storage::OpenOptions open{.direct = options_.direct};

  ThreadTeam team(options_.threads);
  team.run([&](int thread) {
    storage::AlignedBuffer& buffer = buffers_[static_cast<std::size_t>(thread)];
    window.guard([&] {
      while (!team.stop()) {
        const std::uint64_t index = next_chunk.fetch_add(1, std::memory_order_relaxed);
        if (index >= schedule.size()) return;
        const Chunk chunk = schedule.at(index);
        OpenReadFile* file = window.enter(chunk.file, [&](OpenReadFile& f) {
          f.chunks_left.store(schedule.chunks_in_file(chunk.file), std::memory_order_relaxed);
          f.key =
              ContentKey(manifest.content.seed, manifest.checkpoint, plan.files.name(chunk.file));
        });
        if (file == nullptr) return;  // another thread failed; the team is stopping
        storage::ReadableFile* in = nullptr;
        {
          std::lock_guard lock(file->mutex);
          if (!file->open_attempted) {
            file->open_attempted = true;
            file->start = metrics::Now();
            std::unique_ptr<storage::ReadableFile> opened =
                env_.open_read(JoinPath(folder, plan.files.name(chunk.file)), open);
            if (opened->size() != plan.files.bytes(chunk.file)) {
              throw IoError("read checkpoint", opened->path(), 0,
                            "size " + std::to_string(opened->size()) + " B, planned " +
                                std::to_string(plan.files.bytes(chunk.file)) + " B");
            }
            file->handle = std::move(opened);
          }
          if (!file->handle) return;  // another thread failed to open it; the team is stopping
          in = file->handle.get();
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
            FillContent(file->key, manifest.content.randomize, chunk.offset, want);
            if (std::memcmp(want.data(), buffer.data(), want.size()) != 0) {
              std::size_t at = 0;
              while (want[at] == buffer.data()[at]) ++at;
              throw IoError("verify checkpoint", in->path(), 0,
                            "content differs from what was written at offset " +
                                std::to_string(chunk.offset + at));
            }
          }
        }
        if (file->chunks_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          file->end = metrics::Now();
          if (!traced.empty()) {
            traced[chunk.file] = {file->start, file->end,
                                  static_cast<std::int64_t>(plan.files.bytes(chunk.file))};
          }
          window.close(chunk.file);
        }
      }
    });
  });
  result.files = n;
  result.bytes = plan.files.total_bytes();
  result.end = metrics::Now();
  trace::RecordOnTracks(trace::Event::kRestart, traced);
  return result;
}

}  // namespace dlbench::checkpoint
