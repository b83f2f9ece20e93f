#include "formats/io/whole_file_reader.h"

#include <utility>
#include <vector>

#include "formats/io/direct_file.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

thread_local std::vector<std::byte> whole_file_staging;

class WholeFileReader final : public FileReader {
 public:
  WholeFileReader(OpenedFile opened, const FileSpec& spec, std::unique_ptr<SampleDecoder> decoder)
      : file_(std::move(opened.file)),
        direct_(opened.direct_file),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()),
        decoder_(std::move(decoder)) {}

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return 0; }

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    const Bytes size = file_->size();
    std::span<const std::byte> encoded;
    Bytes delivered = 0;
    if (direct_) {
      direct_->discard_staged();
      const Bytes before = direct_->bytes_read();
      encoded = direct_->view(0, size);
      delivered = direct_->bytes_read() - before;
    } else {
      if (whole_file_staging.size() < size) whole_file_staging.resize(size);
      delivered = file_->read_at(0, whole_file_staging.data(), size);
      encoded = std::span<const std::byte>(whole_file_staging).first(delivered);
    }
    if (encoded.size() != size) {
      throw IoError("read", path(), 0,
                    "the file shrank while being read: " + std::to_string(size) +
                        " bytes expected, found " + std::to_string(encoded.size()));
    }
    decoder_->decode(encoded, k, out.first(sample_bytes_), path());
    return delivered;
  }

 private:
  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  std::unique_ptr<SampleDecoder> decoder_;
};

}  // namespace

std::unique_ptr<FileReader> OpenWholeFileReader(storage::Env& env, const FileSpec& spec,
                                                const FileReadOptions& options,
                                                std::unique_ptr<SampleDecoder> decoder) {
  return std::make_unique<WholeFileReader>(OpenForReading(env, spec.path, options.direct), spec,
                                           std::move(decoder));
}

}  // namespace dlbench::formats
