#include "formats/hdf5/hdf5_writer.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "dataset/content.h"
#include "formats/hdf5/hdf5_creation.h"
#include "formats/hdf5/hdf5_handles.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using hdf5::Check;
using hdf5::CheckCompression;
using hdf5::Close;
using hdf5::CreationProperties;
using hdf5::Handle;
using hdf5::Open;

// Writes `rows` rows starting at global row `first` of a dataset seen as (n·rows_per_sample, row)
// — always inside one sample or covering whole samples.
void WriteRows(const hdf5::Lock& lock, hid_t dset, const std::vector<hsize_t>& shape,
               hsize_t rows_per_sample, hsize_t first, hsize_t rows, hid_t mem_type,
               const void* data, const std::string& path) {
  std::vector<hsize_t> start(shape.size(), 0), count = shape;
  if (rows_per_sample == 1 || rows % rows_per_sample == 0) {
    start[0] = first / rows_per_sample;
    count[0] = rows / rows_per_sample;
  } else {
    start[0] = first / rows_per_sample;
    count[0] = 1;
    start[1] = first % rows_per_sample;
    count[1] = rows;
  }
  const Handle file_space = Open(lock, H5Dget_space(dset), H5Sclose, "get space", path);
  Check(lock,
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr),
        "select", path);
  const Handle mem_space =
      Open(lock, H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose,
           "create space", path);
  Check(lock, H5Dwrite(dset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
        "write", path);
}

// Streams a dataset's payload [0, n·S) through `buffer` in whole rows.
void WriteDataset(const hdf5::Lock& lock, hid_t dset, const std::vector<hsize_t>& shape,
                  Bytes row_bytes, hsize_t rows_per_sample, hid_t mem_type,
                  std::span<std::byte> buffer,
                  const std::function<void(Bytes, std::span<std::byte>)>& fill,
                  const std::string& path) {
  const hsize_t total_rows = shape[0] * rows_per_sample;
  const Bytes sample_bytes = row_bytes * rows_per_sample;
  std::vector<std::byte> wide;  // only when one row exceeds the buffer
  if (buffer.size() < row_bytes) {
    wide.resize(row_bytes);
    buffer = wide;
  }
  for (hsize_t row = 0; row < total_rows;) {
    hsize_t rows;
    if (row % rows_per_sample == 0 && buffer.size() >= sample_bytes) {
      rows = std::min<hsize_t>(buffer.size() / sample_bytes, (total_rows - row) / rows_per_sample) *
             rows_per_sample;
    } else {
      rows = std::min<hsize_t>(buffer.size() / row_bytes, rows_per_sample - row % rows_per_sample);
    }
    const std::span<std::byte> chunk = buffer.first(rows * row_bytes);
    fill(row * row_bytes, chunk);
    WriteRows(lock, dset, shape, rows_per_sample, row, rows, mem_type, chunk.data(), path);
    row += rows;
  }
}

}  // namespace

Bytes Hdf5Writer::file_size(const FileSpec&) const {
  throw UsageError("the size of an hdf5 file is known only after writing it");
}

WriteResult Hdf5Writer::write(storage::Env& env, const FileSpec& spec,
                              const dataset::ContentGenerator& content,
                              std::span<std::byte> buffer) const {
  // The HDF5 library writes its metadata at offsets and patches it as the file grows: there is
  // no sequential way to write the file, so storage without random writes is refused.
  if (!env.capabilities(spec.path).random_writes) {
    throw UsageError("format hdf5 cannot be written to " + spec.path +
                     ": HDF5 writes at offsets, which this storage cannot do (an object store); "
                     "generate the dataset on a file system, or use another format");
  }
  CheckCompression(spec);
  const std::vector<hsize_t> sample = hdf5::DatasetSampleDims(spec);
  std::vector<hsize_t> shape{static_cast<hsize_t>(spec.samples)};
  shape.insert(shape.end(), sample.begin(), sample.end());
  std::vector<hsize_t> max_shape = shape;
  if (!spec.max_shape.empty()) {
    if (spec.max_shape.size() != sample.size()) {
      throw UsageError("hdf5.max_shape has " + std::to_string(spec.max_shape.size()) +
                       " dimensions, a sample has " + std::to_string(sample.size()));
    }
    for (std::size_t i = 0; i < sample.size(); ++i) {
      max_shape[i + 1] =
          spec.max_shape[i] < 0 ? H5S_UNLIMITED : static_cast<hsize_t>(spec.max_shape[i]);
    }
  }
  const hsize_t rows_per_sample = sample.empty() ? 1 : sample[0];
  Bytes row_bytes = static_cast<Bytes>(spec.itemsize());
  for (std::size_t i = 1; i < sample.size(); ++i) row_bytes *= sample[i];

  hdf5::IoTally io;
  {
    const hdf5::Lock lock;
    const hid_t file_type = hdf5::FileType(lock, spec.dtype);
    const hid_t mem_type = hdf5::MemoryType(lock, spec.dtype);
    const Handle fapl = hdf5::FileAccess(lock, env, spec.path, &io, spec.fsync);
    Handle file = Open(lock, H5Fcreate(spec.path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
                       H5Fclose, "create", spec.path);
    const Handle dcpl = CreationProperties(lock, spec, shape, spec.path);
    const Handle space =
        Open(lock, H5Screate_simple(static_cast<int>(shape.size()), shape.data(), max_shape.data()),
             H5Sclose, "create space", spec.path);
    const auto fill = [&](Bytes offset, std::span<std::byte> out) {
      content.fill(spec.file_index, offset, out);
    };
    for (int j = 0; j < spec.num_dset_per_record; ++j) {
      Handle dset = Open(lock,
                         H5Dcreate2(file.get(), hdf5::RecordsName(j).c_str(), file_type,
                                    space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                         H5Dclose, "create dataset", spec.path);
      if (spec.samples > 0 && rows_per_sample > 0 && row_bytes > 0) {
        WriteDataset(lock, dset.get(), shape, row_bytes, rows_per_sample, mem_type, buffer, fill,
                     spec.path);
      }
      // Writes what HDF5's sieve buffer still holds.
      Close(lock, dset, "close dataset", spec.path);
    }
    const hsize_t n = static_cast<hsize_t>(spec.samples);
    const Handle label_space =
        Open(lock, H5Screate_simple(1, &n, nullptr), H5Sclose, "create space", spec.path);
    Handle labels = Open(lock,
                         H5Dcreate2(file.get(), "labels", H5T_STD_I64LE, label_space.get(),
                                    H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Dclose, "create dataset", spec.path);
    if (n > 0) {
      const std::vector<hsize_t> label_shape{n};
      WriteDataset(
          lock, labels.get(), label_shape, 8, 1, H5T_NATIVE_INT64, buffer,
          [](Bytes, std::span<std::byte> out) { std::memset(out.data(), 0, out.size()); },
          spec.path);
    }
    Close(lock, labels, "close dataset", spec.path);
    // Flushes the metadata, truncates the file to its allocation, fsyncs it (spec.fsync) and
    // closes it, all through `env`.
    Close(lock, file, "close", spec.path);
  }
  WriteResult result;
  result.data_bytes = io.written;
  result.files.push_back(spec.path);
  return result;
}

}  // namespace dlbench::formats
