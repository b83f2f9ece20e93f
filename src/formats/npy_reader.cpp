#include "formats/npy_reader.h"

#include <optional>
#include <string>

#include "formats/direct_file.h"
#include "formats/npy_array_check.h"
#include "formats/npy_header.h"
#include "formats/sample_last_array.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class NpyFileReader final : public FileReader {
 public:
  // `direct`: `file` is a DirectFile.
  NpyFileReader(std::unique_ptr<storage::ReadableFile> file, DirectFile* direct,
                const FileSpec& spec, const ReadOptions& options)
      : file_(std::move(file)),
        direct_(direct),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()) {
    // O_DIRECT fetches a whole block anyway: probe with it, which holds any usual header.
    std::string bytes(direct_ ? storage::kDirectAlignment : npy::kProbeBytes, '\0');
    bytes.resize(file_->read_at(0, bytes.data(), bytes.size()));
    open_bytes_ = bytes.size();
    const Bytes length = npy::HeaderLength(bytes, path());
    const Bytes have = bytes.size();
    bytes.resize(length);
    if (length > have) {
      const Bytes got = file_->read_at(have, bytes.data() + have, length - have);
      open_bytes_ += got;
      bytes.resize(have + got);
    }
    const npy::Header header = npy::Parse(bytes, path());
    CheckArrayHeader(header, spec, path());
    const Bytes end = header.data_offset + static_cast<Bytes>(samples_) * sample_bytes_;
    if (file_->size() < end) {
      throw IoError("open", path(), 0,
                    "truncated npy: data needs " + std::to_string(end) + " bytes, file has " +
                        std::to_string(file_->size()));
    }
    array_.emplace(header.data_offset, samples_, sample_bytes_, spec.itemsize(),
                   options.transfer_size, direct_ != nullptr);
    if (direct_) open_bytes_ = direct_->bytes_read();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return open_bytes_; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    return direct_ ? array_->ReadDirect(*direct_, k, out.data())
                   : array_->Read(*file_, k, out.data());
  }

 private:
  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  Bytes open_bytes_ = 0;
  std::optional<StoredSampleLastArray> array_;
};

}  // namespace

std::unique_ptr<FileReader> NpyReader::open(storage::Env& env, const FileSpec& spec,
                                            const ReadOptions& options) const {
  OpenedFile opened = OpenForReading(env, spec.path, options.direct);
  return std::make_unique<NpyFileReader>(std::move(opened.file), opened.direct_file, spec, options);
}

}  // namespace dlbench::formats
