// The resolved workload configuration: every section and key of the DLIO schema as typed
// fields with DLIO's defaults (../docs/configuration.md), plus dlbench's own keys, which are
// marked "dlbench". Built once per process by config::Load and passed down as `const Config&`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/distribution.h"
#include "config/enums.h"
#include "util/units.h"

namespace dlbench::config {

struct ParallelismConfig {
  int tensor = 1;
  int pipeline = 1;
  int data = -1;  // -1: derived as world / (tensor * pipeline)
  int zero_stage = 0;

  bool operator==(const ParallelismConfig&) const = default;
};

struct TransformerConfig {
  std::int64_t vocab_size = 32000;
  std::int64_t hidden_size = 2048;
  std::int64_t ffn_hidden_size = 8192;
  std::int64_t num_attention_heads = 32;
  std::int64_t num_kv_heads = 8;

  bool operator==(const TransformerConfig&) const = default;
};

struct ModelConfig {
  std::string name = "default";
  std::optional<std::string> type;  // "transformer" enables the layer checkpoint model
  std::int64_t model_size_bytes = 10240;
  // model_size_bytes was given only as model.model_size (DLIO's unet3d and megatron YAMLs), a key
  // DLIO >=2.0 never reads: DLIO writes its default 10240-byte model for the same YAML. dlbench
  // honours the key; the checkpoint plan and summary.json say what DLIO would have written.
  bool model_size_ignored_by_dlio = false;
  DataType model_datatype = DataType::kFp16;
  DataType optimizer_datatype = DataType::kFp32;
  std::vector<std::int64_t> optimization_groups;
  std::int64_t num_layers = -1;
  std::vector<std::int64_t> layer_parameters;
  ParallelismConfig parallelism;
  TransformerConfig transformer;

  bool is_transformer() const { return type && *type == "transformer"; }

  bool operator==(const ModelConfig&) const = default;
};

struct WorkflowConfig {
  bool generate_data = false;
  bool train = true;
  bool evaluation = false;
  bool checkpoint = false;
  bool profiling = false;
  bool stage = false;  // dlbench: copy the dataset to a faster tier for training (`stage`)
  std::optional<std::string> query;  // only meaningful to `dlbench config query`

  bool generate_only() const { return !train && generate_data && !checkpoint; }
  bool checkpoint_only() const { return !train && checkpoint; }

  bool operator==(const WorkflowConfig&) const = default;
};

// dlbench: a named storage tier (storage.tiers.<name>). I/O under `path` gets its emulation.
// In a tier's path, replaced by the node's name (mpi/nodes.h): one folder per emulated node.
inline constexpr const char* kNodePlaceholder = "{node}";

struct TierConfig {
  std::string name;
  std::string path;
  std::optional<Bytes> capacity;                  // e.g. 64GiB
  std::optional<BytesPerSecond> bandwidth_limit;  // e.g. 400MiB/s, shared by a rank's threads
  Seconds latency = 0.0;                          // added to every operation, e.g. 2ms
  // Each node has its own copy at `path` (a node's NVMe): ranks touch only their node's files.
  // True with `node_local: true` or a path containing {node}.
  bool node_local = false;
  // `path` as written, {node} included; `path` is this process's node's folder (config::Load
  // fills {node} with LoadOptions::node).
  std::string path_template = {};

  bool operator==(const TierConfig&) const = default;
};

struct StorageConfig {
  StorageType storage_type = StorageType::kLocalFs;
  std::string storage_root = "./";
  // The keys dlbench reads (kStorageOptionKeys); others draw a notice with s3 storage.
  std::map<std::string, std::string> storage_options;
  static const std::vector<std::string> kStorageOptionKeys;
  // MLPerf Storage's DLIO fork: the S3 library it runs (s3dlio, s3torchconnector or minio);
  // recorded, while dlbench always uses its own client. The fork also reads it from
  // storage_options.storage_library, which its wrapper passes: library() says which was given.
  std::string storage_library;
  std::vector<TierConfig> tiers;  // dlbench

  // storage_library, else storage_options.storage_library, else "".
  std::string library() const;
  // The key library() was read from.
  std::string library_key() const;

  // The tier called `name`, or nullptr.
  const TierConfig* tier_named(const std::string& name) const;
  // The tier whose folder holds `path`, the deepest one (util/path_text.h DeepestFolderHolding,
  // as the run's mount table decides: storage/tier_env.h), or nullptr.
  const TierConfig* tier_holding(const std::string& path) const;

  bool operator==(const StorageConfig&) const = default;
};

struct Hdf5Config {
  std::vector<std::int64_t> chunk_dims;
  int num_dset_per_record = 1;
  std::vector<std::int64_t> max_shape;

  bool operator==(const Hdf5Config&) const = default;
};

// MLCommons DLIO's dataset.parquet section (docs/formats.md): one column per entry, each row of
// a column holding `size` elements of `dtype`; `read: false` leaves the column out when reading.
struct ParquetColumn {
  std::string name;
  std::string dtype = "float32";
  std::int64_t size = 1;
  bool read = true;

  bool operator==(const ParquetColumn&) const = default;
};

struct ParquetConfig {
  std::vector<ParquetColumn> columns;  // empty: DLIO's single uint8 column "data"
  std::int64_t row_group_size = 1024;

  bool operator==(const ParquetConfig&) const = default;
};

// dlbench: what generated samples contain (DLIO's content differs by format, defect D18).
struct ContentConfig {
  ContentKind kind = ContentKind::kRandom;
  double compress_ratio = 2.0;  // kCompressible: target ratio of raw to compressed size
  std::uint64_t seed = 0;       // mixed with (file, offset); 0 = derived from train.seed
  // per_file: each file encoded from its own values (DLIO); assembled: jpeg, png and csv files
  // put together from a pool of pre-encoded pieces (formats/image/jpeg_assembly.h, png_assembly.h,
  // csv_assembly.h), at file-writing speed; auto (the default): assembled where the format and
  // content allow it, else per_file, resolved by config::Load (ResolvedContentEncoding). A Config
  // built without Load that keeps auto is generated per file.
  ContentEncoding encoding = ContentEncoding::kAuto;

  bool operator==(const ContentConfig&) const = default;
};

struct DatasetConfig {
  std::string data_folder = "./data";  // trailing '/' stripped
  Format format = Format::kTfrecord;
  std::int64_t num_files_train = 8;
  std::int64_t num_files_eval = 0;
  std::int64_t num_samples_per_file = 1;
  std::int64_t num_subfolders_train = 0;
  std::int64_t num_subfolders_eval = 0;
  std::string file_prefix = "img";
  double record_length_bytes = 65536;  // may be fractional in DLIO YAMLs (114660.07)
  double record_length_bytes_stdev = 0;
  std::int64_t record_length_bytes_resize = 0;
  std::vector<std::int64_t> record_dims;
  std::string record_element_type = "uint8";  // NumPy dtype name
  Compression compression = Compression::kNone;
  int compression_level = 4;
  bool enable_chunking = false;  // accepted, no effect at DLIO HEAD
  std::int64_t chunk_size = 0;   // accepted, no effect at DLIO HEAD
  Hdf5Config hdf5;
  ParquetConfig parquet;
  Bytes generation_buffer_size = 2 * GiB;
  bool keep_files = true;
  // dlbench additions
  int generation_threads = 1;  // threads per rank writing files
  bool fsync = false;          // fsync every generated file before it is renamed into place
  ContentConfig content;

  bool operator==(const DatasetConfig&) const = default;
};

struct ReaderConfig {
  DataLoader data_loader = DataLoader::kTensorflow;
  std::optional<SamplerKind> data_loader_sampler;  // derived from data_loader when absent
  std::int64_t batch_size = 1;
  std::int64_t batch_size_eval = 1;
  int read_threads = 1;
  int computation_threads = 1;
  int prefetch_size = 2;
  Shuffle file_shuffle = Shuffle::kOff;
  Shuffle sample_shuffle = Shuffle::kOff;
  std::int64_t shuffle_size = 1024;
  ReadType read_type = ReadType::kOnDemand;
  FileAccess file_access = FileAccess::kMulti;
  std::optional<Bytes> transfer_size;
  TimeDistribution preprocess_time;
  bool pin_memory = true;
  MultiprocessingContext multiprocessing_context = MultiprocessingContext::kFork;
  bool dont_use_mmap = false;
  bool odirect = false;
  std::vector<std::int64_t> transformed_record_dims;
  std::string transformed_record_element_type = "uint8";
  // dlbench additions
  DropCaches drop_caches = DropCaches::kNone;  // between epochs
  OnError on_error = OnError::kFail;           // corrupt sample: fail (exit 3) or count and skip
  bool verify_checksums = true;                // TFRecord data CRCs (length CRCs: always)
  // Scheduling of reader threads: batch (SCHED_BATCH, so that their wake-ups do not preempt the
  // trainer thread that emulates the accelerator) or normal (inherit the process's policy).
  ThreadPolicy thread_policy = ThreadPolicy::kBatch;

  SamplerKind sampler() const {
    if (data_loader_sampler) return *data_loader_sampler;
    return data_loader == DataLoader::kTensorflow ? SamplerKind::kIterative : SamplerKind::kIndex;
  }

  bool operator==(const ReaderConfig&) const = default;
};

struct TrainConfig {
  int epochs = 1;
  std::int64_t total_training_steps = -1;  // caps the steps of each epoch (DLIO meaning)
  TimeDistribution computation_time;
  std::int64_t seed = 123;
  bool seed_change_epoch = true;
  bool step_barrier = true;  // dlbench: barrier per step emulating the gradient all-reduce

  bool operator==(const TrainConfig&) const = default;
};

struct EvaluationConfig {
  TimeDistribution eval_time;
  int eval_after_epoch = 1;
  int epochs_between_evals = 1;

  bool operator==(const EvaluationConfig&) const = default;
};

// checkpoint.ksm: DLIO's memory-deduplication settings (accepted; dlbench streams checkpoints,
// so there is nothing resident to merge).
struct KsmConfig {
  int madv_mergeable_id = 12;
  double high_ram_trigger = 30.0;  // percent
  double low_ram_exit = 15.0;      // percent
  int await_time = 200;            // seconds

  bool operator==(const KsmConfig&) const = default;
};

// dlbench: checkpoints land on a fast tier and drain asynchronously to checkpoint_folder.
struct BurstBufferConfig {
  std::string tier;  // name of a storage.tiers entry
  int drain_threads = 2;
  bool evict_after_drain = true;
  int max_pending_checkpoints = 2;
  // Takes the tier's space for max_pending_checkpoints saves when the store starts, so that no
  // save pays for allocating it (checkpoint/fast_tier_spares.h); by default only on a tier in
  // memory, as much as its free space holds.
  Preallocate preallocate = Preallocate::kAuto;

  bool operator==(const BurstBufferConfig&) const = default;
};

struct CheckpointConfig {
  std::string checkpoint_folder = "./checkpoints";  // trailing '/' stripped
  int checkpoint_after_epoch = 1;
  int epochs_between_checkpoints = 1;
  std::int64_t steps_between_checkpoints = -1;  // >= 1 selects step mode
  CheckpointType type = CheckpointType::kRankZero;
  bool fsync = false;                     // honoured (DLIO never applies it, defect D2)
  Seconds time_between_checkpoints = -1;  // < 0 means no sleep (DLIO sleeps 1 s, D14)
  int num_checkpoints_write = -1;
  int num_checkpoints_read = -1;
  bool recovery_rank_shift = false;
  bool rank_sync = false;
  CheckpointMode mode = CheckpointMode::kDefault;
  bool randomize_tensor = true;
  bool ksm = false;       // presence of the `ksm` map
  KsmConfig ksm_options;  // its keys (only meaningful when ksm)
  // dlbench additions
  int write_threads = 1;
  bool odirect = false;
  bool verify = false;  // check content on restore
  std::optional<BurstBufferConfig> burst_buffer;

  bool operator==(const CheckpointConfig&) const = default;
};

struct MetricExclusion {
  int exclude_start_steps = 1;
  int exclude_end_steps = 0;

  bool operator==(const MetricExclusion&) const = default;
};

struct OutputConfig {
  std::optional<std::string> folder;
  std::string log_file = "dlio.log";
  MetricExclusion metric;

  bool operator==(const OutputConfig&) const = default;
};

struct ProfilingConfig {
  Profiler profiler = Profiler::kIostat;
  std::vector<std::string> iostat_devices;
  // dlbench: the built-in trace, written when workflow.profiling is on (docs/tracing.md).
  std::vector<std::string> trace_data_dirs;  // trace I/O only under these folders; empty: all
  std::int64_t trace_sample = 1;             // keep 1 in N files' I/O and samples' item events
  TracePolicy trace_policy = TracePolicy::kBlock;  // when a thread's buffer is full
  std::int64_t trace_buffer_events = 65536;        // per recording thread (64 bytes each)
  std::int64_t trace_compression_level = 3;        // zlib 1..9: the writer's CPU against size
  TraceWriterPriority trace_writer_priority = TraceWriterPriority::kIdle;  // its CPU priority
  // dlbench: the memory for Darshan's per-file counter records, per rank (docs/counters.md);
  // files beyond it are folded into one record per group, totals stay exact.
  std::int64_t counters_memory_mib = 8;

  bool operator==(const ProfilingConfig&) const = default;
};

struct MetricConfig {
  double au = 0.90;

  bool operator==(const MetricConfig&) const = default;
};

// dlbench: staging the dataset between storage tiers (docs/staging.md).
struct StageConfig {
  std::string from;  // tier holding dataset.data_folder; empty: the tier that holds it
  std::string to;    // the fast tier the copy goes to
  StagePolicy policy = StagePolicy::kBeforeTraining;
  bool all_files = false;  // before_training: every rank stages its share of all files, not
                           // only the files it reads
  int threads = 4;         // copy threads per rank
  bool verify = false;     // re-read every staged byte and compare with the source's checksum

  bool operator==(const StageConfig&) const = default;
};

struct Config {
  ModelConfig model;
  Framework framework = Framework::kTensorflow;
  WorkflowConfig workflow;
  StorageConfig storage;
  DatasetConfig dataset;
  ReaderConfig reader;
  TrainConfig train;
  EvaluationConfig evaluation;
  CheckpointConfig checkpoint;
  OutputConfig output;
  ProfilingConfig profiling;
  MetricConfig metric;
  StageConfig stage;

  // Where it came from: the workload file (empty for defaults only) and the overrides, verbatim.
  std::string source_file;
  std::vector<std::string> overrides;

  bool operator==(const Config&) const = default;
};

}  // namespace dlbench::config
