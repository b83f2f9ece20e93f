#include "formats/hdf5/hdf5_shared_writer.h"

// The C API only (the C++ bindings would need their own library).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "dataset/content.h"
#include "formats/hdf5/hdf5_creation.h"
#include "formats/hdf5/hdf5_handles.h"
#include "formats/io/slice_layout.h"
#include "storage/atomic_file.h"
#include "storage/file.h"
#include "storage/mpiio_capture.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using hdf5::Check;
using hdf5::CheckCompression;
using hdf5::CreationProperties;
using hdf5::Handle;
using hdf5::Lock;
using hdf5::Open;

// Leaves an HDF5 file or dataset open when an exception passes: closing them is collective and
// the other ranks wait in the write this rank left, so the job ends through MPI_Abort instead.
class OpenOnFailure {
 public:
  explicit OpenOnFailure(Handle& handle) : handle_(handle) {}
  ~OpenOnFailure() {
    if (std::uncaught_exceptions() > uncaught_) handle_.release();
  }
  OpenOnFailure(const OpenOnFailure&) = delete;
  OpenOnFailure& operator=(const OpenOnFailure&) = delete;

 private:
  Handle& handle_;
  int uncaught_ = std::uncaught_exceptions();
};

// A dataset seen as total rows of `row_bytes`, `rows_per_sample` rows per sample (the first
// sample dimension; 1 for samples of one row). A write covers whole samples or lies inside one.
struct RowLayout {
  std::vector<hsize_t> shape;
  hsize_t rows_per_sample = 1;
  Bytes row_bytes = 0;
};

// Rows of the next write from `row` (below `end`), as the serial writer cuts them: whole samples
// when at a sample start and one fits the buffer, else the rest of the current sample.
hsize_t NextRows(const RowLayout& layout, hsize_t row, hsize_t end, Bytes buffer_bytes) {
  const hsize_t rps = layout.rows_per_sample;
  const Bytes sample_bytes = layout.row_bytes * rps;
  if (row % rps == 0 && buffer_bytes >= sample_bytes) {
    return std::min<hsize_t>(buffer_bytes / sample_bytes, (end - row) / rps) * rps;
  }
  return std::min<hsize_t>(buffer_bytes / layout.row_bytes, rps - row % rps);
}

std::uint64_t CountWrites(const RowLayout& layout, hsize_t row, hsize_t end, Bytes buffer_bytes) {
  std::uint64_t writes = 0;
  while (row < end) {
    row += NextRows(layout, row, end, buffer_bytes);
    ++writes;
  }
  return writes;
}

// Selects rows [first, first + rows) in `file_space` and returns the matching memory space.
Handle SelectRows(const Lock& lock, hid_t file_space, const RowLayout& layout, hsize_t first,
                  hsize_t rows, const std::string& path) {
  std::vector<hsize_t> start(layout.shape.size(), 0), count = layout.shape;
  start[0] = first / layout.rows_per_sample;
  if (layout.rows_per_sample == 1 || rows % layout.rows_per_sample == 0) {
    count[0] = rows / layout.rows_per_sample;
  } else {
    count[0] = 1;
    start[1] = first % layout.rows_per_sample;
    count[1] = rows;
  }
  Check(
      lock,
      H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
      "select", path);
  return Open(lock, H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
              H5Sclose, "create space", path);
}

class SharedHdf5 {
 public:
  SharedHdf5(const mpi::Communicator& comm, const FileSpec& spec,
             const dataset::ContentGenerator& content, std::span<std::byte> buffer)
      : comm_(comm),
        spec_(spec),
        content_(content),
        buffer_(buffer),
        partial_(storage::PartialPathFor(spec.path)),
        slice_(SharedFileSlice(spec.samples, comm.size(), comm.rank())) {}

  // Collective: creates, fills and closes the partial file.
  void write(const Lock& lock) {
    CheckCompression(spec_);
    const std::vector<hsize_t> sample = hdf5::DatasetSampleDims(spec_);
    RowLayout records;
    records.shape.push_back(static_cast<hsize_t>(spec_.samples));
    records.shape.insert(records.shape.end(), sample.begin(), sample.end());
    records.rows_per_sample = sample.empty() ? 1 : sample[0];
    records.row_bytes = static_cast<Bytes>(spec_.itemsize());
    for (std::size_t i = 1; i < sample.size(); ++i) records.row_bytes *= sample[i];
    const std::vector<hsize_t> max_shape = maximum_shape(records.shape, sample.size());
    const hid_t file_type = hdf5::FileType(lock, spec_.dtype);
    const hid_t mem_type = hdf5::MemoryType(lock, spec_.dtype);

    // Shapes are checked before the file exists.
    const Handle dcpl = CreationProperties(lock, spec_, records.shape, partial_);
    const Handle space = Open(lock,
                              H5Screate_simple(static_cast<int>(records.shape.size()),
                                               records.shape.data(), max_shape.data()),
                              H5Sclose, "create space", partial_);
    const Handle fapl = Open(lock, H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "property list", partial_);
    Check(lock, H5Pset_fapl_mpio(fapl.get(), MPI_Comm_f2c(comm_.fortran_handle()), MPI_INFO_NULL),
          "set MPI-IO driver", partial_);
    Check(lock, H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V110),
          "set version bounds", partial_);
    // No aggregation blocks (2 KiB each by default, never filled in a file this simple): every
    // byte of the file is one HDF5 writes, so the bytes written through the Env are the file's
    // size, but for the superblock, written at create and again at close.
    Check(lock, H5Pset_meta_block_size(fapl.get(), 0), "set meta block size", partial_);
    Check(lock, H5Pset_small_data_block_size(fapl.get(), 0), "set small data block size", partial_);
    const Handle dxpl =
        Open(lock, H5Pcreate(H5P_DATASET_XFER), H5Pclose, "property list", partial_);
    Check(lock, H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "set collective transfer",
          partial_);
    dxpl_ = dxpl.get();

    Handle file = Open(lock, H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
                       H5Fclose, "create", partial_);
    const OpenOnFailure file_stays(file);
    const auto payload = [&](Bytes offset, std::span<std::byte> out) {
      content_.fill(spec_.file_index, offset, out);
    };
    for (int j = 0; j < spec_.num_dset_per_record; ++j) {
      Handle dset = Open(lock,
                         H5Dcreate2(file.get(), hdf5::RecordsName(j).c_str(), file_type,
                                    space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                         H5Dclose, "create dataset", partial_);
      const OpenOnFailure dset_stays(dset);
      if (records.rows_per_sample > 0 && records.row_bytes > 0) {
        write_slice(lock, dset.get(), records, mem_type, payload);
      }
    }
    RowLayout labels;
    labels.shape = {static_cast<hsize_t>(spec_.samples)};
    labels.row_bytes = 8;
    const Handle label_space = Open(lock, H5Screate_simple(1, labels.shape.data(), nullptr),
                                    H5Sclose, "create space", partial_);
    Handle label_set = Open(lock,
                            H5Dcreate2(file.get(), "labels", H5T_STD_I64LE, label_space.get(),
                                       H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                            H5Dclose, "create dataset", partial_);
    const OpenOnFailure labels_stay(label_set);
    write_slice(lock, label_set.get(), labels, H5T_NATIVE_INT64,
                [](Bytes, std::span<std::byte> out) { std::memset(out.data(), 0, out.size()); });
    label_set.reset();
    Check(lock, H5Fclose(file.release()), "close", partial_);
  }

  const std::string& partial() const { return partial_; }

 private:
  std::vector<hsize_t> maximum_shape(const std::vector<hsize_t>& shape,
                                     std::size_t sample_rank) const {
    std::vector<hsize_t> max_shape = shape;
    if (spec_.max_shape.empty()) return max_shape;
    if (spec_.max_shape.size() != sample_rank) {
      throw UsageError("hdf5.max_shape has " + std::to_string(spec_.max_shape.size()) +
                       " dimensions, a sample has " + std::to_string(sample_rank));
    }
    for (std::size_t i = 0; i < sample_rank; ++i) {
      max_shape[i + 1] =
          spec_.max_shape[i] < 0 ? H5S_UNLIMITED : static_cast<hsize_t>(spec_.max_shape[i]);
    }
    return max_shape;
  }

  // Writes this rank's rows of `dset` in collective calls of at most one buffer, then empty
  // collective calls until it made as many as the rank with the most.
  template <typename Fill>
  void write_slice(const Lock& lock, hid_t dset, const RowLayout& layout, hid_t mem_type,
                   const Fill& fill) {
    std::span<std::byte> buffer = buffer_;
    if (buffer.size() < layout.row_bytes) {
      wide_.resize(layout.row_bytes);  // only when one row exceeds the buffer
      buffer = wide_;
    }
    const hsize_t begin = static_cast<hsize_t>(slice_.first) * layout.rows_per_sample;
    const hsize_t end = static_cast<hsize_t>(slice_.end()) * layout.rows_per_sample;
    const std::uint64_t rounds = comm_.max(CountWrites(layout, begin, end, buffer.size()));
    const Handle file_space = Open(lock, H5Dget_space(dset), H5Sclose, "get space", partial_);
    std::uint64_t calls = 0;
    for (hsize_t row = begin; row < end; ++calls) {
      const hsize_t rows = NextRows(layout, row, end, buffer.size());
      const std::span<std::byte> chunk = buffer.first(rows * layout.row_bytes);
      fill(row * layout.row_bytes, chunk);
      const Handle mem_space = SelectRows(lock, file_space.get(), layout, row, rows, partial_);
      Check(lock, H5Dwrite(dset, mem_type, mem_space.get(), file_space.get(), dxpl_, chunk.data()),
            "write", partial_);
      row += rows;
    }
    if (calls < rounds) {
      Check(lock, H5Sselect_none(file_space.get()), "select", partial_);
      const hsize_t one = 1;
      const Handle mem_space =
          Open(lock, H5Screate_simple(1, &one, nullptr), H5Sclose, "create space", partial_);
      Check(lock, H5Sselect_none(mem_space.get()), "select", partial_);
      for (; calls < rounds; ++calls) {
        Check(lock,
              H5Dwrite(dset, mem_type, mem_space.get(), file_space.get(), dxpl_, buffer.data()),
              "write", partial_);
      }
    }
  }

  const mpi::Communicator& comm_;
  const FileSpec& spec_;
  const dataset::ContentGenerator& content_;
  std::span<std::byte> buffer_;
  std::string partial_;
  SampleSlice slice_;
  hid_t dxpl_ = H5P_DEFAULT;
  std::vector<std::byte> wide_;
};

}  // namespace

Bytes Hdf5SharedWriter::write(const mpi::Communicator& comm, storage::Env& env,
                              const FileSpec& spec, const dataset::ContentGenerator& content,
                              std::span<std::byte> buffer) const {
  if (buffer.empty()) throw InternalError("shared write without a buffer");
  SharedHdf5 write(comm, spec, content, buffer);
  Bytes bytes = 0;
  {
    const storage::MpiIoCapture capture(env, write.partial());
    try {
      // Debian's HDF5 is not thread-safe: the library is entered under the process-wide lock.
      const Lock lock;
      write.write(lock);
    } catch (const Error&) {
      // HDF5 failed because a routed MPI-IO call did: that error names the path and operation.
      if (capture.failure()) std::rethrow_exception(capture.failure());
      throw;
    }
    bytes = capture.bytes_written();
  }
  if (spec.fsync && comm.is_root()) {
    // HDF5's MPI-IO driver does not sync at close.
    auto synced = env.open_write(write.partial());
    synced->sync();
    synced->close();
  }
  PublishSharedParts(comm, env, {spec.path}, spec.fsync);
  return bytes;
}

}  // namespace dlbench::formats
