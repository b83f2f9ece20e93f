#include "config/validate.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

#include "config/checker.h"
#include "config/distribution_parser.h"
#include "config/typed_value.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

std::string Product(std::int64_t a, std::int64_t b) {
  return std::to_string(a) + " x " + std::to_string(b) + " = " + std::to_string(a * b);
}

// The rank-count rules hold only where checkpoints are written: generating or reading a dataset
// does not split ranks into tensor x pipeline groups, so `dlbench generate megatron_deepspeed`
// on one node (and `config show llama3_405b` alone) used to be refused for a rule of checkpoints.
void CheckModel(const Config& config, const Checker& check, int world, const PhasesRun& run) {
  const ModelConfig& model = config.model;
  const bool checkpoints = run.checkpoint || (run.train && config.workflow.checkpoint);
  const ParallelismConfig& p = model.parallelism;
  check.one_line("model.name", model.name);
  check.at_least("model.parallelism.tensor", p.tensor, 1);
  check.at_least("model.parallelism.pipeline", p.pipeline, 1);
  if (p.zero_stage < 0 || p.zero_stage > 3) {
    check.fail("model.parallelism.zero_stage",
               "must be 0, 1, 2 or 3, got " + std::to_string(p.zero_stage));
  }
  if (p.data == 0 || p.data < -1) {
    check.fail("model.parallelism.data",
               "must be -1 (derived from the rank count) or >= 1, got " + std::to_string(p.data));
  }
  if (p.pipeline > 1 && p.zero_stage == 3) {
    check.fail_combination(check.is("model.parallelism.zero_stage", p.zero_stage) + " with " +
                           check.is("model.parallelism.pipeline", p.pipeline) +
                           ": ZeRO stage 3 cannot be combined with pipeline parallelism; use "
                           "zero_stage 0-2 or pipeline 1");
  }
  if (model.num_layers > 0 && model.num_layers < p.pipeline) {
    check.fail_combination(check.is("model.num_layers", model.num_layers) + " is fewer than " +
                           check.is("model.parallelism.pipeline", p.pipeline) +
                           ": every pipeline stage needs at least one layer");
  }
  const std::int64_t tp_pp = std::int64_t{p.tensor} * p.pipeline;
  if (config.checkpoint.mode == CheckpointMode::kDefault) {
    if (p.data > 0) {
      check.fail_combination(check.is("model.parallelism.data", p.data) +
                             " is only allowed with checkpoint.mode: subset; in mode default "
                             "it is derived as ranks / (tensor x pipeline)" +
                             check.at("checkpoint.mode"));
    }
    if (checkpoints && world % tp_pp != 0) {
      check.fail_combination("the rank count " + std::to_string(world) + " is not a multiple of " +
                             check.is("model.parallelism.tensor", p.tensor) + " x " +
                             check.is("model.parallelism.pipeline", p.pipeline) + " = " +
                             std::to_string(tp_pp) + "; run with a multiple of " +
                             std::to_string(tp_pp) + " ranks (`config show`, `config query` and " +
                             "`checkpoint plan` take --ranks " + std::to_string(tp_pp) + ")");
    }
  } else {
    if (p.data <= 0) {
      check.fail_combination("checkpoint.mode: subset" + check.at("checkpoint.mode") +
                             " requires model.parallelism.data >= 1: the data-parallel size of "
                             "the full job this run is a subset of");
    }
    if (checkpoints && p.data * tp_pp < world) {
      check.fail_combination(
          "checkpoint.mode: subset: the full job (" + check.is("model.parallelism.data", p.data) +
          " x tensor x pipeline " + std::to_string(tp_pp) + " = " + std::to_string(p.data * tp_pp) +
          " ranks) is smaller than this run's " + std::to_string(world) + " ranks");
    }
  }
  check.at_least<std::int64_t>("model.model_size_bytes", model.model_size_bytes, 0);
  check.all_positive("model.optimization_groups", model.optimization_groups);
  check.all_positive("model.layer_parameters", model.layer_parameters);
  if (model.is_transformer()) {
    const TransformerConfig& t = model.transformer;
    check.at_least<std::int64_t>("model.transformer.vocab_size", t.vocab_size, 1);
    check.at_least<std::int64_t>("model.transformer.hidden_size", t.hidden_size, 1);
    check.at_least<std::int64_t>("model.transformer.ffn_hidden_size", t.ffn_hidden_size, 1);
    check.at_least<std::int64_t>("model.transformer.num_attention_heads", t.num_attention_heads, 1);
    check.at_least<std::int64_t>("model.transformer.num_kv_heads", t.num_kv_heads, 1);
  }
}

bool IsElementType(const std::string& name) {
  static constexpr const char* kTypes[] = {"bool",   "int8",    "uint8",   "int16",
                                           "uint16", "int32",   "uint32",  "int64",
                                           "uint64", "float16", "float32", "float64"};
  for (const char* type : kTypes) {
    if (name == type) return true;
  }
  return false;
}

void CheckElementType(const Checker& check, const std::string& key, const std::string& name) {
  if (!IsElementType(name)) {
    check.fail(key, "'" + name +
                        "' is not an element type; use bool, int8, uint8, int16, uint16, int32, "
                        "uint32, int64, uint64, float16, float32 or float64");
  }
}

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

}  // namespace

ContentEncoding ResolvedContentEncoding(const DatasetConfig& d) {
  if (d.content.encoding != ContentEncoding::kAuto) return d.content.encoding;
  // The cases the assembled rule in CheckDataset accepts (and csv's compressions that exist).
  const bool image = d.format == Format::kJpeg || d.format == Format::kPng;
  const bool assembles = (image && d.content.kind == ContentKind::kRandom) ||
                         (d.format == Format::kCsv && (d.compression == Compression::kNone ||
                                                       d.compression == Compression::kGzip));
  return assembles ? ContentEncoding::kAssembled : ContentEncoding::kPerFile;
}

namespace {

void CheckDistribution(const Checker& check, const std::string& key, const TimeDistribution& t) {
  using Kind = TimeDistribution::Kind;
  const std::string type = std::string(" (") + DistributionTypeName(t.kind) + ")";
  switch (t.kind) {
    case Kind::kConstant:
      check.non_negative(key, t.mean);
      break;
    case Kind::kNormal:
      if (!std::isfinite(t.mean)) check.fail(key + ".mean", "must be a finite number" + type);
      check.non_negative(key + ".stdev", t.stdev);
      break;
    case Kind::kUniform:
      check.non_negative(key + ".min", t.min);
      check.non_negative(key + ".max", t.max);
      if (t.min > t.max) {
        check.fail(key, "uniform needs min <= max, got min " + Describe(ToNode(t.min)) +
                            " and max " + Describe(ToNode(t.max)));
      }
      break;
    case Kind::kGamma:
      check.positive(key + ".shape", t.shape);
      check.positive(key + ".scale", t.scale);
      break;
    case Kind::kExponential:
      check.positive(key + ".scale", t.scale);
      break;
    case Kind::kPoisson:
      check.non_negative(key + ".lam", t.lam);
      break;
  }
}

void CheckReader(const Config& config, const Checker& check, const PhasesRun& run) {
  const ReaderConfig& r = config.reader;
  const DataLoader loader = r.data_loader;
  // The loader only matters when data is read: checkpoint-only and generate-only runs of
  // pytorch workloads keep DLIO's default tensorflow loader.
  const bool reads = run.train;
  if (reads && config.dataset.format == Format::kTfrecord && loader == DataLoader::kPytorch) {
    check.fail_combination(check.is("dataset.format", config.dataset.format) + " with " +
                           check.is("reader.data_loader", loader) +
                           ": the pytorch loader cannot read TFRecord files; use the tensorflow "
                           "loader or another format");
  }
  if (reads && ((config.framework == Framework::kTensorflow && loader == DataLoader::kPytorch) ||
                (config.framework == Framework::kPytorch && loader == DataLoader::kTensorflow))) {
    check.fail_combination(check.is("framework", config.framework) + " with " +
                           check.is("reader.data_loader", loader) +
                           ": the data loader must belong to the framework (tensorflow with "
                           "tensorflow, pytorch with pytorch or dali)");
  }
  check.at_least<std::int64_t>("reader.batch_size", r.batch_size, 1);
  check.at_least<std::int64_t>("reader.batch_size_eval", r.batch_size_eval, 1);
  check.at_least("reader.read_threads", r.read_threads, 0);
  // Only where reader threads start: `checkpoint plan unet3d_h100` or `datasize` printed it too.
  cpu_set_t cpus;
  if (reads && sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
      r.read_threads > CPU_COUNT(&cpus)) {
    check.notice("reader.read_threads: " + std::to_string(r.read_threads) +
                 check.at("reader.read_threads") + " is more than the " +
                 std::to_string(CPU_COUNT(&cpus)) + " cores this process may run on");
  }
  check.at_least("reader.computation_threads", r.computation_threads, 1);
  check.at_least("reader.prefetch_size", r.prefetch_size, 0);
  check.at_least<std::int64_t>("reader.shuffle_size", r.shuffle_size, 0);
  if (r.transfer_size && *r.transfer_size == 0) check.fail("reader.transfer_size", "must be > 0");
  CheckDistribution(check, "reader.preprocess_time", r.preprocess_time);
  check.all_positive("reader.transformed_record_dims", r.transformed_record_dims);
  CheckElementType(check, "reader.transformed_record_element_type",
                   r.transformed_record_element_type);
  const Format format = config.dataset.format;
  if (r.odirect && format != Format::kNpz && format != Format::kNpy &&
      format != Format::kIndexedBinary && format != Format::kCsv && format != Format::kJpeg &&
      format != Format::kPng && format != Format::kParquet) {
    check.fail_combination(
        check.is("reader.odirect", r.odirect) + " with " + check.is("dataset.format", format) +
        ": O_DIRECT reading exists only for npz, npy, indexed_binary, csv, jpeg, "
        "png and parquet");
  }
}

// DLIO's loop runs floor(samples / batch / ranks) steps per epoch (reference §5).
void CheckSteps(const Config& config, const Checker& check, int world, const PhasesRun& run) {
  const DatasetConfig& d = config.dataset;
  const ReaderConfig& r = config.reader;
  if (!run.train) return;
  const std::int64_t samples = d.num_files_train * d.num_samples_per_file;
  const std::int64_t per_step = r.batch_size * world;
  const std::int64_t steps = samples / per_step;
  if (steps < 1) {
    check.fail_combination(
        "no training step per epoch: " + std::to_string(samples) + " training samples (" +
        check.is("dataset.num_files_train", d.num_files_train) + " x " +
        check.is("dataset.num_samples_per_file", d.num_samples_per_file) +
        ") are fewer than one step needs (" + check.is("reader.batch_size", r.batch_size) + " x " +
        std::to_string(world) + " ranks = " + std::to_string(per_step) +
        "); lower the batch size or the rank count, or add files");
  }
  const std::int64_t cap = config.train.total_training_steps;
  if (cap > steps) {
    check.fail_combination(
        check.is("train.total_training_steps", cap) + " exceeds the steps of an epoch: at most " +
        std::to_string(steps) + " (" + std::to_string(samples) + " samples / (batch " +
        Product(r.batch_size, world) + " per step)); as in DLIO it caps each epoch");
  }
  if (config.workflow.evaluation && d.num_files_eval > 0) {
    const std::int64_t eval_samples = d.num_files_eval * d.num_samples_per_file;
    const std::int64_t eval_per_step = r.batch_size_eval * world;
    if (eval_samples / eval_per_step < 1) {
      check.fail_combination(
          "no evaluation step: " + std::to_string(eval_samples) + " evaluation samples (" +
          check.is("dataset.num_files_eval", d.num_files_eval) + " x num_samples_per_file " +
          std::to_string(d.num_samples_per_file) + ") are fewer than one step needs (" +
          check.is("reader.batch_size_eval", r.batch_size_eval) + " x " + std::to_string(world) +
          " ranks = " + std::to_string(eval_per_step) + ")");
    }
  }
}

void CheckTrainAndEvaluation(const Config& config, const Checker& check) {
  check.at_least("train.epochs", config.train.epochs, 1);
  CheckDistribution(check, "train.computation_time", config.train.computation_time);
  CheckDistribution(check, "evaluation.eval_time", config.evaluation.eval_time);
  check.at_least("evaluation.eval_after_epoch", config.evaluation.eval_after_epoch, 0);
  check.at_least("evaluation.epochs_between_evals", config.evaluation.epochs_between_evals, 1);
}

void CheckCheckpoint(const Config& config, const Checker& check) {
  const CheckpointConfig& c = config.checkpoint;
  if (c.checkpoint_folder.empty()) check.fail("checkpoint.checkpoint_folder", "must not be empty");
  check.at_least("checkpoint.checkpoint_after_epoch", c.checkpoint_after_epoch, 0);
  check.at_least("checkpoint.epochs_between_checkpoints", c.epochs_between_checkpoints, 1);
  if (c.steps_between_checkpoints == 0) {
    check.fail("checkpoint.steps_between_checkpoints",
               "0 would never checkpoint (DLIO's behaviour); use k >= 1 to checkpoint every k "
               "steps, or -1 for epoch mode");
  }
  if (!std::isfinite(c.time_between_checkpoints)) {
    check.fail("checkpoint.time_between_checkpoints", "must be a finite number of seconds");
  }
  if (c.num_checkpoints_write > 0 && c.num_checkpoints_read > c.num_checkpoints_write) {
    check.fail_combination(check.is("checkpoint.num_checkpoints_read", c.num_checkpoints_read) +
                           " exceeds " +
                           check.is("checkpoint.num_checkpoints_write", c.num_checkpoints_write) +
                           ": only written checkpoints can be read back");
  }
  if (c.ksm && c.randomize_tensor) {
    check.fail_combination("checkpoint.ksm" + check.at("checkpoint.ksm") +
                           " requires checkpoint.randomize_tensor: false" +
                           check.at("checkpoint.randomize_tensor") +
                           " (random tensors have nothing to merge)");
  }
  check.at_least("checkpoint.write_threads", c.write_threads, 1);
}

void CheckOutput(const Config& config, const Checker& check) {
  check.at_least("output.metric.exclude_start_steps", config.output.metric.exclude_start_steps, 0);
  check.at_least("output.metric.exclude_end_steps", config.output.metric.exclude_end_steps, 0);
  if (config.output.log_file.empty()) check.fail("output.log_file", "must not be empty");
  check.one_line("output.log_file", config.output.log_file);
  if (config.output.folder && config.output.folder->empty()) {
    check.fail("output.folder", "must not be empty; leave it out for output/<model.name>/<time>/");
  }
  const double au = config.metric.au;
  if (!(au > 0 && au <= 1)) {
    check.fail("metric.au", "must be in (0, 1], got " + Describe(ToNode(au)));
  }
  // Only a profiler the workload names: DLIO's default (iostat) is not a request, and --trace
  // alone should not print a notice about it.
  if (config.workflow.profiling && config.profiling.profiler != Profiler::kNone &&
      !check.at("profiling.profiler").empty()) {
    check.notice("profiling.profiler: " + std::string(ToString(config.profiling.profiler)) +
                 check.at("profiling.profiler") +
                 " is not started by dlbench; use its own traces and metrics (dlbench writes "
                 "its built-in trace, docs/tracing.md)");
  }
  check.at_least("profiling.trace_sample", config.profiling.trace_sample, std::int64_t{1});
  if (config.profiling.trace_compression_level < 1 ||
      config.profiling.trace_compression_level > 9) {
    check.fail(
        "profiling.trace_compression_level",
        "must be 1..9 (gzip), got " + std::to_string(config.profiling.trace_compression_level));
  }
  // trace::kMinBufferEvents: one event with the longest path (1 + 4096 / 64 slots) must fit.
  check.at_least("profiling.trace_buffer_events", config.profiling.trace_buffer_events,
                 std::int64_t{128});
}

}  // namespace

PhasesRun PhasesThatRun(const WorkflowConfig& workflow, std::optional<Phase> forced) {
  PhasesRun run;
  if (!forced) {
    run.generate = workflow.generate_data;
    run.stage = workflow.stage;
    run.train = workflow.train;
    run.checkpoint = workflow.checkpoint;
    return run;
  }
  run.generate = *forced == Phase::kGenerate;
  run.train = *forced == Phase::kTrain;
  run.checkpoint = *forced == Phase::kCheckpoint;
  // With workflow.stage on, every run resolves the staged folder before its first phase
  // (workflow::Run), and training stages while it reads (per_epoch, on_demand).
  run.stage = *forced == Phase::kStage || workflow.stage;
  return run;
}

void CheckTimeDistribution(const std::string& key, const TimeDistribution& distribution) {
  const KeyOrigins no_origins;
  std::vector<std::string> notices;
  CheckDistribution(Checker(no_origins, notices), key, distribution);
}

void Validate(const Config& config, const KeyOrigins& origins, int world_size,
              std::optional<Phase> forced, std::vector<std::string>& notices) {
  const Checker check(origins, notices);
  const PhasesRun run = PhasesThatRun(config.workflow, forced);
  if (world_size < 1) {
    throw UsageError("the rank count must be >= 1, got " + std::to_string(world_size));
  }
  CheckModel(config, check, world_size, run);
  CheckStorage(config, check);
  CheckDataset(config, check, run);
  CheckReader(config, check, run);
  CheckTrainAndEvaluation(config, check);
  CheckSteps(config, check, world_size, run);
  CheckCheckpoint(config, check);
  CheckBurstBuffer(config, check);
  CheckStage(config, check, run.stage);
  CheckOutput(config, check);
  CheckFolders(config, check);
}

}  // namespace dlbench::config
