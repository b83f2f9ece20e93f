#include "formats/numpy/npz_reader.h"

#include <zlib.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "formats/io/direct_file.h"
#include "formats/io/little_endian.h"
#include "formats/numpy/npy_array_check.h"
#include "formats/numpy/npy_header.h"
#include "formats/numpy/npz_writer.h"
#include "formats/numpy/sample_last_array.h"
#include "formats/numpy/zip_layout.h"
#include "storage/aligned_buffer.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

constexpr Bytes kMaxCommentBytes = 65535;
constexpr Bytes kMaxDirectoryBytes = 16 * MiB;  // an npz has two entries

struct Entry {
  std::uint16_t method = 0;
  std::uint16_t flags = 0;
  Bytes compressed = 0;
  Bytes uncompressed = 0;
  Bytes local_offset = 0;
};

// Reads the records of a zip file. Every read goes to the file except those inside the bytes the
// previous read fetched, so a region read whole up front (the end records with the central
// directory, a local header with the npy header) costs one read and is counted once.
class ZipDirectory {
 public:
  ZipDirectory(storage::ReadableFile& file, Bytes* bytes_read) : file_(file), read_(bytes_read) {}

  // `tail_guess`: bytes from the end that hold the end records and the central directory in a
  // usual archive (they are fetched in one read; fewer are read when the file is shorter).
  Entry find(const std::string& wanted, Bytes tail_guess) {
    const Bytes size = file_.size();
    // The end record is the last 22 bytes unless the archive has a comment (numpy writes none):
    // try those first, with the central directory before them, as Python's zipfile does, so an
    // open reads those bytes, not up to 64 KiB.
    Bytes tail_length = std::min<Bytes>(size, std::max(zip::kEndBytes, tail_guess));
    std::string tail = read(size - tail_length, tail_length, "end of central directory");
    if (tail.size() < zip::kEndBytes ||
        GetLe(tail.data() + tail.size() - zip::kEndBytes, 4) != zip::kEndSignature) {
      tail_length = std::min<Bytes>(size, zip::kEndBytes + kMaxCommentBytes);
      tail = read(size - tail_length, tail_length, "end of central directory");
    }
    std::size_t end = std::string::npos;
    for (std::size_t i = tail.size() >= zip::kEndBytes ? tail.size() - zip::kEndBytes + 1 : 0;
         i-- > 0;) {
      if (GetLe(tail.data() + i, 4) == zip::kEndSignature) {
        end = i;
        break;
      }
    }
    if (end == std::string::npos) {
      bad("no end-of-central-directory record in the last " + std::to_string(tail_length) +
          " bytes of the file (" + std::to_string(size) + " bytes; truncated, or not a zip file?)");
    }
    const Bytes end_offset = size - tail_length + end;
    const char* e = tail.data() + end;
    Bytes count = GetLe(e + 10, 2);
    Bytes cd_size = GetLe(e + 12, 4);
    Bytes cd_offset = GetLe(e + 16, 4);
    if (end_offset >= zip::kEnd64LocatorBytes) {
      const std::string loc =
          read(end_offset - zip::kEnd64LocatorBytes, zip::kEnd64LocatorBytes, "zip64 locator");
      if (GetLe(loc.data(), 4) == zip::kEnd64LocatorSignature) {
        const Bytes end64 = GetLe(loc.data() + 8, 8);
        const std::string rec = read(end64, zip::kEnd64Bytes, "zip64 end of central directory");
        if (GetLe(rec.data(), 4) != zip::kEnd64Signature) {
          bad("wrong zip64 end-of-central-directory signature at offset " + std::to_string(end64));
        }
        count = GetLe(rec.data() + 32, 8);
        cd_size = GetLe(rec.data() + 40, 8);
        cd_offset = GetLe(rec.data() + 48, 8);
      }
    }
    if (cd_size > kMaxDirectoryBytes || cd_offset + cd_size > end_offset) {
      bad("central directory at offset " + std::to_string(cd_offset) + " (" +
          std::to_string(cd_size) + " bytes) does not fit before the end record at " +
          std::to_string(end_offset));
    }
    const std::string cd = read(cd_offset, cd_size, "central directory");
    std::size_t p = 0;
    for (Bytes i = 0; i < count; ++i) {
      if (p + zip::kCentralHeaderBytes > cd.size() ||
          GetLe(cd.data() + p, 4) != zip::kCentralSignature) {
        bad("wrong central directory entry " + std::to_string(i) + " at offset " +
            std::to_string(cd_offset + p));
      }
      const char* h = cd.data() + p;
      Entry entry;
      entry.flags = static_cast<std::uint16_t>(GetLe(h + 8, 2));
      entry.method = static_cast<std::uint16_t>(GetLe(h + 10, 2));
      entry.compressed = GetLe(h + 20, 4);
      entry.uncompressed = GetLe(h + 24, 4);
      const std::size_t name_length = GetLe(h + 28, 2);
      const std::size_t extra_length = GetLe(h + 30, 2);
      const std::size_t comment_length = GetLe(h + 32, 2);
      entry.local_offset = GetLe(h + 42, 4);
      const std::size_t next =
          p + zip::kCentralHeaderBytes + name_length + extra_length + comment_length;
      if (next > cd.size()) bad("central directory entry " + std::to_string(i) + " overruns");
      const std::string name(h + zip::kCentralHeaderBytes, name_length);
      if (name == wanted) {
        apply_zip64(entry, h + zip::kCentralHeaderBytes + name_length, extra_length);
        return entry;
      }
      p = next;
    }
    bad("no member '" + wanted + "'");
  }

  [[noreturn]] void bad(const std::string& what) const {
    throw CorruptDataError(file_.path(), "zip directory", what);
  }

  std::string read(Bytes offset, Bytes length, const char* what) {
    if (offset >= window_offset_ && offset + length <= window_offset_ + window_.size()) {
      return window_.substr(offset - window_offset_, length);
    }
    std::string bytes(length, '\0');
    const Bytes got = file_.read_at(offset, bytes.data(), length);
    *read_ += got;
    if (got != length) {
      bad(std::string("truncated ") + what + " at offset " + std::to_string(offset));
    }
    window_ = bytes;
    window_offset_ = offset;
    return bytes;
  }

  // As Read, but `length` is a guess that may run past the end of the file: reads up to there.
  std::string read_up_to(Bytes offset, Bytes length, const char* what) {
    const Bytes size = file_.size();
    if (offset >= size) return read(offset, length, what);  // reports the truncation
    return read(offset, std::min(length, size - offset), what);
  }

 private:
  // Fields set to 0xFFFFFFFF live in the ZIP64 extra, in this order.
  void apply_zip64(Entry& entry, const char* extra, std::size_t length) {
    std::size_t p = 0;
    while (p + 4 <= length) {
      const auto id = GetLe(extra + p, 2);
      const std::size_t size = GetLe(extra + p + 2, 2);
      if (p + 4 + size > length) bad("extra field overruns");
      if (id == 1) {
        std::size_t q = p + 4;
        for (Bytes* field : {&entry.uncompressed, &entry.compressed, &entry.local_offset}) {
          if (*field != 0xFFFFFFFFu) continue;
          if (q + 8 > p + 4 + size) bad("short zip64 extra field");
          *field = GetLe(extra + q, 8);
          q += 8;
        }
      }
      p += 4 + size;
    }
  }

  storage::ReadableFile& file_;
  Bytes* read_;
  std::string window_;  // what the last read fetched, at window_offset_
  Bytes window_offset_ = 0;
};

// StoredNpzRegions(spec), kept for the last spec per thread: the files of a dataset share it.
NpzRegions Regions(const FileSpec& spec) {
  thread_local std::string header;
  thread_local NpzRegions regions;
  if (header != ExpectedArrayHeader(spec)) {
    regions = StoredNpzRegions(spec);
    header = ExpectedArrayHeader(spec);
  }
  return regions;
}

// A raw-deflate zlib stream that is ended on every way out of its scope: a throwing sink or read
// in the middle of inflating leaked zlib's state before (found by tests/fuzz).
struct RawInflater {
  z_stream z{};
  RawInflater() {
    if (inflateInit2(&z, -15) != Z_OK) throw InternalError("inflateInit2 failed");
  }
  ~RawInflater() { inflateEnd(&z); }
  RawInflater(const RawInflater&) = delete;
  RawInflater& operator=(const RawInflater&) = delete;
};

class NpzFileReader final : public FileReader {
 public:
  // `direct`: `file` is a DirectFile.
  NpzFileReader(std::unique_ptr<storage::ReadableFile> file, DirectFile* direct,
                const FileSpec& spec, const FileReadOptions& options)
      : file_(std::move(file)),
        direct_(direct),
        samples_(spec.samples),
        sample_bytes_(spec.sample_bytes()),
        itemsize_(spec.itemsize()),
        transfer_size_(std::max<Bytes>(options.transfer_size, 4 * KiB)) {
    ZipDirectory dir(*file_, &open_bytes_);
    // Where np.savez would put the records for this spec: each region in one read.
    const NpzRegions regions = Regions(spec);
    entry_ = dir.find("x.npy", regions.tail);
    if (entry_.flags & 1) dir.bad("x.npy is encrypted");
    if (entry_.method != zip::kMethodStored && entry_.method != zip::kMethodDeflated) {
      dir.bad("x.npy uses compression method " + std::to_string(entry_.method) +
              " (only stored and deflated are supported)");
    }
    const std::string local =
        dir.read_up_to(entry_.local_offset,
                       std::max(zip::kLocalHeaderBytes,
                                entry_.method == zip::kMethodStored ? regions.head : Bytes{0}),
                       "local header")
            .substr(0, zip::kLocalHeaderBytes);
    if (GetLe(local.data(), 4) != zip::kLocalSignature) {
      dir.bad("no local header signature at offset " + std::to_string(entry_.local_offset));
    }
    member_offset_ = entry_.local_offset + zip::kLocalHeaderBytes + GetLe(local.data() + 26, 2) +
                     GetLe(local.data() + 28, 2);
    if (member_offset_ + entry_.compressed > file_->size()) {
      dir.bad("x.npy data (" + std::to_string(entry_.compressed) + " bytes at offset " +
              std::to_string(member_offset_) + ") runs past the end of the file");
    }
    const std::string where = path() + ":x.npy";
    std::string header;
    if (entry_.method == zip::kMethodStored) {
      header = dir.read(member_offset_, std::min<Bytes>(npy::kProbeBytes, entry_.compressed),
                        "x.npy header");
      const Bytes length = npy::HeaderLength(header, where);
      if (length > entry_.compressed) dir.bad("x.npy header longer than the member");
      header = dir.read(member_offset_, length, "x.npy header");
    } else {
      inflate_buffer_.resize(transfer_size_);
      if (!direct_) input_buffer_.resize(transfer_size_);
      header = inflate_header(where);
    }
    if (header == ExpectedArrayHeader(spec)) {
      header_bytes_ = header.size();  // the writer's header for this spec: nothing to check
    } else {
      const npy::Header h = npy::Parse(header, where);
      CheckArrayHeader(h, spec, where);
      header_bytes_ = h.data_offset;
    }
    if (entry_.uncompressed != header_bytes_ + static_cast<Bytes>(samples_) * sample_bytes_) {
      dir.bad("x.npy holds " + std::to_string(entry_.uncompressed) + " bytes, its header implies " +
              std::to_string(header_bytes_ + static_cast<Bytes>(samples_) * sample_bytes_));
    }
    if (entry_.method == zip::kMethodStored) {
      array_.emplace(member_offset_ + header_bytes_, samples_, sample_bytes_, itemsize_,
                     transfer_size_, direct_ != nullptr);
    }
    if (direct_) open_bytes_ = direct_->bytes_read();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return open_bytes_; }

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    if (array_) {
      return direct_ ? array_->read_direct(*direct_, k, out.data())
                     : array_->read(*file_, k, out.data());
    }
    if (!direct_) return inflate_sample(k, out.data());
    direct_->discard_staged();
    const Bytes before = direct_->bytes_read();
    inflate_sample(k, out.data());
    return direct_->bytes_read() - before;
  }

 private:
  // Inflates the member from its start, handing each piece of output (with its member offset)
  // to `sink` until it returns false or the member ends; returns compressed bytes read.
  template <typename Sink>
  Bytes inflate_member(Sink&& sink) {
    RawInflater inflater;
    z_stream& z = inflater.z;
    Bytes read = 0;
    Bytes produced = 0;
    bool more = true;
    int rc = Z_OK;
    while (more && rc != Z_STREAM_END) {
      if (z.avail_in == 0) {
        std::span<std::byte> input;
        if (!next_input(read, &input)) {
          throw CorruptDataError(
              path(), "npz", "truncated x.npy at offset " + std::to_string(member_offset_ + read));
        }
        if (input.empty()) break;
        read += input.size();
        z.next_in = reinterpret_cast<Bytef*>(input.data());
        z.avail_in = static_cast<uInt>(input.size());
      }
      z.next_out = reinterpret_cast<Bytef*>(inflate_buffer_.data());
      z.avail_out = static_cast<uInt>(inflate_buffer_.size());
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        throw CorruptDataError(
            path(), "npz",
            "corrupt deflate data in x.npy near member byte " + std::to_string(read));
      }
      const Bytes n = inflate_buffer_.size() - z.avail_out;
      more = sink(std::span<const std::byte>(inflate_buffer_.data(), n), produced);
      produced += n;
    }
    return read;
  }

  // Sets `input` to the next piece of the compressed member from member byte `read` on (empty
  // at its end); false when the file ends first. With O_DIRECT the pieces end on multiples of
  // transfer_size rounded up to whole blocks, so that no block is fetched twice.
  bool next_input(Bytes read, std::span<std::byte>* input) {
    const Bytes left = entry_.compressed - read;
    const Bytes at = member_offset_ + read;
    if (left == 0) {
      *input = {};
    } else if (direct_) {
      const Bytes piece = storage::AlignUp(transfer_size_);
      *input = direct_->view(at, std::min(left, at - at % piece + piece - at));
    } else {
      const Bytes want = std::min<Bytes>(input_buffer_.size(), left);
      *input = {input_buffer_.data(),
                static_cast<std::size_t>(file_->read_at(at, input_buffer_.data(), want))};
    }
    return left == 0 || !input->empty();
  }

  std::string inflate_header(const std::string& where) {
    std::string header;
    Bytes needed = npy::kProbeBytes;
    open_bytes_ += inflate_member([&](std::span<const std::byte> piece, Bytes) {
      header.append(reinterpret_cast<const char*>(piece.data()), piece.size());
      if (header.size() >= npy::kProbeBytes) needed = npy::HeaderLength(header, where);
      return header.size() < needed;
    });
    if (header.size() < needed)
      throw CorruptDataError(path(), "npz", "x.npy ends inside its header");
    header.resize(needed);
    return header;
  }

  Bytes inflate_sample(std::int64_t k, std::byte* out) {
    const Bytes end = header_bytes_ + static_cast<Bytes>(samples_) * sample_bytes_;
    Bytes seen = 0;
    const Bytes read = inflate_member([&](std::span<const std::byte> piece, Bytes offset) {
      const Bytes lo = std::max(offset, header_bytes_);
      const Bytes hi = std::min(offset + piece.size(), end);
      if (lo < hi) {
        GatherSample(piece.subspan(lo - offset, hi - lo), lo - header_bytes_, samples_, itemsize_,
                     k, out);
      }
      seen = offset + piece.size();
      // With n samples, sample k's last element is in the last group of the array.
      return seen < end;
    });
    if (seen < end) {
      throw IoError(
          "read", path(), 0,
          "x.npy inflates to " + std::to_string(seen) + " bytes, expected " + std::to_string(end));
    }
    return read;
  }

  std::unique_ptr<storage::ReadableFile> file_;
  DirectFile* direct_;  // file_ when reading with O_DIRECT, else null
  std::int64_t samples_;
  Bytes sample_bytes_;
  int itemsize_;
  Bytes transfer_size_;
  Bytes open_bytes_ = 0;
  Entry entry_;
  Bytes member_offset_ = 0;
  Bytes header_bytes_ = 0;
  std::optional<StoredSampleLastArray> array_;
  std::vector<std::byte> inflate_buffer_;
  std::vector<std::byte> input_buffer_;
};

}  // namespace

std::unique_ptr<FileReader> NpzReader::open(storage::Env& env, const FileSpec& spec,
                                            const FileReadOptions& options) const {
  OpenedFile opened = OpenForReading(env, spec.path, options.direct);
  return std::make_unique<NpzFileReader>(std::move(opened.file), opened.direct_file, spec, options);
}

}  // namespace dlbench::formats
