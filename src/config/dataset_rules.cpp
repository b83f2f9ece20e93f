// The rules on the dataset: its format, compression, element types, parquet columns, content
// encoding and sizes. Generation, the data check and the readers trust a Config that passed them.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>

#include "config/checker.h"
#include "config/typed_value.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

bool IsElementType(const std::string& name) {
  static constexpr const char* kTypes[] = {"bool",   "int8",    "uint8",   "int16",
                                           "uint16", "int32",   "uint32",  "int64",
                                           "uint64", "float16", "float32", "float64"};
  for (const char* type : kTypes) {
    if (name == type) return true;
  }
  return false;
}

}  // namespace

void CheckElementType(const Checker& check, const std::string& key, const std::string& name) {
  if (!IsElementType(name)) {
    check.fail(key, "'" + name +
                        "' is not an element type; use bool, int8, uint8, int16, uint16, int32, "
                        "uint32, int64, uint64, float16, float32 or float64");
  }
}

namespace {

void CheckCompression(const Config& config, const Checker& check) {
  const DatasetConfig& d = config.dataset;
  if (d.compression == Compression::kNone) return;
  const std::string combination = check.is("dataset.compression", d.compression) + " with " +
                                  check.is("dataset.format", d.format);
  if (d.format == Format::kHdf5) {
    if (d.compression == Compression::kLzf) {
      check.fail_combination(combination +
                             ": lzf is the h5py-only filter 32000, not available to the HDF5 C "
                             "library; use gzip");
    }
    if (d.compression != Compression::kGzip) {
      check.fail_combination(combination + ": hdf5 files support only gzip compression");
    }
  }
  const bool parquet_codec = d.compression == Compression::kSnappy ||
                             d.compression == Compression::kGzip ||
                             d.compression == Compression::kZstd;
  if (d.format == Format::kParquet && !parquet_codec) {
    check.fail_combination(combination +
                           ": parquet files support none, snappy, gzip or zstd compression");
  }
  if (d.format == Format::kCsv && d.compression != Compression::kGzip) {
    check.fail_combination(combination +
                           ": csv files support only gzip compression (written as .csv.gz)");
  }
  if (d.format == Format::kParquet && d.compression == Compression::kZstd) {
    if (d.compression_level < 1 || d.compression_level > 22) {
      check.fail("dataset.compression_level",
                 "zstd levels are 1 to 22, got " + std::to_string(d.compression_level));
    }
  } else if (d.format == Format::kHdf5 || d.format == Format::kCsv ||
             (d.format == Format::kParquet && d.compression == Compression::kGzip)) {
    if (d.compression_level < 0 || d.compression_level > 9) {
      check.fail("dataset.compression_level",
                 "gzip levels are 0 to 9, got " + std::to_string(d.compression_level));
    }
  } else if (d.format == Format::kNpz) {
    if (d.compression != Compression::kZip) {
      check.fail_combination(combination + ": npz files support only zip compression");
    }
    if (d.compression_level < 0 || d.compression_level > 9) {
      check.fail("dataset.compression_level",
                 "zip (deflate) levels are 0 to 9, got " + std::to_string(d.compression_level));
    }
  } else if (d.format != Format::kParquet) {  // parquet snappy has no level
    check.fail_combination(combination +
                           ": compression applies only to hdf5 (gzip), parquet (snappy, gzip, "
                           "zstd), npz (zip) and csv (gzip) datasets");
  }
}

// dataset.parquet (MLCommons DLIO): columns dlbench's Parquet files can hold.
void CheckParquet(const Config& config, const Checker& check) {
  const ParquetConfig& p = config.dataset.parquet;
  const std::string key = "dataset.parquet.columns";
  std::set<std::string> names;
  bool any_read = p.columns.empty();
  for (std::size_t i = 0; i < p.columns.size(); ++i) {
    const ParquetColumn& c = p.columns[i];
    const std::string at = "column " + std::to_string(i) + " ('" + c.name + "')";
    if (c.name.empty()) check.fail(key, "column " + std::to_string(i) + " has an empty name");
    if (!names.insert(c.name).second) check.fail(key, at + " repeats a name");
    if (!IsElementType(c.dtype) || c.dtype == "bool") {
      check.fail(key, at + " has dtype '" + c.dtype +
                          "'; dlbench's Parquet columns hold int8, uint8, int16, uint16, int32, "
                          "uint32, int64, uint64, float16, float32 or float64 (string, binary, "
                          "bool and list columns are not supported)");
    }
    if (c.size < 1) check.fail(key, at + " has size " + std::to_string(c.size) + "; must be >= 1");
    any_read = any_read || c.read;
  }
  if (!any_read) check.fail(key, "every column has read: false; nothing would be read");
  check.at_least<std::int64_t>("dataset.parquet.row_group_size", p.row_group_size, 1);
  if (!p.columns.empty()) {
    double bytes = 0;
    for (const ParquetColumn& c : p.columns) {
      // Element bytes from the type's bit count ("float32" -> 4).
      const int bits = std::atoi(c.dtype.c_str() + c.dtype.find_first_of("0123456789"));
      bytes += static_cast<double>(c.size) * (bits / 8);
    }
    if (bytes != config.dataset.record_length_bytes) {
      check.notice(check.is("dataset.record_length_bytes", config.dataset.record_length_bytes) +
                   " differs from the " + std::to_string(static_cast<std::int64_t>(bytes)) +
                   " bytes per sample of dataset.parquet.columns: samples hold the columns, the "
                   "nominal MiB/s counts record_length_bytes");
    }
  }
}

// Bytes per element of a type IsElementType accepts (the number in its name, bool 1).
double ElementTypeBytes(const std::string& name) {
  if (name.ends_with("64")) return 8;
  if (name.ends_with("32")) return 4;
  if (name.ends_with("16")) return 2;
  return 1;
}

// Sizes are computed in 64-bit integers, and DLIO's in doubles, exact up to 2^53. Beyond that
// they wrapped round without a word: record_length_bytes: 18446744073709551616 (2^64) or
// record_dims [4294967296, 4294967296] generated files of a few hundred bytes and exited 0.
void CheckSizesFit(const Config& config, const Checker& check) {
  const DatasetConfig& d = config.dataset;
  constexpr double kMaxSampleBytes = 9007199254740992.0;  // 2^53
  const std::string limit = "at most 2^53 = 9007199254740992 bytes per sample";
  if (d.record_dims.empty()) {
    if (d.record_length_bytes > kMaxSampleBytes) {
      check.fail("dataset.record_length_bytes",
                 "must be " + limit + ", got " + Describe(ToNode(d.record_length_bytes)));
    }
  } else {
    double bytes = ElementTypeBytes(d.record_element_type);
    for (const std::int64_t dim : d.record_dims) bytes *= static_cast<double>(dim);
    if (bytes > kMaxSampleBytes) {
      check.fail_combination(check.is("dataset.record_dims", d.record_dims) + " of " +
                             check.is("dataset.record_element_type", d.record_element_type) +
                             " make a sample of " + Describe(ToNode(bytes)) + " bytes; " + limit);
    }
  }
  for (const auto& [key, files] : {std::pair{"dataset.num_files_train", d.num_files_train},
                                   std::pair{"dataset.num_files_eval", d.num_files_eval}}) {
    std::int64_t samples = 0;
    if (__builtin_mul_overflow(files, d.num_samples_per_file, &samples)) {
      check.fail_combination(check.is(key, files) + " x " +
                             check.is("dataset.num_samples_per_file", d.num_samples_per_file) +
                             " samples is more than a 64-bit count holds");
    }
  }
  // The dataset's bytes are counted in 64 bits too (generation, the data check, the summary's
  // byte totals). num_files_train=9223372036854775807 passed the sample count with one sample
  // per file and then generated files until the disk was full, or (unet3d) ended in an
  // internal error.
  const double sample_bytes =
      d.record_dims.empty()
          ? d.record_length_bytes
          : std::accumulate(
                d.record_dims.begin(), d.record_dims.end(), ElementTypeBytes(d.record_element_type),
                [](double bytes, std::int64_t dim) { return bytes * static_cast<double>(dim); });
  const double files = static_cast<double>(std::max<std::int64_t>(d.num_files_train, 0)) +
                       static_cast<double>(std::max<std::int64_t>(d.num_files_eval, 0));
  const double dataset_bytes = files * static_cast<double>(d.num_samples_per_file) * sample_bytes;
  constexpr double kMaxDatasetBytes = 9223372036854775808.0;  // 2^63
  if (dataset_bytes >= kMaxDatasetBytes) {
    const std::string sample = d.record_dims.empty()
                                   ? check.is("dataset.record_length_bytes", d.record_length_bytes)
                                   : check.is("dataset.record_dims", d.record_dims);
    check.fail_combination(check.is("dataset.num_files_train", d.num_files_train) + " and " +
                           check.is("dataset.num_files_eval", d.num_files_eval) + " files x " +
                           check.is("dataset.num_samples_per_file", d.num_samples_per_file) +
                           " samples x " + sample + " make a dataset of " +
                           Describe(ToNode(dataset_bytes)) +
                           " bytes; at most 2^63 bytes (8 EiB) can be counted");
  }
}

}  // namespace

void CheckDataset(const Config& config, const Checker& check, const PhasesRun& run) {
  const DatasetConfig& d = config.dataset;
  const WorkflowConfig& w = config.workflow;
  if (d.data_folder.empty()) check.fail("dataset.data_folder", "must not be empty");
  if (d.file_prefix.empty() || d.file_prefix.find('/') != std::string::npos) {
    check.fail("dataset.file_prefix", "must be a non-empty file name prefix without '/'");
  }
  check.at_least<std::int64_t>("dataset.num_files_train", d.num_files_train, 0);
  check.at_least<std::int64_t>("dataset.num_files_eval", d.num_files_eval, 0);
  if ((run.train || run.generate) && d.num_files_train < 1) {
    check.fail("dataset.num_files_train", "must be >= 1 when training or generating data, got " +
                                              std::to_string(d.num_files_train));
  }
  if (run.train && w.evaluation && d.num_files_eval < 1) {
    check.fail_combination("workflow.evaluation: true" + check.at("workflow.evaluation") +
                           " needs evaluation files, but " +
                           check.is("dataset.num_files_eval", d.num_files_eval));
  }
  check.at_least<std::int64_t>("dataset.num_samples_per_file", d.num_samples_per_file, 1);
  check.at_least<std::int64_t>("dataset.num_subfolders_train", d.num_subfolders_train, 0);
  check.at_least<std::int64_t>("dataset.num_subfolders_eval", d.num_subfolders_eval, 0);
  if (d.num_files_train > 0 && d.num_subfolders_train > d.num_files_train) {
    check.fail_combination(check.is("dataset.num_subfolders_train", d.num_subfolders_train) +
                           " exceeds " + check.is("dataset.num_files_train", d.num_files_train) +
                           ": every subfolder needs a file");
  }
  if (d.num_files_eval > 0 && d.num_subfolders_eval > d.num_files_eval) {
    check.fail_combination(check.is("dataset.num_subfolders_eval", d.num_subfolders_eval) +
                           " exceeds " + check.is("dataset.num_files_eval", d.num_files_eval) +
                           ": every subfolder needs a file");
  }
  if (d.record_dims.empty()) {
    check.positive("dataset.record_length_bytes", d.record_length_bytes);
  } else {
    check.all_positive("dataset.record_dims", d.record_dims);
    if (d.record_length_bytes_stdev > 0) {
      check.fail_combination(
          check.is("dataset.record_dims", d.record_dims) + " with " +
          check.is("dataset.record_length_bytes_stdev", d.record_length_bytes_stdev) +
          ": an explicit sample shape cannot vary in size; set the stdev to 0");
    }
    if (d.hdf5.num_dset_per_record >= 1 && d.record_dims[0] % d.hdf5.num_dset_per_record != 0) {
      check.fail_combination(
          check.is("dataset.record_dims", d.record_dims) +
          ": the first dimension must be a multiple of " +
          check.is("dataset.hdf5.num_dset_per_record", d.hdf5.num_dset_per_record));
    }
    if ((d.format == Format::kJpeg || d.format == Format::kPng) && d.record_dims.size() > 2) {
      check.fail_combination(check.is("dataset.record_dims", d.record_dims) + " with " +
                             check.is("dataset.format", d.format) +
                             ": images are generated from at most 2 dimensions");
    }
  }
  check.non_negative("dataset.record_length_bytes_stdev", d.record_length_bytes_stdev);
  check.at_least<std::int64_t>("dataset.record_length_bytes_resize", d.record_length_bytes_resize,
                               0);
  CheckElementType(check, "dataset.record_element_type", d.record_element_type);
  if (d.format == Format::kCsv &&
      (d.record_element_type == "bool" || d.record_element_type == "float16")) {
    check.fail_combination(check.is("dataset.record_element_type", d.record_element_type) +
                           " with " + check.is("dataset.format", d.format) +
                           ": csv files hold integers, float32 or float64");
  }
  // DLIO has no file of several images: its generator writes one image per file whatever
  // num_samples_per_file says, and its reader returns that image for each of the file's samples.
  if ((d.format == Format::kJpeg || d.format == Format::kPng) && d.num_samples_per_file > 1) {
    check.fail_combination(check.is("dataset.num_samples_per_file", d.num_samples_per_file) +
                           " with " + check.is("dataset.format", d.format) +
                           ": an image file holds one sample (DLIO too writes one image per "
                           "file); set num_samples_per_file to 1");
  }
  check.at_least("dataset.hdf5.num_dset_per_record", d.hdf5.num_dset_per_record, 1);
  check.all_positive("dataset.hdf5.chunk_dims", d.hdf5.chunk_dims);
  check.all_positive("dataset.hdf5.max_shape", d.hdf5.max_shape);
  check.at_least<std::int64_t>("dataset.chunk_size", d.chunk_size, 0);
  CheckSizesFit(config, check);
  CheckCompression(config, check);
  if (d.format == Format::kParquet) CheckParquet(config, check);
  if (d.generation_buffer_size == 0) check.fail("dataset.generation_buffer_size", "must be > 0");
  check.at_least("dataset.generation_threads", d.generation_threads, 1);
  if (d.content.kind == ContentKind::kCompressible &&
      (!(d.content.compress_ratio >= 1.0) || !std::isfinite(d.content.compress_ratio))) {
    check.fail("dataset.content.compress_ratio", "must be >= 1 (raw size / compressed size), got " +
                                                     Describe(ToNode(d.content.compress_ratio)));
  }
  // Assembled files are put together from pre-encoded pieces: there are assemblers for jpeg, png
  // and csv (plain or gzip; CheckCompression refuses csv's other compressions). Images are noise
  // whatever content.kind says, so only `random` describes them; csv pieces are formatted from
  // the content generator, of any kind.
  if (d.content.encoding == ContentEncoding::kAssembled) {
    const bool image = d.format == Format::kJpeg || d.format == Format::kPng;
    if (!image && d.format != Format::kCsv) {
      check.fail_combination(check.is("dataset.content.encoding", d.content.encoding) + " with " +
                             check.is("dataset.format", d.format) +
                             ": only jpeg, png and csv files can be assembled; use per_file");
    }
    if (image && d.content.kind != ContentKind::kRandom) {
      check.fail_combination(check.is("dataset.content.encoding", d.content.encoding) + " with " +
                             check.is("dataset.content.kind", d.content.kind) +
                             ": assembled images are noise; use kind random or encoding per_file");
    }
  }
}

}  // namespace dlbench::config
