// The rules on storage tiers, the burst buffer, staging and the folders dlbench writes into.
// Storage, checkpoint, staging and workflow code trusts a Config that passed them (they are
// checked nowhere else; code that meets a broken one throws InternalError).
#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/checker.h"
#include "config/units_parser.h"
#include "config/workload_catalog.h"
#include "util/path_text.h"

namespace dlbench::config {
namespace {

// 400 and 1.5 as written, for a suggested spelling (FormatFloat gives 400.0).
std::string PlainNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

}  // namespace

// Those s3/settings.cpp reads (DLIO's S3 keys, dlbench's session_token and ca_bundle), MLPerf
// Storage's storage_library (read here) and op_log, which --op-log sets (app/storage_backends.cpp).
// config may not include s3/, so the list is kept equal to what s3/settings.cpp reads by a test:
// unit_s3's S3Settings.ReadsTheStorageOptionsTheConfigurationLists.
const std::vector<std::string> StorageConfig::kStorageOptionKeys = {
    "access_key_id", "secret_access_key",   "session_token",   "endpoint_url",    "region",
    "ca_bundle",     "s3_force_path_style", "s3_max_attempts", "storage_library", "op_log"};

const TierConfig* StorageConfig::tier_named(const std::string& name) const {
  for (const TierConfig& tier : tiers) {
    if (tier.name == name) return &tier;
  }
  return nullptr;
}

std::string StorageConfig::library() const {
  if (!storage_library.empty()) return storage_library;
  const auto found = storage_options.find("storage_library");
  return found == storage_options.end() ? "" : found->second;
}

std::string StorageConfig::library_key() const {
  return storage_library.empty() && storage_options.contains("storage_library")
             ? "storage.storage_options.storage_library"
             : "storage.storage_library";
}

const TierConfig* StorageConfig::tier_holding(const std::string& path) const {
  std::vector<std::string> folders;
  for (const TierConfig& tier : tiers) folders.push_back(AbsoluteFolder(tier.path));
  const std::size_t deepest = DeepestFolderHolding(folders, AbsoluteFolder(path));
  return deepest == std::string::npos ? nullptr : &tiers[deepest];
}

void CheckStorage(const Config& config, const Checker& check) {
  const StorageConfig& storage = config.storage;
  if (storage.storage_type == StorageType::kAistore) {
    check.fail("storage.storage_type",
               "aistore is not supported by dlbench, which stores on POSIX file systems and S3; "
               "use local_fs, parallel_fs or s3 (AIStore serves S3 too)");
  }
  if (storage.storage_type == StorageType::kS3 && !IsUri(config.dataset.data_folder)) {
    check.fail("dataset.data_folder",
               "'" + config.dataset.data_folder +
                   "' is not an s3:// URI, and storage.storage_type is s3; give "
                   "s3://bucket/prefix, or the bucket as storage.storage_root (then the folder is "
                   "a key prefix in it)");
  }
  if (storage.storage_type == StorageType::kParallelFs) {
    check.notice("storage.storage_type: parallel_fs" + check.at("storage.storage_type") +
                 " is POSIX I/O in dlbench, like local_fs (DLIO rejects it at run time)");
  }
  // DLIO and MLPerf's fork pass storage_options on to their S3 libraries without a check, so an
  // unknown key is no error; but a misspelt one (`endpoint` for `endpoint_url`) would silently
  // leave the run on another endpoint or credentials.
  if (storage.storage_type == StorageType::kS3) {
    for (const auto& [key, value] : storage.storage_options) {
      if (std::find(StorageConfig::kStorageOptionKeys.begin(),
                    StorageConfig::kStorageOptionKeys.end(),
                    key) != StorageConfig::kStorageOptionKeys.end())
        continue;
      // The closest spelling, else a key this one begins (`endpoint`, `secret`).
      std::optional<std::string> closest = ClosestMatch(key, StorageConfig::kStorageOptionKeys);
      for (const std::string& known : StorageConfig::kStorageOptionKeys) {
        if (!closest && !key.empty() && known.starts_with(key)) closest = known;
      }
      check.notice("storage.storage_options." + key + check.at("storage.storage_options." + key) +
                   " is not read by dlbench's S3 client and is ignored" +
                   (closest ? "; did you mean " + *closest + "?" : ""));
    }
  }
  const std::string library = storage.library();
  if (!library.empty() && library != "s3dlio" && library != "s3torchconnector" &&
      library != "minio") {
    check.fail(storage.library_key(),
               "'" + library +
                   "' is not one of s3dlio, s3torchconnector, minio (MLPerf Storage's "
                   "S3 libraries; dlbench records the name and uses its own S3 client)");
  }
  // A URI names storage by its scheme, and local_fs and parallel_fs store local paths only:
  // s3://bucket/key is refused here, before it could become a local folder named "s3:". Results
  // are local files, whatever the storage.
  std::vector<std::pair<std::string, std::string>> paths = {
      {"dataset.data_folder", config.dataset.data_folder},
      {"checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder}};
  for (const TierConfig& tier : storage.tiers) {
    paths.emplace_back("storage.tiers." + tier.name + ".path", tier.path);
  }
  const bool local = storage.storage_type == StorageType::kLocalFs ||
                     storage.storage_type == StorageType::kParallelFs;
  for (const auto& [key, path] : paths) {
    if (const std::string_view scheme = UriScheme(path); local && !scheme.empty()) {
      check.fail(key, "'" + path + "' is a " + std::string(scheme) +
                          ":// URI, but storage.storage_type " +
                          std::string(ToString(storage.storage_type)) +
                          " stores local paths only; give a local folder");
    }
  }
  if (config.output.folder && IsUri(*config.output.folder)) {
    check.fail("output.folder", "'" + *config.output.folder +
                                    "' is a URI; results are written to a local folder: give one");
  }
  std::map<std::string, std::string> tier_of_folder;
  for (const TierConfig& tier : storage.tiers) {
    const std::string key = "storage.tiers." + tier.name;
    if (tier.path.empty()) check.fail(key + ".path", "must not be empty");
    if (tier.capacity && *tier.capacity == 0) check.fail(key + ".capacity", "must be > 0");
    if (tier.bandwidth_limit) check.positive(key + ".bandwidth_limit", *tier.bandwidth_limit);
    check.non_negative(key + ".latency", tier.latency);
    // A bare number is bytes per second or seconds: `bandwidth_limit: 400` meant as MiB/s
    // emulates 400 B/s and `latency: 2` meant as ms sleeps 2 s per operation; either run looks
    // hung, so the value is named with the spelling that has the unit.
    if (tier.bandwidth_limit && *tier.bandwidth_limit > 0 && *tier.bandwidth_limit < 1048576.0) {
      check.notice(key + ".bandwidth_limit: " + FormatRate(*tier.bandwidth_limit) +
                   check.at(key + ".bandwidth_limit") +
                   " is below 1 MiB/s, so slow that a run looks hung; a bare number is bytes per "
                   "second: write " +
                   PlainNumber(*tier.bandwidth_limit) + "MiB/s for MiB/s");
    }
    if (tier.latency >= 1.0) {
      check.notice(key + ".latency: " + FormatDuration(tier.latency) + check.at(key + ".latency") +
                   " is slept before every operation; a bare number is seconds: write " +
                   PlainNumber(tier.latency) + "ms for milliseconds");
    }
    // A path belongs to the tier of its deepest folder: two tiers on one folder would be
    // ambiguous.
    const auto [it, added] = tier_of_folder.emplace(AbsoluteFolder(tier.path), tier.name);
    if (!added) {
      check.fail(key + ".path", "'" + tier.path + "' is also the folder of tier " + it->second +
                                    "; give each tier its own folder");
    }
  }
}

void CheckBurstBuffer(const Config& config, const Checker& check) {
  if (!config.checkpoint.burst_buffer) return;
  const BurstBufferConfig& b = *config.checkpoint.burst_buffer;
  const TierConfig* fast = nullptr;
  std::string names;
  for (const TierConfig& tier : config.storage.tiers) {
    if (tier.name == b.tier) fast = &tier;
    names += (names.empty() ? "" : ", ") + tier.name;
  }
  if (fast == nullptr) {
    check.fail("checkpoint.burst_buffer",
               "tier '" + b.tier + "' is not a storage.tiers entry" +
                   (names.empty() ? std::string(" (storage.tiers is empty)")
                                  : " (defined: " + names + ")"));
  }
  check.at_least("checkpoint.burst_buffer.drain_threads", b.drain_threads, 1);
  check.at_least("checkpoint.burst_buffer.max_pending_checkpoints", b.max_pending_checkpoints, 1);
  // Drains copy from the tier into the checkpoint folder and evictions delete from the tier:
  // neither may hold the other.
  const std::string tier_folder = ResolvedFolder(fast->path);
  const std::string capacity = ResolvedFolder(config.checkpoint.checkpoint_folder);
  if (FolderContains(tier_folder, capacity) || FolderContains(capacity, tier_folder)) {
    check.fail_combination(
        "checkpoint.burst_buffer.tier = " + b.tier + check.at("checkpoint.burst_buffer") +
        " (path '" + fast->path + "') and " +
        check.is("checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder) +
        " overlap; the burst buffer must be a different folder");
  }
}

namespace {

// "(defined: pfs, nvme)" or "(storage.tiers is empty)".
std::string DefinedTiers(const Config& config) {
  std::string names;
  for (const TierConfig& tier : config.storage.tiers) {
    names += (names.empty() ? "" : ", ") + tier.name;
  }
  return names.empty() ? "(storage.tiers is empty)" : "(defined: " + names + ")";
}

}  // namespace

// Staging (docs/staging.md) copies dataset.data_folder from the `from` tier to the same relative
// path under the `to` tier (workflow/stage_phase.h StagedDataFolder).
void CheckStage(const Config& config, const Checker& check, bool stages) {
  const StageConfig& stage = config.stage;
  check.at_least("stage.threads", stage.threads, 1);
  if (!stages) return;
  const TierConfig* to = config.storage.tier_named(stage.to);
  if (to == nullptr) {
    check.fail("stage.to", (stage.to.empty() ? std::string("is not set")
                                             : "'" + stage.to + "' is not a storage.tiers entry") +
                               " " + DefinedTiers(config) +
                               "; name the tier to stage the dataset to");
  }
  const std::string& data = config.dataset.data_folder;
  const TierConfig* from = nullptr;
  if (stage.from.empty()) {
    from = config.storage.tier_holding(data);
    if (from == nullptr) {
      check.fail_combination(check.is("dataset.data_folder", data) +
                             " is under no storage tier; put it under one or set stage.from");
    }
  } else {
    from = config.storage.tier_named(stage.from);
    if (from == nullptr) {
      check.fail("stage.from",
                 "'" + stage.from + "' is not a storage.tiers entry " + DefinedTiers(config));
    }
    if (!FolderContains(AbsoluteFolder(from->path), AbsoluteFolder(data))) {
      check.fail_combination(check.is("dataset.data_folder", data) + " is not under tier " +
                             stage.from + check.at("stage.from") + " (path '" + from->path +
                             "'); staging copies the dataset out of the stage.from tier");
    }
  }
  if (from == to) {
    check.fail_combination("the dataset (" + check.is("dataset.data_folder", data) +
                           ") is already on " + check.is("stage.to", stage.to) +
                           "; stage.to must be another tier");
  }
}

// Folders dlbench writes into (and may delete, keep_files: false; evictions from a burst buffer)
// must not be the root, the home folder or a system folder, symbolic links followed; the data,
// checkpoint (when checkpoints are written or read) and output folders must not hold each other.
// DLIO's own S3 workloads keep the dataset at the bucket's root and its default checkpoint folder
// inside it, with checkpointing off.
void CheckFolders(const Config& config, const Checker& check, const PhasesRun& run) {
  const std::pair<std::string, std::string> checkpoints = {"checkpoint.checkpoint_folder",
                                                           config.checkpoint.checkpoint_folder};
  std::vector<std::pair<std::string, std::string>> folders = {
      {"dataset.data_folder", config.dataset.data_folder}};
  if (run.checkpoint) folders.push_back(checkpoints);
  if (config.output.folder) folders.emplace_back("output.folder", *config.output.folder);
  std::vector<std::pair<std::string, std::string>> written = folders;
  if (!run.checkpoint) written.push_back(checkpoints);
  if (config.checkpoint.burst_buffer) {
    for (const TierConfig& tier : config.storage.tiers) {
      if (tier.name == config.checkpoint.burst_buffer->tier) {
        written.emplace_back("storage.tiers." + tier.name + ".path", tier.path);
      }
    }
  }
  for (const TierConfig& tier : config.storage.tiers) {
    check.one_line("storage.tiers." + tier.name + ".path", tier.path);
  }
  for (const auto& [key, folder] : written) {
    check.one_line(key, folder);
    const std::string reason = UnsafeFolderReason(folder);
    if (!reason.empty()) check.fail(key, reason + "; give a dedicated folder");
  }
  for (std::size_t i = 0; i < folders.size(); ++i) {
    for (std::size_t j = i + 1; j < folders.size(); ++j) {
      const std::string a = ResolvedFolder(folders[i].second);
      const std::string b = ResolvedFolder(folders[j].second);
      if (FolderContains(a, b) || FolderContains(b, a)) {
        check.fail_combination(check.is(folders[i].first, folders[i].second) + " and " +
                               check.is(folders[j].first, folders[j].second) +
                               " overlap; give them separate folders");
      }
    }
  }
}

}  // namespace dlbench::config
