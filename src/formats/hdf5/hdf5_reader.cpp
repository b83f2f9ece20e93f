#include "formats/hdf5/hdf5_reader.h"

#include <vector>

#include "formats/hdf5/hdf5_chunks.h"
#include "formats/hdf5/hdf5_handles.h"
#include "formats/io/direct_file.h"
#include "formats/numpy/npy_header.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using hdf5::Check;
using hdf5::Handle;
using hdf5::Open;

std::vector<std::int64_t> Signed(const std::vector<hsize_t>& dims) {
  return {dims.begin(), dims.end()};
}

class Hdf5FileReader final : public FileReader {
 public:
  // Constructed under `lock`, which also covers the release of the members when it throws.
  // `env` reads the file and must outlive the reader.
  Hdf5FileReader(const hdf5::Lock& lock, storage::Env& env, const FileSpec& spec)
      : path_(spec.path), samples_(spec.samples), mem_type_(hdf5::MemoryType(lock, spec.dtype)) {
    const std::vector<hsize_t> sample = hdf5::DatasetSampleDims(spec);
    Bytes per_dataset = static_cast<Bytes>(spec.itemsize());
    for (const hsize_t d : sample) per_dataset *= d;
    dataset_sample_bytes_ = per_dataset;
    std::vector<hsize_t> shape{static_cast<hsize_t>(samples_)};
    shape.insert(shape.end(), sample.begin(), sample.end());
    count_ = shape;
    count_[0] = 1;
    start_.assign(shape.size(), 0);

    const Handle fapl = hdf5::FileAccess(lock, env, path_, &io_);
    file_ = Open(lock, H5Fopen(path_.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, "open", path_);
    const hid_t expected_type = hdf5::FileType(lock, spec.dtype);
    // A failed lookup (a damaged group index) is an error of its own, not a missing dataset.
    const auto exists = [&](const std::string& name) {
      return Check(lock, H5Lexists(file_.get(), name.c_str(), H5P_DEFAULT), "find dataset", path_) >
             0;
    };
    for (int j = 0; j < spec.num_dset_per_record; ++j) {
      std::string name = hdf5::RecordsName(j);
      if (spec.num_dset_per_record == 1 && !exists(name) && exists("records")) name = "records";
      if (!exists(name)) {
        throw CorruptDataError(path_, "hdf5", "no dataset '" + name + "'");
      }
      Handle dset = Open(lock, H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
                         "open dataset", path_);
      const Handle type = Open(lock, H5Dget_type(dset.get()), H5Tclose, "get type", path_);
      if (Check(lock, H5Tequal(type.get(), expected_type), "compare type", path_) == 0) {
        throw CorruptDataError(path_, "hdf5",
                               "dataset '" + name + "' does not hold little-endian " + spec.dtype);
      }
      Handle space = Open(lock, H5Dget_space(dset.get()), H5Sclose, "get space", path_);
      const int rank = Check(lock, H5Sget_simple_extent_ndims(space.get()), "get rank", path_);
      std::vector<hsize_t> found(static_cast<std::size_t>(std::max(rank, 0)));
      Check(lock, H5Sget_simple_extent_dims(space.get(), found.data(), nullptr), "get dims", path_);
      if (found != shape) {
        throw CorruptDataError(path_, "hdf5",
                               "dataset '" + name + "' has shape " + npy::ShapeText(Signed(found)) +
                                   ", expected " + npy::ShapeText(Signed(shape)));
      }
      check_storage_size(lock, dset.get(), name);
      hdf5::ChunkInfo chunk =
          hdf5::DatasetChunk(lock, dset.get(), static_cast<Bytes>(spec.itemsize()),
                             per_dataset * static_cast<Bytes>(samples_), name, path_);
      direct_.push_back(chunk.read_directly ? std::make_unique<hdf5::ChunkReader>(
                                                  std::move(chunk), shape,
                                                  static_cast<Bytes>(spec.itemsize()), name, path_)
                                            : nullptr);
      datasets_.push_back(std::move(dset));
      names_.push_back(std::move(name));
      spaces_.push_back(std::move(space));
    }
    memory_space_ =
        Open(lock, H5Screate_simple(static_cast<int>(count_.size()), count_.data(), nullptr),
             H5Sclose, "create space", path_);
    open_bytes_ = io_.read;
  }

  const std::string& path() const override { return path_; }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return dataset_sample_bytes_ * datasets_.size(); }
  Bytes open_bytes() const override { return open_bytes_; }

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    start_[0] = static_cast<hsize_t>(k);
    const hdf5::Lock lock;
    const Bytes before = io_.read;
    try {
      for (std::size_t j = 0; j < datasets_.size(); ++j) {
        if (direct_[j]) {  // filtered chunks, decoded with a bound (hdf5_chunks.h)
          direct_[j]->read(lock, datasets_[j].get(), k,
                           out.subspan(j * dataset_sample_bytes_, dataset_sample_bytes_));
          continue;
        }
        Check(lock,
              H5Sselect_hyperslab(spaces_[j].get(), H5S_SELECT_SET, start_.data(), nullptr,
                                  count_.data(), nullptr),
              "select", path_);
        Check(lock,
              H5Dread(datasets_[j].get(), mem_type_, memory_space_.get(), spaces_[j].get(),
                      H5P_DEFAULT, out.data() + j * dataset_sample_bytes_),
              "read", path_ + " sample " + std::to_string(k));
      }
    } catch (const Error&) {
      reopen_datasets(lock);
      throw;
    }
    // What HDF5 asked storage for: its sieve buffer may have held the sample (0) or may fetch
    // more than it (up to 64 KiB of a contiguous dataset), and chunk indexes count too.
    return io_.read - before;
  }

 private:
  // A chunk index entry is the size HDF5 allocates to read that chunk: one claiming 4 GiB in a
  // file of 6 KB made H5Dread allocate 4 GiB (the fuzzer's out-of-memory). The sizes of all the
  // dataset's chunks together (one pass over its index, here at open) cannot exceed the file.
  void check_storage_size(const hdf5::Lock& lock, hid_t dset, const std::string& name) {
    hsize_t file_size = 0;
    Check(lock, H5Fget_filesize(file_.get(), &file_size), "get file size", path_);
    const hsize_t stored = H5Dget_storage_size(dset);
    if (stored > file_size) {
      throw CorruptDataError(path_, "hdf5",
                             "dataset '" + name + "' says its data takes " +
                                 std::to_string(stored) + " bytes, more than the file's " +
                                 std::to_string(file_size) + " (a damaged chunk index)");
    }
  }

  // HDF5 marks a dataset's sieve buffer as holding the bytes of a read that failed: reopened,
  // the dataset reads from storage again (reader.on_error: skip goes on with this file), instead
  // of serving stale bytes. Best effort: a dataset that does not reopen fails the next read.
  void reopen_datasets(const hdf5::Lock& lock) noexcept {
    for (std::size_t j = 0; j < datasets_.size(); ++j) {
      datasets_[j].reset();
      try {
        datasets_[j] = Open(lock, H5Dopen2(file_.get(), names_[j].c_str(), H5P_DEFAULT), H5Dclose,
                            "open dataset", path_);
      } catch (const Error&) {
      }
    }
  }

  std::string path_;
  std::int64_t samples_;
  hid_t mem_type_;
  Bytes dataset_sample_bytes_ = 0;
  std::vector<hsize_t> start_, count_;
  hdf5::IoTally io_;  // before file_: the driver adds to it until the file is closed
  Bytes open_bytes_ = 0;
  Handle file_;
  std::vector<Handle> datasets_;
  std::vector<std::unique_ptr<hdf5::ChunkReader>> direct_;  // of datasets_; null: H5Dread
  std::vector<std::string> names_;                          // of datasets_
  std::vector<Handle> spaces_;
  Handle memory_space_;
};

}  // namespace

std::unique_ptr<FileReader> Hdf5Reader::open(storage::Env& env, const FileSpec& spec,
                                             const FileReadOptions& options) const {
  RejectDirect(options, "hdf5");
  const hdf5::Lock lock;
  return std::make_unique<Hdf5FileReader>(lock, env, spec);
}

}  // namespace dlbench::formats
