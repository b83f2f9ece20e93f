// Fuzz target: the hdf5 reader on one data file (format_reader_target.h).
#include "fuzz/format_reader_target.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dlbench::fuzz::FuzzFormatReader(dlbench::config::Format::kHdf5, data, size);
  return 0;
}
