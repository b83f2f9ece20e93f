#include "workflow/shared_file_writer.h"

// The C API only (the C++ bindings would need their own library).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/crc32c.h"
#include "formats/dtype.h"
#include "formats/npy_header.h"
#include "formats/tfrecord_example.h"
#include "storage/atomic_file.h"
#include "storage/file.h"
#include "storage/posix_file.h"
#include "util/error.h"
#include "workflow/generation_plan.h"
#include "workflow/shared_hdf5_writer.h"

namespace dlbench::workflow {
namespace {

std::string MpiMessage(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// An MPI file opened by every rank of a communicator; closed (collectively) by close().
class MpiFile {
 public:
  MpiFile(const mpi::Communicator& comm, std::string path) : path_(std::move(path)) {
    const MPI_Comm raw = MPI_Comm_f2c(comm.fortran_handle());
    const int rc = MPI_File_open(raw, path_.c_str(), MPI_MODE_WRONLY | MPI_MODE_CREATE,
                                 MPI_INFO_NULL, &handle_);
    if (rc != MPI_SUCCESS) throw IoError("MPI_File_open", path_, 0, MpiMessage(rc));
    // A partial file from an earlier attempt may be longer than this one will be.
    Check(MPI_File_set_size(handle_, 0), "MPI_File_set_size", 0, 0);
  }
  ~MpiFile() {
    if (handle_ != MPI_FILE_NULL) MPI_File_close(&handle_);
  }
  MpiFile(const MpiFile&) = delete;
  MpiFile& operator=(const MpiFile&) = delete;

  const std::string& path() const { return path_; }

  void WriteAtAll(Bytes offset, const std::byte* data, Bytes length) {
    if (length > static_cast<Bytes>(INT_MAX)) {
      throw Error(ExitCode::kInternal, "collective write larger than INT_MAX bytes");
    }
    MPI_Status status;
    Check(MPI_File_write_at_all(handle_, static_cast<MPI_Offset>(offset), data,
                                static_cast<int>(length), MPI_BYTE, &status),
          "MPI_File_write_at_all", offset, length);
    int written = 0;
    MPI_Get_count(&status, MPI_BYTE, &written);
    if (static_cast<Bytes>(written) != length) {
      throw IoError("MPI_File_write_at_all", path_, 0,
                    storage::OffsetDetail(offset, length) + ": wrote only " +
                        std::to_string(written) + " bytes");
    }
  }
  void WriteAt(Bytes offset, const void* data, Bytes length) {
    MPI_Status status;
    Check(MPI_File_write_at(handle_, static_cast<MPI_Offset>(offset), data,
                            static_cast<int>(length), MPI_BYTE, &status),
          "MPI_File_write_at", offset, length);
  }
  void Sync() { Check(MPI_File_sync(handle_), "MPI_File_sync", 0, 0); }
  void Close() {
    const int rc = MPI_File_close(&handle_);
    handle_ = MPI_FILE_NULL;
    if (rc != MPI_SUCCESS) throw IoError("MPI_File_close", path_, 0, MpiMessage(rc));
  }

 private:
  void Check(int rc, const char* operation, Bytes offset, Bytes length) const {
    if (rc != MPI_SUCCESS) {
      throw IoError(operation, path_, 0,
                    storage::OffsetDetail(offset, length) + ": " + MpiMessage(rc));
    }
  }

  std::string path_;
  MPI_File handle_ = MPI_FILE_NULL;
};

// A rank's contiguous region of a shared file, streamed through the buffer in collective
// writes. Every rank must make the same number of calls, so finish() pads with empty writes up
// to `rounds` (the maximum over ranks).
class CollectiveStream {
 public:
  CollectiveStream(MpiFile& file, std::span<std::byte> buffer, Bytes region_begin)
      : file_(file), buffer_(buffer), offset_(region_begin) {}

  void Append(const void* data, std::size_t length) {
    const auto* bytes = static_cast<const std::byte*>(data);
    while (length > 0) {
      std::span<std::byte> space = FreeSpace();
      const std::size_t n = std::min(space.size(), length);
      std::memcpy(space.data(), bytes, n);
      Commit(n);
      bytes += n;
      length -= n;
    }
  }
  std::span<std::byte> FreeSpace() {
    if (used_ == buffer_.size()) Flush();
    return buffer_.subspan(used_);
  }
  void Commit(std::size_t length) { used_ += length; }

  // Writes what is buffered, then empty collective writes until `rounds` calls were made.
  void Finish(std::uint64_t rounds) {
    if (used_ > 0) Flush();
    while (calls_ < rounds) {
      file_.WriteAtAll(offset_, buffer_.data(), 0);
      ++calls_;
    }
    if (calls_ != rounds) {
      throw Error(ExitCode::kInternal, "shared write of " + file_.path() + " made " +
                                           std::to_string(calls_) + " collective calls, not " +
                                           std::to_string(rounds));
    }
  }
  Bytes written() const { return written_; }

 private:
  void Flush() {
    file_.WriteAtAll(offset_, buffer_.data(), used_);
    offset_ += used_;
    written_ += used_;
    used_ = 0;
    ++calls_;
  }

  MpiFile& file_;
  std::span<std::byte> buffer_;
  Bytes offset_;
  std::size_t used_ = 0;
  Bytes written_ = 0;
  std::uint64_t calls_ = 0;
};

// Collective calls needed by the rank with the largest region (regions differ by rank).
std::uint64_t Rounds(const mpi::Communicator& comm, Bytes region_bytes, Bytes buffer_bytes) {
  const std::uint64_t mine = (region_bytes + buffer_bytes - 1) / buffer_bytes;
  return comm.max(mine);
}

void AppendLe64(CollectiveStream& out, std::uint64_t value) {
  std::array<std::byte, 8> bytes;
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::byte>(value >> (8 * i));
  out.Append(bytes.data(), bytes.size());
}

void AppendLe32(CollectiveStream& out, std::uint32_t value) {
  std::array<std::byte, 4> bytes;
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::byte>(value >> (8 * i));
  out.Append(bytes.data(), bytes.size());
}

// Streams payload bytes [begin, end) of the file's content.
void AppendContent(CollectiveStream& out, const dataset::ContentGenerator& content, FileIndex file,
                   Bytes begin, Bytes end) {
  for (Bytes at = begin; at < end;) {
    std::span<std::byte> space = out.FreeSpace();
    space = space.first(std::min<Bytes>(space.size(), end - at));
    content.Fill(file, at, space);
    out.Commit(space.size());
    at += space.size();
  }
}

struct Part {
  std::string partial;
  std::string final_path;
};

class SharedWrite {
 public:
  SharedWrite(const mpi::Communicator& comm, const DatasetFile& file,
              const dataset::ContentGenerator& content, std::span<std::byte> buffer, bool fsync)
      : comm_(comm),
        file_(file),
        content_(content),
        buffer_(buffer),
        fsync_(fsync),
        slice_(
            SliceOfRank(static_cast<std::uint64_t>(file.spec.samples), comm.size(), comm.rank())),
        sample_(file.spec.sample_bytes()) {}

  Bytes RawWithHeader(const std::string& header) {
    MpiFile data(comm_, Partial(file_.path));
    if (comm_.is_root() && !header.empty()) {
      data.WriteAt(0, header.data(), header.size());
      bytes_ += header.size();
    }
    const Bytes begin = slice_.first * sample_;
    const Bytes end = slice_.end() * sample_;
    CollectiveStream out(data, buffer_, header.size() + begin);
    AppendContent(out, content_, file_.spec.file_index, begin, end);
    out.Finish(Rounds(comm_, end - begin, buffer_.size()));
    bytes_ += out.written();
    Close(data);
    return bytes_;
  }

  void IndexFile(const std::string& final_path, bool offsets) {
    MpiFile index(comm_, Partial(final_path));
    CollectiveStream out(index, buffer_, 8 * slice_.first);
    for (std::uint64_t i = slice_.first; i < slice_.end(); ++i) {
      AppendLe64(out, offsets ? i * sample_ : sample_);
    }
    out.Finish(Rounds(comm_, 8 * slice_.count, buffer_.size()));
    bytes_ += out.written();
    Close(index);
  }

  void Tfrecord() {
    const formats::tfrecord::ExampleLayout layout(sample_);
    const auto header = formats::tfrecord::EncodeHeader(layout.payload_bytes());
    const Bytes record = layout.record_bytes();
    {
      MpiFile data(comm_, Partial(file_.path));
      CollectiveStream out(data, buffer_, slice_.first * record);
      for (std::uint64_t k = slice_.first; k < slice_.end(); ++k) {
        out.Append(header.data(), header.size());
        std::uint32_t crc = formats::crc32c::Value(layout.prefix().data(), layout.prefix().size());
        out.Append(layout.prefix().data(), layout.prefix().size());
        const Bytes base = k * sample_;
        for (Bytes done = 0; done < sample_;) {
          std::span<std::byte> space = out.FreeSpace();
          space = space.first(std::min<Bytes>(space.size(), sample_ - done));
          content_.Fill(file_.spec.file_index, base + done, space);
          crc = formats::crc32c::Extend(crc, space.data(), space.size());
          out.Commit(space.size());
          done += space.size();
        }
        crc = formats::crc32c::Extend(crc, layout.suffix().data(), layout.suffix().size());
        out.Append(layout.suffix().data(), layout.suffix().size());
        AppendLe32(out, formats::crc32c::Mask(crc));
      }
      out.Finish(Rounds(comm_, slice_.count * record, buffer_.size()));
      bytes_ += out.written();
      Close(data);
    }
    if (!file_.spec.dali_index_path.empty()) {
      MpiFile index(comm_, Partial(file_.spec.dali_index_path));
      const Bytes begin = DaliIndexOffset(slice_.first, record);
      const Bytes end = DaliIndexOffset(slice_.end(), record);
      CollectiveStream out(index, buffer_, begin);
      char line[48];
      for (std::uint64_t k = slice_.first; k < slice_.end(); ++k) {
        const int n = std::snprintf(line, sizeof line, "%llu %llu\n",
                                    static_cast<unsigned long long>(k * record),
                                    static_cast<unsigned long long>(record));
        out.Append(line, static_cast<std::size_t>(n));
      }
      out.Finish(Rounds(comm_, end - begin, buffer_.size()));
      bytes_ += out.written();
      Close(index);
    }
  }

  // After every rank closed every part: companions first, the data file last, so that a data
  // file under its final name always has its companions.
  void Publish() {
    comm_.barrier();
    if (!comm_.is_root()) return;
    storage::Env& env = storage::PosixEnv();
    for (const Part& part : parts_) {
      if (part.final_path != file_.path) env.rename(part.partial, part.final_path);
    }
    env.rename(storage::PartialPathFor(file_.path), file_.path);
    if (fsync_) {
      for (const Part& part : parts_) {
        const std::string folder = std::filesystem::path(part.final_path).parent_path().string();
        env.sync_directory(folder.empty() ? "." : folder);
      }
    }
  }

  Bytes bytes() const { return bytes_; }

 private:
  std::string Partial(const std::string& final_path) {
    parts_.push_back({storage::PartialPathFor(final_path), final_path});
    return parts_.back().partial;
  }
  void Close(MpiFile& file) {
    if (fsync_) file.Sync();
    file.Close();
  }

  const mpi::Communicator& comm_;
  const DatasetFile& file_;
  const dataset::ContentGenerator& content_;
  std::span<std::byte> buffer_;
  bool fsync_;
  SampleSlice slice_;
  Bytes sample_;
  Bytes bytes_ = 0;
  std::vector<Part> parts_;
};

std::vector<std::int64_t> SampleLastShape(const formats::FileSpec& spec) {
  std::vector<std::int64_t> shape = spec.sample_dims;
  shape.push_back(spec.samples);
  return shape;
}

}  // namespace

bool SupportsSharedWriting(config::Format format) {
  switch (format) {
    case config::Format::kIndexedBinary:
    case config::Format::kMmapIndexedBinary:
    case config::Format::kNpy:
    case config::Format::kTfrecord:
    case config::Format::kHdf5:
      return true;
    default:
      return false;
  }
}

Bytes SharedFileSize(config::Format format, const formats::FileSpec& spec) {
  const Bytes samples = static_cast<Bytes>(spec.samples);
  switch (format) {
    case config::Format::kIndexedBinary:
    case config::Format::kMmapIndexedBinary:
      return samples * spec.sample_bytes();
    case config::Format::kNpy:
      return formats::npy::Encode(formats::LookupDType(spec.dtype).descr, SampleLastShape(spec))
                 .size() +
             samples * spec.sample_bytes();
    case config::Format::kTfrecord:
      return samples * formats::tfrecord::ExampleLayout(spec.sample_bytes()).record_bytes();
    default:
      throw UsageError(std::string("dataset.format ") + config::ToString(format) +
                       " cannot be written as a shared file");
  }
}

Bytes DaliIndexOffset(std::uint64_t k, Bytes record_bytes) {
  // Σ_{j<k} digits(j·R) = k + Σ_{d≥1} #{j < k : j·R ≥ 10^d}; j·R < 10^d ⇔ j < ceil(10^d / R).
  const Bytes record_digits = std::to_string(record_bytes).size();
  Bytes digits = k;
  Bytes power = 10;
  for (int d = 1; d <= 19; ++d) {
    const std::uint64_t below = (power + record_bytes - 1) / record_bytes;
    if (below >= k) break;
    digits += k - below;
    if (d < 19) power *= 10;
  }
  return digits + k * (record_digits + 2);
}

Bytes WriteSharedFile(const mpi::Communicator& comm, config::Format format, const DatasetFile& file,
                      const dataset::ContentGenerator& content, std::span<std::byte> buffer,
                      bool fsync) {
  if (buffer.empty()) throw Error(ExitCode::kInternal, "shared write without a buffer");
  if (format == config::Format::kHdf5) return WriteSharedHdf5(comm, file, content, buffer, fsync);
  SharedWrite write(comm, file, content, buffer, fsync);
  switch (format) {
    case config::Format::kIndexedBinary:
    case config::Format::kMmapIndexedBinary:
      write.RawWithHeader("");
      write.IndexFile(file.spec.offsets_index(), /*offsets=*/true);
      write.IndexFile(file.spec.sizes_index(), /*offsets=*/false);
      break;
    case config::Format::kNpy:
      write.RawWithHeader(formats::npy::Encode(formats::LookupDType(file.spec.dtype).descr,
                                               SampleLastShape(file.spec)));
      break;
    case config::Format::kTfrecord:
      write.Tfrecord();
      break;
    default:
      throw UsageError(std::string("dataset.format ") + config::ToString(format) +
                       " cannot be written as a shared file");
  }
  write.Publish();
  return write.bytes();
}

}  // namespace dlbench::workflow
