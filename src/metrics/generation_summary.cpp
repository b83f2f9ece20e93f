// Dataset generation results: per rank and over all ranks (max end - min start).
#include <cstdio>
#include <string>

#include "metrics/cross_rank.h"
#include "metrics/summary.h"
#include "metrics/throughput.h"
#include "util/count_text.h"

namespace dlbench::metrics {
namespace {

Json Entry(Bytes bytes, std::uint64_t files, Seconds seconds) {
  Json entry;
  entry["bytes_written"] = bytes;
  entry["files"] = files;
  SetNumber(entry, "wall_seconds", seconds);
  SetNumber(entry, "MiB_per_second", MiBPerSecond(bytes, seconds));
  if (seconds > 0) SetNumber(entry, "files_per_second", static_cast<double>(files) / seconds);
  return entry;
}

struct Totals {
  Bytes bytes = 0;
  std::uint64_t files = 0;
  Seconds wall = 0;
};

Totals TotalsOf(const GenerationMetrics& generation) {
  Totals totals;
  if (generation.ranks.empty()) return totals;
  std::vector<Seconds> starts, ends;
  for (const GenerationRank& rank : generation.ranks) {
    totals.bytes += rank.bytes;
    totals.files += rank.files;
    starts.push_back(rank.start);
    ends.push_back(rank.end);
  }
  totals.wall = SpanOf(starts, ends).duration();
  return totals;
}

}  // namespace

Json BuildGenerationSummary(const GenerationMetrics& generation) {
  Json json;
  const Totals totals = TotalsOf(generation);
  json["total"] = Entry(totals.bytes, totals.files, totals.wall);
  json["ranks"] = Json::array();
  for (std::size_t r = 0; r < generation.ranks.size(); ++r) {
    const GenerationRank& rank = generation.ranks[r];
    Json entry = Entry(rank.bytes, rank.files, rank.end - rank.start);
    entry["rank"] = r;
    json["ranks"].push_back(std::move(entry));
  }
  return json;
}

std::string GenerationTable(const GenerationMetrics& generation) {
  const Totals totals = TotalsOf(generation);
  char text[256];
  std::snprintf(text, sizeof(text), "%llu bytes (%.2f MiB) by %s in %.3f s",
                static_cast<unsigned long long>(totals.bytes),
                static_cast<double>(totals.bytes) / static_cast<double>(MiB),
                CountOf(generation.ranks.size(), "rank").c_str(), totals.wall);
  std::string line = "Generation: " + CountOf(totals.files, "file") + ", " + text;
  // A run that kept every file wrote nothing: a rate of 0 would read as storage that delivered
  // nothing (summary.json keeps its 0, which compare leaves out by files == 0).
  if (const auto rate = MiBPerSecond(totals.bytes, totals.wall); rate && totals.files > 0) {
    std::snprintf(text, sizeof(text), ": %.2f MiB/s, %.1f files/s", *rate,
                  static_cast<double>(totals.files) / totals.wall);
    line += text;
  }
  return line + "\n";
}

}  // namespace dlbench::metrics
