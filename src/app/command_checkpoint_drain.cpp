// `dlbench checkpoint drain WORKLOAD`: finishes drains that a run left unfinished (killed, or a
// failed capacity tier): every checkpoint complete on the burst-buffer tier but without a manifest
// in checkpoint.checkpoint_folder is copied there and made durable, then evicted as configured.
#include <CLI/CLI.hpp>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "checkpoint/burst_buffer_store.h"
#include "metrics/cross_rank.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/sink.h"
#include "util/size_text.h"
#include "workflow/folder_claim.h"
#include "workflow/run_storage.h"

namespace dlbench::app {

void AddCheckpointDrainCommand(CLI::App& checkpoint, CommandAction& action) {
  auto options = std::make_shared<WorkloadOptions>();
  CLI::App* drain = checkpoint.add_subcommand(
      "drain",
      "Finish interrupted burst-buffer drains: copy checkpoints complete on the fast tier but not "
      "durable in checkpoint_folder, then evict them as configured");
  AddWorkloadOptions(*drain, *options, /*with_output=*/false);
  drain->add_flag("--force", options->force,
                  "Drain into a checkpoint folder (or from a burst-buffer tier) that is not empty "
                  "and was not made by dlbench (no .dlbench-folder marker)");
  drain->callback([options, &action] {
    if (options->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kParallel;
    action.run = [options](const mpi::Communicator& comm) {
      const config::Config config = LoadWorkload(*options, comm);
      if (!config.checkpoint.burst_buffer) {
        throw UsageError(
            "checkpoint drain: the workload has no checkpoint.burst_buffer, so nothing is ever "
            "left to drain")
            .mark_collective();
      }
      // The folders a drain writes into and removes from, as a save claims them (folder_claim.h).
      std::vector<workflow::WrittenFolder> folders;
      mpi::AgreeOnFailure(
          comm, [&] { folders = workflow::WrittenFolders(config, {.checkpoints = true}); });
      const auto storage = workflow::MakeRunStorage(config, {.checkpoints = true}, comm);
      workflow::ClaimFolders(folders, options->force, *storage, comm);
      workflow::AnnounceEmulation(*storage, /*quiet=*/false, comm);
      const Seconds origin = metrics::SynchronizedOrigin(comm);
      checkpoint::BurstBufferStore store(config, comm, *storage, origin);
      const std::vector<checkpoint::DrainResult> drains = store.finish();
      if (comm.is_root()) {
        if (drains.empty()) {
          sink::Result("nothing to drain: every complete checkpoint on tier " +
                       config.checkpoint.burst_buffer->tier + " is durable in " +
                       config.checkpoint.checkpoint_folder + "\n");
        }
        for (const checkpoint::DrainResult& d : drains) {
          std::ostringstream line;
          line << d.name << ": durable in " << store.capacity_folder(d.name) << " after "
               << std::fixed << std::setprecision(3) << d.durable_at << " s (rank 0 copied "
               << DescribeBytes(d.bytes) << ")\n";
          sink::Result(line.str());
        }
      }
      return 0;
    };
  });
}

}  // namespace dlbench::app
