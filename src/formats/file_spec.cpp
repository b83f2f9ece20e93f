#include <string>

#include "formats/format.h"
#include "formats/io/dtype.h"
#include "util/error.h"

namespace dlbench::formats {

int FileSpec::itemsize() const { return LookupDType(dtype).itemsize; }

Bytes FileSpec::sample_bytes() const {
  if (!parquet_columns.empty()) {
    Bytes bytes = 0;
    for (const config::ParquetColumn& c : parquet_columns) {
      if (c.size < 0) throw UsageError(path + ": negative column size " + std::to_string(c.size));
      bytes += static_cast<Bytes>(c.size) * static_cast<Bytes>(LookupDType(c.dtype).itemsize);
    }
    return bytes;
  }
  Bytes elements = 1;
  for (const std::int64_t d : sample_dims) {
    if (d < 0) throw UsageError(path + ": negative sample dimension " + std::to_string(d));
    elements *= static_cast<Bytes>(d);
  }
  return elements * static_cast<Bytes>(itemsize());
}

std::string FileSpec::offsets_index() const {
  return offsets_index_path.empty() ? path + ".off.idx" : offsets_index_path;
}

std::string FileSpec::sizes_index() const {
  return sizes_index_path.empty() ? path + ".sz.idx" : sizes_index_path;
}

}  // namespace dlbench::formats
