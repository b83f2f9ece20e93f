// Cost of tracing (docs/tracing.md, results/trace.md): recording one event on the hot path (into
// the thread's buffer, no clock read; target ≤ 30 ns), a whole Span (two clock reads and the
// record), an I/O event carrying its file's path, a Span with tracing off, a new thread's first
// events (its buffer's set-up and first lap), and the writer thread's throughput (format + gzip)
// in events per second.
//
// The recording benchmarks measure the steady state of a long run: one recorder for the whole
// benchmark, whose buffer a first untimed pass has allocated and mapped; each timed batch of
// kBatch events fits the buffer (no waiting for the writer), and the writer takes it out untimed
// (Recorder::flush) before the next. The writer's work is outside the timing except in
// BM_WriterThroughput (real time: the work is on the writer thread). Fixed iteration counts.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "trace/record.h"
#include "trace/recorder.h"

namespace {

using dlbench::trace::Event;
namespace trace = dlbench::trace;

constexpr int kBatch = 1 << 15;
constexpr std::size_t kBufferEvents = std::size_t{1} << 17;  // a batch with paths fits

trace::RecorderOptions Options() {
  trace::RecorderOptions options;
  options.path = (std::filesystem::temp_directory_path() / "dlbench_trace_bench.pfw.gz").string();
  options.hostname = "bench";
  options.buffer_events = kBufferEvents;
  options.poll_interval = std::chrono::hours(1);  // the writer waits for flush / Finish
  return options;
}

void SetCounters(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.counters["ns_per_event"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kBatch),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Runs `record(i)` kBatch times per iteration, timed, into one recorder's warm buffer.
template <typename F>
void Batches(benchmark::State& state, F&& record) {
  {
    trace::Recorder recorder(Options());
    // Untimed: the thread's buffer allocated and every slot of it written once (4 batches of at
    // least one slot per event cover its kBufferEvents slots).
    for (int lap = 0; lap < 4; ++lap) {
      for (int i = 0; i < kBatch; ++i) record(i);
      recorder.flush();
    }
    for (auto _ : state) {
      for (int i = 0; i < kBatch; ++i) record(i);
      state.PauseTiming();
      recorder.flush();
      state.ResumeTiming();
    }
    recorder.finish();
  }
  SetCounters(state);
  std::filesystem::remove(Options().path);
}

void BM_RecordEvent(benchmark::State& state) {
  Batches(state, [](int i) { trace::Record(Event::kCompute, i, i + 1000, {1, i}); });
}
BENCHMARK(BM_RecordEvent)->Unit(benchmark::kMicrosecond)->Iterations(64);

void BM_Span(benchmark::State& state) {
  Batches(state, [](int i) {
    trace::Span span(Event::kItem, {i, 4096, 0});
    benchmark::DoNotOptimize(span);
  });
}
BENCHMARK(BM_Span)->Unit(benchmark::kMicrosecond)->Iterations(64);

void BM_RecordIoEventWithPath(benchmark::State& state) {
  const std::string path = "/data/dlbench/unet3d/train/img_0123_of_0168.npz";
  const std::uint64_t hash = trace::HashPath(path);
  Batches(state, [&](int i) { trace::Record(Event::kOpen, i, i + 1000, {0, 0, 0}, hash, path); });
}
BENCHMARK(BM_RecordIoEventWithPath)->Unit(benchmark::kMicrosecond)->Iterations(64);

// A new thread's first kBatch events with a fresh recorder each time: its buffer's set-up and the
// first touch of the slots it fills are inside the timing (what BM_RecordEvent measured before
// session 8, results/trace.md). Paid once per thread and recorder.
void BM_RecordEventFirstLap(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto recorder = std::make_unique<trace::Recorder>(Options());
    state.ResumeTiming();
    for (int i = 0; i < kBatch; ++i) trace::Record(Event::kCompute, i, i + 1000, {1, i});
    state.PauseTiming();
    recorder->finish();
    recorder.reset();
    state.ResumeTiming();
  }
  SetCounters(state);
  std::filesystem::remove(Options().path);
}
BENCHMARK(BM_RecordEventFirstLap)->Unit(benchmark::kMicrosecond)->Iterations(64);

void BM_SpanTracingOff(benchmark::State& state) {
  for (auto _ : state) {
    trace::Span span(Event::kItem, {1, 4096, 0});
    benchmark::DoNotOptimize(span);
  }
}
BENCHMARK(BM_SpanTracingOff);

// The writer: kBatch recorded events formatted, compressed and written by Finish.
void BM_WriterThroughput(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto recorder = std::make_unique<trace::Recorder>(Options());
    std::int64_t t = trace::NowNs();
    for (int i = 0; i < kBatch; ++i) {
      trace::Record(Event::kRead, t, t + 2345, {131072, 131072, std::int64_t{i} * 131072}, 77);
      t += 9876;
    }
    state.ResumeTiming();
    const trace::TraceStats stats = recorder->finish();
    state.PauseTiming();
    state.counters["bytes_per_event"] =
        static_cast<double>(stats.file_bytes) / static_cast<double>(stats.events);
    recorder.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  std::filesystem::remove(Options().path);
}
BENCHMARK(BM_WriterThroughput)->Unit(benchmark::kMillisecond)->Iterations(8)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
