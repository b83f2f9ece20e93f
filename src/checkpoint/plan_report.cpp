#include "checkpoint/plan_report.h"

#include <cstdio>
#include <sstream>

#include "util/count_text.h"
#include "util/size_text.h"

namespace dlbench::checkpoint {
namespace {

std::string BytesAndGiB(Bytes bytes) {
  return FormatBytesExact(bytes) + " B (" + FormatGiB(bytes) + ")";
}

// Why DLIO's number differs from the bytes written, from the same rules DLIO applies.
std::string DlioDifference(const CheckpointPlan& plan, const PlanSummary& summary) {
  std::string why;
  if (plan.zero_stage() == 2) {
    why +=
        " ZeRO 2 counts the model state of every data-parallel replica although only the first "
        "writes it.";
  }
  if (plan.legacy_layers() || plan.legacy_optimizer()) {
    why += " The legacy layer_parameters / optimization_groups state is not counted.";
  }
  for (const FileSizeCount& f : summary.file_sizes) {
    if (f.kind == FileKind::kModelStates && f.count > 1) {
      why += " model_size_bytes is counted once although " + std::to_string(f.count) +
             " ranks write it.";
      break;
    }
  }
  return why;
}

}  // namespace

std::string FormatRankRanges(const std::vector<Rank>& ranks, std::size_t max_ranges) {
  std::string out;
  std::size_t shown = 0;
  std::size_t total = 0;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    ++total;
    if (shown < max_ranges) {
      if (shown > 0) out += ", ";
      out += std::to_string(ranks[i]);
      if (j > i) out += "-" + std::to_string(ranks[j]);
      ++shown;
    }
    i = j + 1;
  }
  if (total > shown) out += ", ... (" + std::to_string(total - shown) + " more ranges)";
  return out;
}

std::string RenderPlan(const CheckpointPlan& plan, const PlanReportOptions& options) {
  const PlanSummary s = plan.summarize();
  const ParallelLayout& l = plan.layout();
  std::ostringstream out;
  out << "Checkpoint plan";
  if (!options.title.empty()) out << ": " << options.title;
  out << "\n  " << CountOf(static_cast<std::uint64_t>(l.world), "rank") << ", TP " << l.tp
      << " x PP " << l.pp << " x DP " << l.dp << ", ZeRO " << plan.zero_stage();
  if (l.subset) {
    out << ", subset: ranks 0-" << l.world - 1 << " of " << static_cast<long long>(l.dp) * l.mp();
  }
  if (plan.total_parameters() > 0) {
    out << ", " << FormatBytesExact(plan.total_parameters()) << " parameters";
  }
  out << "\n\n";

  out << "Per checkpoint: " << BytesAndGiB(s.total_bytes) << " in " << CountOf(s.files, "file")
      << " written by " << CountOf(static_cast<std::uint64_t>(s.writing_ranks), "rank") << "\n";
  out << "  model state  " << BytesAndGiB(s.model_bytes) << "\n";
  out << "  optimizer    " << BytesAndGiB(s.optimizer_bytes) << "\n";
  if (s.writing_ranks > 0) {
    out << "  per rank     " << FormatBytesExact(s.min_rank_bytes);
    if (s.max_rank_bytes != s.min_rank_bytes) {
      out << " - " << FormatBytesExact(s.max_rank_bytes);
    }
    out << " B\n";
  }
  if (s.dlio_own_bytes > 0) {
    out << "  DLIO reports " << BytesAndGiB(s.dlio_own_bytes)
        << " (DLIO labels GiB \"GB\"): DLIO >=2.0 ignores model.model_size and writes its default "
           "model; dlbench honours the key\n"
        << "  dlbench's checkpoint by DLIO's count " << BytesAndGiB(s.dlio_reported_bytes)
        << " (summary.json: checkpoint_size_GB; DLIO's own: dlio_checkpoint_size_GB)";
  } else {
    out << "  DLIO reports " << BytesAndGiB(s.dlio_reported_bytes) << " (DLIO labels GiB \"GB\")";
  }
  if (s.dlio_reported_bytes != s.total_bytes) {
    out << "\n  note: DLIO's reported size differs from the bytes written."
        << DlioDifference(plan, s);
  }
  out << "\n\nDistinct files:\n";
  for (const FileSizeCount& f : s.file_sizes) {
    char line[160];
    std::snprintf(line, sizeof(line), "  %-12s %22s B x %llu\n", FileKindName(f.kind),
                  FormatBytesExact(f.bytes).c_str(), static_cast<unsigned long long>(f.count));
    out << line;
  }

  out << "\nRanks (grouped by identical file sizes; names shown for the first rank):\n";
  std::size_t shown = 0;
  for (const RankGroup& g : s.groups) {
    if (shown == options.max_groups) {
      out << "  ... and " << s.groups.size() - shown << " more groups\n";
      break;
    }
    ++shown;
    const RankPlan& e = g.example;
    out << "  ranks " << FormatRankRanges(g.ranks, options.max_rank_ranges) << " ("
        << CountOf(g.ranks.size(), "rank") << "): ";
    if (e.files.empty()) {
      out << "write nothing\n";
      continue;
    }
    out << CountOf(e.files.size(), "file") << ", " << BytesAndGiB(e.bytes) << " each\n";
    for (std::size_t i = 0; i < e.files.size() && i < options.max_files_shown; ++i) {
      out << "      " << e.files[i].name << "  " << FormatBytesExact(e.files[i].bytes) << " B\n";
    }
    if (e.files.size() > options.max_files_shown) {
      out << "      ... " << e.files.size() - options.max_files_shown << " more files\n";
    }
  }
  return out.str();
}

}  // namespace dlbench::checkpoint
