#include "formats/numpy/npy_writer.h"

#include "formats/io/dtype.h"
#include "formats/numpy/npy_header.h"

namespace dlbench::formats {
namespace {

std::string Header(const FileSpec& spec) {
  return npy::Encode(LookupDType(spec.dtype).descr, SampleLastShape(spec));
}

}  // namespace

std::vector<std::int64_t> SampleLastShape(const FileSpec& spec) {
  std::vector<std::int64_t> shape = spec.sample_dims;
  shape.push_back(spec.samples);
  return shape;
}

ByteRange NpyLayout::range(const FileSpec& spec, std::size_t /*part*/, std::int64_t first,
                           std::int64_t end) const {
  const Bytes header = Header(spec).size();
  const Bytes sample = spec.sample_bytes();
  return {first == 0 ? 0 : header + static_cast<Bytes>(first) * sample,
          header + static_cast<Bytes>(end) * sample};
}

void NpyLayout::stream(const FileSpec& spec, std::size_t /*part*/, std::int64_t first,
                       std::int64_t end, const dataset::ContentGenerator& content,
                       ByteSink& out) const {
  if (first == 0) {
    const std::string header = Header(spec);
    out.append(header.data(), header.size());
  }
  const Bytes sample = spec.sample_bytes();
  StreamPayload(spec, static_cast<Bytes>(first) * sample, static_cast<Bytes>(end) * sample, content,
                out);
}

}  // namespace dlbench::formats
