// HDF5's sec2 driver against dlbench's Env driver (formats/hdf5/hdf5_env_driver.h) on the same
// reads, for scripts/bench-hdf5.sh: the records_0 dataset of every .hdf5 file of FOLDER is read one
// sample at a time (a hyperslab of one row, as Hdf5Reader does), each file opened once or (with
// --open-per-sample, as dlbench's on_demand reading does) once per sample; both drivers in turn,
// the order alternating between repetitions. Prints one line per repetition:
//   sec2 <seconds> env <seconds>
// Usage: hdf5_driver_read FOLDER REPS [--open-per-sample]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/hdf5/hdf5_handles.h"
#include "storage/file.h"
#include "util/error.h"

namespace {

using dlbench::formats::hdf5::Check;
using dlbench::formats::hdf5::Handle;
using dlbench::formats::hdf5::Lock;
using dlbench::formats::hdf5::Open;

// Opens the file, reads samples [first, first + samples) (all when `samples` is 0) and closes
// it; returns the number of samples in the file.
hsize_t ReadSamples(const Lock& lock, const std::string& path, bool sec2, hsize_t first,
                    hsize_t samples, std::vector<unsigned char>& buffer) {
  Handle fapl = dlbench::formats::hdf5::FileAccess(lock, dlbench::storage::PosixEnv(), path);
  if (sec2) {
    fapl = Open(lock, H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "property list", path);
    Check(lock, H5Pset_fapl_sec2(fapl.get()), "sec2", path);
    Check(lock, H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V110), "bounds", path);
  }
  const Handle file =
      Open(lock, H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, "open", path);
  const Handle dset =
      Open(lock, H5Dopen2(file.get(), "records_0", H5P_DEFAULT), H5Dclose, "dataset", path);
  const Handle space = Open(lock, H5Dget_space(dset.get()), H5Sclose, "space", path);
  const int rank = Check(lock, H5Sget_simple_extent_ndims(space.get()), "rank", path);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  Check(lock, H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "dims", path);
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  count[0] = 1;
  hsize_t row = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) row *= dims[i];
  buffer.resize(row);
  const Handle memory =
      Open(lock, H5Screate_simple(rank, count.data(), nullptr), H5Sclose, "memory space", path);
  const hsize_t end = samples == 0 ? dims[0] : std::min(dims[0], first + samples);
  for (hsize_t k = first; k < end; ++k) {
    start[0] = k;
    Check(lock,
          H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                              nullptr),
          "select", path);
    Check(lock,
          H5Dread(dset.get(), H5T_NATIVE_UCHAR, memory.get(), space.get(), H5P_DEFAULT,
                  buffer.data()),
          "read", path);
  }
  return dims[0];
}

// Reads every sample of every file; returns the seconds it took.
double ReadAll(const std::vector<std::string>& files, bool sec2, bool open_per_sample) {
  const auto began = std::chrono::steady_clock::now();
  const Lock lock;
  std::vector<unsigned char> buffer;
  for (const std::string& path : files) {
    if (!open_per_sample) {
      ReadSamples(lock, path, sec2, 0, 0, buffer);
      continue;
    }
    for (hsize_t k = 0, n = 1; k < n; ++k) n = ReadSamples(lock, path, sec2, k, 1, buffer);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

}  // namespace

int main(int argc, char** argv) {
  const bool open_per_sample = argc == 4 && std::string(argv[3]) == "--open-per-sample";
  if (argc != 3 && !open_per_sample) {
    std::fprintf(stderr, "usage: hdf5_driver_read FOLDER REPS [--open-per-sample]\n");
    return 2;
  }
  try {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
      if (entry.path().extension() == ".hdf5") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    const int reps = std::stoi(argv[2]);
    for (int rep = 0; rep < reps; ++rep) {
      double sec2 = 0, env = 0;
      if (rep % 2 == 0) {
        sec2 = ReadAll(files, true, open_per_sample);
        env = ReadAll(files, false, open_per_sample);
      } else {
        env = ReadAll(files, false, open_per_sample);
        sec2 = ReadAll(files, true, open_per_sample);
      }
      std::printf("sec2 %.6f env %.6f\n", sec2, env);
    }
  } catch (const dlbench::Error& e) {
    std::fprintf(stderr, "hdf5_driver_read: %s\n", e.what());
    return static_cast<int>(e.code());
  }
  return 0;
}
