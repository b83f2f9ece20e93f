#include "config/validate.h"

#include <sched.h>

#include <cmath>
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
                 std::to_string(CPU_COUNT(&cpus)) + (CPU_COUNT(&cpus) == 1 ? " core" : " cores") +
                 " this process may run on");
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

// DLIO's loop runs floor(samples / batch / ranks) steps per epoch.
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
        Product(r.batch_size, world) + " per step)); as in DLIO it caps each epoch: set it to at " +
        "most " + std::to_string(steps) + " (++workload.train.total_training_steps=" +
        std::to_string(steps) + ") or -1 for no cap, or add files");
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
          " ranks = " + std::to_string(eval_per_step) +
          "); lower the eval batch size or the rank count, add evaluation files, or set "
          "workflow.evaluation: false");
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
  check.at_least("profiling.counters_memory_mib", config.profiling.counters_memory_mib,
                 std::int64_t{0});
  // Beyond 2^20 MiB the bytes would not fit the budget's arithmetic; no machine has that memory.
  if (config.profiling.counters_memory_mib > (std::int64_t{1} << 20)) {
    check.fail("profiling.counters_memory_mib",
               "must be at most 1048576 (1 TiB), got " +
                   std::to_string(config.profiling.counters_memory_mib));
  }
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
  CheckFolders(config, check, run);
}

}  // namespace dlbench::config
