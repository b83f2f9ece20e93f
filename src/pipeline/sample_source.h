// Where the reader pool gets sample bytes from, without knowing any file format: open a file of
// the split by its index, read one sample of it into a buffer. The real implementation adapts
// formats::FormatReader and the dataset layout (format_sample_source.h); tests use fakes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "pipeline/sample_buffers.h"
#include "util/units.h"

namespace dlbench::pipeline {

// One open file. Used by one thread at a time.
class SampleFile {
 public:
  virtual ~SampleFile() = default;
  // Buffer bytes read() needs for one sample of this file.
  virtual Bytes sample_bytes() const = 0;
  // Bytes read from storage while opening (headers, indexes).
  virtual Bytes open_bytes() const = 0;
  // Reads sample `index` into `buffer` (≥ sample_bytes()); returns the bytes read from storage
  // for it. Throws dlbench::Error: kIo for unreadable or corrupt data.
  virtual Bytes read(std::uint64_t index, std::span<std::byte> buffer) = 0;
};

class SampleSource {
 public:
  virtual ~SampleSource() = default;
  // Opens file `file` of the split. Called concurrently from reader threads. Throws
  // dlbench::Error (kIo when the file is missing or malformed).
  virtual std::unique_ptr<SampleFile> open(FileIndex file) = 0;

  // What read_once() read: the storage bytes of the sample and its bytes in the buffer.
  struct OnceRead {
    Bytes read = 0;
    Bytes sample_bytes = 0;
  };
  // Opens `file`, adds the bytes read while opening to `open_bytes` (before the sample is read,
  // so they count even when that read fails), reads sample `index` into `buffer` (grown to the
  // file's sample bytes) and closes the file: one sample per open, as read_type on_demand
  // reads. The same as open() then SampleFile::read(); a source may skip the SampleFile.
  virtual OnceRead read_once(FileIndex file, std::uint64_t index, SampleBuffer& buffer,
                             Bytes& open_bytes) {
    const std::unique_ptr<SampleFile> opened = open(file);
    open_bytes += opened->open_bytes();
    const Bytes need = opened->sample_bytes();
    return {opened->read(index, buffer.get(need)), need};
  }
};

}  // namespace dlbench::pipeline
