// The rules on training reads: storage_bound, preprocess_bound, small_reads, metadata_bound,
// first_epoch_slower, page_cache_served (of a run, and across the runs of a set).
#include <algorithm>
#include <vector>

#include "insights/rule_math.h"
#include "insights/rules.h"
#include "insights/thresholds.h"
#include "util/sink.h"

namespace dlbench::insights {
namespace {

// The AU points load waits cost per epoch, when at or beyond storage_bound's threshold.
std::optional<double> LoadLossPoints(const RunFacts& facts) {
  const std::optional<double> points = MeanOf(facts.train_load_loss_points);
  if (!points || *points < kStorageBoundPoints) return std::nullopt;
  return points;
}

Severity LoadLossSeverity(double points) {
  return points >= kStorageBoundHighPoints ? Severity::kHigh : Severity::kWarning;
}

// From the trace: the reader threads' time on samples over their time in the reading window
// (reader.read_threads × ranks × the training and evaluation windows), the kept samples' times
// scaled by the trace's sampling. Unknown without a trace, reader threads or a window.
std::optional<double> ReaderBusyShare(const RunFacts& facts) {
  if (!facts.trace || facts.trace->item_seconds <= 0 || !facts.read_threads ||
      *facts.read_threads <= 0) {
    return std::nullopt;
  }
  const double window = facts.train_read_seconds.value_or(0) + facts.eval_read_seconds.value_or(0);
  if (window <= 0) return std::nullopt;
  return facts.trace->item_seconds * static_cast<double>(facts.trace->sample) /
         (*facts.read_threads * facts.ranks * window);
}

// From the trace: the emulated preprocessing's share of the reader threads' time on samples.
std::optional<double> PreprocessShare(const RunFacts& facts) {
  if (!facts.trace || facts.trace->item_seconds <= 0) return std::nullopt;
  return facts.trace->preprocess_seconds / facts.trace->item_seconds;
}

bool PreprocessHeldTheReaders(const RunFacts& facts) {
  const std::optional<double> share = PreprocessShare(facts);
  return share && *share >= kPreprocessShare;
}

constexpr const char* kBusyMetric =
    "trace: data/item time / (reader.read_threads x ranks x (train_read_seconds + "
    "eval_read_seconds))";

// The evidence both load-wait findings start with: the AU points lost, the AU, the waits.
void AddLoadLossEvidence(const RunFacts& facts, double points, Finding& f) {
  f.evidence.push_back({"metric.train_au_loss_load_percentage (mean over epochs)", points,
                        "AU points", kStorageBoundPoints, ">="});
  if (const std::optional<double> au = MeanOf(facts.train_au_percent)) {
    f.evidence.push_back({"metric.train_au_mean_percentage", *au, "%", {}, ""});
  }
  if (const std::optional<double> load = MeanOf(facts.train_load_seconds)) {
    f.evidence.push_back(
        {"metric.train_load_wait_seconds + train_first_batch_wait_seconds "
         "(mean over epochs)",
         *load,
         "s",
         {},
         ""});
  }
}

}  // namespace

std::optional<Finding> StorageBound(const RunFacts& facts) {
  const std::optional<double> points = LoadLossPoints(facts);
  if (!points || PreprocessHeldTheReaders(facts)) return std::nullopt;
  Finding f;
  f.id = "storage_bound";
  f.severity = LoadLossSeverity(*points);
  f.message = sink::Format(
      "The accelerators waited for data: load waits cost %.1f AU points per epoch (AU %.1f %%).",
      *points, MeanOf(facts.train_au_percent).value_or(0));
  AddLoadLossEvidence(facts, *points, f);
  const std::optional<double> busy = ReaderBusyShare(facts);
  if (busy && *busy >= kReadersBusyShare) {
    f.evidence.push_back({kBusyMetric, 100 * *busy, "%", 100 * kReadersBusyShare, ">="});
    f.suggestion = sink::Format(
        "The reader threads read without pause (%d per rank): the storage gave no more at this "
        "concurrency. Stage the dataset to a faster tier (workflow.stage with stage.policy: "
        "before_training), or raise reader.read_threads if the storage serves more concurrent "
        "reads faster.",
        *facts.read_threads);
    return f;
  }
  if (busy) f.evidence.push_back({kBusyMetric, 100 * *busy, "%", {}, ""});
  f.suggestion =
      "Stage the dataset to a faster tier (workflow.stage with stage.policy: before_training), "
      "or raise reader.read_threads and reader.prefetch_size.";
  return f;
}

std::optional<Finding> PreprocessBound(const RunFacts& facts) {
  const std::optional<double> points = LoadLossPoints(facts);
  if (!points || !PreprocessHeldTheReaders(facts)) return std::nullopt;
  const double share = *PreprocessShare(facts);
  Finding f;
  f.id = "preprocess_bound";
  f.severity = LoadLossSeverity(*points);
  f.message = sink::Format(
      "The accelerators waited for data while the reader threads spent %.0f %% of their sample "
      "time in the emulated preprocessing: preprocessing, not storage, cost %.1f AU points per "
      "epoch.",
      100 * share, *points);
  AddLoadLossEvidence(facts, *points, f);
  f.evidence.push_back({"trace: data/preprocess time / data/item time", 100 * share, "%",
                        100 * kPreprocessShare, ">="});
  if (const std::optional<double> busy = ReaderBusyShare(facts)) {
    f.evidence.push_back({kBusyMetric, 100 * *busy, "%", {}, ""});
  }
  f.suggestion =
      "Raise reader.read_threads (each thread preprocesses the samples it reads), or set "
      "reader.preprocess_time to what the real input pipeline takes; faster storage would not "
      "raise AU here.";
  return f;
}

std::optional<Finding> SmallReads(const RunFacts& facts) {
  if (!facts.reads || *facts.reads < kSmallReadsMinReads) return std::nullopt;
  const auto reads = static_cast<double>(*facts.reads);
  const double share = static_cast<double>(facts.small_reads) / reads;
  const double mean_bytes = facts.bytes_read / reads;
  // The mean keeps out formats whose few small header reads sit beside large data reads.
  if (share < kSmallReadsShare || mean_bytes >= kSmallAccessBytes) return std::nullopt;
  Finding f;
  f.id = "small_reads";
  f.severity = ReadsCostAu(facts) ? Severity::kWarning : Severity::kInfo;
  f.message = sink::Format("%.0f %% of the %.0f reads were of at most 100 KiB (%.1f KiB a read).",
                           100 * share, reads, mean_bytes / 1024);
  f.evidence.push_back({"posix_counters.totals POSIX_SIZE_READ_0_100..10K_100K / POSIX_READS",
                        100 * share, "%", 100 * kSmallReadsShare, ">="});
  f.evidence.push_back({"posix_counters.totals POSIX_BYTES_READ / POSIX_READS", mean_bytes, "bytes",
                        kSmallAccessBytes, "<"});
  f.evidence.push_back({"posix_counters.totals POSIX_READS", reads, "reads",
                        static_cast<double>(kSmallReadsMinReads), ">="});
  f.suggestion =
      "Read larger units: larger records or more samples per file "
      "(dataset.record_length_bytes, dataset.num_samples_per_file), or a container format "
      "(tfrecord, hdf5, indexed_binary) instead of one small file per sample.";
  return f;
}

std::optional<Finding> MetadataBound(const RunFacts& facts) {
  const double io = facts.read_time_seconds + facts.write_time_seconds + facts.meta_time_seconds;
  // Opens of a small run on a loaded machine take half of little: only when reads cost AU. On an
  // object store the close time holds the uploads: not metadata.
  if (facts.object_storage || io <= 0 || facts.meta_time_seconds < kMetadataMinSeconds ||
      !ReadsCostAu(facts)) {
    return std::nullopt;
  }
  const double share = facts.meta_time_seconds / io;
  if (share < kMetadataShare) return std::nullopt;
  Finding f;
  f.id = "metadata_bound";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "Opening, stat'ing and closing files took %.0f %% of the I/O time (%.3f s of %.3f s).",
      100 * share, facts.meta_time_seconds, io);
  f.evidence.push_back({"posix_counters.totals POSIX_F_META_TIME / (READ + WRITE + META time)",
                        100 * share, "%", 100 * kMetadataShare, ">="});
  f.evidence.push_back({"posix_counters.totals POSIX_F_META_TIME", facts.meta_time_seconds, "s",
                        kMetadataMinSeconds, ">="});
  f.suggestion =
      "Put more samples in each file (dataset.num_samples_per_file) so that each open serves "
      "more reads, or use a container format; on a parallel file system, spread the files over "
      "subfolders (dataset.num_subfolders_train).";
  return f;
}

std::optional<Finding> FirstEpochSlower(const RunFacts& facts) {
  if (facts.train_load_seconds.size() < 2) return std::nullopt;
  const double first = facts.train_load_seconds.front();
  const std::optional<double> later = MedianOf(
      std::vector<double>(facts.train_load_seconds.begin() + 1, facts.train_load_seconds.end()));
  if (!FirstStandsOut(first, *later, kFirstEpochRatio, kFirstEpochMinExcessSeconds)) {
    return std::nullopt;
  }
  const double excess = first - *later;
  Finding f;
  f.id = "first_epoch_slower";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "The first epoch waited %.3f s for data, the later epochs %.3f s (median): later epochs "
      "read from a cache or a staged copy.",
      first, *later);
  f.evidence.push_back(
      {"metric.train_load_wait_seconds + train_first_batch_wait_seconds, "
       "epoch 1 / median of later epochs",
       RatioToLater(first, *later), "ratio", kFirstEpochRatio, ">="});
  f.evidence.push_back(
      {"epoch 1 minus median of later epochs", excess, "s", kFirstEpochMinExcessSeconds, ">="});
  f.suggestion =
      facts.staged
          ? "Stage the whole dataset before training (stage.policy: before_training) so that no "
            "epoch reads the slow tier."
          : "Stage the dataset to a fast tier before training (workflow.stage, stage.policy: "
            "before_training), or make every epoch read storage (reader.drop_caches) to measure "
            "it.";
  return f;
}

// An object store's reads come over the network, not from the node's page cache: a run on one
// (not staged) is never page_cache_served.
std::optional<Finding> PageCacheServed(const RunFacts& facts) {
  if (!facts.page_cache_possible || facts.cache_bypassed || facts.staged || facts.object_storage ||
      facts.train_load_seconds.size() < 2) {
    return std::nullopt;
  }
  Finding f;
  f.id = "page_cache_served";
  f.severity = Severity::kInfo;
  f.message = sink::Format(
      "Every host's memory holds its share of the data and the %zu epochs read it again without "
      "dropping the page cache: later epochs were likely served from memory.",
      facts.train_load_seconds.size());
  f.evidence.push_back({"potential_caching (every host)", 1, "flag", 1, ">="});
  f.evidence.push_back(
      {"epochs", static_cast<double>(facts.train_load_seconds.size()), "epochs", 2, ">="});
  f.suggestion =
      "To measure the storage, drop the page cache between epochs (reader.drop_caches: fadvise "
      "or drop), read with reader.odirect, or use a dataset larger than the hosts' memory.";
  return f;
}

std::optional<Finding> PageCacheServedOnRerun(const std::vector<RunFacts>& runs) {
  if (runs.size() < 2) return std::nullopt;
  const RunFacts& first = runs.front();
  std::vector<double> later_times;
  double bytes_ratio_min = 1;
  double bytes_ratio_max = 1;
  for (const RunFacts& run : runs) {
    if (run.cache_bypassed || run.staged || run.object_storage || !run.reads ||
        run.bytes_read <= 0) {
      return std::nullopt;
    }
    const double ratio = run.bytes_read / first.bytes_read;
    bytes_ratio_min = std::min(bytes_ratio_min, ratio);
    bytes_ratio_max = std::max(bytes_ratio_max, ratio);
    if (&run != &first) later_times.push_back(run.read_time_seconds);
  }
  if (bytes_ratio_min < 1 - kRerunSameBytesShare || bytes_ratio_max > 1 + kRerunSameBytesShare) {
    return std::nullopt;  // not the same data
  }
  const double later = *MedianOf(later_times);
  if (!FirstStandsOut(first.read_time_seconds, later, kRerunRatio, kRerunMinExcessSeconds)) {
    return std::nullopt;
  }
  const double excess = first.read_time_seconds - later;
  Finding f;
  f.id = "page_cache_served";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "Run 1 spent %.3f s reading, the %zu later runs %.3f s (median) reading the same %.1f MiB: "
      "they were served from the page cache, not the storage.",
      first.read_time_seconds, runs.size() - 1, later, first.bytes_read / (1024.0 * 1024.0));
  f.evidence.push_back({"posix_counters POSIX_F_READ_TIME, run 1 / median of later runs",
                        RatioToLater(first.read_time_seconds, later), "ratio", kRerunRatio, ">="});
  f.evidence.push_back(
      {"run 1 minus median of later runs", excess, "s", kRerunMinExcessSeconds, ">="});
  f.evidence.push_back({"posix_counters POSIX_BYTES_READ, largest deviation from run 1",
                        std::max(1 - bytes_ratio_min, bytes_ratio_max - 1), "share",
                        kRerunSameBytesShare, "<="});
  f.suggestion =
      "Make every run find the cache alike: reader.drop_caches (fadvise or drop) empties it "
      "before each epoch; or read with reader.odirect, or use a dataset larger than the hosts' "
      "memory.";
  return f;
}

}  // namespace dlbench::insights
