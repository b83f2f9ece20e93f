// Fuzz target: the indexed_binary reader on one data file and its two index files. The input's
// parts (fuzz_target.h's SplitInput) are the data file, the offsets index (.off.idx) and the sizes
// index (.sz.idx); a missing part is a missing file (format_reader_target.h).
#include "fuzz/format_reader_target.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dlbench::fuzz::FuzzFormatReader(dlbench::config::Format::kIndexedBinary, data, size);
  return 0;
}
