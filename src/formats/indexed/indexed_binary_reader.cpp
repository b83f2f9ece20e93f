#include "formats/indexed/indexed_binary_reader.h"

#include <vector>

#include "formats/io/direct_file.h"
#include "formats/io/little_endian.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

struct SampleIndex {
  std::vector<Bytes> offsets;
  std::vector<Bytes> sizes;
  Bytes bytes_read = 0;
};

std::vector<Bytes> LoadIndex(storage::Env& env, const std::string& path, std::int64_t samples,
                             Bytes* bytes_read) {
  auto file = env.open_read(path);
  const Bytes expected = 8 * static_cast<Bytes>(samples);
  if (file->size() < expected) {
    throw CorruptDataError(path, "index",
                           "it holds " + std::to_string(file->size() / 8) + " entries, expected " +
                               std::to_string(samples));
  }
  std::vector<unsigned char> raw(expected);
  const Bytes got = file->read_at(0, raw.data(), expected);
  *bytes_read += got;
  if (got != expected) throw CorruptDataError(path, "index", "short read");
  std::vector<Bytes> values(static_cast<std::size_t>(samples));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = GetLe(raw.data() + 8 * i, 8);
  return values;
}

SampleIndex LoadAndValidate(storage::Env& env, const FileSpec& spec, Bytes data_size) {
  SampleIndex index;
  index.offsets = LoadIndex(env, spec.offsets_index(), spec.samples, &index.bytes_read);
  index.sizes = LoadIndex(env, spec.sizes_index(), spec.samples, &index.bytes_read);
  const Bytes sample = spec.sample_bytes();
  for (std::size_t i = 0; i < index.offsets.size(); ++i) {
    const Bytes offset = index.offsets[i];
    const Bytes size = index.sizes[i];
    if (size != sample) {
      throw CorruptDataError(spec.sizes_index(), "index",
                             "entry " + std::to_string(i) + " says " + std::to_string(size) +
                                 " bytes, expected " + std::to_string(sample));
    }
    if (offset > data_size || size > data_size - offset) {
      throw CorruptDataError(spec.offsets_index(), "index",
                             "entry " + std::to_string(i) + " [" + std::to_string(offset) + ", +" +
                                 std::to_string(size) + ") lies beyond the end of " + spec.path +
                                 " (" + std::to_string(data_size) + " bytes)");
    }
  }
  return index;
}

// Reads sample `k` whole into `out`; returns its size. Throws Error(kIo) for a short read.
Bytes ReadSample(storage::ReadableFile& file, std::int64_t k, const SampleIndex& index,
                 std::span<std::byte> out) {
  const auto i = static_cast<std::size_t>(k);
  const Bytes got = file.read_at(index.offsets[i], out.data(), index.sizes[i]);
  if (got != index.sizes[i]) {
    throw CorruptDataError(file.path(), "indexed_binary",
                           "sample " + std::to_string(k) + " at offset " +
                               std::to_string(index.offsets[i]) + ": got " + std::to_string(got) +
                               " of " + std::to_string(index.sizes[i]) + " bytes");
  }
  return got;
}

class IndexedBinaryFileReader final : public FileReader {
 public:
  // `direct`: `file` is a DirectFile (the index files are read normally).
  IndexedBinaryFileReader(storage::Env& env, std::unique_ptr<storage::ReadableFile> file,
                          DirectFile* direct, const FileSpec& spec)
      : file_(std::move(file)),
        direct_(direct),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()),
        index_(LoadAndValidate(env, spec, file_->size())) {}

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return index_.bytes_read; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    if (direct_) direct_->discard_staged();
    const Bytes before = direct_ ? direct_->bytes_read() : 0;
    const Bytes got = ReadSample(*file_, k, index_, out);
    return direct_ ? direct_->bytes_read() - before : got;
  }

 private:
  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  SampleIndex index_;
};

// The mapping is opened through the Env (Env::open_mapped): each sample is one read_at, a copy out
// of the mapping, which the Env's wrappers count, throttle and fail like any read.
class MmapIndexedBinaryFileReader final : public FileReader {
 public:
  MmapIndexedBinaryFileReader(storage::Env& env, const FileSpec& spec)
      : file_(env.open_mapped(spec.path)),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()),
        index_(LoadAndValidate(env, spec, file_->size())) {}

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return index_.bytes_read; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    return ReadSample(*file_, k, index_, out);
  }

 private:
  std::unique_ptr<storage::ReadableFile> file_;
  std::int64_t samples_;
  Bytes sample_bytes_;
  SampleIndex index_;
};

}  // namespace

std::unique_ptr<FileReader> IndexedBinaryReader::open(storage::Env& env, const FileSpec& spec,
                                                      const FileReadOptions& options) const {
  OpenedFile opened = OpenForReading(env, spec.path, options.direct);
  return std::make_unique<IndexedBinaryFileReader>(env, std::move(opened.file), opened.direct_file,
                                                   spec);
}

std::unique_ptr<FileReader> MmapIndexedBinaryReader::open(storage::Env& env, const FileSpec& spec,
                                                          const FileReadOptions& options) const {
  RejectDirect(options, "mmap_indexed_binary");
  return std::make_unique<MmapIndexedBinaryFileReader>(env, spec);
}

}  // namespace dlbench::formats
