// Values of each type: enums, YAML 1.1 booleans, integers, floats, lists, units, composites.
#include <gtest/gtest.h>

#include "config_test_util.h"

namespace dlbench::config {
namespace {

using testing::LoadError;
using testing::LoadText;

Config Reader(const std::string& body) { return LoadText("reader:\n" + body).config; }

TEST(TypedValue, EnumValues) {
  const Config config =
      LoadText(
          "framework: pytorch\nreader: {data_loader: pytorch, read_type: memory, "
          "multiprocessing_context: spawn, data_loader_sampler: iterative}\n"
          "dataset: {format: indexed_binary}\nmodel: {model_datatype: bf16, optimizer_datatype: "
          "fp64}\nprofiling: {profiler: none}\n")
          .config;
  EXPECT_EQ(config.framework, Framework::kPytorch);
  EXPECT_EQ(config.reader.read_type, ReadType::kMemory);
  EXPECT_EQ(config.reader.multiprocessing_context, MultiprocessingContext::kSpawn);
  EXPECT_EQ(config.reader.sampler(), SamplerKind::kIterative);
  EXPECT_EQ(config.dataset.format, Format::kIndexedBinary);
  EXPECT_EQ(config.model.model_datatype, DataType::kBf16);
  EXPECT_EQ(config.model.optimizer_datatype, DataType::kFp64);
  EXPECT_EQ(config.profiling.profiler, Profiler::kNone);
}

TEST(TypedValue, UnknownEnumValueListsTheAllowedOnes) {
  EXPECT_EQ(LoadError("dataset:\n  format: arrow\n"),
            "dataset.format: 'arrow' is not one of tfrecord, hdf5, csv, npz, npy, jpeg, png, "
            "indexed_binary, mmap_indexed_binary, synthetic or parquet (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  read_type: lazy\n"),
            "reader.read_type: 'lazy' is not one of on_demand or memory (w.yaml:2)");
  // A typo gets the closest name, as an unknown key or workload does.
  EXPECT_EQ(LoadError("{}", {"++workload.dataset.format=NPZZ"}),
            "dataset.format: 'NPZZ' is not one of tfrecord, hdf5, csv, npz, npy, jpeg, png, "
            "indexed_binary, mmap_indexed_binary, synthetic or parquet; did you mean npz? "
            "(override ++workload.dataset.format=NPZZ)");
}

TEST(TypedValue, TraceWriterPriorityIsIdleUnlessAsked) {
  EXPECT_EQ(LoadText("{}").config.profiling.trace_writer_priority, TraceWriterPriority::kIdle);
  EXPECT_EQ(
      LoadText("profiling:\n  trace_writer_priority: low\n").config.profiling.trace_writer_priority,
      TraceWriterPriority::kLow);
  EXPECT_EQ(LoadText("profiling:\n  trace_writer_priority: Normal\n")
                .config.profiling.trace_writer_priority,
            TraceWriterPriority::kNormal);
  EXPECT_EQ(LoadError("profiling:\n  trace_writer_priority: lowest\n"),
            "profiling.trace_writer_priority: 'lowest' is not one of idle, low or normal; did "
            "you mean low? (w.yaml:2)");
}

TEST(TypedValue, ShuffleOffInEveryYaml11Spelling) {
  for (const char* value :
       {"off", "Off", "OFF", "false", "False", "FALSE", "no", "No", "'off'", "\"off\""}) {
    const Config config =
        Reader(std::string("  file_shuffle: ") + value + "\n  sample_shuffle: " + value + "\n");
    EXPECT_EQ(config.reader.file_shuffle, Shuffle::kOff) << value;
    EXPECT_EQ(config.reader.sample_shuffle, Shuffle::kOff) << value;
  }
  EXPECT_EQ(Reader("  file_shuffle: seed\n  sample_shuffle: random\n").reader.sample_shuffle,
            Shuffle::kRandom);
  EXPECT_EQ(LoadError("reader:\n  file_shuffle: true\n"),
            "reader.file_shuffle: 'true' is not one of off, seed or random (w.yaml:2)");
}

TEST(TypedValue, Yaml11Booleans) {
  for (const char* value : {"true", "True", "TRUE", "yes", "Yes", "on", "On", "ON"}) {
    EXPECT_TRUE(Reader(std::string("  dont_use_mmap: ") + value + "\n").reader.dont_use_mmap)
        << value;
  }
  for (const char* value : {"false", "False", "no", "NO", "off", "Off"}) {
    EXPECT_FALSE(Reader(std::string("  pin_memory: ") + value + "\n").reader.pin_memory) << value;
  }
  EXPECT_EQ(LoadError("reader:\n  pin_memory: 1\n"),
            "reader.pin_memory: expected a boolean (true/false, yes/no, on/off), got 1 "
            "(w.yaml:2)");
  EXPECT_NE(LoadError("reader:\n  pin_memory: 'true'\n").find("expected a boolean"),
            std::string::npos);
}

TEST(TypedValue, IntegersRejectNonIntegralFloats) {
  EXPECT_EQ(Reader("  batch_size: 4.0\n").reader.batch_size, 4);
  EXPECT_EQ(Reader("  shuffle_size: 1e2\n").reader.shuffle_size, 100);
  EXPECT_EQ(LoadError("reader:\n  batch_size: 4.5\n"),
            "reader.batch_size: expected an integer, got the non-integral number 4.5 (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  batch_size: four\n"),
            "reader.batch_size: expected an integer, got four (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  read_threads: 3000000000\n"),
            "reader.read_threads: integer 3000000000 is out of range (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  batch_size: '4'\n"),
            "reader.batch_size: expected an integer, got '4' (w.yaml:2)");
  // Integral, but beyond 64 bits: out of range, not "non-integral" as it was called before.
  EXPECT_EQ(LoadError("reader:\n  batch_size: 99999999999999999999999\n"),
            "reader.batch_size: integer 99999999999999999999999 is out of range (a 64-bit "
            "integer holds at most 9223372036854775807) (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  batch_size: 1e400\n"),
            "reader.batch_size: integer 1e400 is out of range (a 64-bit integer holds at most "
            "9223372036854775807) (w.yaml:2)");
}

TEST(TypedValue, RecordLengthsMayBeFloats) {
  const Config config =
      LoadText(
          "dataset:\n  record_length_bytes: 114660.07\n  record_length_bytes_stdev: 0.5\n"
          "  record_length_bytes_resize: 150528.9\n")
          .config;
  EXPECT_EQ(config.dataset.record_length_bytes, 114660.07);
  EXPECT_EQ(config.dataset.record_length_bytes_stdev, 0.5);
  EXPECT_EQ(config.dataset.record_length_bytes_resize, 150528);
}

TEST(TypedValue, Lists) {
  EXPECT_EQ(LoadText("dataset: {record_dims: [4, 8]}\n").config.dataset.record_dims,
            (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(LoadError("dataset:\n  record_dims: 4\n"),
            "dataset.record_dims: expected a list of integers, got 4 (w.yaml:2)");
  EXPECT_EQ(LoadError("dataset:\n  record_dims: [4, 8.5]\n"),
            "dataset.record_dims[1]: expected an integer, got the non-integral number 8.5 "
            "(w.yaml:2)");
  EXPECT_EQ(LoadText("profiling: {iostat_devices: sda}\n").config.profiling.iostat_devices,
            (std::vector<std::string>{"sda"}));
}

TEST(TypedValue, StringsAndNulls) {
  EXPECT_EQ(LoadText("model: {type: transformer}\n").config.model.type, "transformer");
  EXPECT_EQ(LoadText("model: {type: ~}\n").config.model.type, std::nullopt);
  EXPECT_EQ(LoadText("model: {type: null}\n").config.model.type, std::nullopt);
  EXPECT_EQ(LoadText("dataset: {file_prefix: 123}\n").config.dataset.file_prefix, "123");
  EXPECT_EQ(LoadError("dataset:\n  file_prefix: [a]\n"),
            "dataset.file_prefix: expected a string, got [a] (w.yaml:2)");
  EXPECT_EQ(LoadError("reader:\n  batch_size: null\n"),
            "reader.batch_size: expected an integer, got null (w.yaml:2)");
}

TEST(TypedValue, SizesWithUnits) {
  const Config config =
      LoadText("dataset: {generation_buffer_size: 1GiB}\nreader: {transfer_size: 262144}\n").config;
  EXPECT_EQ(config.dataset.generation_buffer_size, GiB);
  EXPECT_EQ(config.reader.transfer_size, Bytes{262144});
  EXPECT_EQ(LoadText("reader: {transfer_size: null}\n").config.reader.transfer_size, std::nullopt);
  EXPECT_EQ(LoadError("dataset:\n  generation_buffer_size: 2 gigs\n"),
            "dataset.generation_buffer_size: expected a whole number of bytes, optionally with a "
            "unit (B, KiB, MiB, GiB, TiB, KB, MB, GB, TB), got 2 gigs (w.yaml:2)");
}

TEST(TypedValue, StorageTiers) {
  const Config config =
      LoadText(
          "storage:\n  tiers:\n    nvme: {path: /nvme, capacity: 64GiB, bandwidth_limit: 400MiB/s, "
          "latency: 2ms}\n    hdd: {path: /hdd}\n")
          .config;
  ASSERT_EQ(config.storage.tiers.size(), 2u);
  const TierConfig& nvme = config.storage.tiers[0];
  EXPECT_EQ(nvme.name, "nvme");
  EXPECT_EQ(nvme.path, "/nvme");
  EXPECT_EQ(nvme.capacity, 64 * GiB);
  EXPECT_EQ(nvme.bandwidth_limit, 400.0 * MiB);
  EXPECT_EQ(nvme.latency, 0.002);
  const TierConfig& hdd = config.storage.tiers[1];
  EXPECT_EQ(hdd.capacity, std::nullopt);
  EXPECT_EQ(hdd.bandwidth_limit, std::nullopt);
  EXPECT_EQ(hdd.latency, 0.0);
}

TEST(TypedValue, StorageTierErrors) {
  EXPECT_EQ(LoadError("storage:\n  tiers:\n    nvme: {capacity: 1GiB}\n"),
            "storage.tiers.nvme: a tier needs a path (w.yaml:3)");
  EXPECT_NE(LoadError("storage:\n  tiers:\n    nvme: {path: /n, bandwidth_limit: fast}\n")
                .find("storage.tiers.nvme.bandwidth_limit: expected a rate like 400MiB/s"),
            std::string::npos);
  EXPECT_NE(LoadError("storage:\n  tiers:\n    nvme: {path: /n, latency: 2min}\n")
                .find("storage.tiers.nvme.latency: expected a duration like 2ms (units s, ms, "
                      "us), got 2min"),
            std::string::npos);
  EXPECT_NE(LoadError("storage:\n  tiers:\n    nvme: {path: /n, capacity: 64G}\n")
                .find("storage.tiers.nvme.capacity: expected a whole number of bytes"),
            std::string::npos);
  EXPECT_NE(LoadError("storage:\n  tiers:\n    nvme: /nvme\n").find("expected a mapping like"),
            std::string::npos);
}

TEST(TypedValue, KsmPresenceTurnsItOn) {
  EXPECT_FALSE(LoadText("{}").config.checkpoint.ksm);
  const Config empty = LoadText("checkpoint:\n  randomize_tensor: false\n  ksm:\n").config;
  EXPECT_TRUE(empty.checkpoint.ksm);
  EXPECT_EQ(empty.checkpoint.ksm_options, KsmConfig{});
  const Config set =
      LoadText("checkpoint:\n  randomize_tensor: false\n  ksm: {high_ram_trigger: 50.5}\n").config;
  EXPECT_EQ(set.checkpoint.ksm_options.high_ram_trigger, 50.5);
}

TEST(TypedValue, BurstBuffer) {
  const Config config =
      LoadText(
          "storage: {tiers: {nvme: {path: /nvme}}}\ncheckpoint:\n  burst_buffer: {tier: nvme, "
          "drain_threads: 3, evict_after_drain: no, max_pending_checkpoints: 1, preallocate: "
          "yes}\n")
          .config;
  ASSERT_TRUE(config.checkpoint.burst_buffer);
  EXPECT_EQ(config.checkpoint.burst_buffer->tier, "nvme");
  EXPECT_EQ(config.checkpoint.burst_buffer->drain_threads, 3);
  EXPECT_FALSE(config.checkpoint.burst_buffer->evict_after_drain);
  EXPECT_EQ(config.checkpoint.burst_buffer->max_pending_checkpoints, 1);
  EXPECT_EQ(config.checkpoint.burst_buffer->preallocate, Preallocate::kYes);
  EXPECT_EQ(config::BurstBufferConfig{}.preallocate, Preallocate::kAuto);
  for (const auto& [text, value] : {std::pair{"auto", Preallocate::kAuto},
                                    {"off", Preallocate::kNo},
                                    {"True", Preallocate::kYes}}) {
    EXPECT_EQ(LoadText(std::string("storage: {tiers: {nvme: {path: /nvme}}}\ncheckpoint:\n  "
                                   "burst_buffer: {tier: nvme, preallocate: ") +
                       text + "}\n")
                  .config.checkpoint.burst_buffer->preallocate,
              value)
        << text;
  }
  EXPECT_EQ(LoadError("storage: {tiers: {nvme: {path: /nvme}}}\ncheckpoint:\n  burst_buffer: "
                      "{tier: nvme, preallocate: sometimes}\n"),
            "checkpoint.burst_buffer.preallocate: 'sometimes' is not one of auto, true or false "
            "(w.yaml:3)");
  EXPECT_EQ(LoadError("checkpoint:\n  burst_buffer: {drain_threads: 3}\n"),
            "checkpoint.burst_buffer: a burst buffer needs `tier`, the name of a storage.tiers "
            "entry (w.yaml:2)");
}

TEST(TypedValue, DatasetContent) {
  const Config config =
      LoadText(
          "dataset:\n  content: {kind: zeros, seed: 42}\n  generation_threads: 8\n"
          "  fsync: yes\n")
          .config;
  EXPECT_EQ(config.dataset.content.kind, ContentKind::kZeros);
  EXPECT_EQ(config.dataset.content.seed, 42u);
  EXPECT_EQ(config.dataset.generation_threads, 8);
  EXPECT_TRUE(config.dataset.fsync);
  EXPECT_EQ(config.dataset.content.encoding, ContentEncoding::kPerFile);  // auto, tfrecord
  EXPECT_EQ(LoadText("dataset:\n  format: jpeg\n  num_samples_per_file: 1\n"
                     "  content: {encoding: per_file}\n")
                .config.dataset.content.encoding,
            ContentEncoding::kPerFile);
  EXPECT_EQ(LoadError("dataset:\n  content: {encoding: per_image}\n"),
            "dataset.content.encoding: 'per_image' is not one of auto, per_file or assembled "
            "(w.yaml:2)");
}

// dataset.content.encoding: auto (the default) is resolved at load: assembled where an assembler
// exists (jpeg and png of random content, csv plain or gzip), per_file otherwise.
TEST(TypedValue, ContentEncodingAutoIsResolved) {
  const auto encoding = [](const std::string& dataset) {
    return LoadText("dataset:\n" + dataset).config.dataset.content.encoding;
  };
  const std::string image = "  num_samples_per_file: 1\n";
  EXPECT_EQ(encoding("  format: jpeg\n" + image), ContentEncoding::kAssembled);
  EXPECT_EQ(encoding("  format: png\n" + image + "  content: {encoding: auto}\n"),
            ContentEncoding::kAssembled);
  EXPECT_EQ(encoding("  format: csv\n"), ContentEncoding::kAssembled);
  EXPECT_EQ(encoding("  format: csv\n  compression: gzip\n"), ContentEncoding::kAssembled);
  // Assembled images are noise: other content kinds are encoded per file.
  EXPECT_EQ(encoding("  format: jpeg\n" + image + "  content: {kind: zeros}\n"),
            ContentEncoding::kPerFile);
  EXPECT_EQ(encoding("  format: png\n" + image + "  content: {kind: compressible}\n"),
            ContentEncoding::kPerFile);
  EXPECT_EQ(encoding("  format: csv\n  content: {kind: zeros}\n"), ContentEncoding::kAssembled);
  EXPECT_EQ(encoding("  format: npz\n"), ContentEncoding::kPerFile);
  EXPECT_EQ(encoding("  format: parquet\n  content: {encoding: auto}\n"),
            ContentEncoding::kPerFile);
  // What config show prints is the resolved value, and loading it again gives the same Config.
  const Config jpeg = LoadText("dataset:\n  format: jpeg\n" + image).config;
  EXPECT_NE(ToYaml(jpeg).find("encoding: assembled"), std::string::npos);
  EXPECT_EQ(LoadText(ToYaml(jpeg)).config.dataset.content, jpeg.dataset.content);
}

TEST(TypedValue, CustomClassesAreRejected) {
  EXPECT_EQ(LoadError("reader:\n  data_loader_classname: my.Loader\n"),
            "reader.data_loader_classname: custom data loader classes are not supported by "
            "dlbench (no plugins); remove the key (w.yaml:2)");
  EXPECT_NE(LoadError("reader:\n  reader_classname: my.Reader\n").find("custom reader classes"),
            std::string::npos);
  EXPECT_NE(LoadError("checkpoint:\n  checkpoint_mechanism_classname: my.C\n")
                .find("custom checkpoint mechanisms"),
            std::string::npos);
  EXPECT_EQ(LoadText("reader:\n  reader_classname: null\n").config.reader.batch_size, 1);
}

TEST(TypedValue, WorkflowQueryIsAccepted) {
  EXPECT_EQ(LoadText("workflow: {query: dataset.num_files_train}\n").config.workflow.query,
            "dataset.num_files_train");
}

}  // namespace
}  // namespace dlbench::config
