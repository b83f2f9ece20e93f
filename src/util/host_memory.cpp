#include "util/host_memory.h"

#include <unistd.h>

namespace dlbench {

std::optional<double> PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_bytes <= 0) return std::nullopt;
  return static_cast<double>(pages) * static_cast<double>(page_bytes);
}

}  // namespace dlbench
