#include "pipeline/batch_reader.h"

#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "pipeline/seed.h"
#include "pipeline/time_sampler.h"
#include "trace/record.h"
#include "util/error.h"

namespace dlbench::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

// Records the latency of a sample that started at `start` and returns its end.
Clock::time_point Finish(Clock::time_point start, std::vector<Seconds>& latencies) {
  const Clock::time_point end = Clock::now();
  latencies.push_back(std::chrono::duration<double>(end - start).count());
  return end;
}

}  // namespace

BatchReader::BatchReader(SampleSource& source, const ReaderPoolOptions& options, int epoch,
                         SampleBuffer& buffer)
    : source_(source), options_(options), epoch_(epoch), buffer_(buffer) {
  open_.reserve(capacity());
}

SampleFile& BatchReader::cached(FileIndex file, Batch& batch) {
  ++use_counter_;
  for (OpenFile& f : open_) {
    if (f.file == file) {
      f.last_use = use_counter_;
      return *f.handle;
    }
  }
  std::unique_ptr<SampleFile> handle = source_.open(file);
  batch.bytes_read += handle->open_bytes();
  OpenFile* slot = nullptr;
  if (open_.size() < capacity()) {
    slot = &open_.emplace_back();
  } else {
    slot = &open_.front();
    for (OpenFile& f : open_) {
      if (f.last_use < slot->last_use) slot = &f;
    }
  }
  slot->file = file;
  slot->handle = std::move(handle);  // closes the evicted file
  slot->last_use = use_counter_;
  return *slot->handle;
}

void BatchReader::forget(FileIndex file) {
  for (OpenFile& f : open_) {
    if (f.file == file && f.handle) {
      f.handle.reset();
      f.last_use = 0;
      f.file = ~FileIndex{0};
    }
  }
}

Bytes BatchReader::read_one(const SampleRef& sample, Batch& batch) {
  if (options_.read_type != config::ReadType::kMemory) {
    const SampleSource::OnceRead once =
        source_.read_once(sample.file, sample.index, buffer_, batch.bytes_read);
    batch.decoded_bytes += once.sample_bytes;
    return once.read;
  }
  SampleFile* file = &cached(sample.file, batch);
  const Bytes need = file->sample_bytes();
  // Grows only when a file has larger samples than any before (per-file sizes vary), so the
  // buffer is allocated a handful of times per thread and run, not per sample or epoch.
  const Bytes read = file->read(sample.index, buffer_.get(need));
  batch.decoded_bytes += need;
  return read;
}

void BatchReader::read(Batch& batch) {
  const bool preprocess = !options_.preprocess_time.is_zero();
  std::optional<TimeSampler> preprocess_time;
  if (preprocess) {
    preprocess_time.emplace(
        options_.preprocess_time, options_.seed, options_.rank, StreamPurpose::kPreprocessTime,
        MixSeed({options_.stream, static_cast<std::uint64_t>(epoch_), batch.step}),
        "reader.preprocess_time");
  }
  // A sample's latency runs from the previous sample's end (the batch's first from here): one
  // clock read per sample, not two (~40 ns each on a VM). Between the two lies only this loop's
  // bookkeeping and, when the previous sample is traced, the end of its trace span.
  Clock::time_point start = Clock::now();
  for (const SampleRef& sample : batch.samples) {
    // DLIO's data/item (and data/preprocess inside it) per sample; profiling.trace_sample keeps
    // or skips a sample's events together.
    const bool traced = trace::Sampled(sample.file << 32 ^ sample.index);
    const auto index = static_cast<std::int64_t>(sample.index);
    trace::Span item(trace::Event::kItem, {index, 0, static_cast<std::int64_t>(batch.step)},
                     traced);
    try {
      const Bytes bytes = read_one(sample, batch);
      item.set_arg(1, static_cast<std::int64_t>(bytes));
      batch.bytes_read += bytes;
      ++batch.samples_read;
    } catch (const Error& e) {
      if (options_.read_type == config::ReadType::kMemory) forget(sample.file);
      if (options_.on_error == config::OnError::kSkip && e.code() == ExitCode::kIo) {
        ++batch.samples_failed;
        if (batch.first_error.empty()) batch.first_error = e.what();
      } else {
        batch.error = std::current_exception();
        Finish(start, batch.read_seconds);
        return;
      }
    } catch (...) {
      batch.error = std::current_exception();
      Finish(start, batch.read_seconds);
      return;
    }
    if (preprocess) {
      const trace::Span span(trace::Event::kPreprocess, {index}, traced);
      std::this_thread::sleep_for(std::chrono::duration<double>(preprocess_time->next()));
    }
    start = Finish(start, batch.read_seconds);
  }
}

}  // namespace dlbench::pipeline
