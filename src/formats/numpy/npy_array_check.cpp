#include "formats/numpy/npy_array_check.h"

#include <cstdint>
#include <vector>

#include "formats/io/dtype.h"
#include "formats/numpy/npy_writer.h"
#include "util/error.h"

namespace dlbench::formats {

void CheckArrayHeader(const npy::Header& header, const FileSpec& spec, const std::string& where) {
  if (header.fortran_order) {
    throw CorruptDataError(where, "npy", "fortran_order True arrays are not supported");
  }
  const DType& expected = LookupDType(spec.dtype);
  const auto found = DTypeFromDescr(header.descr);
  if (!found || found->name != expected.name) {
    throw CorruptDataError(where, "npy",
                           "dtype '" + FileText(header.descr) + "', expected '" +
                               std::string(expected.descr) + "' (" + spec.dtype + ")");
  }
  const std::vector<std::int64_t> shape = SampleLastShape(spec);
  if (header.shape != shape) {
    throw CorruptDataError(
        where, "npy",
        "shape " + npy::ShapeText(header.shape) + ", expected " + npy::ShapeText(shape));
  }
}

const ExpectedArray& ExpectedArrayOf(const FileSpec& spec) {
  struct Last {
    std::string dtype;
    std::vector<std::int64_t> sample_dims;
    std::int64_t samples = -1;
    bool columns = false;  // parquet_columns set: then sample_bytes depends on them
    ExpectedArray array;
  };
  thread_local Last last;
  if (last.samples != spec.samples || last.columns || !spec.parquet_columns.empty() ||
      last.dtype != spec.dtype || last.sample_dims != spec.sample_dims) {
    last.array.header = npy::Encode(LookupDType(spec.dtype).descr, SampleLastShape(spec));
    last.array.itemsize = spec.itemsize();
    last.array.sample_bytes = spec.sample_bytes();
    last.dtype = spec.dtype;
    last.sample_dims = spec.sample_dims;
    last.samples = spec.samples;
    last.columns = !spec.parquet_columns.empty();
  }
  return last.array;
}

const std::string& ExpectedArrayHeader(const FileSpec& spec) {
  return ExpectedArrayOf(spec).header;
}

}  // namespace dlbench::formats
