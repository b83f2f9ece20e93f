#include "generation/generation.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#include "dataset/content.h"
#include "formats/format.h"
#include "formats/registry.h"
#include "generation/dataset_files.h"
#include "generation/generation_plan.h"
#include "generation/generation_resume.h"
#include "generation/listed_files.h"
#include "generation/published_files.h"
#include "metrics/clock.h"
#include "metrics/cross_rank.h"
#include "metrics/run_reduction.h"
#include "mpi/agreement.h"
#include "storage/aligned_buffer.h"
#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/path_text.h"
#include "util/size_text.h"

namespace dlbench::generation {
namespace {

// The exact data-file size when the writer can predict it; nullopt when the content decides it.
std::optional<Bytes> ExpectedSize(const formats::FormatWriter& writer,
                                  const formats::FileSpec& spec) {
  try {
    return writer.file_size(spec);
  } catch (const Error& e) {
    if (e.code() != ExitCode::kUsage) throw;
    return std::nullopt;
  }
}

std::unique_ptr<formats::FormatWriter> MakeWriter(config::Format format) {
  try {
    return formats::MakeWriter(format);
  } catch (const Error& e) {
    throw Error(e.code(), std::string("dataset.format: ") + e.what());
  }
}

// Refuses sizes that cannot be represented before a byte is written.
void CheckSize(const DatasetFile& file) {
  const Bytes sample = file.spec.sample_bytes();
  Bytes payload = 0;
  if (__builtin_mul_overflow(sample, static_cast<Bytes>(file.spec.samples), &payload)) {
    throw UsageError("dataset.num_samples_per_file (" + std::to_string(file.spec.samples) +
                     ") x sample size (" + std::to_string(sample) +
                     " bytes, from "
                     "dataset.record_length_bytes/record_dims) overflows 64 bits for " +
                     file.path);
  }
}

// 68341808 rather than 6.83418e+07 or 68341808.000000.
std::string ShortCount(double value) {
  std::ostringstream text;
  text.precision(15);
  text << value;
  return text.str();
}

// Bytes the dataset's data files take, counting only files whose size the writer can predict
// (compressed formats, jpeg, png and hdf5 count 0: the sum is a lower bound); saturates at the
// largest Bytes. With a size stdev every file has its own shape and is asked (one spec reused,
// no allocation per file); otherwise every file has file 0's size.
Bytes PredictableDatasetBytes(const DatasetFiles& files, const formats::FormatWriter* writer,
                              const formats::SharedWriter* shared_writer) {
  formats::FileSpec spec;
  auto size_of = [&](FileIndex g, bool again) -> Bytes {
    files.assign_spec(g, spec, again);
    if (shared_writer != nullptr) return shared_writer->file_size(spec).value_or(0);
    return ExpectedSize(*writer, spec).value_or(0);
  };
  constexpr Bytes kAll = std::numeric_limits<Bytes>::max();
  const FileIndex total = files.total();
  if (!files.layout().size_model().varies()) {
    const Bytes each = size_of(0, false);
    Bytes all = 0;
    return __builtin_mul_overflow(each, static_cast<Bytes>(total), &all) ? kAll : all;
  }
  Bytes all = 0;
  for (FileIndex g = 0; g < total; ++g) {
    const Bytes size = size_of(g, g > 0);
    if (size == 0 && g == 0) return 0;  // the format's sizes are not predictable
    if (__builtin_add_overflow(all, size, &all)) return kAll;
  }
  return all;
}

// The folders a rank published files into. With dataset.fsync each is fsync'd once, after the
// rank's last publish, instead of once per file: the names are durable before the final barrier
// and the "complete" marker, which is all a rerun relies on (a name lost in a crash leaves a
// partial or missing file, which the rerun redoes). Sorted, and looked up without allocating.
class PublishedFolders {
 public:
  void add(std::string_view final_path) {
    const std::string_view folder = ParentFolder(final_path);
    if (!folders_.contains(folder)) folders_.emplace(folder);
  }
  void merge(const PublishedFolders& other) {
    folders_.insert(other.folders_.begin(), other.folders_.end());
  }
  void sync(storage::Env& env) const {
    for (const std::string& folder : folders_) env.sync_directory(folder);
  }

 private:
  std::set<std::string, std::less<>> folders_;
};

// Writes one whole file, the data file and its companions each created for publishing
// (workflow/published_files.h), then publishes the companions and, last, the data file (recording
// their folders in `published`). Returns the bytes written.
Bytes WriteWholeFile(storage::Env& env, const formats::FormatWriter& writer, DatasetFile& file,
                     std::optional<Bytes> expected, const dataset::ContentGenerator& content,
                     std::span<std::byte> buffer, PublishedFolders& published) {
  formats::FileSpec& spec = file.spec;
  spec.path = storage::PartialPathFor(file.path);
  if (!spec.dali_index_path.empty()) {
    spec.dali_index_path = storage::PartialPathFor(spec.dali_index_path);
  }
  if (!spec.offsets_index_path.empty()) {
    spec.offsets_index_path = storage::PartialPathFor(spec.offsets_index_path);
    spec.sizes_index_path = storage::PartialPathFor(spec.sizes_index_path);
  }
  try {
    PublishedFiles files(env, spec.path, file.path);
    const formats::WriteResult result = writer.write(files, spec, content, buffer);
    if (expected && result.data_bytes != *expected) {
      throw InternalError("the writer produced " + std::to_string(result.data_bytes) +
                          " bytes, not the predicted " + std::to_string(*expected));
    }
    files.publish();
    for (const std::string& written : result.files) {
      if (written != spec.path) published.add(storage::FinalPathFor(written));
    }
    published.add(file.path);
    return result.data_bytes + result.companion_bytes;
  } catch (const Error& e) {
    throw Error(e.code(), "generating " + file.path + ": " + e.what());
  }
}

class Generation {
 public:
  Generation(const config::Config& config, const mpi::Communicator& comm, storage::Env& env)
      : config_(config),
        comm_(comm),
        env_(env),
        files_(config.dataset),
        content_(config.dataset.content.kind, config.dataset.content.compress_ratio,
                 ContentSeed(config)),
        threads_(config.dataset.generation_threads),
        buffer_bytes_(GenerationBufferBytes(config.dataset)) {
    // config::Validate refuses both when the generate phase runs.
    if (files_.total() == 0) {
      throw InternalError(
          "nothing to generate: dataset.num_files_train and dataset.num_files_eval are 0");
    }
    if (threads_ < 1) {
      throw InternalError("dataset.generation_threads must be at least 1, got " +
                          std::to_string(threads_));
    }
    // Every rank alike, so that the error is agreed (the writers check each file again: sizes
    // drawn from a distribution differ between files).
    if (files_.total() > 0) CheckSize(files_.file(0));
    if (UsesSharedFiles(files_.total(), comm.size())) {
      shared_writer_ = formats::MakeSharedWriter(config.dataset.format);
    }
    shared_ = shared_writer_ != nullptr;
    if (!shared_) writer_ = MakeWriter(config.dataset.format);
    // The HDF5 library (parallel builds are not thread-safe) must not be entered by two threads.
    if (config.dataset.format == config::Format::kHdf5) threads_ = 1;
    result_.shared_files = shared_;
  }

  RankGeneration run() {
    prepare();
    const Seconds origin = metrics::SynchronizedOrigin(comm_);
    result_.io.start = metrics::Now() - origin;
    if (shared_) {
      write_shared();
    } else {
      write_rank_files();
    }
    result_.io.end = metrics::Now() - origin;
    comm_.barrier();
    if (comm_.is_root()) {
      WriteDatasetMarker(env_, DatasetMarkerPath(config_), DatasetFingerprint(config_),
                         /*complete=*/true, config_.dataset.fsync);
    }
    comm_.barrier();
    return result_;
  }

 private:
  // Rank 0: folders, marker "incomplete" (so an interruption from now on is detectable), and
  // removal of our partial files. Every rank learns whether existing files can be trusted, or
  // whether there are none to look for, and when there are, which ones rank 0's listings found
  // (ListedFiles).
  void prepare() {
    std::string policy;
    // Agreed, so that a failure here (a folder that cannot be made, a dataset larger than the
    // file system's free space) is printed once and no rank waits in the broadcast below.
    mpi::AgreeOnFailure(comm_, [&] {
      if (!comm_.is_root()) return;
      const std::string fingerprint = DatasetFingerprint(config_);
      env_.create_directories(config_.dataset.data_folder);
      for (const std::string& folder : files_.folders()) env_.create_directories(folder);
      const std::string marker_path = DatasetMarkerPath(config_);
      const auto marker = ReadDatasetMarker(env_, marker_path);
      policy = marker && marker->fingerprint == fingerprint ? "trusted" : "size";
      if (!marker || !marker->complete || marker->fingerprint != fingerprint) {
        WriteDatasetMarker(env_, marker_path, fingerprint, /*complete=*/false,
                           config_.dataset.fsync);
      }
      std::vector<std::string> folders = files_.folders();
      folders.push_back(config_.dataset.data_folder);
      result_.partials_removed = RemovePartialFiles(env_, folders);
      if (FoldersHoldNoDataFiles(env_, folders)) {
        policy = "none";
        check_free_space();
      }
    });
    policy = comm_.broadcast(policy);
    policy_ = policy == "trusted" ? ExistingFiles::kTrusted
              : policy == "none"  ? ExistingFiles::kNone
                                  : ExistingFiles::kSizeOnly;
    if (policy_ == ExistingFiles::kNone) return;
    std::string packed;
    mpi::AgreeOnFailure(comm_, [&] {
      if (!comm_.is_root()) return;
      packed = ListedFiles::Find(env_, files_, policy_, [&](const DatasetFile& file) {
                 CheckSize(file);
                 return shared_ ? shared_writer_->file_size(file.spec)
                                : ExpectedSize(*writer_, file.spec);
               }).packed();
    });
    listed_ = ListedFiles::Unpack(comm_.broadcast(packed), files_.total());
  }

  // Whether file `g` may be kept: what rank 0's listings found (ListedFiles), asking storage only
  // when they could not tell.
  bool may_keep(FileIndex g, const DatasetFile& file, std::optional<Bytes> expected) {
    if (policy_ == ExistingFiles::kNone) return false;
    const Listed listed = listed_.at(g);
    return listed == Listed::kComplete ||
           (listed == Listed::kAskSize && IsFileComplete(env_, file, expected, policy_));
  }

  // A fresh dataset that cannot fit in the file system's free space is refused before a byte is
  // written: unet3d shrunk with ++workload.dataset.record_length_bytes=4096 but its stdev of
  // 68 MB kept drew files of gigabytes and filled /dev/shm (the host's memory) until ENOSPC.
  // Existing files are not counted (a rerun keeps them), so only a folder holding none is checked.
  void check_free_space() {
    const Bytes needed = PredictableDatasetBytes(files_, writer_.get(), shared_writer_.get());
    if (needed == 0) return;
    const Bytes free = env_.free_space(config_.dataset.data_folder);
    if (needed <= free) return;
    const config::DatasetConfig& d = config_.dataset;
    const std::string spread = d.record_length_bytes_stdev > 0
                                   ? "; record_length_bytes_stdev " +
                                         ShortCount(d.record_length_bytes_stdev) +
                                         " draws each file's size around record_length_bytes " +
                                         ShortCount(d.record_length_bytes)
                                   : "";
    throw Error(ExitCode::kIo, "generate: the dataset's " + std::to_string(files_.total()) +
                                   " files (dataset.num_files_train + num_files_eval) take " +
                                   DescribeBytes(needed) + " but only " + DescribeBytes(free) +
                                   " is free at " + d.data_folder + spread +
                                   "; use fewer or smaller files, or another dataset.data_folder");
  }

  void write_rank_files() {
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::exception_ptr failure;
    std::atomic<Bytes> bytes{0};
    std::atomic<std::uint64_t> written{0}, kept{0};
    std::vector<PublishedFolders> published(static_cast<std::size_t>(threads_));

    auto work = [&](int thread) {
      try {
        storage::AlignedBuffer buffer(buffer_bytes_);
        PublishedFolders& mine = published[static_cast<std::size_t>(thread)];
        // Whether a size cannot be predicted depends on the format and the compression, which
        // every file of the dataset shares: once the writer said so, it is not asked again (a
        // thrown and caught exception per csv, jpeg or png file).
        bool sizes_unknown = false;
        FileIndex g = 0;
        for (std::uint64_t step = 0;
             !stop.load(std::memory_order_relaxed) &&
             FileAt(files_.total(), comm_.size(), comm_.rank(), threads_, thread, step, g);
             ++step) {
          DatasetFile file = files_.file(g);
          CheckSize(file);
          const std::optional<Bytes> expected =
              sizes_unknown ? std::nullopt : ExpectedSize(*writer_, file.spec);
          sizes_unknown = !expected;
          if (may_keep(g, file, expected)) {
            kept.fetch_add(1, std::memory_order_relaxed);
            continue;
          }
          bytes.fetch_add(
              WriteWholeFile(env_, *writer_, file, expected, content_, buffer.span(), mine),
              std::memory_order_relaxed);
          written.fetch_add(1, std::memory_order_relaxed);
        }
      } catch (...) {
        stop.store(true);
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
      }
    };

    if (threads_ == 1) {
      work(0);
    } else {
      std::vector<std::jthread> pool;
      for (int t = 0; t < threads_; ++t) pool.emplace_back(work, t);
    }
    if (failure) std::rethrow_exception(failure);
    if (config_.dataset.fsync) {
      for (std::size_t t = 1; t < published.size(); ++t) published[0].merge(published[t]);
      published[0].sync(env_);
    }
    result_.io.bytes = bytes.load();
    result_.io.files = written.load();
    result_.files_kept = kept.load();
  }

  // Every rank writes its slice of every file, one file after the other (collective calls
  // cannot be spread over threads).
  void write_shared() {
    storage::AlignedBuffer buffer(buffer_bytes_);
    for (FileIndex g = 0; g < files_.total(); ++g) {
      const DatasetFile file = files_.file(g);
      CheckSize(file);
      std::string keep;
      if (comm_.is_root()) {
        // Without an exact size (HDF5's metadata), a file is kept only under a trusted marker.
        keep = may_keep(g, file, shared_writer_->file_size(file.spec)) ? "1" : "0";
      }
      if (comm_.broadcast(keep) == "1") {
        if (comm_.is_root()) ++result_.files_kept;
        continue;
      }
      result_.io.bytes += shared_writer_->write(comm_, env_, file.spec, content_, buffer.span());
      if (comm_.is_root()) ++result_.io.files;  // one file, counted once
    }
  }

  const config::Config& config_;
  const mpi::Communicator& comm_;
  storage::Env& env_;
  DatasetFiles files_;
  std::unique_ptr<formats::FormatWriter> writer_;         // whole-file mode only
  std::unique_ptr<formats::SharedWriter> shared_writer_;  // shared-file mode only
  dataset::ContentGenerator content_;
  int threads_;
  Bytes buffer_bytes_;
  bool shared_ = false;
  ExistingFiles policy_ = ExistingFiles::kSizeOnly;
  ListedFiles listed_;  // under kTrusted and kSizeOnly
  RankGeneration result_;
};

}  // namespace

Bytes GenerationBufferBytes(const config::DatasetConfig& dataset) {
  const Bytes configured =
      std::max<Bytes>(dataset.generation_buffer_size, storage::kDirectAlignment);
  return std::min(configured, kMaxGenerationBuffer);
}

RankGeneration GenerateDataset(const config::Config& config, const mpi::Communicator& comm,
                               storage::Env& env) {
  std::optional<Generation> generation;
  // A configuration error is the same on every rank: agree on it, print it once.
  mpi::AgreeOnFailure(comm, [&] { generation.emplace(config, comm, env); });
  return generation->run();
}

}  // namespace dlbench::generation
