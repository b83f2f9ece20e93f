#include "formats/registry.h"

#include <string>

#include "formats/csv/csv_reader.h"
#include "formats/csv/csv_writer.h"
#include "formats/hdf5/hdf5_reader.h"
#include "formats/hdf5/hdf5_shared_writer.h"
#include "formats/hdf5/hdf5_writer.h"
#include "formats/image/jpeg_reader.h"
#include "formats/image/jpeg_writer.h"
#include "formats/image/png_reader.h"
#include "formats/image/png_writer.h"
#include "formats/indexed/indexed_binary_reader.h"
#include "formats/indexed/indexed_binary_writer.h"
#include "formats/io/sliced_shared_writer.h"
#include "formats/numpy/npy_reader.h"
#include "formats/numpy/npy_writer.h"
#include "formats/numpy/npz_reader.h"
#include "formats/numpy/npz_writer.h"
#include "formats/parquet/parquet_reader.h"
#include "formats/parquet/parquet_writer.h"
#include "formats/synthetic_format.h"
#include "formats/tfrecord/tfrecord_reader.h"
#include "formats/tfrecord/tfrecord_writer.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

[[noreturn]] void Unsupported(config::Format format) {
  throw UsageError(std::string("format ") + config::ToString(format) +
                   " is not supported by dlbench yet (supported: tfrecord, npz, npy, hdf5, csv, "
                   "jpeg, png, parquet, indexed_binary, mmap_indexed_binary, synthetic)");
}

// What the registry knows of one format.
struct FormatEntry {
  std::unique_ptr<FormatWriter> (*writer)();
  std::unique_ptr<FormatReader> (*reader)();
  std::unique_ptr<SharedWriter> (*shared_writer)();  // nullptr: no shared writing
  Companions companions = Companions::kNone;
};

template <typename T, typename Base>
std::unique_ptr<Base> Make() {
  return std::make_unique<T>();
}

template <typename Layout>
std::unique_ptr<SharedWriter> Sliced() {
  return std::make_unique<SlicedSharedWriter>(std::make_unique<Layout>());
}

FormatEntry EntryOf(config::Format format) {
  using config::Format;
  switch (format) {
    case Format::kTfrecord:
      return {Make<TfrecordWriter, FormatWriter>, Make<TfrecordReader, FormatReader>,
              Sliced<TfrecordLayout>, Companions::kDaliIndex};
    case Format::kNpz:
      return {Make<NpzWriter, FormatWriter>, Make<NpzReader, FormatReader>, nullptr};
    case Format::kNpy:
      return {Make<NpyWriter, FormatWriter>, Make<NpyReader, FormatReader>, Sliced<NpyLayout>};
    case Format::kHdf5:
      return {Make<Hdf5Writer, FormatWriter>, Make<Hdf5Reader, FormatReader>,
              Make<Hdf5SharedWriter, SharedWriter>};
    case Format::kIndexedBinary:
      return {Make<IndexedBinaryWriter, FormatWriter>, Make<IndexedBinaryReader, FormatReader>,
              Sliced<IndexedBinaryLayout>, Companions::kIndexFiles};
    case Format::kMmapIndexedBinary:
      return {Make<IndexedBinaryWriter, FormatWriter>, Make<MmapIndexedBinaryReader, FormatReader>,
              Sliced<IndexedBinaryLayout>, Companions::kIndexFiles};
    case Format::kSynthetic:
      return {Make<SyntheticWriter, FormatWriter>, Make<SyntheticReader, FormatReader>, nullptr};
    case Format::kParquet:
      return {Make<ParquetWriter, FormatWriter>, Make<ParquetReader, FormatReader>, nullptr};
    case Format::kCsv:
      return {Make<CsvWriter, FormatWriter>, Make<CsvReader, FormatReader>, nullptr};
    case Format::kJpeg:
      return {Make<JpegWriter, FormatWriter>, Make<JpegReader, FormatReader>, nullptr};
    case Format::kPng:
      return {Make<PngWriter, FormatWriter>, Make<PngReader, FormatReader>, nullptr};
  }
  Unsupported(format);
}

}  // namespace

// Every format of the schema has a writer and a reader.
bool IsSupported(config::Format /*format*/) { return true; }

std::unique_ptr<FormatWriter> MakeWriter(config::Format format) { return EntryOf(format).writer(); }

std::unique_ptr<FormatReader> MakeReader(config::Format format) { return EntryOf(format).reader(); }

std::unique_ptr<SharedWriter> MakeSharedWriter(config::Format format) {
  const FormatEntry entry = EntryOf(format);
  return entry.shared_writer != nullptr ? entry.shared_writer() : nullptr;
}

Companions CompanionsOf(config::Format format) { return EntryOf(format).companions; }

}  // namespace dlbench::formats
