#include "checkpoint/manifest.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

constexpr const char* kFormat = "dlbench-checkpoint-manifest";
constexpr int kVersion = 1;
// The most ranks a manifest may name. A drain visits every rank of the saving world (its markers,
// one stat each, polled until all are there): a damaged world of 2^31 - 1 hung the drain.
constexpr int kMaxWorld = 1 << 20;

// A manifest's count that must be a whole number >= 0 (nlohmann's get<Bytes> would wrap -5 and
// truncate 1.5).
Bytes Count(const nlohmann::json& value) {
  if (!value.is_number_unsigned()) throw std::runtime_error("a size is not a whole number >= 0");
  return value.get<Bytes>();
}

}  // namespace

Manifest PlannedManifest(const std::string& folder, const CheckpointPlan& plan,
                         const ContentSettings& content) {
  Manifest manifest;
  manifest.checkpoint = BaseName(folder);
  manifest.world = plan.world();
  manifest.content = content;
  for (Rank r = 0; r < plan.world(); ++r) {
    for (const PlannedFile& file : plan.for_rank(r).files) {
      manifest.files.push_back({file.name, file.bytes, r});
      manifest.total_bytes += file.bytes;
    }
  }
  return manifest;
}

std::string ManifestText(const Manifest& manifest) {
  nlohmann::json json;
  json["format"] = kFormat;
  json["version"] = kVersion;
  json["checkpoint"] = manifest.checkpoint;
  json["world"] = manifest.world;
  json["content"] = {{"randomize", manifest.content.randomize}, {"seed", manifest.content.seed}};
  json["total_bytes"] = manifest.total_bytes;
  nlohmann::json files = nlohmann::json::array();
  for (const ManifestEntry& e : manifest.files) {
    files.push_back({{"name", e.name}, {"bytes", e.bytes}, {"rank", e.rank}});
  }
  json["files"] = std::move(files);
  return json.dump(1) + "\n";
}

void CheckPlannedFiles(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const std::vector<Rank>& ranks) {
  for (Rank r : ranks) {
    for (const PlannedFile& file : plan.for_rank(r).files) {
      const std::string path = JoinPath(folder, file.name);
      if (!env.exists(path)) {
        throw IoError("complete checkpoint", path, 0,
                      "missing (rank " + std::to_string(r) + " did not write it); no manifest");
      }
      const Bytes size = env.file_size(path);
      if (size != file.bytes) {
        throw IoError("complete checkpoint", path, 0,
                      "size " + std::to_string(size) + " B, planned " + std::to_string(file.bytes) +
                          " B; no manifest");
      }
    }
  }
}

void WriteManifestText(storage::Env& env, const std::string& folder, const std::string& text,
                       bool fsync) {
  storage::AtomicFileWriter writer(env, JoinPath(folder, file_names::kCheckpointManifest));
  writer.file().append(text.data(), text.size());
  writer.commit(fsync);
}

Manifest WriteManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const ContentSettings& content, bool fsync) {
  std::vector<Rank> ranks;
  for (Rank r = 0; r < plan.world(); ++r) ranks.push_back(r);
  CheckPlannedFiles(env, folder, plan, ranks);
  Manifest manifest = PlannedManifest(folder, plan, content);
  WriteManifestText(env, folder, ManifestText(manifest), fsync);
  return manifest;
}

bool IsCheckpointComplete(storage::Env& env, const std::string& folder) {
  return env.exists(JoinPath(folder, file_names::kCheckpointManifest));
}

Manifest ReadManifest(storage::Env& env, const std::string& folder) {
  const std::string path = JoinPath(folder, file_names::kCheckpointManifest);
  if (!env.exists(path)) {
    throw IoError("read checkpoint", folder, 0,
                  std::string("incomplete checkpoint: no ") + file_names::kCheckpointManifest +
                      " (a save was interrupted or a rank failed)");
  }
  std::string text;
  {
    std::unique_ptr<storage::ReadableFile> file = env.open_read(path);
    text.resize(file->size());
    const Bytes got = file->read_at(0, text.data(), text.size());
    text.resize(got);
  }
  return ParseManifest(text, path);
}

Manifest ParseManifest(const std::string& text, const std::string& path) {
  Manifest manifest;
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    if (json.at("format").get<std::string>() != kFormat) throw std::runtime_error("wrong format");
    if (json.at("version").get<int>() != kVersion) throw std::runtime_error("unknown version");
    manifest.checkpoint = json.at("checkpoint").get<std::string>();
    const nlohmann::json& world = json.at("world");
    if (!world.is_number_integer() || world.get<std::int64_t>() < 1 ||
        world.get<std::int64_t>() > kMaxWorld) {
      throw std::runtime_error("world " + world.dump() + " is not 1 to " +
                               std::to_string(kMaxWorld) + " ranks");
    }
    manifest.world = world.get<int>();
    manifest.content.randomize = json.at("content").at("randomize").get<bool>();
    manifest.content.seed = json.at("content").at("seed").get<std::uint64_t>();
    manifest.total_bytes = Count(json.at("total_bytes"));
    for (const nlohmann::json& e : json.at("files")) {
      ManifestEntry entry{e.at("name").get<std::string>(), Count(e.at("bytes")), 0};
      // A file of the checkpoint's own folder: a name with a '/' or a '..' would have a drain or
      // an eviction reach outside it.
      if (entry.name.empty() || entry.name == "." || entry.name == ".." ||
          entry.name.find('/') != std::string::npos) {
        throw std::runtime_error("file name '" + FileText(entry.name) +
                                 "' is not a name in the checkpoint's folder");
      }
      const nlohmann::json& rank = e.at("rank");
      if (!rank.is_number_integer() || rank.get<std::int64_t>() < 0 ||
          rank.get<std::int64_t>() >= manifest.world) {
        throw std::runtime_error("rank " + rank.dump() + " of " + entry.name +
                                 " is not a rank of the world of " +
                                 std::to_string(manifest.world));
      }
      entry.rank = rank.get<Rank>();
      manifest.files.push_back(std::move(entry));
    }
  } catch (const std::exception& e) {
    throw IoError("read checkpoint manifest", path, 0, std::string("corrupt: ") + e.what());
  }
  return manifest;
}

}  // namespace dlbench::checkpoint
