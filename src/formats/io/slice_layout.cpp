#include "formats/io/slice_layout.h"

#include <algorithm>

#include "dataset/content.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {

WriteResult WriteAllParts(storage::Env& env, const SliceLayout& layout, const FileSpec& spec,
                          const dataset::ContentGenerator& content, std::span<std::byte> buffer) {
  WriteResult result;
  result.files = layout.parts(spec);
  for (std::size_t part = 0; part < result.files.size(); ++part) {
    auto file = env.create(result.files[part]);
    {
      BufferedAppender out(*file, buffer);
      layout.stream(spec, part, 0, spec.samples, content, out);
      out.flush();
    }
    (part == 0 ? result.data_bytes : result.companion_bytes) += file->appended();
    if (spec.fsync) file->sync();
    file->close();
  }
  return result;
}

void StreamPayload(const FileSpec& spec, Bytes begin, Bytes end,
                   const dataset::ContentGenerator& content, ByteSink& out) {
  for (Bytes at = begin; at < end;) {
    std::span<std::byte> space = out.free_space();
    space = space.first(std::min<Bytes>(space.size(), end - at));
    content.fill(spec.file_index, at, space);
    out.commit(space.size());
    at += space.size();
  }
}

SampleSlice SharedFileSlice(std::int64_t samples, int ranks, int rank) {
  if (ranks <= 0 || rank < 0 || rank >= ranks || samples < 0) {
    throw InternalError("SharedFileSlice: bad rank " + std::to_string(rank) + " of " +
                        std::to_string(ranks));
  }
  const std::int64_t q = samples / ranks;
  const std::int64_t rem = samples % ranks;
  return {rank * q + std::min<std::int64_t>(rank, rem), q + (rank < rem ? 1 : 0)};
}

}  // namespace dlbench::formats
