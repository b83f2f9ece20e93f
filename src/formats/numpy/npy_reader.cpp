#include "formats/numpy/npy_reader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "formats/io/direct_file.h"
#include "formats/numpy/npy_array_check.h"
#include "formats/numpy/npy_header.h"
#include "formats/numpy/sample_last_array.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"
#include "storage/recycled.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// The first bytes of the file a thread opened last, in one buffer per thread that only grows (no
// allocation per file: a 4 KiB one per sample cost more instructions than the read it saves), and
// the reader they belong to.
struct FirstBytes {
  std::string bytes;
  std::uint64_t reader = 0;
};
FirstBytes& ThreadFirstBytes() {
  thread_local FirstBytes first;
  return first;
}
std::uint64_t NextReaderId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

class NpyFileReader final : public FileReader, public storage::Recycled<NpyFileReader> {
 public:
  // `direct`: `file` is a DirectFile.
  // `array`: ExpectedArrayOf(spec).
  NpyFileReader(std::unique_ptr<storage::ReadableFile> file, DirectFile* direct,
                const FileSpec& spec, const ExpectedArray& array, const FileReadOptions& options)
      : file_(std::move(file)),
        direct_(direct),
        samples_(spec.samples),
        sample_bytes_(array.sample_bytes),
        itemsize_(array.itemsize),
        transfer_size_(options.transfer_size) {
    // The first read fetches the header dlbench's (and numpy's) writer puts there for this
    // spec, or with O_DIRECT the first block, which holds any usual header; when those bytes
    // are that header, nothing needs parsing and the header took one read. A file of one small
    // sample is fetched whole by that read (as Python's buffered file gives np.load the header
    // and the data in one read), one system call less: straight into the caller's buffer when it
    // offers one with room for the header before it (FileReadOptions::sample_into), else into
    // this thread's buffer, from which read_sample copies the sample.
    const std::string& expected = array.header;
    Bytes first = std::max<Bytes>(expected.size(), npy::kProbeBytes);
    if (direct_) {
      first = storage::kDirectAlignment;
    } else if (samples_ == 1 && sample_bytes_ <= kWholeFileBytes) {
      first = expected.size() + sample_bytes_;
    }
    FirstBytes& head = ThreadFirstBytes();
    head.reader = 0;  // the buffer is overwritten now, whatever it held
    data_offset_ = expected.size();
    end_ = data_offset_ + static_cast<Bytes>(samples_) * sample_bytes_;
    if (first == end_ && !direct_ && options.sample_into.data() != nullptr &&
        options.sample_into.size() >= sample_bytes_ &&
        options.sample_into_headroom >= expected.size()) {
      // The whole file into the caller's buffer, the header into the headroom before it.
      char* const start = reinterpret_cast<char*>(options.sample_into.data()) - expected.size();
      const Bytes got = file_->read_at(0, start, first);
      if (got == first && std::string_view(start, expected.size()) == expected) {
        open_bytes_ = got - sample_bytes_;  // the sample's bytes count when read_sample delivers it
        sample_into_ = options.sample_into.data();
        array_.emplace(data_offset_, samples_, sample_bytes_, itemsize_, options.transfer_size,
                       false);
        return;
      }
      // Another header, or a short file: on from the thread's buffer, as without a landing.
      if (head.bytes.size() < got) head.bytes.resize(got);
      std::memcpy(head.bytes.data(), start, got);
      read_first(got, expected, spec);
    } else {
      if (head.bytes.size() < first) head.bytes.resize(first);
      read_first(file_->read_at(0, head.bytes.data(), first), expected, spec);
    }
    if (direct_) open_bytes_ = direct_->bytes_read();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return open_bytes_; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    if (sample_into_ != nullptr) {  // the one sample, read into the caller's buffer at open
      if (out.data() != sample_into_) std::memcpy(out.data(), sample_into_, sample_bytes_);
      sample_into_ = nullptr;
      return sample_bytes_;
    }
    FirstBytes& head = ThreadFirstBytes();
    if (id_ != 0 && head.reader == id_) {  // the one sample, fetched with the header
      std::memcpy(out.data(), head.bytes.data() + data_offset_, sample_bytes_);
      head.reader = 0;
      return sample_bytes_;
    }
    if (direct_) return array_->read_direct(*direct_, k, out.data());
    try {
      return array_->read(*file_, k, out.data());
    } catch (const Error&) {
      check_size();
      throw;
    }
  }

 private:
  // The rest of opening once the first `got` bytes of the file are in this thread's buffer.
  void read_first(Bytes got, const std::string& expected, const FileSpec& spec) {
    FirstBytes& head = ThreadFirstBytes();
    open_bytes_ = got;
    if (std::string_view(head.bytes.data(), got).substr(0, expected.size()) != expected) {
      data_offset_ = parse_header(head.bytes, got, spec);
      end_ = data_offset_ + static_cast<Bytes>(samples_) * sample_bytes_;
    }
    // A truncated file is found here with O_DIRECT (which knows the size anyway), else by the
    // first read that comes back short, with the same message: asking the size of every file
    // would cost a system call per sample.
    if (direct_) check_size();
    if (!direct_ && samples_ == 1 && got >= end_ && open_bytes_ == got) {  // no second read
      head.reader = id_ = NextReaderId();  // the sample is in this thread's buffer
      open_bytes_ -= sample_bytes_;        // its bytes count when read_sample delivers them
    }
    array_.emplace(data_offset_, samples_, sample_bytes_, itemsize_, transfer_size_,
                   direct_ != nullptr);
  }

  // Reads the rest of a header that is not the expected one (the first `have` bytes of `bytes`
  // hold the start of the file; bytes after the header stay) and checks it against `spec`;
  // returns its length.
  Bytes parse_header(std::string& bytes, Bytes have, const FileSpec& spec) {
    const Bytes length = npy::HeaderLength(std::string_view(bytes.data(), have), path());
    // A corrupt length (up to 4 GiB) must not become an allocation: check it against the file.
    if (length > have && length > file_->size()) {
      throw CorruptDataError(path(), "npy",
                             "truncated: header needs " + std::to_string(length) +
                                 " bytes, file has " + std::to_string(file_->size()));
    }
    if (length > have) {
      if (bytes.size() < length) bytes.resize(length);
      const Bytes got = file_->read_at(have, bytes.data() + have, length - have);
      open_bytes_ += got;
      have += got;
    }
    const npy::Header header =
        npy::Parse(std::string_view(bytes.data(), std::min(have, length)), path());
    CheckArrayHeader(header, spec, path());
    return header.data_offset;
  }

  // Throws the truncation error when the file is shorter than its header says.
  void check_size() const {
    if (file_->size() < end_) {
      throw CorruptDataError(path(), "npy",
                             "truncated: data needs " + std::to_string(end_) + " bytes, file has " +
                                 std::to_string(file_->size()));
    }
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  int itemsize_;
  // Files of one sample up to this size are read whole by the first read.
  static constexpr Bytes kWholeFileBytes = 64 * 1024;

  Bytes data_offset_ = 0;
  Bytes end_ = 0;  // end of the array data in the file
  // With one small sample: this reader's number in its thread's FirstBytes while the sample
  // fetched with the header is still there (read_sample on another thread, or after that thread
  // opened another file, reads it again); 0 otherwise.
  std::uint64_t id_ = 0;
  // With one small sample read into FileReadOptions::sample_into at open: that buffer, until
  // read_sample delivers it.
  std::byte* sample_into_ = nullptr;
  Bytes transfer_size_;
  Bytes open_bytes_ = 0;
  std::optional<StoredSampleLastArray> array_;
};

}  // namespace

std::unique_ptr<FileReader> NpyReader::open(storage::Env& env, const FileSpec& spec,
                                            const FileReadOptions& options) const {
  OpenedFile opened = OpenForReading(env, spec.path, options.direct);
  return std::make_unique<NpyFileReader>(std::move(opened.file), opened.direct_file, spec,
                                         ExpectedArrayOf(spec), options);
}

}  // namespace dlbench::formats
