// The rules across ranks: rank_imbalance (the straggler named) and shared_file_contention.
#include <algorithm>
#include <vector>

#include "insights/rule_math.h"
#include "insights/rules.h"
#include "insights/thresholds.h"
#include "util/sink.h"

namespace dlbench::insights {

std::optional<Finding> RankImbalance(const RunFacts& facts) {
  const std::vector<double>& times = facts.read_time_per_rank_seconds;
  // Training runs only: there the reads are the data loader's, behind the step barrier. A
  // checkpoint-only run's reads are its loads and its drains' copies, whose share per rank
  // follows the checkpoint's layout (ZeRO 1: rank 0 also holds the model file).
  if (times.size() < 2 || !facts.train_read_seconds) return std::nullopt;
  const auto slowest = std::max_element(times.begin(), times.end());
  const auto rank = static_cast<int>(slowest - times.begin());
  std::vector<double> others = times;
  others.erase(others.begin() + rank);
  const double median = *MedianOf(others);
  const double excess = *slowest - median;
  if (excess < kImbalanceMinExcessSeconds || *slowest < kImbalanceRatio * median) {
    return std::nullopt;
  }
  const double ratio = median > 0 ? *slowest / median : *slowest;
  Finding f;
  f.id = "rank_imbalance";
  f.severity = median > 0 && ratio >= kImbalanceHighRatio ? Severity::kHigh : Severity::kWarning;
  f.message = sink::Format(
      "Rank %d is the straggler: it spent %.3f s in reads, %.1fx the median of the other ranks "
      "(%.3f s), and the step barrier makes every rank wait for it.",
      rank, *slowest, ratio, median);
  f.evidence.push_back({"posix_counters.read_time_per_rank_seconds[" + std::to_string(rank) +
                            "] / median of the other ranks",
                        ratio, "ratio", kImbalanceRatio, ">="});
  f.evidence.push_back(
      {"slowest rank minus median", excess, "s", kImbalanceMinExcessSeconds, ">="});
  f.evidence.push_back({"straggler rank", static_cast<double>(rank), "rank", {}, ""});
  f.suggestion = sink::Format(
      "Look at rank %d's storage path (its node, its tier, its files in "
      "<rank>_posix_counters.json.gz); balance the files over ranks or give its node the same "
      "storage as the others.",
      rank);
  return f;
}

std::optional<Finding> SharedFileContention(const RunFacts& facts) {
  if (facts.ranks < 2) return std::nullopt;
  const SharedFileFacts* worst = nullptr;
  for (const SharedFileFacts& file : facts.shared_files) {
    if (file.accesses < kSharedMinAccesses) continue;
    const double accesses = static_cast<double>(file.accesses);
    if (static_cast<double>(file.small_accesses) / accesses < kSharedSmallShare ||
        file.bytes / accesses >= kSmallAccessBytes) {
      continue;
    }
    if (worst == nullptr || file.accesses > worst->accesses) worst = &file;
  }
  if (worst == nullptr) return std::nullopt;
  const double accesses = static_cast<double>(worst->accesses);
  const double share = static_cast<double>(worst->small_accesses) / accesses;
  Finding f;
  f.id = "shared_file_contention";
  f.severity = Severity::kWarning;
  f.message = sink::Format(
      "All %d ranks accessed %s with %.0f accesses, %.0f %% of them of at most 100 KiB.",
      facts.ranks, worst->path.c_str(), accesses, 100 * share);
  f.evidence.push_back({"posix_counters.top_files (rank -1) small accesses / accesses", 100 * share,
                        "%", 100 * kSharedSmallShare, ">="});
  f.evidence.push_back(
      {"bytes / accesses", worst->bytes / accesses, "bytes", kSmallAccessBytes, "<"});
  f.evidence.push_back(
      {"accesses", accesses, "accesses", static_cast<double>(kSharedMinAccesses), ">="});
  f.evidence.push_back({"ranks", static_cast<double>(facts.ranks), "ranks", 2, ">="});
  f.suggestion =
      "Give each rank its own files (more files than ranks: dataset.num_files_train), or make "
      "accesses larger and aligned (larger records, MPI-IO collective I/O); on a parallel file "
      "system small accesses to one file serialise on its locks.";
  return f;
}

}  // namespace dlbench::insights
