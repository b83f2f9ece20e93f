// Counter records as compact bytes, and back: how every rank hands its per-file Darshan records
// and totals to rank 0 at the end of a run (workflow/run_counters.h), instead of a JSON text that
// rank 0 would parse again (for 8,192 files that round trip was ~90 % of a short run's
// instructions). Each record is its path and the counters that differ from their defaults, as
// a bit mask and 8-byte values in the native byte order: every rank runs the same build on the
// same kind of machine, and the bytes never leave the job. Pure functions, no I/O.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "storage/io_counts.h"

namespace dlbench::storage {

struct CountsOfRank {
  IoCounts totals;
  std::vector<FileCounts> files;
};

std::string EncodeCounts(const CountsOfRank& counts);
// Throws Error(kInternal) when `bytes` is not what EncodeCounts made (truncated or extra bytes).
CountsOfRank DecodeCounts(std::string_view bytes);

}  // namespace dlbench::storage
