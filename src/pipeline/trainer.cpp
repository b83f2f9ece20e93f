#include "pipeline/trainer.h"

#include <chrono>
#include <utility>

#include "pipeline/precise_sleep.h"
#include "pipeline/reader_pool.h"
#include "trace/record.h"
#include "util/error.h"

namespace dlbench::pipeline {

namespace {

void Account(const Batch& batch, ReadTotals& totals) {
  totals.samples_read += batch.samples_read;
  totals.samples_failed += batch.samples_failed;
  totals.bytes_read += batch.bytes_read;
  if (totals.first_error.empty() && !batch.first_error.empty()) {
    totals.first_error = batch.first_error;
  }
}

// DLIO's per-step events from a finished step's record.
void TraceStep(const metrics::StepRecord& r, Seconds origin, int epoch, std::uint64_t step) {
  if (trace::Active() == nullptr) return;
  const std::int64_t start = trace::NsOfSeconds(origin + r.start);
  const std::int64_t delivered = trace::NsOfSeconds(origin + r.start + r.load);
  const std::int64_t computed = trace::NsOfSeconds(origin + r.start + r.load + r.compute);
  const trace::Args args{epoch, static_cast<std::int64_t>(step)};
  trace::Record(trace::Event::kFetchIter, start, delivered, args);
  trace::Record(trace::Event::kCompute, delivered, computed, args);
  trace::Record(trace::Event::kFetchBlock, delivered,
                std::max(computed, trace::NsOfSeconds(origin + r.end)), args);
}

}  // namespace

BarrierWait BarrierWait::For(bool readers_behind, Seconds previous_barrier,
                             bool readers_need_the_cores) {
  if (readers_behind || readers_need_the_cores) return {.spin = 0, .poll = kPollBehind};
  if (previous_barrier > kSpin) return {.spin = 0, .poll = kPoll};
  return {.spin = kSpin, .poll = kPoll};
}

Trainer::Trainer(SampleSource& train_source, const Sampler& train_sampler,
                 SampleSource* eval_source, const Sampler* eval_sampler,
                 const TrainerOptions& options, TrainerHooks hooks)
    : train_source_(train_source),
      train_sampler_(train_sampler),
      eval_source_(eval_source),
      eval_sampler_(eval_sampler),
      options_(options),
      eval_reader_(options.reader),
      hooks_(std::move(hooks)),
      compute_time_(options.computation_time, options.seed, options.rank,
                    StreamPurpose::kComputeTime, 0, "train.computation_time"),
      buffers_(options.reader.threads),
      readers_(options.reader.threads > 0 ? std::make_unique<ReaderThreads>(options.reader.threads)
                                          : nullptr) {
  // Options come from a validated Config (config/validate.h: epochs, epochs_between_evals and
  // the time distributions are checked at load).
  if (options_.evaluation) {
    eval_time_.emplace(options_.eval_time, options_.seed, options_.rank, StreamPurpose::kEvalTime,
                       0, "evaluation.eval_time");
    if (eval_source_ == nullptr || eval_sampler_ == nullptr) {
      throw Error(ExitCode::kInternal, "trainer: evaluation without an eval split");
    }
  }
  // Separate preprocess draws for evaluation, so evaluating does not shift training's.
  eval_reader_.stream = options_.reader.stream + 1;
}

Seconds Trainer::now() const { return since_origin(std::chrono::steady_clock::now()); }

Seconds Trainer::since_origin(std::chrono::steady_clock::time_point t) const {
  return std::chrono::duration<double>(t.time_since_epoch()).count() - options_.origin;
}

bool Trainer::evaluates_after(int epoch) const {
  return options_.evaluation && epoch >= options_.eval_after_epoch &&
         (epoch - options_.eval_after_epoch) % options_.epochs_between_evals == 0;
}

void Trainer::run(metrics::RankRecord& record) {
  for (int epoch = 1; epoch <= options_.epochs; ++epoch) {
    if (hooks_.before_epoch) hooks_.before_epoch(epoch);
    const trace::Span epoch_span(trace::Event::kEpochBlock, {epoch});
    metrics::EpochRecord& epoch_record = record.epochs.emplace_back();
    epoch_record.number = epoch;
    epoch_record.start = now();
    train_epoch(epoch, epoch_record);
    if (hooks_.after_epoch) hooks_.after_epoch(epoch);
    epoch_record.end = now();
    if (evaluates_after(epoch)) evaluate(epoch, epoch_record);
  }
}

template <typename Pool>
metrics::StepRecord Trainer::step(Pool& pool, TimeSampler& compute, bool barrier, Seconds start) {
  using Clock = std::chrono::steady_clock;
  metrics::StepRecord r;
  r.start = start;
  r.compute_asked = compute.next();
  const Batch& batch = pool.next();
  const Clock::time_point delivered = Clock::now();
  const Seconds loaded = since_origin(delivered);
  r.load = loaded - start;
  // The emulated accelerator starts on the batch the moment it is delivered. The host's
  // bookkeeping below (handing the slot back to the readers, which wakes one, and the latency
  // records) overlaps that compute, as a training loop's host work overlaps the kernels it
  // launched; it lengthens the step only if it outlasts the compute (then as overshoot).
  r.samples = batch.samples_read;
  r.read_bytes = batch.bytes_read;
  r.decoded_bytes = batch.decoded_bytes;
  r.nominal_bytes = batch.samples_read * options_.nominal_sample_bytes;
  Account(batch, totals_);
  if (hooks_.on_batch) hooks_.on_batch(batch);
  pool.release();
  PreciseSleepUntil(DeadlineAfter(delivered, r.compute_asked));
  const Seconds compute_end = now();
  r.compute = compute_end - loaded;
  r.end = compute_end;
  if (barrier) {
    const BarrierWait wait =
        BarrierWait::For(pool.behind(), previous_barrier_, !options_.spare_core && pool.reading());
    hooks_.barrier(wait.spin, wait.poll);
    r.end = now();
    r.barrier = r.end - compute_end;
    previous_barrier_ = r.barrier;
  }
  return r;
}

void Trainer::train_epoch(int epoch, metrics::EpochRecord& record) {
  const std::uint64_t steps = train_sampler_.steps_per_epoch();
  const bool barrier = options_.step_barrier && hooks_.barrier;
  const EpochOrder order = train_sampler_.epoch(epoch);
  const trace::Span span(trace::Event::kTrain, {epoch});

  metrics::BlockRecord* block = &record.blocks.emplace_back();
  block->number = 1;
  block->steps.reserve(steps);
  block->start = now();
  ReaderPool pool(train_source_, train_sampler_, order, steps, options_.reader, &buffers_,
                  readers_.get());
  Seconds start = block->start;
  for (std::uint64_t done = 1; done <= steps; ++done) {
    block->steps.push_back(step(pool, compute_time_, barrier, start));
    start = block->steps.back().end;
    TraceStep(block->steps.back(), options_.origin, epoch, done);
    if (hooks_.progress) {
      hooks_.progress({.eval = false, .epoch = epoch, .step = done, .steps = steps});
      start = now();  // the hook's time is in the block but in no step's load
    }
    if (hooks_.pause_after_step && hooks_.pause_after_step(epoch, done)) {
      block->end = start;
      if (hooks_.between_blocks) hooks_.between_blocks(epoch, done);
      if (done == steps) return;  // no empty block after the last step
      const int number = block->number + 1;
      block = &record.blocks.emplace_back();
      block->number = number;
      block->steps.reserve(steps - done);
      block->start = now();
      start = block->start;
    }
  }
  block->end = start;
}

void Trainer::evaluate(int epoch, metrics::EpochRecord& record) {
  const std::uint64_t steps = eval_sampler_->steps_per_epoch();
  const EpochOrder order = eval_sampler_->epoch(epoch);
  const trace::Span span(trace::Event::kEvaluate, {epoch});
  metrics::BlockRecord& block = record.eval.emplace();
  block.number = 1;
  block.steps.reserve(steps);
  block.start = now();
  ReaderPool pool(*eval_source_, *eval_sampler_, order, steps, eval_reader_, &buffers_,
                  readers_.get());
  Seconds start = block.start;
  for (std::uint64_t done = 1; done <= steps; ++done) {
    block.steps.push_back(step(pool, *eval_time_, false, start));
    start = block.steps.back().end;
    TraceStep(block.steps.back(), options_.origin, epoch, done);
    if (hooks_.progress) {
      hooks_.progress({.eval = true, .epoch = epoch, .step = done, .steps = steps});
      start = now();
    }
  }
  block.end = start;
}

}  // namespace dlbench::pipeline
