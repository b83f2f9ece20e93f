// The interface every dataset format implements: a writer that streams one whole data file from
// the content generator through a fixed buffer, and a reader that opens one file once and then
// reads single samples into caller-provided buffers. Formats know nothing of threads, MPI or the
// dataset layout: the caller describes each file with a FileSpec.
//
// Which bytes are "the sample payload" (the offsets asked of the ContentGenerator): the data
// region of the file in file order, [0, samples · sample_bytes). Sample-first formats (tfrecord,
// hdf5, indexed binary) therefore hold sample k at payload [k·S, (k+1)·S); the sample-last NPY/NPZ
// array holds payload byte i at data byte i, so there a sample is strided. Encoded formats
// (jpeg, png, csv) encode the raw samples, sample k being payload [k·S, (k+1)·S).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/enums.h"
#include "util/units.h"

namespace dlbench::dataset {
class ContentGenerator;
}
namespace dlbench::storage {
class Env;
}

namespace dlbench::formats {

// One data file to write or read.
struct FileSpec {
  std::string path;                       // data file (writers: the caller publishes it)
  FileIndex file_index = 0;               // content seed input
  std::vector<std::int64_t> sample_dims;  // one sample: {d1, d2} or dataset.record_dims
  bool dims_from_record_dims = false;     // hdf5 splits record_dims[0] over its datasets
  std::string dtype = "uint8";            // NumPy dtype name (record_element_type)
  std::int64_t samples = 1;               // samples in this file (num_samples_per_file)
  config::Compression compression = config::Compression::kNone;
  int compression_level = 4;
  // hdf5
  std::vector<std::int64_t> chunk_dims;  // of one dataset, sample axis first; empty: contiguous
  int num_dset_per_record = 1;
  std::vector<std::int64_t> max_shape;  // maxshape = (samples, *max_shape); needs chunking
  // tfrecord: where the DALI index goes (<data_folder>/index/<split>/<name>.idx); empty: none.
  std::string dali_index_path;
  // indexed binary: empty means "<path>.off.idx" / "<path>.sz.idx".
  std::string offsets_index_path;
  std::string sizes_index_path;
  // parquet (dataset.parquet): columns (empty: one column of sample_dims' elements of dtype)
  // and rows per row group.
  std::vector<config::ParquetColumn> parquet_columns;
  std::int64_t parquet_row_group_size = 1024;
  bool fsync = false;  // writers: fsync every file before closing it (dataset.fsync)
  // jpeg, png and csv writers: encode the file's own values (per_file) or assemble the file from
  // a pool of pre-encoded pieces (assembled, jpeg_assembly.h, png_assembly.h, csv_assembly.h);
  // the others ignore it.
  config::ContentEncoding encoding = config::ContentEncoding::kPerFile;

  bool operator==(const FileSpec&) const = default;

  // Bytes per element of `dtype`; throws Error(kUsage) for an unknown dtype.
  int itemsize() const;
  // Bytes of one sample: prod(sample_dims) · itemsize, or with parquet_columns the sum of their
  // size · itemsize.
  Bytes sample_bytes() const;
  std::string offsets_index() const;
  std::string sizes_index() const;
};

struct WriteResult {
  // Bytes written to the data file: its size, but for hdf5, whose library writes part of its
  // metadata twice and leaves gaps it allocated but never wrote.
  Bytes data_bytes = 0;
  Bytes companion_bytes = 0;       // index files (DALI index, .off.idx / .sz.idx)
  std::vector<std::string> files;  // every file written, data file first
};

class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  // Exact size of the data file `write` produces; throws Error(kUsage) when it depends on the
  // content (compressed formats, hdf5 whose metadata size the library decides).
  virtual Bytes file_size(const FileSpec& spec) const = 0;
  // Writes the data file (and the format's companion files) through `env`, asking `content` for
  // the payload and staging it in `buffer` (reused, never grown per sample).
  virtual WriteResult write(storage::Env& env, const FileSpec& spec,
                            const dataset::ContentGenerator& content,
                            std::span<std::byte> buffer) const = 0;
};

struct FileReadOptions {
  Bytes transfer_size = 256 * KiB;  // read buffer of streaming readers (tfrecord, npy n>1, npz)
  // reader.verify_checksums: tfrecord checks each record's data CRC32C (its length CRC is always
  // checked); npz CRC-32 is never verified.
  bool verify_checksums = true;
  // reader.odirect: npy, npz, indexed_binary, csv, jpeg and png read their data file with
  // O_DIRECT, in aligned 4 KiB blocks (direct_file.h), and report the blocks read; the other
  // readers refuse it.
  bool direct = false;
  // Where a file of one sample may read that sample while it opens, so that read_sample(0, out)
  // with `out` starting where sample_into does has nothing to copy (npy does, when the sample
  // fits, and the header is the one its writer puts there and fits in the `sample_into_headroom`
  // writable bytes just before the span: header and sample come in one read, the sample straight
  // into the caller's buffer). The caller keeps the buffer, headroom included, and leaves it alone
  // until that read_sample. Empty: none.
  std::span<std::byte> sample_into;
  Bytes sample_into_headroom = 0;
};

// One open data file. Keeps what was parsed at open (headers, directories, indexes, handles) so
// that its samples can be read without parsing or allocating again. Not thread-safe: one
// reader thread owns it while it consumes the file.
class FileReader {
 public:
  virtual ~FileReader() = default;
  virtual const std::string& path() const = 0;
  virtual std::int64_t samples() const = 0;
  // Bytes one sample fills in the caller's buffer.
  virtual Bytes sample_bytes() const = 0;
  // Bytes read from storage while opening (headers, zip directory, index files).
  virtual Bytes open_bytes() const = 0;
  // Reads sample `k` (0 ≤ k < samples()) into `out` (at least sample_bytes() long) and returns
  // the bytes actually read from storage for it, framing and strided neighbours included.
  // Throws Error(kIo) naming the path, offset and expectation on corrupt or short data.
  virtual Bytes read_sample(std::int64_t k, std::span<std::byte> out) = 0;

 protected:
  // read_sample()'s precondition, which every reader checks first: throws Error(kInternal)
  // unless 0 ≤ k < samples() and `out` holds sample_bytes().
  void check_request(std::int64_t k, std::span<const std::byte> out) const;
};

class FormatReader {
 public:
  virtual ~FormatReader() = default;
  // Opens `spec.path` and checks it against `spec` (shape, dtype, sample count).
  virtual std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                           const FileReadOptions& options) const = 0;
};

}  // namespace dlbench::formats
