// The byte layout of the formats whose every part — the data file, then its companions — is a
// function of the sample index alone (indexed binary and its two index files, NPY, TFRecord and
// its DALI index): a slice [first, end) of the samples owns one
// contiguous byte range of each part (for the sample-last NPY array, payload bytes
// [first·S, end·S), which tile the file as whole samples would). One layout streams those bytes
// both for the whole-file writer (one process, every sample: WriteAllParts) and for the shared-file
// writer (each rank its slice of the samples, sliced_shared_writer.h), so both write identical
// files. Layouts are stateless: any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "formats/format.h"
#include "formats/io/buffered_appender.h"
#include "util/units.h"

namespace dlbench::formats {

struct ByteRange {
  Bytes begin = 0;
  Bytes end = 0;
};

class SliceLayout {
 public:
  virtual ~SliceLayout() = default;
  // The parts' paths, data file first: spec.path, then the companions the spec names.
  virtual std::vector<std::string> parts(const FileSpec& spec) const = 0;
  // Where samples [first, end) lie in part `part`; a range from sample 0 includes the part's
  // header, so the ranges of consecutive slices tile the part.
  virtual ByteRange range(const FileSpec& spec, std::size_t part, std::int64_t first,
                          std::int64_t end) const = 0;
  // Streams the bytes of that range into `out`.
  virtual void stream(const FileSpec& spec, std::size_t part, std::int64_t first, std::int64_t end,
                      const dataset::ContentGenerator& content, ByteSink& out) const = 0;

  // The size of part `part` with all of spec.samples.
  Bytes part_size(const FileSpec& spec, std::size_t part) const {
    return range(spec, part, 0, spec.samples).end;
  }
};

// Writes every part of `spec` whole through `env` (create, stream every sample through `buffer`,
// fsync when spec.fsync, close): the FormatWriter::write of these formats.
WriteResult WriteAllParts(storage::Env& env, const SliceLayout& layout, const FileSpec& spec,
                          const dataset::ContentGenerator& content, std::span<std::byte> buffer);

// Streams payload bytes [begin, end) of file `spec.file_index` (content.Fill straight into the
// sink's buffer).
void StreamPayload(const FileSpec& spec, Bytes begin, Bytes end,
                   const dataset::ContentGenerator& content, ByteSink& out);

// The samples one of `ranks` ranks writes of a shared file of `samples` samples: rank r owns
// [r·q + min(r, rem), …) of length q + (r < rem), with q = samples / ranks, rem = samples % ranks.
// Slices are disjoint, ordered by rank and cover [0, samples) exactly.
struct SampleSlice {
  std::int64_t first = 0;
  std::int64_t count = 0;
  std::int64_t end() const { return first + count; }
};
SampleSlice SharedFileSlice(std::int64_t samples, int ranks, int rank);

}  // namespace dlbench::formats
