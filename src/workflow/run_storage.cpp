#include "workflow/run_storage.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "formats/registry.h"
#include "generation/generation_plan.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/path_text.h"
#include "util/sink.h"
#include "workflow/stage_phase.h"
#include "workflow/storage_tiers.h"

namespace dlbench::workflow {
namespace {

struct RegisteredBackend {
  std::string scheme;
  SchemeBackend make;
};

std::vector<RegisteredBackend>& SchemeBackends() {
  static std::vector<RegisteredBackend> backends;
  return backends;
}

// A configured folder: its key, for messages, and its path.
struct ConfiguredFolder {
  std::string key;
  std::string path;
};

// Every folder the configuration names for the workload's storage.
std::vector<ConfiguredFolder> ConfiguredFolders(const config::Config& config) {
  std::vector<ConfiguredFolder> folders = {
      {"dataset.data_folder", config.dataset.data_folder},
      {"checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder}};
  for (const config::TierConfig& tier : config.storage.tiers) {
    folders.push_back({"storage.tiers." + tier.name + ".path", tier.path});
  }
  return folders;
}

// Throws when the storage of `folder` lacks `capability`, which `setting` ("reader.odirect:
// true") needs for `what` ("O_DIRECT reads"); `change` says what to change instead.
void Require(storage::Env& storage, const ConfiguredFolder& folder, const std::string& setting,
             bool storage::Capabilities::*capability, const std::string& what,
             const std::string& change) {
  const storage::Capabilities capabilities = storage.capabilities(folder.path);
  if (capabilities.*capability) return;
  throw UsageError(setting + " needs " + what + ", which the " + capabilities.backend +
                   " storage of " + folder.key + " '" + folder.path + "' cannot do; " + change);
}

}  // namespace

void RegisterSchemeBackend(const std::string& scheme, SchemeBackend make) {
  for (const RegisteredBackend& backend : SchemeBackends()) {
    if (backend.scheme == scheme) {
      throw InternalError("storage backend of " + scheme + ":// registered twice");
    }
  }
  SchemeBackends().push_back({scheme, std::move(make)});
}

void CheckRunStorage(const config::Config& config, const FolderUse& use, int ranks,
                     storage::MountTable& storage) {
  for (const ConfiguredFolder& folder : ConfiguredFolders(config)) {
    if (storage.handles(folder.path)) continue;
    throw UsageError(folder.key + ": '" + folder.path + "' is a " +
                     std::string(UriScheme(folder.path)) +
                     ":// URI, and no storage backend handles it (this run handles " +
                     storage.handled() + "); give a local folder");
  }
  const ConfiguredFolder data{"dataset.data_folder", config.dataset.data_folder};
  // Training reads the staged copy when staging (and the data folder too with per_epoch and
  // on_demand).
  std::vector<ConfiguredFolder> read = {data};
  if (use.reads && config.workflow.stage) {
    read.push_back(
        {"the staged data folder (stage.to: " + config.stage.to + ")", StagedDataFolder(config)});
  }
  for (const ConfiguredFolder& folder : use.reads ? read : std::vector<ConfiguredFolder>{}) {
    if (config.reader.odirect) {
      Require(storage, folder, "reader.odirect: true", &storage::Capabilities::direct_io,
              "O_DIRECT reads", "set reader.odirect: false");
    }
    if (config.dataset.format == config::Format::kMmapIndexedBinary) {
      Require(storage, folder, "dataset.format: mmap_indexed_binary", &storage::Capabilities::mmap,
              "memory-mapped files", "use dataset.format: indexed_binary");
    }
    if (config.reader.drop_caches != config::DropCaches::kNone) {
      Require(storage, folder,
              "reader.drop_caches: " + std::string(ToString(config.reader.drop_caches)),
              &storage::Capabilities::page_cache, "a page cache to drop",
              "set reader.drop_caches: none");
    }
  }
  const std::int64_t files = config.dataset.num_files_train + config.dataset.num_files_eval;
  if (use.generates && files > 0 &&
      generation::UsesSharedFiles(static_cast<FileIndex>(files), ranks) &&
      formats::MakeSharedWriter(config.dataset.format) != nullptr) {
    Require(storage, data,
            "dataset.format: " + std::string(ToString(config.dataset.format)) + " with " +
                std::to_string(files) + " file(s) for " + std::to_string(ranks) + " ranks",
            &storage::Capabilities::shared_writers, "one file written by several ranks (MPI-IO)",
            "generate at least as many files as ranks");
  }
  if (use.checkpoints && config.checkpoint.odirect) {
    std::vector<ConfiguredFolder> written = {
        {"checkpoint.checkpoint_folder", config.checkpoint.checkpoint_folder}};
    if (config.checkpoint.burst_buffer) {
      if (const config::TierConfig* tier =
              config.storage.tier_named(config.checkpoint.burst_buffer->tier)) {
        written.push_back({"storage.tiers." + tier->name + ".path", tier->path});
      }
    }
    for (const ConfiguredFolder& folder : written) {
      Require(storage, folder, "checkpoint.odirect: true", &storage::Capabilities::direct_io,
              "O_DIRECT writes", "set checkpoint.odirect: false");
    }
  }
}

std::unique_ptr<storage::TierEnv> MakeRunStorage(const config::Config& config, const FolderUse& use,
                                                 const mpi::Communicator& comm) {
  std::unique_ptr<storage::TierEnv> storage;
  mpi::AgreeOnFailure(comm, [&] {
    storage = std::make_unique<storage::TierEnv>(storage::PosixEnv(),
                                                 TierSpecsFromConfig(config.storage));
    for (RegisteredBackend& backend : SchemeBackends()) {
      std::vector<std::string> folders;
      for (const ConfiguredFolder& folder : ConfiguredFolders(config)) {
        if (UriScheme(folder.path) == backend.scheme) folders.push_back(folder.path);
      }
      if (folders.empty()) continue;
      if (std::unique_ptr<storage::Env> env = backend.make(config, folders, comm.rank())) {
        storage->mount_scheme(backend.scheme, std::move(env));
      }
    }
    CheckRunStorage(config, use, comm.size(), *storage);
  });
  return storage;
}

void AnnounceEmulation(const storage::TierEnv& storage, bool quiet, const mpi::Communicator& comm) {
  if (!comm.is_root() || quiet) return;
  std::string lines;
  for (const std::string& note : storage.emulation_notes()) lines += "emulated: " + note + "\n";
  sink::Result(lines);
}

}  // namespace dlbench::workflow
