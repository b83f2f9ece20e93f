#include "sweep/sweep_file.h"

#include <fstream>
#include <sstream>

#include "storage/atomic_file.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::sweep {
namespace fs = std::filesystem;
namespace {

constexpr int kVersion = 1;

Json ReadJson(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw IoError("open", file.string(), errno);
  std::stringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError(file.string() + ": not JSON (" + error.what() + ")");
  }
}

// The first key whose value differs, for the message refusing another sweep's folder.
std::string FirstDifference(const Json& recorded, const Json& given) {
  for (const auto& [key, value] : given.items()) {
    if (!recorded.contains(key) || recorded[key] != value) {
      return key + " (recorded " + (recorded.contains(key) ? recorded[key].dump() : "nothing") +
             ", given " + value.dump() + ")";
    }
  }
  for (const auto& [key, value] : recorded.items()) {
    if (!given.contains(key)) return key + " (recorded " + value.dump() + ", not given)";
  }
  return "?";
}

Json GridJson(const GridPoint& grid) {
  Json json = Json::object();
  for (const GridValue& value : grid) json[value.key] = value.value;
  return json;
}

}  // namespace

SweepFile SweepFile::Load(const fs::path& file) {
  SweepFile sweep;
  sweep.folder_ = file.parent_path();
  sweep.document_ = ReadJson(file);
  if (!sweep.document_.is_object() || !sweep.document_.contains("dlbench_sweep") ||
      !sweep.document_.contains("points") || !sweep.document_.contains("arguments")) {
    throw UsageError(file.string() + ": not a dlbench sweep (no dlbench_sweep, arguments, points)");
  }
  return sweep;
}

SweepFile SweepFile::Open(const fs::path& folder, const Json& arguments, double threshold_percent) {
  const fs::path file = folder / kName;
  if (fs::exists(file)) {
    SweepFile sweep = Load(file);
    if (sweep.document_["arguments"] != arguments) {
      throw UsageError(folder.string() + " holds another sweep: its " + kName + " differs in " +
                       FirstDifference(sweep.document_["arguments"], arguments) +
                       "; give another --output folder, or the same arguments to resume it");
    }
    return sweep;
  }
  SweepFile sweep;
  sweep.folder_ = folder;
  sweep.document_ = {{"dlbench_sweep", {{"version", kVersion}}},
                     {"arguments", arguments},
                     {"au_threshold_percentage", threshold_percent},
                     {"complete", false},
                     {"max_accelerators", nullptr},
                     {"searches", Json::array()},
                     {"points", Json::array()}};
  return sweep;
}

double SweepFile::threshold_percent() const {
  return document_.at("au_threshold_percentage").get<double>();
}

std::vector<PointResult> SweepFile::points() const {
  std::vector<PointResult> points;
  for (const Json& point : document_["points"]) points.push_back(PointFromJson(point));
  return points;
}

std::vector<GridSearch> SweepFile::searches() const {
  std::vector<GridSearch> searches;
  for (const Json& entry : document_["searches"]) {
    GridSearch search;
    for (const auto& [key, value] : entry.at("grid").items()) {
      search.grid.push_back({key, value.get<std::string>()});
    }
    search.search.max_passing = entry.at("max_accelerators").get<int>();
    if (!entry.at("first_failure").is_null()) {
      search.search.first_failure = entry.at("first_failure").get<int>();
    }
    search.search.stopped = entry.at("stopped").get<bool>();
    searches.push_back(search);
  }
  return searches;
}

std::optional<PointResult> SweepFile::find(const GridPoint& grid, int accelerators) const {
  const Json wanted = GridJson(grid);
  for (const Json& point : document_["points"]) {
    if (point.at("grid") == wanted && point.at("accelerators").get<int>() == accelerators) {
      return PointFromJson(point);
    }
  }
  return std::nullopt;
}

void SweepFile::add(const PointResult& point) {
  Json& points = document_["points"];
  const Json wanted = GridJson(point.grid);
  for (Json& existing : points) {
    if (existing.at("grid") == wanted && existing.at("accelerators") == point.accelerators) {
      existing = PointToJson(point);
      return;
    }
  }
  points.push_back(PointToJson(point));
}

void SweepFile::set_searches(const std::vector<GridSearch>& searches) {
  Json list = Json::array();
  std::optional<int> best;
  for (const GridSearch& entry : searches) {
    const SearchResult& search = entry.search;
    list.push_back(
        {{"grid", GridJson(entry.grid)},
         {"max_accelerators", search.max_passing},
         {"first_failure", search.first_failure ? Json(*search.first_failure) : Json(nullptr)},
         {"stopped", search.stopped}});
    best = std::max(best.value_or(0), search.max_passing);
  }
  document_["searches"] = list;
  document_["max_accelerators"] = best ? Json(*best) : Json(nullptr);
}

void SweepFile::set_complete(bool complete) { document_["complete"] = complete; }

void SweepFile::set(const std::string& key, const Json& value) { document_[key] = value; }

void SweepFile::save() const {
  storage::AtomicFileWriter writer(storage::PosixEnv(), (folder_ / kName).string());
  const std::string text = document_.dump(2) + "\n";
  writer.file().append(text.data(), text.size());
  writer.commit(/*fsync=*/false);
}

}  // namespace dlbench::sweep
