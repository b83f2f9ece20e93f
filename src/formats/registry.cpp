#include "formats/registry.h"

#include <string>

#include "formats/csv_reader.h"
#include "formats/csv_writer.h"
#include "formats/hdf5_reader.h"
#include "formats/hdf5_writer.h"
#include "formats/indexed_binary_reader.h"
#include "formats/indexed_binary_writer.h"
#include "formats/jpeg_reader.h"
#include "formats/jpeg_writer.h"
#include "formats/npy_reader.h"
#include "formats/npy_writer.h"
#include "formats/npz_reader.h"
#include "formats/npz_writer.h"
#include "formats/parquet_reader.h"
#include "formats/parquet_writer.h"
#include "formats/png_reader.h"
#include "formats/png_writer.h"
#include "formats/synthetic_format.h"
#include "formats/tfrecord_reader.h"
#include "formats/tfrecord_writer.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

[[noreturn]] void Unsupported(config::Format format) {
  throw UsageError(std::string("format ") + config::ToString(format) +
                   " is not supported by dlbench yet (supported: tfrecord, npz, npy, hdf5, csv, "
                   "jpeg, png, parquet, indexed_binary, mmap_indexed_binary, synthetic)");
}

}  // namespace

// Every format of the schema has a writer and a reader.
bool IsSupported(config::Format /*format*/) { return true; }

std::unique_ptr<FormatWriter> MakeWriter(config::Format format) {
  switch (format) {
    case config::Format::kTfrecord:
      return std::make_unique<TfrecordWriter>();
    case config::Format::kNpz:
      return std::make_unique<NpzWriter>();
    case config::Format::kNpy:
      return std::make_unique<NpyWriter>();
    case config::Format::kHdf5:
      return std::make_unique<Hdf5Writer>();
    case config::Format::kIndexedBinary:
    case config::Format::kMmapIndexedBinary:
      return std::make_unique<IndexedBinaryWriter>();
    case config::Format::kSynthetic:
      return std::make_unique<SyntheticWriter>();
    case config::Format::kParquet:
      return std::make_unique<ParquetWriter>();
    case config::Format::kCsv:
      return std::make_unique<CsvWriter>();
    case config::Format::kJpeg:
      return std::make_unique<JpegWriter>();
    case config::Format::kPng:
      return std::make_unique<PngWriter>();
  }
  Unsupported(format);
}

std::unique_ptr<FormatReader> MakeReader(config::Format format) {
  switch (format) {
    case config::Format::kTfrecord:
      return std::make_unique<TfrecordReader>();
    case config::Format::kNpz:
      return std::make_unique<NpzReader>();
    case config::Format::kNpy:
      return std::make_unique<NpyReader>();
    case config::Format::kHdf5:
      return std::make_unique<Hdf5Reader>();
    case config::Format::kIndexedBinary:
      return std::make_unique<IndexedBinaryReader>();
    case config::Format::kMmapIndexedBinary:
      return std::make_unique<MmapIndexedBinaryReader>();
    case config::Format::kSynthetic:
      return std::make_unique<SyntheticReader>();
    case config::Format::kParquet:
      return std::make_unique<ParquetReader>();
    case config::Format::kCsv:
      return std::make_unique<CsvReader>();
    case config::Format::kJpeg:
      return std::make_unique<JpegReader>();
    case config::Format::kPng:
      return std::make_unique<PngReader>();
  }
  Unsupported(format);
}

}  // namespace dlbench::formats
