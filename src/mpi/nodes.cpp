#include "mpi/nodes.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "mpi/agreement.h"
#include "util/error.h"

namespace dlbench::mpi {
namespace {

std::string Emulated() {
  const char* name = std::getenv(kNodeVariable);
  return name == nullptr ? std::string() : std::string(name);
}

std::string HostName() {
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

}  // namespace

std::string NodeName() {
  const std::string emulated = Emulated();
  if (emulated.empty()) return HostName();
  if (emulated.find('/') != std::string::npos || emulated == "." || emulated == "..") {
    throw UsageError(std::string(kNodeVariable) + "='" + emulated +
                     "' cannot name a folder (it fills {node} in storage.tiers paths): use "
                     "letters, digits, '-', '_' or '.', without '/'");
  }
  return emulated;
}

NodeMap NodeMap::Single(int size) {
  NodeMap map;
  map.node_of_rank_.assign(static_cast<size_t>(size), 0);
  map.names_ = {HostName()};
  return map;
}

NodeMap NodeMap::Of(const Communicator& comm) {
  const std::string emulated = Emulated();
  std::string name;
  AgreeOnFailure(comm, [&] { name = NodeName(); });
  // The key that groups ranks: the emulated name, or the lowest rank of the shared-memory split
  // (a collective, so every rank asks).
  const int lowest = comm.lowest_rank_on_this_node();
  const std::string key = emulated.empty() ? "#" + std::to_string(lowest) : "=" + name;
  const std::vector<std::string> keys = comm.all_gather(key);
  const std::vector<std::string> names = comm.all_gather(name);
  NodeMap map;
  map.emulated_ = keys[0][0] == '=';
  std::vector<std::string> node_keys;
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    if ((keys[rank][0] == '=') != map.emulated_) {
      throw UsageError(
          std::string(kNodeVariable) + " is set on rank " +
          (map.emulated_ ? "0 but not on rank " : std::to_string(rank) + " but not on rank ") +
          (map.emulated_ ? std::to_string(rank) : "0") +
          ": emulating nodes needs it on every rank (docs/cluster.md)")
          .mark_collective();
    }
    size_t node = 0;
    while (node < node_keys.size() && node_keys[node] != keys[rank]) ++node;
    if (node == node_keys.size()) {
      node_keys.push_back(keys[rank]);
      map.names_.push_back(names[rank]);
    }
    map.node_of_rank_.push_back(static_cast<int>(node));
  }
  return map;
}

std::vector<int> NodeMap::ranks_of(int node) const {
  std::vector<int> ranks;
  for (size_t rank = 0; rank < node_of_rank_.size(); ++rank) {
    if (node_of_rank_[rank] == node) ranks.push_back(static_cast<int>(rank));
  }
  return ranks;
}

}  // namespace dlbench::mpi
