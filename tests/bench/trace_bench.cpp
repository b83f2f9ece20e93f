// Cost of tracing (docs/tracing.md, results/trace.md): recording one event on the hot path (into
// the thread's buffer, no clock read; target ≤ 30 ns), a whole Span (two clock reads and the
// record), an I/O event carrying its file's path, a Span with tracing off, and the writer thread's
// throughput (format + gzip) in events per second. Batches of kBatch events fit the buffer, so the
// recording is measured without waiting for the writer; the writer's work is outside the timing
// except in BM_WriterThroughput (real time: the work is on the writer thread). Fixed iteration
// counts: each batch also costs an untimed Finish().
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "trace/record.h"
#include "trace/recorder.h"

namespace {

using dlbench::trace::Event;
namespace trace = dlbench::trace;

constexpr int kBatch = 1 << 15;

trace::RecorderOptions Options() {
  trace::RecorderOptions options;
  options.path = (std::filesystem::temp_directory_path() / "dlbench_trace_bench.pfw.gz").string();
  options.hostname = "bench";
  options.buffer_events = std::size_t{1} << 17;   // a batch with paths fits
  options.poll_interval = std::chrono::hours(1);  // the writer waits for Finish
  return options;
}

// Runs `record(i)` kBatch times per iteration, timed, with a fresh recorder each time.
template <typename F>
void Batches(benchmark::State& state, F&& record) {
  for (auto _ : state) {
    state.PauseTiming();
    auto recorder = std::make_unique<trace::Recorder>(Options());
    state.ResumeTiming();
    for (int i = 0; i < kBatch; ++i) record(i);
    state.PauseTiming();
    recorder->finish();
    recorder.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.counters["ns_per_event"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kBatch),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
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
