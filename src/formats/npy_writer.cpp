#include "formats/npy_writer.h"

#include <algorithm>

#include "dataset/content.h"
#include "formats/buffered_appender.h"
#include "formats/dtype.h"
#include "formats/npy_header.h"
#include "storage/file.h"

namespace dlbench::formats {

std::vector<std::int64_t> SampleLastShape(const FileSpec& spec) {
  std::vector<std::int64_t> shape = spec.sample_dims;
  shape.push_back(spec.samples);
  return shape;
}

Bytes NpyWriter::file_size(const FileSpec& spec) const {
  const std::string header = npy::Encode(LookupDType(spec.dtype).descr, SampleLastShape(spec));
  return header.size() + static_cast<Bytes>(spec.samples) * spec.sample_bytes();
}

WriteResult NpyWriter::write(storage::Env& env, const FileSpec& spec,
                             const dataset::ContentGenerator& content,
                             std::span<std::byte> buffer) const {
  const std::string header = npy::Encode(LookupDType(spec.dtype).descr, SampleLastShape(spec));
  const Bytes total = static_cast<Bytes>(spec.samples) * spec.sample_bytes();
  auto file = env.create(spec.path);
  {
    BufferedAppender out(*file, buffer);
    out.append(header.data(), header.size());
    for (Bytes done = 0; done < total;) {
      std::span<std::byte> space = out.free_space();
      space = space.first(std::min<Bytes>(space.size(), total - done));
      content.Fill(spec.file_index, done, space);
      out.commit(space.size());
      done += space.size();
    }
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
