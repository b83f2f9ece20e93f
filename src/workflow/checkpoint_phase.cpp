#include "workflow/checkpoint_phase.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "checkpoint/checkpoint_store.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/file_names.h"
#include "checkpoint/manifest.h"
#include "checkpoint/plan.h"
#include "checkpoint/rank_mapping.h"
#include "metrics/clock.h"
#include "metrics/cross_rank.h"
#include "metrics/host_info.h"
#include "metrics/run_reduction.h"
#include "metrics/summary.h"
#include "mpi/agreement.h"
#include "pipeline/precise_sleep.h"
#include "storage/file.h"
#include "util/count_text.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/sink.h"
#include "util/size_text.h"
#include "workflow/checkpoint_records.h"
#include "workflow/run_info.h"

namespace dlbench::workflow {
namespace {

// The emulated compute between checkpoints, then the barrier after which the timer starts.
// Negative means no pause (DLIO sleeps |value|, D14).
void PauseThenSynchronize(const config::CheckpointConfig& checkpoint,
                          const mpi::Communicator& comm) {
  if (checkpoint.time_between_checkpoints > 0) {
    pipeline::PreciseSleep(checkpoint.time_between_checkpoints);
  }
  comm.barrier();
}

std::string JobShape(int ranks, std::uint64_t files, Bytes bytes) {
  return CountOf(static_cast<std::uint64_t>(ranks), "rank") + ", " + CountOf(files, "file") + ", " +
         std::to_string(bytes) + " B";
}

// A read-only run reads what an earlier invocation wrote: every checkpoint to read must be
// complete (have its manifest) on every rank's view of the folder, and be the one this job's plan
// reads. A checkpoint written by another rank count or model was exit 3 on the first file whose
// size differed ("manifest lists 106816 B, the plan 213632 B"), without saying why.
void RequireCompleteCheckpoints(const config::CheckpointConfig& checkpoint, storage::Env& env,
                                const mpi::Communicator& comm,
                                const checkpoint::CheckpointPlan& plan) {
  mpi::AgreeOnFailure(comm, [&] {
    const checkpoint::PlanSummary planned = plan.totals();
    for (int i = 1; i <= checkpoint.num_checkpoints_read; ++i) {
      const std::string folder =
          JoinPath(checkpoint.checkpoint_folder, checkpoint::CheckpointFolderName(1, i));
      if (checkpoint::IsCheckpointComplete(env, folder)) {
        // Its shape only: no file kept (every rank reads it, and it lists the job's files).
        const checkpoint::Manifest written = checkpoint::ReadManifest(
            env, folder, [](const checkpoint::ManifestEntry&) { return false; });
        if (written.world == plan.world() && written.total_bytes == planned.total_bytes &&
            written.listed_files == planned.files) {
          continue;
        }
        throw UsageError(
            "checkpoint " + folder + " was written by a job of " +
            JobShape(written.world, written.listed_files, written.total_bytes) +
            "; this job plans " + JobShape(plan.world(), planned.files, planned.total_bytes) +
            ": read it back with the rank count and model keys that wrote it "
            "(`dlbench checkpoint plan` shows a plan), or write the checkpoints first");
      }
      throw UsageError(
          "checkpoint.num_checkpoints_read is " + std::to_string(checkpoint.num_checkpoints_read) +
          " but checkpoint " + folder + " is " +
          (env.exists(folder)
               ? "incomplete (no " + std::string(file_names::kCheckpointManifest) + ")"
               : "missing") +
          "; write the checkpoints first (checkpoint.num_checkpoints_write >= " +
          std::to_string(checkpoint.num_checkpoints_read) + ", same model and number of ranks)");
    }
  });
}

// Checkpoint-only mode writes num_checkpoints_write checkpoints and keeps them all (as DLIO
// does): when those not yet in the folder cannot fit in its file system's free space, the run is
// refused before a byte is written (exit 3). `dlbench checkpoint llama3_8b` as shipped plans
// 10 x 104.7 GiB; run in a folder on /dev/shm it wrote 22 GiB of the host's memory before it
// was stopped. A checkpoint whose folder exists is a rerun's and is replaced file by file, so
// it is not counted. Rank 0 asks; every rank gets its error.
void RequireRoomForCheckpoints(const config::CheckpointConfig& checkpoint, storage::Env& env,
                               const mpi::Communicator& comm,
                               const checkpoint::CheckpointPlan& plan) {
  mpi::AgreeOnFailure(comm, [&] {
    if (!comm.is_root() || checkpoint.num_checkpoints_write <= 0) return;
    const Bytes each = plan.totals().total_bytes;
    std::uint64_t fresh = 0;
    for (int i = 1; i <= checkpoint.num_checkpoints_write; ++i) {
      const std::string folder =
          JoinPath(checkpoint.checkpoint_folder, checkpoint::CheckpointFolderName(1, i));
      if (!env.exists(folder)) ++fresh;
    }
    Bytes needed = 0;
    if (fresh == 0 || each == 0) return;
    if (__builtin_mul_overflow(each, fresh, &needed)) needed = std::numeric_limits<Bytes>::max();
    // The folder itself may not exist yet: its nearest existing ancestor is on the same file
    // system unless a mount point lies between, which the writes would then meet.
    std::string where = checkpoint.checkpoint_folder;
    while (!env.exists(where)) {
      const std::string parent(ParentFolder(where));
      if (parent == where) break;
      where = parent;
    }
    const Bytes free = env.free_space(where);
    if (needed <= free) return;
    throw Error(ExitCode::kIo,
                "checkpoint: " + std::to_string(fresh) + " new checkpoint(s) of " +
                    DescribeBytes(each) + " (checkpoint.num_checkpoints_write " +
                    std::to_string(checkpoint.num_checkpoints_write) + ", `dlbench checkpoint " +
                    "plan` shows one) need " + DescribeBytes(needed) + " but only " +
                    DescribeBytes(free) + " is free at " + checkpoint.checkpoint_folder +
                    "; write fewer, plan a smaller model, or set checkpoint.checkpoint_folder");
  });
}

// The rank whose files this rank reads back.
Rank SourceRank(const config::CheckpointConfig& checkpoint, const mpi::Communicator& comm) {
  if (!checkpoint.recovery_rank_shift) return comm.rank();
  const int ranks_per_node = comm.max(comm.ranks_on_this_node());
  if (!checkpoint::RankShiftCrossesNodes(ranks_per_node, comm.size()) && comm.is_root()) {
    sink::Warning("checkpoint.recovery_rank_shift: all " + std::to_string(comm.size()) +
                  " ranks run on one node, so every rank reads files written on its own node and "
                  "the shift does not keep reads out of the page cache there");
  }
  return checkpoint::RecoveryRank(comm.rank(), ranks_per_node, comm.size());
}

}  // namespace

void RunCheckpointPhase(const config::Config& config, const RunRequest& request,
                        const mpi::Communicator& comm, storage::Env& env, RunResults& results) {
  const config::CheckpointConfig& settings = config.checkpoint;
  std::unique_ptr<checkpoint::CheckpointPlan> plan;
  mpi::AgreeOnFailure(comm, [&] {
    plan = std::make_unique<checkpoint::CheckpointPlan>(config.model, settings, comm.size());
  });
  const Seconds origin = metrics::SynchronizedOrigin(comm);
  std::unique_ptr<checkpoint::CheckpointStore> store;
  mpi::AgreeOnFailure(comm,
                      [&] { store = checkpoint::MakeCheckpointStore(config, comm, env, origin); });
  if (settings.num_checkpoints_write <= 0 && settings.num_checkpoints_read <= 0 && comm.is_root() &&
      !request.quiet) {
    sink::Note(
        "checkpoint.num_checkpoints_write and checkpoint.num_checkpoints_read are both <= 0: "
        "nothing to write or read");
  }
  RequireRoomForCheckpoints(settings, env, comm, *plan);
  const Rank source = SourceRank(settings, comm);

  const metrics::WallClockAnchor clock = metrics::WallClockAnchor::Capture(origin);
  const std::string start = metrics::NowLocalRfc3339();
  CheckpointLog log;
  for (int i = 1; i <= settings.num_checkpoints_write; ++i) {
    PauseThenSynchronize(settings, comm);
    log.add(metrics::CheckpointKind::kSave, 1, i, Traced(false, [&] {
              return store->save(checkpoint::CheckpointFolderName(1, i), *plan);
            }));
  }
  if (settings.num_checkpoints_write <= 0) RequireCompleteCheckpoints(settings, env, comm, *plan);
  for (int i = 1; i <= settings.num_checkpoints_read; ++i) {
    PauseThenSynchronize(settings, comm);
    log.add(metrics::CheckpointKind::kLoad, 1, i, Traced(true, [&] {
              return store->load(checkpoint::CheckpointFolderName(1, i), *plan, source);
            }));
  }
  const Seconds finish_start = metrics::Now();
  log.attach_drains(store->finish());
  const Seconds finish = metrics::Now() - finish_start;
  const std::string end = metrics::NowLocalRfc3339();

  metrics::RankRecord record;
  record.checkpoints = log.records();
  metrics::RunSettings run_settings;
  run_settings.exclusion = {config.output.metric.exclude_start_steps,
                            config.output.metric.exclude_end_steps};
  run_settings.checkpoint_size_GiB =
      static_cast<double>(plan->totals().dlio_reported_bytes) / static_cast<double>(GiB);

  const metrics::HostInfo host = metrics::ReadHostInfo();
  metrics::RunInfo info = GatherRunInfo(config, comm, host);
  info.start = comm.broadcast(start);
  info.end = comm.broadcast(end);
  const metrics::RunMetrics run = metrics::ReduceRun(
      comm, record, {}, run_settings, info, config.metric.au, config.dataset.record_length_bytes);
  const metrics::Json extra = CheckpointExtraFields(comm, finish, nullptr, plan->totals());

  WriteFileAtomically(
      results.folder() / file_names::RankFile(comm.rank(), file_names::kRankEpochStats),
      metrics::BuildPerEpochStats(record, run_settings, clock).dump(2) + "\n");
  if (!comm.is_root()) return;
  metrics::Json summary = metrics::BuildSummary(run);
  summary["metric"].update(extra);
  results.add(summary);
  sink::Log("OUTPUT", metrics::MetricBlock(run));
  if (!request.quiet) {
    sink::Result(metrics::TerminalTable(run));
  }
}

}  // namespace dlbench::workflow
