#include "formats/numpy/npz_writer.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "dataset/content.h"
#include "formats/io/buffered_appender.h"
#include "formats/numpy/npy_array_check.h"
#include "formats/numpy/npy_header.h"
#include "formats/numpy/zip_layout.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Fills `out` with the member's array bytes starting at array byte `offset`.
using ArrayFill = std::function<void(Bytes offset, std::span<std::byte> out)>;

bool Deflated(const FileSpec& spec) {
  switch (spec.compression) {
    case config::Compression::kNone:
      return false;
    case config::Compression::kZip:
      return true;
    default:  // config::Validate lets only none and zip through
      throw InternalError(std::string("npz supports compression none or zip, not ") +
                          config::ToString(spec.compression));
  }
}

std::uint32_t Crc32(std::uint32_t crc, const void* data, Bytes length) {
  const auto* p = static_cast<const Bytef*>(data);
  while (length > 0) {
    const auto n = static_cast<uInt>(std::min<Bytes>(length, 1u << 30));
    crc = static_cast<std::uint32_t>(crc32(crc, p, n));
    p += n;
    length -= n;
  }
  return crc;
}

// Where the sequential path's first pass writes: it only counts the bytes appended.
class MeasuringFile final : public storage::WritableFile {
 public:
  explicit MeasuringFile(const std::string& path) : path_(path) {}
  const std::string& path() const override { return path_; }
  void write_at(Bytes /*offset*/, const void* /*buffer*/, Bytes /*length*/) override {
    throw InternalError("npz: a measuring pass wrote at an offset");
  }
  void append(const void* /*buffer*/, Bytes length) override { appended_ += length; }
  Bytes appended() const override { return appended_; }
  void truncate(Bytes /*size*/) override { throw InternalError("npz: a measuring pass truncated"); }
  void sync() override {}
  void close() override {}
  void publish() override { throw InternalError("npz: a measuring pass published"); }
  void abandon() override {}

 private:
  const std::string& path_;
  Bytes appended_ = 0;
};

class MemberWriter {
 public:
  // `sequential`: the file cannot be written at an offset (storage::Capabilities::random_writes).
  MemberWriter(storage::WritableFile& file, std::span<std::byte> buffer, const FileSpec& spec,
               bool sequential)
      : file_(file),
        buffer_(buffer),
        spec_(spec),
        deflate_(Deflated(spec)),
        sequential_(sequential) {}

  zip::Member write(const std::string& name, const std::string& npy_header, Bytes array_bytes,
                    const ArrayFill& fill) {
    zip::Member m;
    m.name = name;
    m.method = deflate_ ? zip::kMethodDeflated : zip::kMethodStored;
    m.local_offset = file_.appended();
    m.uncompressed = npy_header.size() + array_bytes;
    if (sequential_) return write_in_order(m, npy_header, array_bytes, fill);
    const std::string placeholder = zip::LocalHeader(m);
    file_.append(placeholder.data(), placeholder.size());
    const Bytes data_start = file_.appended();
    m.crc = encode(file_, npy_header, array_bytes, fill);
    m.compressed = file_.appended() - data_start;
    const std::string header = zip::LocalHeader(m);
    if (header.size() != placeholder.size()) {
      throw InternalError("npz local header changed size");
    }
    file_.write_at(m.local_offset, header.data(), header.size());
    return m;
  }

 private:
  // The sequential path: a first pass encodes the member without writing it, for its CRC and
  // compressed size, so that the local header goes out complete before the data, which a second
  // pass encodes again (the same bytes: the content is a function of the offset). Twice the
  // encoding, the same file.
  zip::Member write_in_order(zip::Member m, const std::string& npy_header, Bytes array_bytes,
                             const ArrayFill& fill) {
    MeasuringFile measure(file_.path());
    m.crc = encode(measure, npy_header, array_bytes, fill);
    m.compressed = measure.appended();
    const std::string header = zip::LocalHeader(m);
    file_.append(header.data(), header.size());
    const Bytes data_start = file_.appended();
    if (encode(file_, npy_header, array_bytes, fill) != m.crc ||
        file_.appended() - data_start != m.compressed) {
      throw InternalError("npz: the member " + m.name + " of " + file_.path() +
                          " came out differently when encoded again");
    }
    return m;
  }

  std::uint32_t encode(storage::WritableFile& file, const std::string& npy_header,
                       Bytes array_bytes, const ArrayFill& fill) {
    return deflate_ ? deflate_member(file, npy_header, array_bytes, fill)
                    : store(file, npy_header, array_bytes, fill);
  }

  std::uint32_t store(storage::WritableFile& file, const std::string& npy_header, Bytes array_bytes,
                      const ArrayFill& fill) {
    BufferedAppender out(file, buffer_);
    std::uint32_t crc = Crc32(0, npy_header.data(), npy_header.size());
    out.append(npy_header.data(), npy_header.size());
    for (Bytes done = 0; done < array_bytes;) {
      std::span<std::byte> space = out.free_space();
      space = space.first(std::min<Bytes>(space.size(), array_bytes - done));
      fill(done, space);
      crc = Crc32(crc, space.data(), space.size());
      out.commit(space.size());
      done += space.size();
    }
    out.flush();
    return crc;
  }

  std::uint32_t deflate_member(storage::WritableFile& file, const std::string& npy_header,
                               Bytes array_bytes, const ArrayFill& fill) {
    // Half the buffer stages input, half collects compressed output.
    const std::size_t half = buffer_.size() / 2;
    if (half < 64) throw InternalError("npz writer: buffer too small");
    std::span<std::byte> input = buffer_.first(half);
    BufferedAppender out(file, buffer_.subspan(half));
    z_stream z{};
    if (deflateInit2(&z, spec_.compression_level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      // config::Validate holds the level to 0..9, which zlib takes.
      throw InternalError("npz: zlib refused compression_level " +
                          std::to_string(spec_.compression_level));
    }
    std::uint32_t crc = 0;
    auto pump = [&](const std::byte* data, std::size_t n, int flush) {
      crc = Crc32(crc, data, n);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data));
      z.avail_in = static_cast<uInt>(n);
      do {
        std::span<std::byte> space = out.free_space();
        z.next_out = reinterpret_cast<Bytef*>(space.data());
        z.avail_out = static_cast<uInt>(std::min<std::size_t>(space.size(), 1u << 30));
        const uInt before = z.avail_out;
        const int rc = deflate(&z, flush);
        if (rc == Z_STREAM_ERROR) throw InternalError("npz: deflate failed");
        out.commit(before - z.avail_out);
        if (flush == Z_FINISH && rc == Z_STREAM_END) break;
      } while (z.avail_in > 0 || (flush == Z_FINISH));
    };
    pump(reinterpret_cast<const std::byte*>(npy_header.data()), npy_header.size(), Z_NO_FLUSH);
    for (Bytes done = 0; done < array_bytes;) {
      const std::span<std::byte> chunk =
          input.first(std::min<Bytes>(input.size(), array_bytes - done));
      fill(done, chunk);
      pump(chunk.data(), chunk.size(), Z_NO_FLUSH);
      done += chunk.size();
    }
    pump(nullptr, 0, Z_FINISH);
    deflateEnd(&z);
    out.flush();
    return crc;
  }

  storage::WritableFile& file_;
  std::span<std::byte> buffer_;
  const FileSpec& spec_;
  bool deflate_;
  bool sequential_;
};

std::string LabelsHeader(const FileSpec& spec) { return npy::Encode("<i8", {spec.samples}); }

// The members and central directory offset np.savez writes for a stored archive of `spec`.
struct StoredLayout {
  zip::Member x{"x.npy", zip::kMethodStored, 0, 0, 0, 0};
  zip::Member y{"y.npy", zip::kMethodStored, 0, 0, 0, 0};
  Bytes cd_offset = 0;
};

StoredLayout LayoutOf(const FileSpec& spec, const std::string& x_header) {
  StoredLayout l;
  l.x.uncompressed = x_header.size() + static_cast<Bytes>(spec.samples) * spec.sample_bytes();
  l.x.compressed = l.x.uncompressed;
  l.y.uncompressed = LabelsHeader(spec).size() + 8 * static_cast<Bytes>(spec.samples);
  l.y.compressed = l.y.uncompressed;
  l.y.local_offset = zip::LocalHeaderBytes(l.x) + l.x.compressed;
  l.cd_offset = l.y.local_offset + zip::LocalHeaderBytes(l.y) + l.y.compressed;
  return l;
}

}  // namespace

NpzRegions StoredNpzRegions(const FileSpec& spec) {
  const std::string& x_header = ExpectedArrayHeader(spec);
  const StoredLayout l = LayoutOf(spec, x_header);
  NpzRegions regions;
  regions.head = zip::LocalHeaderBytes(l.x) + x_header.size();
  regions.tail = zip::CentralDirectoryAndEnd({l.x, l.y}, l.cd_offset).size();
  return regions;
}

Bytes NpzWriter::file_size(const FileSpec& spec) const {
  if (Deflated(spec)) {
    throw UsageError("the size of a compressed npz file is known only after writing it");
  }
  const StoredLayout l = LayoutOf(spec, ExpectedArrayHeader(spec));
  return l.cd_offset + zip::CentralDirectoryAndEnd({l.x, l.y}, l.cd_offset).size();
}

WriteResult NpzWriter::write(storage::Env& env, const FileSpec& spec,
                             const dataset::ContentGenerator& content,
                             std::span<std::byte> buffer) const {
  const Bytes array_bytes = static_cast<Bytes>(spec.samples) * spec.sample_bytes();
  auto file = env.create(spec.path);
  MemberWriter members(*file, buffer, spec, !env.capabilities(spec.path).random_writes);
  std::vector<zip::Member> written;
  written.push_back(members.write(
      "x.npy", ExpectedArrayHeader(spec), array_bytes,
      [&](Bytes offset, std::span<std::byte> out) { content.fill(spec.file_index, offset, out); }));
  written.push_back(members.write(
      "y.npy", LabelsHeader(spec), 8 * static_cast<Bytes>(spec.samples),
      [](Bytes, std::span<std::byte> out) { std::memset(out.data(), 0, out.size()); }));
  const std::string tail = zip::CentralDirectoryAndEnd(written, file->appended());
  file->append(tail.data(), tail.size());
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
