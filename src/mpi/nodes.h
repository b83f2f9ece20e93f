// Which node each rank runs on, for node-local storage (a tier every node has its own copy of at
// the same path, such as a node's NVMe). A rank's node is its host, as MPI's shared-memory split
// groups ranks; several nodes can be emulated on one machine by giving each rank a node name in
// the environment variable DLBENCH_NODE (docs/cluster.md), which then decides alone.
#pragma once

#include <string>
#include <vector>

#include "mpi/communicator.h"

namespace dlbench::mpi {

inline constexpr const char* kNodeVariable = "DLBENCH_NODE";

// This process's node name, without MPI: DLBENCH_NODE when set and non-empty, else the host name.
// Throws Error(kUsage) when DLBENCH_NODE cannot name a folder ('/', "." or "..": it fills
// {node} in tier paths).
std::string NodeName();

// The ranks of a communicator grouped by node. Nodes are numbered by their lowest rank.
class NodeMap {
 public:
  // Every rank on one node (a folder every rank shares).
  static NodeMap Single(int size);
  // Collective. DLBENCH_NODE when set (on every rank, else Error(kUsage) naming a rank without
  // it), else the shared-memory split.
  static NodeMap Of(const Communicator& comm);

  int node_count() const { return static_cast<int>(names_.size()); }
  int node_of(int rank) const { return node_of_rank_.at(static_cast<size_t>(rank)); }
  const std::string& name(int node) const { return names_.at(static_cast<size_t>(node)); }
  // Ranks of `node`, ascending; the first leads it.
  std::vector<int> ranks_of(int node) const;
  int leader(int node) const { return ranks_of(node).front(); }
  bool leads(int rank) const { return leader(node_of(rank)) == rank; }
  // True when DLBENCH_NODE named the nodes.
  bool emulated() const { return emulated_; }

 private:
  std::vector<int> node_of_rank_;
  std::vector<std::string> names_;
  bool emulated_ = false;
};

}  // namespace dlbench::mpi
