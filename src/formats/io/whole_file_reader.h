// Readers of formats whose files are read whole and decoded for every sample, as DLIO's PIL
// (jpeg, png) and pandas (csv) readers do: nothing is read at open; each read_sample reads the
// whole file (plainly, or with O_DIRECT through direct_file.h) and hands it to the format's
// decoder, which checks it against the FileSpec and writes sample k's decoded bytes.
//
// The encoded bytes are staged in a buffer of the reader thread (a DirectFile's staging buffer
// with O_DIRECT), grown to the largest file the thread has read and reused by every file it
// opens: with read_type on_demand every sample opens its file, and a buffer per open would cost
// an allocation per sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "formats/format.h"

namespace dlbench::formats {

class SampleDecoder {
 public:
  virtual ~SampleDecoder() = default;
  // Decodes sample `k` of the whole file `encoded` into `out` (exactly the spec's sample bytes).
  // Throws Error(kIo) naming `path` when the bytes are not a valid file of the spec's shape.
  virtual void decode(std::span<const std::byte> encoded, std::int64_t k, std::span<std::byte> out,
                      const std::string& path) const = 0;
};

// Opens `spec.path` (with O_DIRECT when options.direct) for reading whole and decoding with
// `decoder`. The returned reader's read_sample reports the bytes storage delivered (the file
// size, or the 4 KiB blocks covering it with O_DIRECT).
std::unique_ptr<FileReader> OpenWholeFileReader(storage::Env& env, const FileSpec& spec,
                                                const FileReadOptions& options,
                                                std::unique_ptr<SampleDecoder> decoder);

}  // namespace dlbench::formats
