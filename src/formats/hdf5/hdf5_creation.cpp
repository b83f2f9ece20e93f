#include "formats/hdf5/hdf5_creation.h"

#include <algorithm>

#include "util/error.h"

namespace dlbench::formats::hdf5 {

void CheckCompression(const FileSpec& spec) {
  switch (spec.compression) {
    case config::Compression::kNone:
    case config::Compression::kGzip:
      return;
    default:  // lzf and the others: config::Validate lets only none and gzip through
      throw InternalError(std::string("hdf5 supports compression none or gzip, not ") +
                          config::ToString(spec.compression));
  }
}

Handle CreationProperties(const Lock& lock, const FileSpec& spec, const std::vector<hsize_t>& shape,
                          const std::string& path) {
  Handle dcpl = Open(lock, H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "property list", path);
  const bool gzip = spec.compression == config::Compression::kGzip;
  if (spec.chunk_dims.empty() && !gzip && spec.max_shape.empty()) return dcpl;
  std::vector<hsize_t> chunk;
  if (!spec.chunk_dims.empty()) {
    if (spec.chunk_dims.size() != shape.size()) {
      throw UsageError("hdf5.chunk_dims has " + std::to_string(spec.chunk_dims.size()) +
                       " dimensions, the dataset has " + std::to_string(shape.size()));
    }
    chunk.assign(spec.chunk_dims.begin(), spec.chunk_dims.end());
  } else {
    chunk.push_back(1);  // one sample per chunk
    chunk.insert(chunk.end(), shape.begin() + 1, shape.end());
  }
  for (hsize_t& c : chunk) c = std::max<hsize_t>(c, 1);
  Check(lock, H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()), "set chunk",
        path);
  if (gzip) {
    // Parallel HDF5 (1.10.2+) writes filtered chunks only collectively, which the shared-file
    // writer's writes all are.
    Check(lock, H5Pset_deflate(dcpl.get(), static_cast<unsigned>(spec.compression_level)),
          "set gzip", path);
  }
  return dcpl;
}

}  // namespace dlbench::formats::hdf5
