// Shared helpers of the formats tests: a content generator, expected sample bytes, file edits.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "config/enums.h"
#include "dataset/content.h"
#include "formats/format.h"
#include "storage/file.h"

namespace dlbench::formats::test {

inline dataset::ContentGenerator RandomContent() {
  return dataset::ContentGenerator(config::ContentKind::kRandom, 2.0, 1234);
}

// The mean and standard deviation of decoded pixels (uniform noise: 127.5 and 73.9).
struct PixelStats {
  double mean = 0;
  double deviation = 0;
};
inline PixelStats StatsOf(const std::vector<std::byte>& pixels) {
  double sum = 0;
  double squares = 0;
  for (const std::byte b : pixels) {
    sum += static_cast<double>(b);
    squares += static_cast<double>(b) * static_cast<double>(b);
  }
  const double n = static_cast<double>(pixels.size());
  const double mean = sum / n;
  return {mean, std::sqrt(squares / n - mean * mean)};
}

// A one-sample image file at `path` whose content is assembled (dataset.content.encoding).
inline FileSpec AssembledSpec(const std::string& path, std::vector<std::int64_t> dims,
                              FileIndex file) {
  FileSpec spec;
  spec.path = path;
  spec.file_index = file;
  spec.sample_dims = std::move(dims);
  spec.encoding = config::ContentEncoding::kAssembled;
  return spec;
}

// The bytes the generator gives a sample-first file's sample k.
inline std::vector<std::byte> SampleFirstBytes(const dataset::ContentGenerator& content,
                                               const FileSpec& spec, std::int64_t k) {
  std::vector<std::byte> out(spec.sample_bytes());
  content.fill(spec.file_index, static_cast<Bytes>(k) * out.size(), out);
  return out;
}

// The bytes of sample k of a sample-last (npy/npz) array filled in file order.
inline std::vector<std::byte> SampleLastBytes(const dataset::ContentGenerator& content,
                                              const FileSpec& spec, std::int64_t k) {
  const Bytes item = static_cast<Bytes>(spec.itemsize());
  const Bytes n = static_cast<Bytes>(spec.samples);
  std::vector<std::byte> all(n * spec.sample_bytes());
  content.fill(spec.file_index, 0, all);
  std::vector<std::byte> out(spec.sample_bytes());
  for (Bytes e = 0; e < out.size() / item; ++e) {
    for (Bytes b = 0; b < item; ++b)
      out[e * item + b] = all[(e * n + static_cast<Bytes>(k)) * item + b];
  }
  return out;
}

inline std::string ReadAll(const std::filesystem::path& path) {
  std::string bytes(std::filesystem::file_size(path), '\0');
  std::ifstream in(path, std::ios::binary);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

inline void WriteAll(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Sets the byte at `offset` of the file to `value`, in place.
inline void PutByte(const std::filesystem::path& path, std::size_t offset, char value) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(static_cast<std::streamoff>(offset));
  file.put(value);
}

// Runs `writer` on `spec` with a small buffer, so multi-chunk paths are exercised.
inline WriteResult WriteFile(const FormatWriter& writer, const FileSpec& spec,
                             const dataset::ContentGenerator& content, std::size_t buffer = 4096) {
  std::vector<std::byte> scratch(buffer);
  return writer.write(storage::PosixEnv(), spec, content, scratch);
}

}  // namespace dlbench::formats::test
