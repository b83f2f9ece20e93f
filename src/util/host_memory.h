// The host's physical memory, the bound of what dlbench allocates up front from the
// configuration (checkpoint buffers, a dataset's per-file size table): a size above half of it is
// a configuration error naming the key, not an out-of-memory kill or std::bad_alloc (exit 1).
#pragma once

#include <optional>

namespace dlbench {

// Bytes of physical memory (sysconf), nullopt when the system does not say.
std::optional<double> PhysicalMemoryBytes();

}  // namespace dlbench
