#include "workflow/stage_phase.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>

#include "generation/dataset_check.h"
#include "generation/generation_resume.h"
#include "mpi/agreement.h"
#include "mpi/nodes.h"
#include "pipeline/options_from_config.h"
#include "pipeline/sampler.h"
#include "util/count_text.h"
#include "util/error.h"
#include "util/path_text.h"
#include "util/sink.h"
#include "util/size_text.h"

namespace dlbench::workflow {
namespace {

bool RandomShuffle(const config::Config& config) {
  return config.reader.file_shuffle == config::Shuffle::kRandom ||
         config.reader.sample_shuffle == config::Shuffle::kRandom;
}

// Which rank stages dataset file g onto the staged folder of this rank's node (`nodes`: one node
// for a shared `to` tier): with all_files (or a shuffle drawn at run time, which no rank can
// predict before training), the node's ranks in turn (g mod its ranks); otherwise the lowest rank
// of the node that reads g in any epoch (train, and evaluation when on), or -1 when none does.
// The ranks of a node share its staged folder, so each file is copied once per node.
std::vector<int> StagingOwners(const config::Config& config, const generation::DatasetFiles& files,
                               const mpi::Communicator& comm, const mpi::NodeMap& nodes) {
  std::vector<int> owner(files.total(), -1);
  const std::vector<int> ranks = nodes.ranks_of(nodes.node_of(comm.rank()));
  if (config.stage.all_files || RandomShuffle(config)) {
    for (FileIndex g = 0; g < files.total(); ++g) owner[g] = ranks[g % ranks.size()];
    return owner;
  }
  auto mark = [&](const pipeline::SamplerOptions& options, FileIndex first) {
    const pipeline::Sampler sampler(options);
    for (int epoch = 1; epoch <= config.train.epochs; ++epoch) {
      const pipeline::EpochOrder order = sampler.epoch(epoch);
      for (const int q : ranks) {
        for (std::uint64_t step = 0; step < sampler.steps_per_epoch(); ++step) {
          for (std::uint64_t i = 0; i < sampler.batch_size(); ++i) {
            int& o = owner[first + sampler.sample_of(order, q, step, i).file];
            if (o < 0) o = q;
          }
        }
      }
    }
  };
  mark(pipeline::TrainSamplerOptions(config, comm.size(), 0, 0), 0);
  if (config.workflow.evaluation && config.dataset.num_files_eval > 0) {
    mark(pipeline::EvalSamplerOptions(config, comm.size(), 0, 0),
         static_cast<FileIndex>(config.dataset.num_files_train));
  }
  return owner;
}

}  // namespace

std::string StagedDataFolder(const config::Config& config) {
  const config::TierConfig* to = config.storage.tier_named(config.stage.to);
  if (to == nullptr) {
    throw InternalError(
        "stage.to: '" + config.stage.to +
        "' is not a storage.tiers entry (config::Validate lets no such config pass)");
  }
  const std::string data = AbsoluteFolder(config.dataset.data_folder);
  const config::TierConfig* from = config.stage.from.empty()
                                       ? config.storage.tier_holding(data)
                                       : config.storage.tier_named(config.stage.from);
  if (from == nullptr) {
    throw InternalError(config.stage.from.empty()
                            ? "stage: dataset.data_folder " + data + " is under no storage tier"
                            : "stage.from: '" + config.stage.from +
                                  "' is not a storage.tiers entry");
  }
  const std::optional<std::string_view> relative = PathBelow(AbsoluteFolder(from->path), data);
  if (!relative) {
    throw InternalError("stage.from: dataset.data_folder " + data + " is not under tier " +
                        from->name + " (" + from->path + ")");
  }
  if (from == to) {
    throw InternalError("stage: the dataset is already on tier " + to->name);
  }
  return relative->empty() ? AbsoluteFolder(to->path)
                           : JoinPath(AbsoluteFolder(to->path), *relative);
}

config::Config StagedConfig(const config::Config& config) {
  config::Config staged = config;
  staged.dataset.data_folder = StagedDataFolder(config);
  return staged;
}

std::vector<staging::FileCopy> CopiesOf(const generation::DatasetFiles& from,
                                        const generation::DatasetFiles& to, FileIndex g) {
  const generation::DatasetFile source = from.file(g);
  const generation::DatasetFile target = to.file(g);
  std::vector<staging::FileCopy> copies{{source.path, target.path}};
  for (std::size_t c = 0; c < source.companions.size(); ++c) {
    copies.push_back({source.companions[c], target.companions[c]});
  }
  return copies;
}

staging::CopyOptions CopyOptionsFrom(const config::StageConfig& stage) {
  staging::CopyOptions options;
  options.threads = stage.threads;
  options.verify = stage.verify;
  return options;
}

metrics::Json StageSummary(const config::Config& config, const staging::CopyStats& mine,
                           const mpi::Communicator& comm) {
  const std::uint64_t bytes = comm.sum(mine.bytes_copied);
  const double seconds = comm.max(mine.seconds);
  metrics::Json stage;
  stage["policy"] = config::ToString(config.stage.policy);
  stage["from"] = config.dataset.data_folder;
  stage["to"] = StagedDataFolder(config);
  stage["files"] = comm.sum(mine.files_copied);
  stage["skipped_files"] = comm.sum(mine.files_skipped);
  stage["bytes"] = bytes;
  stage["seconds"] = seconds;
  stage["GiB_per_second"] =
      seconds > 0 ? static_cast<double>(bytes) / static_cast<double>(GiB) / seconds : 0.0;
  return stage;
}

std::string StageLine(const metrics::Json& stage) {
  char line[512];
  std::snprintf(line, sizeof line, "staged (%s) %s in %s (%llu already there) to %s in %.3f s",
                stage["policy"].get<std::string>().c_str(),
                DescribeBytes(stage["bytes"].get<Bytes>()).c_str(),
                CountOf(stage["files"].get<std::uint64_t>(), "file").c_str(),
                static_cast<unsigned long long>(stage["skipped_files"].get<std::uint64_t>()),
                stage["to"].get<std::string>().c_str(), stage["seconds"].get<double>());
  std::string text = line;
  // Nothing copied (a rerun that found every file staged) is no measurement of the copy: a rate
  // of 0 would read as tiers that delivered nothing.
  if (stage["bytes"].get<Bytes>() > 0) {
    std::snprintf(line, sizeof line, ": %.3f GiB/s", stage["GiB_per_second"].get<double>());
    text += line;
  }
  return text + "\n";
}

metrics::Json TierCountsSummary(const std::map<std::string, storage::IoCounts>& before,
                                const std::map<std::string, storage::IoCounts>& after,
                                const mpi::Communicator& comm) {
  metrics::Json tiers = metrics::Json::object();
  for (const auto& [name, c] : after) {
    const storage::IoCounts& b = before.at(name);  // both have every tier
    tiers[name] = {{"opens", comm.sum(c.opens - b.opens)},
                   {"reads", comm.sum(c.reads - b.reads)},
                   {"bytes_read", comm.sum(c.bytes_read - b.bytes_read)},
                   {"writes", comm.sum(c.writes - b.writes)},
                   {"bytes_written", comm.sum(c.bytes_written - b.bytes_written)}};
  }
  return {{"storage_counts_per_tier", tiers}};
}

void RunStagePhase(const config::Config& config, bool quiet, const mpi::Communicator& comm,
                   storage::Env& env, RunResults& results) {
  generation::RequireDataset(config, env, comm);
  const config::Config staged = StagedConfig(config);  // the same error on every rank
  const generation::DatasetFiles source(config.dataset);
  const generation::DatasetFiles target(staged.dataset);

  // On a node-local `to` tier each node holds the copies its own ranks read: the lowest rank of
  // every node prepares its node's folder (capacity, free space, partial files, the marker);
  // otherwise rank 0 prepares the one shared folder for all.
  const bool node_local = std::any_of(config.storage.tiers.begin(), config.storage.tiers.end(),
                                      [&](const config::TierConfig& tier) {
                                        return tier.name == config.stage.to && tier.node_local;
                                      });
  const mpi::NodeMap nodes =
      node_local ? mpi::NodeMap::Of(comm) : mpi::NodeMap::Single(comm.size());
  std::vector<FileIndex> mine;  // the files this rank copies (8 B each, not their paths)
  Bytes my_total = 0;
  Bytes my_missing = 0;
  mpi::AgreeOnFailure(comm, [&] {
    const std::vector<int> owner = StagingOwners(config, source, comm, nodes);
    for (FileIndex g = 0; g < source.total(); ++g) {
      if (owner[g] != comm.rank()) continue;
      for (const staging::FileCopy& copy : CopiesOf(source, target, g)) {
        const Bytes size = env.file_size(copy.from);
        my_total += size;
        if (!env.exists(copy.to) || env.file_size(copy.to) != size) my_missing += size;
      }
      mine.push_back(g);
    }
  });
  const std::vector<std::uint64_t> totals = comm.all_gather(my_total);
  const std::vector<std::uint64_t> missings = comm.all_gather(my_missing);
  const bool leader = nodes.leads(comm.rank());
  mpi::AgreeOnFailure(comm, [&] {
    if (!leader) return;
    Bytes total = 0;
    Bytes missing = 0;
    for (int r : nodes.ranks_of(nodes.node_of(comm.rank()))) {
      total += totals[static_cast<std::size_t>(r)];
      missing += missings[static_cast<std::size_t>(r)];
    }
    const std::string& to = config.stage.to;
    const std::string where =
        node_local ? " on node " + nodes.name(nodes.node_of(comm.rank())) : "";
    for (const config::TierConfig& tier : config.storage.tiers) {
      if (tier.name == to && tier.capacity && total > *tier.capacity) {
        throw UsageError("stage: the dataset's files to stage" + where + " take " +
                         DescribeBytes(total) + ", more than tier " + to + "'s capacity of " +
                         DescribeBytes(*tier.capacity) + " (storage.tiers." + to +
                         ".capacity); stage fewer files or use a "
                         "per_epoch or on_demand policy, which evict");
      }
    }
    for (const std::string& folder : target.folders()) env.create_directories(folder);
    const Bytes free = env.free_space(staged.dataset.data_folder);
    if (missing > free) {
      throw Error(ExitCode::kIo, "stage: tier " + to + " is full" + where + ": " +
                                     DescribeBytes(missing) + " left to stage but only " +
                                     DescribeBytes(free) + " free at " +
                                     staged.dataset.data_folder);
    }
    generation::RemovePartialFiles(env, target.folders());
  });

  comm.barrier();
  staging::CopyStats copied = staging::CopyUnits(
      env, mine.size(), [&](std::size_t i) { return CopiesOf(source, target, mine[i]); },
      CopyOptionsFrom(config.stage));
  comm.barrier();
  if (leader && env.exists(generation::DatasetMarkerPath(config))) {
    std::vector<char> buffer(Bytes{1} << 16);
    staging::CopyFile(
        env, {generation::DatasetMarkerPath(config), generation::DatasetMarkerPath(staged)}, buffer,
        CopyOptionsFrom(config.stage));
  }
  const metrics::Json stage = StageSummary(config, copied, comm);
  results.add({{"stage", stage}});
  if (comm.is_root() && !quiet) {
    sink::Result(StageLine(stage));
  }
}

}  // namespace dlbench::workflow
