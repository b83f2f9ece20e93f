// summary.json's per-host lists (host_cpu_count, host_memory_GB, potential_caching): one entry
// per host, in the order of each host's lowest rank.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/host_info.h"
#include "mpi/communicator.h"

namespace dlbench::metrics {

// The value of the first rank of each distinct host key, in rank order (pure core).
// Throws dlbench::Error (internal) when the vectors differ in length.
std::vector<double> PerHost(const std::vector<std::uint64_t>& host_keys,
                            const std::vector<double>& values);

// DLIO's potential_caching: 1 for a host whose RAM exceeds the data it reads, else 0.
std::vector<int> PotentialCaching(const std::vector<double>& host_memory_GiB,
                                  double data_size_per_host_GiB);

struct HostLists {
  int num_hosts = 0;
  std::vector<int> cpu_count;
  std::vector<double> memory_GiB;
};

// Collective: hosts are told apart by their host names.
HostLists GatherHostLists(const mpi::Communicator& comm, const HostInfo& mine);

}  // namespace dlbench::metrics
