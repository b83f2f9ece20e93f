#include "checkpoint/direct_store.h"

#include <exception>

#include "checkpoint/checkpoint_commit.h"
#include "checkpoint/manifest.h"
#include "metrics/clock.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

constexpr const char* kTierName = "checkpoint_folder";

// Rethrows, on every rank, the failure of the lowest failing rank (printed once).
void AgreeOn(const mpi::Communicator& comm, const std::exception_ptr& failure) {
  mpi::AgreeOnFailure(comm, [&] {
    if (failure) std::rethrow_exception(failure);
  });
}

}  // namespace

std::uint64_t CheckpointContentSeed(const config::Config& config) {
  return static_cast<std::uint64_t>(config.train.seed);
}

DirectStore::DirectStore(const config::CheckpointConfig& checkpoint, std::uint64_t content_seed,
                         const mpi::Communicator& comm, storage::Env& env, Seconds origin)
    : checkpoint_(checkpoint),
      comm_(comm),
      env_(env),
      origin_(origin),
      writer_(env, WriterOptions::FromConfig(checkpoint, content_seed)),
      reader_(env, CheckpointReaderOptions::FromConfig(checkpoint)),
      content_{checkpoint.randomize_tensor, content_seed} {}

std::string DirectStore::folder_of(const std::string& name) const {
  return JoinPath(checkpoint_.checkpoint_folder, name);
}

StoreOpResult DirectStore::save(const std::string& name, const CheckpointPlan& plan) {
  StoreOpResult result;
  result.name = name;
  result.tier = kTierName;
  const std::string folder = folder_of(name);
  result.start = metrics::Now() - origin_;
  std::exception_ptr failure;
  try {
    // A manifest left by an earlier save of this name must not vouch for the files now being
    // replaced: until the commit below writes a new one, the checkpoint is incomplete.
    if (comm_.is_root()) env_.remove(JoinPath(folder, file_names::kCheckpointManifest));
    result.bytes = writer_.write_rank(folder, plan.for_rank(comm_.rank())).bytes;
  } catch (...) {
    failure = std::current_exception();
  }
  if (checkpoint_.rank_sync) comm_.barrier();
  result.end = metrics::Now() - origin_;
  AgreeOn(comm_, failure);
  try {
    CommitCheckpoint(comm_, env_, folder, plan, content_, checkpoint_.fsync, true);
  } catch (Error& error) {
    throw error.mark_collective();  // every rank throws rank 0's message
  }
  return result;
}

StoreOpResult DirectStore::load(const std::string& name, const CheckpointPlan& plan,
                                Rank source_rank) {
  StoreOpResult result;
  result.name = name;
  result.tier = kTierName;
  const std::string folder = folder_of(name);
  result.start = metrics::Now() - origin_;
  std::exception_ptr failure;
  try {
    if (!IsCheckpointComplete(env_, folder)) {
      throw IoError("load checkpoint", folder, 0,
                    std::string("incomplete checkpoint: no ") + file_names::kCheckpointManifest +
                        " (never written, or its save failed or was interrupted)");
    }
    result.bytes = reader_.read_rank(folder, plan.for_rank(source_rank)).bytes;
  } catch (...) {
    failure = std::current_exception();
  }
  if (checkpoint_.rank_sync) comm_.barrier();
  result.end = metrics::Now() - origin_;
  AgreeOn(comm_, failure);
  return result;
}

}  // namespace dlbench::checkpoint
