#include "formats/indexed/indexed_binary_writer.h"

#include "formats/io/little_endian.h"

namespace dlbench::formats {

ByteRange IndexedBinaryLayout::range(const FileSpec& spec, std::size_t part, std::int64_t first,
                                     std::int64_t end) const {
  const Bytes entry = part == 0 ? spec.sample_bytes() : 8;
  return {static_cast<Bytes>(first) * entry, static_cast<Bytes>(end) * entry};
}

void IndexedBinaryLayout::stream(const FileSpec& spec, std::size_t part, std::int64_t first,
                                 std::int64_t end, const dataset::ContentGenerator& content,
                                 ByteSink& out) const {
  const Bytes sample = spec.sample_bytes();
  if (part == 0) {
    StreamPayload(spec, static_cast<Bytes>(first) * sample, static_cast<Bytes>(end) * sample,
                  content, out);
    return;
  }
  for (std::int64_t i = first; i < end; ++i) {
    const Bytes value = part == 1 ? static_cast<Bytes>(i) * sample : sample;
    std::byte le[8];
    StoreLe(le, value, 8);
    out.append(le, sizeof le);
  }
}

}  // namespace dlbench::formats
