#include "formats/hdf5_reader.h"

#include <vector>

#include "formats/direct_file.h"
#include "formats/hdf5_handles.h"
#include "formats/npy_header.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using hdf5::Check;
using hdf5::Handle;

std::vector<std::int64_t> Signed(const std::vector<hsize_t>& dims) {
  return {dims.begin(), dims.end()};
}

class Hdf5FileReader final : public FileReader {
 public:
  explicit Hdf5FileReader(const FileSpec& spec)
      : path_(spec.path), samples_(spec.samples), mem_type_(hdf5::MemoryType(spec.dtype)) {
    const std::vector<hsize_t> sample = hdf5::DatasetSampleDims(spec);
    Bytes per_dataset = static_cast<Bytes>(spec.itemsize());
    for (const hsize_t d : sample) per_dataset *= d;
    dataset_sample_bytes_ = per_dataset;
    std::vector<hsize_t> shape{static_cast<hsize_t>(samples_)};
    shape.insert(shape.end(), sample.begin(), sample.end());
    count_ = shape;
    count_[0] = 1;
    start_.assign(shape.size(), 0);

    std::lock_guard lock(hdf5::LibraryMutex());
    Handle fapl = hdf5::FileAccess(path_);
    file_ =
        Handle(Check(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, fapl.get()), "open", path_), H5Fclose);
    const hid_t expected_type = hdf5::FileType(spec.dtype);
    for (int j = 0; j < spec.num_dset_per_record; ++j) {
      std::string name = hdf5::RecordsName(j);
      if (spec.num_dset_per_record == 1 && H5Lexists(file_.get(), name.c_str(), H5P_DEFAULT) <= 0 &&
          H5Lexists(file_.get(), "records", H5P_DEFAULT) > 0) {
        name = "records";
      }
      if (H5Lexists(file_.get(), name.c_str(), H5P_DEFAULT) <= 0) {
        throw Error(ExitCode::kIo, "hdf5 " + path_ + ": no dataset '" + name + "'");
      }
      Handle dset(Check(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), "open dataset", path_),
                  H5Dclose);
      Handle type(Check(H5Dget_type(dset.get()), "get type", path_), H5Tclose);
      if (H5Tequal(type.get(), expected_type) <= 0) {
        throw Error(ExitCode::kIo, "hdf5 " + path_ + ": dataset '" + name +
                                       "' does not hold little-endian " + spec.dtype);
      }
      Handle space(Check(H5Dget_space(dset.get()), "get space", path_), H5Sclose);
      const int rank = Check(H5Sget_simple_extent_ndims(space.get()), "get rank", path_);
      std::vector<hsize_t> found(static_cast<std::size_t>(std::max(rank, 0)));
      Check(H5Sget_simple_extent_dims(space.get(), found.data(), nullptr), "get dims", path_);
      if (found != shape) {
        throw Error(ExitCode::kIo, "hdf5 " + path_ + ": dataset '" + name + "' has shape " +
                                       npy::ShapeText(Signed(found)) + ", expected " +
                                       npy::ShapeText(Signed(shape)));
      }
      datasets_.push_back(std::move(dset));
      spaces_.push_back(std::move(space));
    }
    memory_space_ =
        Handle(Check(H5Screate_simple(static_cast<int>(count_.size()), count_.data(), nullptr),
                     "create space", path_),
               H5Sclose);
  }

  ~Hdf5FileReader() override {
    std::lock_guard lock(hdf5::LibraryMutex());
    memory_space_.reset();
    spaces_.clear();
    datasets_.clear();
    file_.reset();
  }

  const std::string& path() const override { return path_; }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return dataset_sample_bytes_ * datasets_.size(); }
  Bytes open_bytes() const override { return 0; }  // HDF5 does not tell

  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    start_[0] = static_cast<hsize_t>(k);
    std::lock_guard lock(hdf5::LibraryMutex());
    for (std::size_t j = 0; j < datasets_.size(); ++j) {
      Check(H5Sselect_hyperslab(spaces_[j].get(), H5S_SELECT_SET, start_.data(), nullptr,
                                count_.data(), nullptr),
            "select", path_);
      Check(H5Dread(datasets_[j].get(), mem_type_, memory_space_.get(), spaces_[j].get(),
                    H5P_DEFAULT, out.data() + j * dataset_sample_bytes_),
            "read", path_ + " sample " + std::to_string(k));
    }
    return sample_bytes();
  }

 private:
  std::string path_;
  std::int64_t samples_;
  hid_t mem_type_;
  Bytes dataset_sample_bytes_ = 0;
  std::vector<hsize_t> start_, count_;
  Handle file_;
  std::vector<Handle> datasets_;
  std::vector<Handle> spaces_;
  Handle memory_space_;
};

}  // namespace

std::unique_ptr<FileReader> Hdf5Reader::open(storage::Env&, const FileSpec& spec,
                                             const ReadOptions& options) const {
  RejectDirect(options, "hdf5");
  return std::make_unique<Hdf5FileReader>(spec);
}

}  // namespace dlbench::formats
