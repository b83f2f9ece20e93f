#include "formats/tfrecord_writer.h"

#include <algorithm>
#include <cstdio>

#include "dataset/content.h"
#include "formats/buffered_appender.h"
#include "formats/crc32c.h"
#include "formats/tfrecord_example.h"
#include "storage/file.h"

namespace dlbench::formats {
namespace {

void AppendLe32(BufferedAppender& out, std::uint32_t value) {
  std::byte bytes[4];
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::byte>(value >> (8 * i));
  out.append(bytes, sizeof bytes);
}

Bytes WriteDaliIndex(storage::Env& env, const std::string& path, std::int64_t records,
                     Bytes record_bytes, std::span<std::byte> buffer, bool fsync) {
  auto file = env.create(path);
  BufferedAppender out(*file, buffer);
  char line[48];
  for (std::int64_t k = 0; k < records; ++k) {
    const int n = std::snprintf(line, sizeof line, "%llu %llu\n",
                                static_cast<unsigned long long>(k * record_bytes),
                                static_cast<unsigned long long>(record_bytes));
    out.append(line, static_cast<std::size_t>(n));
  }
  out.flush();
  const Bytes bytes = file->appended();
  if (fsync) file->sync();
  file->close();
  return bytes;
}

}  // namespace

Bytes TfrecordWriter::file_size(const FileSpec& spec) const {
  return static_cast<Bytes>(spec.samples) *
         tfrecord::ExampleLayout(spec.sample_bytes()).record_bytes();
}

WriteResult TfrecordWriter::write(storage::Env& env, const FileSpec& spec,
                                  const dataset::ContentGenerator& content,
                                  std::span<std::byte> buffer) const {
  const Bytes sample = spec.sample_bytes();
  const tfrecord::ExampleLayout layout(sample);
  const auto header = tfrecord::EncodeHeader(layout.payload_bytes());

  WriteResult result;
  auto file = env.create(spec.path);
  {
    BufferedAppender out(*file, buffer);
    for (std::int64_t k = 0; k < spec.samples; ++k) {
      out.append(header.data(), header.size());
      std::uint32_t crc = crc32c::Value(layout.prefix().data(), layout.prefix().size());
      out.append(layout.prefix().data(), layout.prefix().size());
      const Bytes base = static_cast<Bytes>(k) * sample;
      for (Bytes done = 0; done < sample;) {
        std::span<std::byte> space = out.free_space();
        space = space.first(std::min<Bytes>(space.size(), sample - done));
        content.Fill(spec.file_index, base + done, space);
        crc = crc32c::Extend(crc, space.data(), space.size());
        out.commit(space.size());
        done += space.size();
      }
      crc = crc32c::Extend(crc, layout.suffix().data(), layout.suffix().size());
      out.append(layout.suffix().data(), layout.suffix().size());
      AppendLe32(out, crc32c::Mask(crc));
    }
    out.flush();
  }
  result.data_bytes = file->appended();
  if (spec.fsync) file->sync();
  file->close();
  result.files.push_back(spec.path);

  if (!spec.dali_index_path.empty()) {
    result.companion_bytes = WriteDaliIndex(env, spec.dali_index_path, spec.samples,
                                            layout.record_bytes(), buffer, spec.fsync);
    result.files.push_back(spec.dali_index_path);
  }
  return result;
}

}  // namespace dlbench::formats
