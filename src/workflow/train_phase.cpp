#include "workflow/train_phase.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "formats/registry.h"
#include "generation/dataset_check.h"
#include "generation/dataset_files.h"
#include "metrics/clock.h"
#include "metrics/cross_rank.h"
#include "metrics/host_info.h"
#include "metrics/run_reduction.h"
#include "metrics/summary.h"
#include "mpi/step_barrier.h"
#include "pipeline/format_sample_source.h"
#include "pipeline/options_from_config.h"
#include "pipeline/thread_policy.h"
#include "pipeline/trainer.h"
#include "storage/file.h"
#include "trace/record.h"
#include "util/file_names.h"
#include "util/sink.h"
#include "workflow/page_cache.h"
#include "workflow/progress_line.h"
#include "workflow/run_info.h"
#include "workflow/stage_phase.h"
#include "workflow/training_checkpoints.h"
#include "workflow/training_staging.h"

namespace dlbench::workflow {
namespace {

// `epoch_meminfo`: /proc/meminfo at the start of each epoch, by epoch number (as DLIO records).
void WriteRankFiles(const metrics::RankRecord& record, const metrics::RunSettings& settings,
                    const metrics::HostInfo& host,
                    std::map<int, std::map<std::string, std::string>> epoch_meminfo,
                    const metrics::RunInfo& info, const metrics::WallClockAnchor& clock,
                    const mpi::Communicator& comm, const std::filesystem::path& folder) {
  metrics::RankHost rank_host;
  rank_host.hostname = host.hostname;
  rank_host.cpu_count = host.cpu_count;
  rank_host.processor_name = host.processor_name;
  rank_host.memory_GiB = host.memory_GiB;
  rank_host.potential_caching = host.memory_GiB > info.data_size_per_host_GiB ? 1 : 0;
  rank_host.cpuinfo = host.cpuinfo;
  rank_host.meminfo = host.meminfo;
  rank_host.epoch_meminfo = std::move(epoch_meminfo);
  WriteFileAtomically(folder / file_names::RankFile(comm.rank(), file_names::kRankOutput),
                      metrics::BuildRankOutput(record, rank_host, settings, clock).dump(2) + "\n");
  WriteFileAtomically(folder / file_names::RankFile(comm.rank(), file_names::kRankEpochStats),
                      metrics::BuildPerEpochStats(record, settings, clock).dump(2) + "\n");
}

}  // namespace

void RunTrainPhase(const config::Config& config, const RunRequest& request,
                   const mpi::Communicator& comm, storage::Env& env, RunResults& results) {
  const std::string other_settings = generation::RequireDataset(config, env, comm);

  const generation::DatasetFiles files(config.dataset);
  const auto train_files = static_cast<FileIndex>(config.dataset.num_files_train);
  const auto reader = formats::MakeReader(config.dataset.format);
  const formats::FileReadOptions read_options = pipeline::FileReadOptionsFrom(config);
  std::optional<TrainingStaging> staging;  // stage.policy per_epoch / on_demand
  pipeline::FormatSampleSource train_source(*reader, env, read_options,
                                            [&](FileIndex f, formats::FileSpec& spec, bool again) {
                                              if (staging) {
                                                staging->assign_spec(f, spec);
                                              } else {
                                                files.assign_spec(f, spec, again);
                                              }
                                            });
  pipeline::FormatSampleSource eval_source(*reader, env, read_options,
                                           [&](FileIndex f, formats::FileSpec& spec, bool again) {
                                             files.assign_spec(train_files + f, spec, again);
                                           });

  // Shuffle::kRandom draws one seed per run, on rank 0, so every rank permutes alike.
  const std::uint64_t run_seed = std::stoull(
      comm.broadcast(comm.is_root() ? std::to_string(pipeline::DrawRunSeed()) : std::string()));
  const pipeline::Sampler train_sampler(
      pipeline::TrainSamplerOptions(config, comm.size(), comm.rank(), run_seed));
  const Seconds origin = metrics::SynchronizedOrigin(comm);
  pipeline::TrainerOptions options = pipeline::TrainerOptionsFrom(config, comm.rank(), origin);
  options.spare_core =
      pipeline::SpareCoreForTrainer(comm.ranks_on_this_node(), options.reader.threads);
  std::optional<pipeline::Sampler> eval_sampler;
  if (options.evaluation) {
    eval_sampler.emplace(pipeline::EvalSamplerOptions(config, comm.size(), comm.rank(), run_seed));
  }

  PageCacheDropper dropper(config.reader.drop_caches, files, env, comm);
  ProgressLine progress(comm.is_root() && request.progress, config.train.epochs,
                        train_sampler.steps_per_epoch(), train_sampler.batch_size(), comm.size());
  metrics::RankRecord record;
  metrics::RankLatencies latencies;
  bool evaluating = false;

  pipeline::TrainerHooks hooks;
  std::optional<mpi::StepBarrier> step_barrier;
  if (config.train.step_barrier) {
    step_barrier.emplace(comm);
    hooks.barrier = [&](Seconds spin, Seconds poll) { step_barrier->wait(spin, poll); };
  }
  std::map<int, std::map<std::string, std::string>> epoch_meminfo;
  hooks.before_epoch = [&](int epoch) {
    evaluating = false;
    dropper.drop();
    epoch_meminfo[epoch] = metrics::ReadProcKeyValues("/proc/meminfo");
  };
  hooks.after_epoch = [&](int) { evaluating = true; };
  hooks.on_batch = [&](const pipeline::Batch& batch) {
    auto& histogram = evaluating ? latencies.eval_sample_read : latencies.train_sample_read;
    for (const Seconds seconds : batch.read_seconds) histogram.record(seconds);
  };
  hooks.progress = [&](const pipeline::TrainerHooks::Progress& p) {
    progress.update(p.eval, p.epoch, p.step, p.steps, record);
  };
  if (config.workflow.stage && config.stage.policy != config::StagePolicy::kBeforeTraining) {
    staging.emplace(config, comm, env, train_sampler);
    staging->install(hooks);
  }
  std::optional<TrainingCheckpoints> checkpoints;
  if (config.workflow.checkpoint) {
    checkpoints.emplace(config, comm, env, origin, train_sampler.steps_per_epoch());
    checkpoints->install(hooks);
  }

  const metrics::WallClockAnchor clock = metrics::WallClockAnchor::Capture(origin);
  const std::string start = metrics::NowLocalRfc3339();
  pipeline::Trainer trainer(train_source, train_sampler, eval_sampler ? &eval_source : nullptr,
                            eval_sampler ? &*eval_sampler : nullptr, options, hooks);
  trace::NameThread("trainer");
  generation::SayHowToRegenerate(other_settings, [&] { trainer.run(record); });
  if (config.train.step_barrier) metrics::ReduceBarrierSkew(comm, record);
  progress.finish();
  if (checkpoints) checkpoints->finish(record);  // waits for drains; timed on its own
  const std::string end = metrics::NowLocalRfc3339();

  metrics::RunSettings settings;
  settings.steps_per_epoch = train_sampler.steps_per_epoch();
  settings.eval_steps_per_epoch = eval_sampler ? eval_sampler->steps_per_epoch() : 0;
  settings.batch_size = train_sampler.batch_size();
  settings.eval_batch_size = eval_sampler ? eval_sampler->batch_size() : 1;
  settings.exclusion = {config.output.metric.exclude_start_steps,
                        config.output.metric.exclude_end_steps};
  if (checkpoints) settings.checkpoint_size_GiB = checkpoints->nominal_size_GiB();

  const metrics::HostInfo host = metrics::ReadHostInfo();
  metrics::RunInfo info = GatherRunInfo(config, comm, host);
  info.start = comm.broadcast(start);
  info.end = comm.broadcast(end);
  const metrics::RunMetrics run =
      metrics::ReduceRun(comm, record, latencies, settings, info, config.metric.au,
                         config.dataset.record_length_bytes);
  const std::uint64_t skipped = comm.sum(trainer.totals().samples_failed);
  const std::uint64_t dropped = train_sampler.shape().total_samples -
                                train_sampler.steps_per_epoch() * train_sampler.batch_size() *
                                    static_cast<std::uint64_t>(comm.size());
  // Evaluation shards alike (⌊N/P⌋ samples per rank, whole batches): its leftover was reported
  // nowhere, so an evaluation over fewer samples than the dataset held looked complete.
  const std::uint64_t eval_dropped = eval_sampler ? eval_sampler->shape().total_samples -
                                                        eval_sampler->steps_per_epoch() *
                                                            eval_sampler->batch_size() *
                                                            static_cast<std::uint64_t>(comm.size())
                                                  : 0;
  const metrics::Json checkpoint_fields =
      checkpoints ? checkpoints->summary_fields() : metrics::Json::object();
  const metrics::Json stage = staging ? staging->finish() : metrics::Json();

  WriteRankFiles(record, settings, host, std::move(epoch_meminfo), info, clock, comm,
                 results.folder());
  if (!comm.is_root()) return;
  metrics::Json summary = metrics::BuildSummary(run);
  summary["metric"]["train_samples_skipped_on_error"] = skipped;
  summary["metric"]["train_samples_unread_per_epoch"] = dropped;
  if (eval_sampler && summary["metric"].contains("eval_au_percentage")) {
    summary["metric"]["eval_samples_unread_per_evaluation"] = eval_dropped;
  }
  summary["metric"].update(checkpoint_fields);
  if (staging) summary["stage"] = stage;
  results.add(summary);
  const std::string metric_block = metrics::MetricBlock(run);
  sink::Log("OUTPUT", metric_block);
  if (!request.quiet) {
    sink::Result(metrics::TerminalTable(run));
    if (staging) sink::Result(StageLine(stage));
    if (skipped > 0) {
      sink::Warning(std::to_string(skipped) +
                    " sample(s) could not be read and were skipped (first: " +
                    trainer.totals().first_error + ")");
    }
  }
}

}  // namespace dlbench::workflow
