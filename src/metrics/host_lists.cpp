#include "metrics/host_lists.h"

#include <functional>
#include <string>
#include <unordered_set>

#include "util/error.h"

namespace dlbench::metrics {

std::vector<double> PerHost(const std::vector<std::uint64_t>& host_keys,
                            const std::vector<double>& values) {
  if (host_keys.size() != values.size()) {
    throw InternalError("metrics: " + std::to_string(host_keys.size()) + " host keys for " +
                        std::to_string(values.size()) + " values");
  }
  std::vector<double> per_host;
  std::unordered_set<std::uint64_t> seen;
  for (std::size_t r = 0; r < host_keys.size(); ++r) {
    if (seen.insert(host_keys[r]).second) per_host.push_back(values[r]);
  }
  return per_host;
}

std::vector<int> PotentialCaching(const std::vector<double>& host_memory_GiB,
                                  double data_size_per_host_GiB) {
  std::vector<int> caching;
  for (double memory : host_memory_GiB) caching.push_back(memory > data_size_per_host_GiB ? 1 : 0);
  return caching;
}

HostLists GatherHostLists(const mpi::Communicator& comm, const HostInfo& mine) {
  // libstdc++'s string hash is unseeded, so every rank hashes a name to the same key.
  const std::uint64_t key = std::hash<std::string>{}(mine.hostname);
  const std::vector<std::uint64_t> keys = comm.all_gather(key);
  HostLists lists;
  for (double cpus : PerHost(keys, comm.all_gather(static_cast<double>(mine.cpu_count)))) {
    lists.cpu_count.push_back(static_cast<int>(cpus));
  }
  lists.memory_GiB = PerHost(keys, comm.all_gather(mine.memory_GiB));
  lists.num_hosts = static_cast<int>(lists.memory_GiB.size());
  return lists;
}

}  // namespace dlbench::metrics
