// BurstBufferStore's start: finding checkpoints complete on the fast tier but not durable in the
// checkpoint folder (a drain a crash or a failure interrupted) and queueing their drains
// (burst_buffer_store.h).
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "checkpoint/burst_buffer_store.h"
#include "checkpoint/drain_engine.h"
#include "checkpoint/fast_tier_copy.h"
#include "checkpoint/manifest.h"
#include "checkpoint/name_lists.h"
#include "mpi/agreement.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/sink.h"

namespace dlbench::checkpoint {

void BurstBufferStore::resume() {
  // Each node's leader lists its own folder and keeps the names whose capacity copy is missing,
  // another or an older save (CompareCapacityCopy); rank 0 clears their stale failure markers
  // before anyone's drain can look. A newer capacity copy (a run without burst buffer saved the
  // name since) is kept, not drained over.
  const bool evict = config_.checkpoint.burst_buffer->evict_after_drain;
  std::string complete;
  std::string newer;  // names whose checkpoint-folder copy is another, newer save
  std::uint64_t evicted = 0;
  mpi::AgreeOnFailure(comm_, [&] {  // a folder a leader cannot list fails every rank
    if (!leads()) return;
    // Listed sorted: global_epoch..._step... names sort by time.
    for (const storage::DirectoryEntry& entry : env_.list_directory(tier_path_)) {
      if (!entry.is_directory) continue;
      const std::string fast = fast_folder(entry.name);
      if (!IsCheckpointComplete(env_, fast)) continue;
      const CapacityCopy copy = CompareCapacityCopy(env_, fast, capacity_folder(entry.name));
      if (copy == CapacityCopy::kStale) {
        complete += entry.name + "\n";
        continue;
      }
      if (copy == CapacityCopy::kNewer) {
        newer += entry.name + "\n";  // evicted below, once every node agrees it is newer
        continue;
      }
      // Drained, but the run stopped before evicting it (or before its own drain of a name
      // saved alike): with eviction, a finished run leaves nothing on the fast tier.
      if (evict) {
        RemoveDurableLeftover(env_, fast);
        ++evicted;
      }
    }
  });
  const std::uint64_t leftovers = comm_.sum(evicted);
  if (comm_.is_root() && leftovers > 0) {
    sink::Note("removed " + std::to_string(leftovers) + " fast-tier cop" +
               (leftovers == 1 ? "y" : "ies") + " on tier " + tier_name_ + " (" + tier_path_ +
               ") of checkpoints durable already in " + config_.checkpoint.checkpoint_folder +
               " (evict_after_drain), left by a run that stopped");
  }
  std::set<std::string> candidates;
  for (const std::string& names : comm_.all_gather(complete)) {
    for (const std::string& name : SplitNames(names)) candidates.insert(name);
  }
  // A name some node still has to drain is drained (each node compares with its own clock).
  std::set<std::string> newer_kept;
  for (const std::string& names : comm_.all_gather(newer)) {
    for (const std::string& name : SplitNames(names)) {
      if (!candidates.contains(name)) newer_kept.insert(name);
    }
  }
  mpi::AgreeOnFailure(comm_, [&] {
    if (!leads() || !evict) return;
    for (const std::string& name : SplitNames(newer)) {
      if (newer_kept.contains(name)) RemoveDurableLeftover(env_, fast_folder(name));
    }
  });
  if (comm_.is_root() && !newer_kept.empty()) {
    sink::Note("kept the checkpoint folder's copy of " + std::to_string(newer_kept.size()) +
               " checkpoint(s) (" + config_.checkpoint.checkpoint_folder + "), not the tier " +
               tier_name_ + " one: complete, saved later with other settings (its manifest is " +
               "newer), so not drained over" +
               (evict ? "; the fast-tier copy was removed (evict_after_drain):"
                      : "; the fast-tier copy stays (evict_after_drain false):") +
               ListNames(newer_kept));
  }
  std::string found;
  mpi::AgreeOnFailure(comm_, [&] {
    if (!comm_.is_root()) return;
    const std::vector<std::string> names(candidates.begin(), candidates.end());
    for (const std::string& name : names) {
      for (const storage::DirectoryEntry& entry : env_.list_directory(capacity_folder(name))) {
        if (IsDrainFailedMarkerName(entry.name)) {
          env_.remove(JoinPath(capacity_folder(name), entry.name));
        }
      }
    }
    found = JoinNames(names);
  });
  for (const std::string& name : SplitNames(comm_.broadcast(found, 0))) resume_drain(name);
  const std::uint64_t kept = comm_.sum(static_cast<std::uint64_t>(resumed_complete_files_));
  if (comm_.is_root() && !resumed_.empty()) {
    sink::Note("resuming the drain of " + std::to_string(resumed_.size()) +
               " checkpoint(s) complete on tier " + tier_name_ + " (" + tier_path_ +
               ") but not durable in " + config_.checkpoint.checkpoint_folder + ":" +
               ListNames(resumed_) +
               (kept > 0 ? " (" + std::to_string(kept) +
                               " file(s) the interrupted drain completed are not copied again)"
                         : ""));
  }
}

void BurstBufferStore::resume_drain(const std::string& name) {
  // Which ranks of the saving run have their files on which node: each leader looks in its own
  // folder only. The manifest comes from the lowest rank that has one.
  std::string text;
  std::string claimed;
  mpi::AgreeOnFailure(comm_, [&] {
    if (!leads() || !IsCheckpointComplete(env_, fast_folder(name))) return;
    const Manifest manifest = ReadManifest(env_, fast_folder(name));
    text = ManifestText(manifest);
    std::map<Rank, bool> whole;
    for (const ManifestEntry& entry : manifest.files) {
      const std::string path = JoinPath(fast_folder(name), entry.name);
      bool& ok = whole.try_emplace(entry.rank, true).first->second;
      ok = ok && env_.exists(path) && env_.file_size(path) == entry.bytes;
    }
    for (const auto& [rank, ok] : whole) {
      if (ok) claimed += std::to_string(rank) + "\n";
    }
  });
  const int source = comm_.min(text.empty() ? comm_.size() : comm_.rank());
  if (source == comm_.size()) return;  // gone from every node since the scan
  const Manifest manifest = ParseManifest(
      comm_.broadcast(text, source), JoinPath(fast_folder(name), file_names::kCheckpointManifest));
  // The node holding each saving rank's files; one that no node, or two, hold cannot be drained.
  std::map<Rank, int> holder;
  std::string problem;
  const std::vector<std::string> claims = comm_.all_gather(claimed);
  for (Rank r = 0; r < comm_.size(); ++r) {
    for (const std::string& line : SplitNames(claims[r])) {
      const Rank old = std::stoi(line);
      if (holder.contains(old)) problem = "rank " + line + "'s files are on two nodes";
      holder[old] = nodes_.node_of(r);
    }
  }
  std::map<Rank, Bytes> rank_bytes;
  for (const ManifestEntry& entry : manifest.files) rank_bytes[entry.rank] += entry.bytes;
  for (const auto& [old, bytes] : rank_bytes) {
    if (!holder.contains(old)) {
      problem = "the files of rank " + std::to_string(old) +
                " of the saving run are on none of this run's nodes";
    }
  }
  if (!problem.empty()) {
    if (comm_.is_root()) {
      sink::Warning("not resuming the drain of " + name + " (tier " + tier_name_ + "): " + problem +
                    "; run again on the nodes that saved it");
    }
    return;
  }
  // Each node deals the saving ranks it holds over its ranks of this run; parts already marked
  // drained are complete and fsync'd, so they are not copied again.
  const int node = nodes_.node_of(comm_.rank());
  const std::vector<Rank> mates = nodes_.ranks_of(node);
  const auto me =
      static_cast<std::size_t>(std::find(mates.begin(), mates.end(), comm_.rank()) - mates.begin());
  DrainJob job;
  job.name = name;
  job.fast_folder = fast_folder(name);
  job.capacity_folder = capacity_folder(name);
  job.world = manifest.world;
  job.finisher = comm_.is_root();
  if (job.finisher) job.manifest = ManifestText(manifest);
  std::map<int, Bytes> node_bytes;
  std::map<Rank, bool> mine;  // saving rank -> already drained
  std::size_t dealt = 0;
  for (Rank old = 0; old < manifest.world; ++old) {
    if (rank_bytes.contains(old)) {
      node_bytes[holder[old]] += rank_bytes[old];
      if (holder[old] != node || dealt++ % mates.size() != me) continue;
    } else if (!comm_.is_root()) {
      continue;  // a saving rank without files: rank 0 marks it
    }
    mine[old] = env_.exists(JoinPath(job.capacity_folder, DrainedMarkerName(old)));
    if (!mine[old]) job.marks.push_back(old);
  }
  for (const auto& [n, bytes] : node_bytes) job.total_bytes = std::max(job.total_bytes, bytes);
  // Within a part not marked drained, a file the interrupted drain completed is not copied again:
  // its rank's content marker vouches for the files under their final names (drain_markers.h).
  // The manifest's files are held as runs (PlannedFiles::append_listed) from here on.
  std::map<Rank, PlannedFiles> rank_files;
  for (const ManifestEntry& entry : manifest.files) {
    if (mine.contains(entry.rank)) rank_files[entry.rank].append_listed(entry.name, entry.bytes);
  }
  std::map<Rank, bool> vouched;
  for (const auto& [old, drained] : mine) {
    if (drained) continue;
    vouched[old] =
        DrainContentMatches(env_, JoinPath(job.capacity_folder, DrainContentMarkerName(old)),
                            manifest.content, name, rank_files[old]);
  }
  Saved saved{name, {}};
  std::size_t complete = 0;
  for (const ManifestEntry& entry : manifest.files) {
    if (!mine.contains(entry.rank)) continue;
    saved.files.append_listed(entry.name, entry.bytes);
    if (mine[entry.rank]) continue;
    const std::string copy = JoinPath(job.capacity_folder, entry.name);
    if (vouched[entry.rank] && env_.exists(copy) && env_.file_size(copy) == entry.bytes) {
      ++complete;
      continue;
    }
    job.files.append_listed(entry.name, entry.bytes);
  }
  resumed_complete_files_ += complete;
  saved_.push_back(std::move(saved));
  resumed_.push_back(name);
  drains_->enqueue(std::move(job));
}

}  // namespace dlbench::checkpoint
