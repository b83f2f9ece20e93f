#include "formats/indexed_binary_writer.h"

#include <algorithm>

#include "dataset/content.h"
#include "formats/buffered_appender.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

Bytes WriteIndex(storage::Env& env, const std::string& path, std::int64_t samples, Bytes step,
                 Bytes constant, std::span<std::byte> buffer, bool fsync) {
  auto file = env.create(path);
  {
    BufferedAppender out(*file, buffer);
    for (std::int64_t i = 0; i < samples; ++i) {
      const Bytes value = step != 0 ? static_cast<Bytes>(i) * step : constant;
      std::byte le[8];
      for (int b = 0; b < 8; ++b) le[b] = static_cast<std::byte>(value >> (8 * b));
      out.append(le, sizeof le);
    }
    out.flush();
  }
  const Bytes bytes = file->appended();
  if (fsync) file->sync();
  file->close();
  return bytes;
}

}  // namespace

SampleSlice SharedFileSlice(std::int64_t samples, int ranks, int rank) {
  if (ranks <= 0 || rank < 0 || rank >= ranks || samples < 0) {
    throw Error(ExitCode::kInternal, "SharedFileSlice: bad rank " + std::to_string(rank) + " of " +
                                         std::to_string(ranks));
  }
  const std::int64_t q = samples / ranks;
  const std::int64_t rem = samples % ranks;
  return {rank * q + std::min<std::int64_t>(rank, rem), q + (rank < rem ? 1 : 0)};
}

Bytes IndexedBinaryWriter::file_size(const FileSpec& spec) const {
  return static_cast<Bytes>(spec.samples) * spec.sample_bytes();
}

WriteResult IndexedBinaryWriter::write(storage::Env& env, const FileSpec& spec,
                                       const dataset::ContentGenerator& content,
                                       std::span<std::byte> buffer) const {
  const Bytes sample = spec.sample_bytes();
  const Bytes total = static_cast<Bytes>(spec.samples) * sample;
  WriteResult result;
  auto file = env.create(spec.path);
  for (Bytes done = 0; done < total;) {
    const std::span<std::byte> chunk = buffer.first(std::min<Bytes>(buffer.size(), total - done));
    content.Fill(spec.file_index, done, chunk);
    file->append(chunk.data(), chunk.size());
    done += chunk.size();
  }
  result.data_bytes = file->appended();
  if (spec.fsync) file->sync();
  file->close();
  result.files.push_back(spec.path);
  result.companion_bytes +=
      WriteIndex(env, spec.offsets_index(), spec.samples, sample, 0, buffer, spec.fsync);
  result.files.push_back(spec.offsets_index());
  result.companion_bytes +=
      WriteIndex(env, spec.sizes_index(), spec.samples, 0, sample, buffer, spec.fsync);
  result.files.push_back(spec.sizes_index());
  return result;
}

}  // namespace dlbench::formats
