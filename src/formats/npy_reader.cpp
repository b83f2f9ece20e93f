#include "formats/npy_reader.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

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
    // The first read fetches the header dlbench's (and numpy's) writer puts there for this
    // spec, or with O_DIRECT the first block, which holds any usual header; when those bytes
    // are that header, nothing needs parsing and the header took one read. A file of one small
    // sample is fetched whole by that read (as Python's buffered file gives np.load the header
    // and the data in one read): read_sample then copies the sample out, one system call less.
    const std::string& expected = ExpectedArrayHeader(spec);
    Bytes first = std::max<Bytes>(expected.size(), npy::kProbeBytes);
    if (direct_) {
      first = storage::kDirectAlignment;
    } else if (samples_ == 1 && sample_bytes_ <= kWholeFileBytes) {
      first = expected.size() + sample_bytes_;
    }
    head_.assign(first, '\0');
    head_.resize(file_->read_at(0, head_.data(), head_.size()));
    open_bytes_ = head_.size();
    data_offset_ = expected.size();
    if (std::string_view(head_).substr(0, expected.size()) != expected) {
      data_offset_ = ParseHeader(head_, spec);
    }
    end_ = data_offset_ + static_cast<Bytes>(samples_) * sample_bytes_;
    // A truncated file is found here with O_DIRECT (which knows the size anyway), else by the
    // first read that comes back short, with the same message: asking the size of every file
    // would cost a system call per sample.
    if (direct_) CheckSize("open");
    if (!direct_ && samples_ == 1 && head_.size() >= end_) {
      open_bytes_ -= sample_bytes_;  // they count when read_sample delivers them
    } else {
      head_.clear();
    }
    array_.emplace(data_offset_, samples_, sample_bytes_, spec.itemsize(), options.transfer_size,
                   direct_ != nullptr);
    if (direct_) open_bytes_ = direct_->bytes_read();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return open_bytes_; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    if (!head_.empty()) {  // the one sample, fetched with the header
      std::memcpy(out.data(), head_.data() + data_offset_, sample_bytes_);
      head_.clear();
      return sample_bytes_;
    }
    if (direct_) return array_->ReadDirect(*direct_, k, out.data());
    try {
      return array_->Read(*file_, k, out.data());
    } catch (const Error&) {
      CheckSize("read");
      throw;
    }
  }

 private:
  // Reads the rest of a header that is not the expected one (`bytes` holds the start of the file,
  // and keeps any bytes after the header) and checks it against `spec`; returns its length.
  Bytes ParseHeader(std::string& bytes, const FileSpec& spec) {
    const Bytes length = npy::HeaderLength(bytes, path());
    const Bytes have = bytes.size();
    if (length > have) {
      bytes.resize(length);
      const Bytes got = file_->read_at(have, bytes.data() + have, length - have);
      open_bytes_ += got;
      bytes.resize(have + got);
    }
    const npy::Header header = npy::Parse(std::string_view(bytes).substr(0, length), path());
    CheckArrayHeader(header, spec, path());
    return header.data_offset;
  }

  // Throws the truncation error when the file is shorter than its header says.
  void CheckSize(const char* operation) const {
    if (file_->size() < end_) {
      throw IoError(operation, path(), 0,
                    "truncated npy: data needs " + std::to_string(end_) + " bytes, file has " +
                        std::to_string(file_->size()));
    }
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  // Files of one sample up to this size are read whole by the first read.
  static constexpr Bytes kWholeFileBytes = 64 * 1024;

  Bytes data_offset_ = 0;
  Bytes end_ = 0;     // end of the array data in the file
  std::string head_;  // the file's first bytes; after open, the sample when it was among them
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
