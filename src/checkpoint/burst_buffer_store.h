// A CheckpointStore that absorbs each save on a fast tier (checkpoint.burst_buffer.tier) and
// drains complete checkpoints in the background to checkpoint.checkpoint_folder, where a manifest
// written last, once every rank's part is drained, marks the checkpoint durable.
//
// Lifecycle of checkpoint N (docs/checkpointing.md, "Burst buffer and storage tiers"):
//   Save:   wait for room (backpressure) -> hold this rank's drains of earlier checkpoints and
//           its evictions -> queue the drain -> write <tier path>/N with the checkpoint writer,
//           handing each file to the drain once it is renamed into place -> CommitCheckpoint
//           (fast-tier manifest) -> release -> return (training goes on)
//   drain:  copy each of this rank's files to <checkpoint_folder>/N (fsync'd) as soon as it is
//           complete on the fast tier and no later save is being written on this rank (a save
//           never runs beside the copies of earlier checkpoints, DrainEngine::hold) -> once the
//           fast-tier commit succeeded, marker per rank ->
//           rank 0 waits for every marker, then writes the manifest: durable. A failed save
//           cancels its drain (copies removed, never a marker or manifest).
//   evict:  at the next collective call after durability (Save, Load, Finish), with
//           evict_after_drain: the fast-tier manifest first, then each rank's own files, kept as
//           spares for later saves to overwrite in place (fast_tier_spares.h) while the tier holds
//           fewer than max_pending_checkpoints sets of them (and they fit its capacity), else
//           removed by a background thread; Finish removes the spares
// A Save touches nothing on the capacity tier from the calling (trainer's) thread.
// The tier is shared (every rank sees one folder; rank 0 commits it and scans it on resume) or
// node-local (storage.tiers.<name>.node_local, mpi/nodes.h): then each node's lowest rank commits,
// scans and evicts its node's folder, and what the nodes found is agreed over MPI, so that no rank
// touches another node's folder. The capacity folder is always shared.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint/checkpoint_store.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/planned_files.h"
#include "config/config.h"
#include "mpi/communicator.h"
#include "mpi/nodes.h"
#include "storage/file.h"
#include "util/units.h"

namespace dlbench::checkpoint {

class BackgroundRemover;
class CheckpointReader;
class DrainEngine;
class FastTierSpares;
struct DrainOutcome;

// Requires config.checkpoint.burst_buffer (throws Error(kUsage) otherwise or when its tier is
// not one of storage.tiers). `env` is the run's Env, which already applies storage.tiers'
// emulation (workflow/run_storage.h); the store only chooses paths.
std::unique_ptr<CheckpointStore> MakeBurstBufferStore(const config::Config& config,
                                                      const mpi::Communicator& comm,
                                                      storage::Env& env, Seconds origin);

// Knobs tests turn; real runs use the defaults.
struct BurstBufferTuning {
  Bytes buffer_bytes = kDefaultCheckpointBufferBytes;  // per writer, reader and drain thread
  Seconds marker_timeout = 600;                        // see DrainOptions
  Seconds poll_interval = 0.05;
  // Runs on rank 0 when a Save is about to wait for room on the fast tier.
  std::function<void()> on_backpressure;
  // Runs on a writer thread once a file of a Save is complete on the fast tier (and handed to
  // the drain), with the file's name.
  std::function<void(const std::string& file)> on_file_written;
};

class BurstBufferStore final : public CheckpointStore {
 public:
  // Collective. Validates the burst-buffer configuration (Error(kUsage) naming the key), then
  // finds checkpoints that are complete on the fast tier but have no manifest in the checkpoint
  // folder (a drain interrupted by a crash or a failure) and queues their drains before any new
  // save; resumed() names them.
  BurstBufferStore(const config::Config& config, const mpi::Communicator& comm, storage::Env& env,
                   Seconds origin, const BurstBufferTuning& tuning = {});
  // Without Finish, abandons drains in progress (they stay resumable).
  ~BurstBufferStore() override;

  StoreOpResult save(const std::string& name, const CheckpointPlan& plan) override;
  StoreOpResult load(const std::string& name, const CheckpointPlan& plan,
                     Rank source_rank) override;
  // Also returns the drains of resumed checkpoints, first. Throws Error(kIo) on every rank, with
  // the lowest failing rank's message (the path and operation that failed), when a drain failed;
  // that checkpoint is then not durable and its fast-tier copy is kept.
  std::vector<DrainResult> finish() override;

  const std::vector<std::string>& resumed() const { return resumed_; }
  // <tier path>/<name> and <checkpoint_folder>/<name>.
  std::string fast_folder(const std::string& name) const;
  std::string capacity_folder(const std::string& name) const;

 private:
  struct Saved {
    std::string name;
    PlannedFiles files;  // this rank's files on the fast tier: a few runs
  };
  void resume();
  // Collective: queues the drain of checkpoint `name`, complete on some node's fast tier, unless
  // the files of one of its saving ranks are on no node of this run (or on two).
  void resume_drain(const std::string& name);
  // This rank commits, scans and evicts its node's fast-tier folder.
  bool leads() const { return nodes_.leads(comm_.rank()); }
  // The bytes of `plan` in the fullest fast-tier folder (all of them on a shared tier).
  Bytes largest_node_share(const CheckpointPlan& plan) const;
  // Collective, at construction: with checkpoint.burst_buffer.preallocate true, or `auto` when
  // every rank's tier is in memory, each rank writes its spare sets for max_pending_checkpoints
  // saves (fewer if the tier's capacity holds fewer, or under `auto` half its free space).
  void preallocate(bool automatic);
  // Whether the files of one more evicted checkpoint stay as spares (the same answer on every
  // rank: the inputs are).
  bool keeps_another_spare_set() const;
  // Keeps the outcomes worth reporting (not those of cancelled drains) in finished_.
  void collect(std::vector<DrainOutcome> outcomes);
  // Collective. Rank 0 announces the drains of finished_ that are durable; with evict_after_drain
  // it removes their fast-tier manifests before the announcement and every rank keeps its own
  // files as spares or queues them for background removal after. Returns this rank's first error
  // (including background removals failed since the last call) instead of throwing, so that no rank
  // leaves the collective early; the caller agrees on it. `keep_spares` false: the evicted files
  // are removed, not kept as spares (the run is finishing).
  std::string evict_durable(bool keep_spares = true);

  const config::Config& config_;
  mpi::Communicator comm_;
  storage::Env& env_;  // the run's Env: storage.tiers' emulation already applied
  Seconds origin_;
  BurstBufferTuning tuning_;
  std::string tier_name_;
  std::string tier_path_;
  std::optional<Bytes> tier_capacity_;
  // Mapped once (a collective): a save must not make MPI calls only rank 0 makes, nor split the
  // communicator each time. One node unless the tier is node-local.
  mpi::NodeMap nodes_;
  std::unique_ptr<CheckpointWriter> writer_;
  std::unique_ptr<CheckpointReader> reader_;
  std::unique_ptr<DrainEngine> drains_;
  std::unique_ptr<BackgroundRemover> remover_;  // evicted fast-tier files
  std::unique_ptr<FastTierSpares> spares_;      // null where the tier cannot rename and overwrite
  Bytes share_ = 0;                             // largest_node_share of the last save's plan
  std::vector<std::string> resumed_;
  // Files of the resumed drains found complete on the capacity side (not copied again).
  std::size_t resumed_complete_files_ = 0;
  std::vector<Saved> saved_;                   // in drain order, not yet evicted or failed
  std::vector<DrainOutcome> finished_;         // collected from the engine, not yet returned
  std::vector<std::string> evicted_folders_;   // emptied on the fast tier, removed by Finish
  std::map<std::string, Seconds> durable_at_;  // as announced by rank 0
};

}  // namespace dlbench::checkpoint
