#include "formats/tfrecord/tfrecord_writer.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "dataset/content.h"
#include "formats/io/little_endian.h"
#include "formats/tfrecord/tfrecord_example.h"
#include "util/crc32c.h"

namespace dlbench::formats {
namespace {

void StreamRecords(const FileSpec& spec, std::int64_t first, std::int64_t end,
                   const dataset::ContentGenerator& content, ByteSink& out) {
  const Bytes sample = spec.sample_bytes();
  const tfrecord::ExampleLayout layout(sample);
  const auto header = tfrecord::EncodeHeader(layout.payload_bytes());
  for (std::int64_t k = first; k < end; ++k) {
    out.append(header.data(), header.size());
    std::uint32_t crc = crc32c::Value(layout.prefix().data(), layout.prefix().size());
    out.append(layout.prefix().data(), layout.prefix().size());
    const Bytes base = static_cast<Bytes>(k) * sample;
    for (Bytes done = 0; done < sample;) {
      std::span<std::byte> space = out.free_space();
      space = space.first(std::min<Bytes>(space.size(), sample - done));
      content.fill(spec.file_index, base + done, space);
      crc = crc32c::Extend(crc, space.data(), space.size());
      out.commit(space.size());
      done += space.size();
    }
    crc = crc32c::Extend(crc, layout.suffix().data(), layout.suffix().size());
    out.append(layout.suffix().data(), layout.suffix().size());
    std::byte masked[4];
    StoreLe(masked, crc32c::Mask(crc), 4);
    out.append(masked, sizeof masked);
  }
}

void StreamDaliIndex(Bytes record_bytes, std::int64_t first, std::int64_t end, ByteSink& out) {
  char line[48];
  for (std::int64_t k = first; k < end; ++k) {
    const int n = std::snprintf(line, sizeof line, "%llu %llu\n",
                                static_cast<unsigned long long>(k * record_bytes),
                                static_cast<unsigned long long>(record_bytes));
    out.append(line, static_cast<std::size_t>(n));
  }
}

Bytes RecordBytes(const FileSpec& spec) {
  return tfrecord::ExampleLayout(spec.sample_bytes()).record_bytes();
}

}  // namespace

std::vector<std::string> TfrecordLayout::parts(const FileSpec& spec) const {
  if (spec.dali_index_path.empty()) return {spec.path};
  return {spec.path, spec.dali_index_path};
}

ByteRange TfrecordLayout::range(const FileSpec& spec, std::size_t part, std::int64_t first,
                                std::int64_t end) const {
  const Bytes record = RecordBytes(spec);
  if (part == 0) return {static_cast<Bytes>(first) * record, static_cast<Bytes>(end) * record};
  return {DaliIndexOffset(static_cast<std::uint64_t>(first), record),
          DaliIndexOffset(static_cast<std::uint64_t>(end), record)};
}

void TfrecordLayout::stream(const FileSpec& spec, std::size_t part, std::int64_t first,
                            std::int64_t end, const dataset::ContentGenerator& content,
                            ByteSink& out) const {
  if (part == 0) {
    StreamRecords(spec, first, end, content, out);
  } else {
    StreamDaliIndex(RecordBytes(spec), first, end, out);
  }
}

Bytes DaliIndexOffset(std::uint64_t k, Bytes record_bytes) {
  // Σ_{j<k} digits(j·R) = k + Σ_{d≥1} #{j < k : j·R ≥ 10^d}; j·R < 10^d ⇔ j < ceil(10^d / R).
  const Bytes record_digits = std::to_string(record_bytes).size();
  Bytes digits = k;
  Bytes power = 10;
  for (int d = 1; d <= 19; ++d) {
    const std::uint64_t below = (power + record_bytes - 1) / record_bytes;
    if (below >= k) break;
    digits += k - below;
    if (d < 19) power *= 10;
  }
  return digits + k * (record_digits + 2);
}

}  // namespace dlbench::formats
