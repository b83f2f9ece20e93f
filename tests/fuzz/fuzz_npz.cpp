// Fuzz target: the npz reader (zip directory, local headers, the NPY header inside, inflate) on one
// data file (format_reader_target.h).
#include "fuzz/format_reader_target.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dlbench::fuzz::FuzzFormatReader(dlbench::config::Format::kNpz, data, size);
  return 0;
}
