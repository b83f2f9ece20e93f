#include "generation/generation_resume.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::generation {
namespace {

// splitmix64's finaliser: spreads train.seed so that nearby seeds give unrelated content.
std::uint64_t Mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace

std::string DatasetMarkerPath(const config::Config& config) {
  return config.dataset.data_folder + "/" + file_names::kDatasetMarker;
}

std::uint64_t ContentSeed(const config::Config& config) {
  if (config.dataset.content.seed != 0) return config.dataset.content.seed;
  return Mix(static_cast<std::uint64_t>(config.train.seed));
}

std::string DatasetFingerprint(const config::Config& config) {
  const config::DatasetConfig& d = config.dataset;
  nlohmann::ordered_json j;
  j["format"] = config::ToString(d.format);
  j["num_files_train"] = d.num_files_train;
  j["num_files_eval"] = d.num_files_eval;
  j["num_samples_per_file"] = d.num_samples_per_file;
  j["num_subfolders_train"] = d.num_subfolders_train;
  j["num_subfolders_eval"] = d.num_subfolders_eval;
  j["file_prefix"] = d.file_prefix;
  j["record_length_bytes"] = d.record_length_bytes;
  j["record_length_bytes_stdev"] = d.record_length_bytes_stdev;
  j["record_dims"] = d.record_dims;
  j["record_element_type"] = d.record_element_type;
  j["compression"] = config::ToString(d.compression);
  j["compression_level"] = d.compression_level;
  j["hdf5"] = {{"chunk_dims", d.hdf5.chunk_dims},
               {"num_dset_per_record", d.hdf5.num_dset_per_record},
               {"max_shape", d.hdf5.max_shape}};
  if (d.format == config::Format::kParquet) {
    nlohmann::ordered_json columns = nlohmann::ordered_json::array();
    for (const config::ParquetColumn& c : d.parquet.columns) {
      columns.push_back({{"name", c.name}, {"dtype", c.dtype}, {"size", c.size}});
    }
    j["parquet"] = {{"columns", columns}, {"row_group_size", d.parquet.row_group_size}};
  }
  j["content"] = {{"kind", config::ToString(d.content.kind)},
                  {"compress_ratio", d.content.compress_ratio},
                  {"seed", ContentSeed(config)}};
  // Only for assembled files, so that the markers of per-file datasets generated before the key
  // existed still match; a dataset generated per file before `auto` became the default (which
  // assembles jpeg, png and csv) does not match that default's fingerprint and is rewritten.
  if (d.content.encoding == config::ContentEncoding::kAssembled) {
    j["content"]["encoding"] = config::ToString(d.content.encoding);
  }
  return j.dump();
}

namespace {

// A fingerprint value as a person reads it: 4096, not 4096.0; npz, not "npz".
std::string FingerprintValue(const nlohmann::ordered_json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (number == std::floor(number) && std::fabs(number) < 1e15) {
      return std::to_string(static_cast<long long>(number));
    }
  }
  return value.dump();
}

}  // namespace

std::string DescribeFingerprintDifference(const std::string& dataset,
                                          const std::string& configured) {
  const auto there = nlohmann::ordered_json::parse(dataset, nullptr, false);
  const auto here = nlohmann::ordered_json::parse(configured, nullptr, false);
  if (!there.is_object() || !here.is_object()) return there == here ? "" : "another dataset";
  std::string text;
  for (const auto& [key, value] : here.items()) {
    const auto found = there.find(key);
    if (found != there.end() && *found == value) continue;
    const std::string old = found == there.end() ? "(none)" : FingerprintValue(*found);
    if (!text.empty()) text += "; ";
    text += "dataset." + key + ": " + old + " in the dataset, " + FingerprintValue(value) +
            " configured";
  }
  return text;
}

std::optional<DatasetMarker> ReadDatasetMarker(storage::Env& env, const std::string& path) {
  if (!env.exists(path)) return std::nullopt;
  std::string text;
  {
    auto file = env.open_read(path);
    text.resize(file->size());
    text.resize(file->read_at(0, text.data(), text.size()));
  }
  const nlohmann::ordered_json j =
      nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("dataset") || !j.contains("complete") ||
      !j["complete"].is_boolean()) {
    return std::nullopt;
  }
  return DatasetMarker{j["dataset"].dump(), j["complete"].get<bool>()};
}

void WriteDatasetMarker(storage::Env& env, const std::string& path, const std::string& fingerprint,
                        bool complete, bool fsync) {
  nlohmann::ordered_json j;
  j["tool"] = "dlbench";
  j["complete"] = complete;
  j["dataset"] = nlohmann::ordered_json::parse(fingerprint);
  const std::string text = j.dump(2) + "\n";
  storage::AtomicFileWriter writer(env, path);
  writer.file().append(text.data(), text.size());
  writer.commit(fsync);
}

bool IsDatasetComplete(storage::Env& env, const config::Config& config) {
  const auto marker = ReadDatasetMarker(env, DatasetMarkerPath(config));
  return marker && marker->complete && marker->fingerprint == DatasetFingerprint(config);
}

bool IsFileComplete(storage::Env& env, const DatasetFile& file, std::optional<Bytes> expected_size,
                    ExistingFiles policy) {
  if (policy == ExistingFiles::kNone) return false;
  if (!env.exists(file.path)) return false;
  // Asked even when the size decides nothing: Env::file_size refuses a FIFO, folder or device
  // under the file's name (exit 3 naming it), which a kept file would otherwise be.
  const Bytes size = env.file_size(file.path);
  if (expected_size) {
    if (size != *expected_size) return false;
  } else if (policy != ExistingFiles::kTrusted) {
    return false;
  }
  for (const std::string& companion : file.companions) {
    if (!env.exists(companion)) return false;
  }
  return true;
}

std::size_t RemovePartialFiles(storage::Env& env, const std::vector<std::string>& folders) {
  std::size_t removed = 0;
  for (const std::string& folder : folders) {
    for (const std::string& partial : storage::FindPartialFiles(env, folder)) {
      env.remove(partial);
      ++removed;
    }
    removed += env.abort_pending_writes(folder);
  }
  return removed;
}

bool FoldersHoldNoDataFiles(storage::Env& env, const std::vector<std::string>& folders) {
  bool none = true;
  for (const std::string& folder : folders) {
    env.for_each_entry(folder, [&](const storage::DirectoryEntry& entry) {
      none = entry.is_directory || entry.name == file_names::kDatasetMarker ||
             entry.name == file_names::kFolderMarker || storage::IsPartialFileName(entry.name);
      return none;
    });
    if (!none) return false;
  }
  return true;
}

}  // namespace dlbench::generation
