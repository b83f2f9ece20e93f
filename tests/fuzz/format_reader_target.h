// The fuzz targets of the dataset readers: the input is one data file, opened through a MemoryEnv
// with the FileSpec that tests/fuzz/make_corpus.sh generates its seed files with, and every sample
// is read. For indexed_binary the input holds three files (fuzz_target.h's SplitInput): the data
// file, its offsets index and its sizes index; a part left out is a file that is not there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "config/enums.h"

namespace dlbench::fuzz {

// The seed files' spec: samples of 6x6 uint8 (dlbench's dims for record_length_bytes 48), 3 per
// file (1 for jpeg and png).
void FuzzFormatReader(config::Format format, const std::uint8_t* data, std::size_t size);

}  // namespace dlbench::fuzz
