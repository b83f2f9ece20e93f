#include "workflow/run_trace.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "metrics/clock.h"
#include "metrics/cross_rank.h"
#include "mpi/agreement.h"
#include "trace/event.h"
#include "trace/record.h"
#include "util/file_names.h"
#include "util/path_text.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

// {"item": {"count": N, "seconds": S}, ...}: the events of each name every rank's trace holds,
// summed over ranks (one reduction), names no rank traced left out. Two kinds share a name
// (open64: opens for reading and for writing), as in the trace.
metrics::Json EventTotalsJson(const trace::EventTotals& totals, const mpi::Communicator& comm) {
  std::vector<double> values;
  values.reserve(2 * totals.size());
  for (const trace::EventTotal& total : totals) {
    values.push_back(static_cast<double>(total.count));
    values.push_back(static_cast<double>(total.dur_ns) * 1e-9);
  }
  values = comm.sum(values);
  metrics::Json json = metrics::Json::object();
  for (std::size_t e = 0; e < totals.size(); ++e) {
    if (values[2 * e] == 0) continue;
    metrics::Json& name = json[trace::Info(static_cast<trace::Event>(e)).name];
    if (!name.is_object()) name = {{"count", std::uint64_t{0}}, {"seconds", 0.0}};
    name["count"] = name["count"].get<std::uint64_t>() + static_cast<std::uint64_t>(values[2 * e]);
    name["seconds"] = name["seconds"].get<double>() + values[2 * e + 1];
  }
  return json;
}

std::int64_t WallNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string Hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

std::vector<std::string> AbsoluteFolders(const std::vector<std::string>& folders) {
  std::vector<std::string> absolute;
  for (const std::string& f : folders) absolute.push_back(AbsoluteFolder(f));
  return absolute;
}

}  // namespace

std::string TraceFileName(int rank, int ranks) { return file_names::TraceFile(rank, ranks); }

RunTrace::RunTrace(const config::Config& config, const std::filesystem::path& folder,
                   storage::Env& storage, const mpi::Communicator& comm)
    : comm_(comm), storage_(storage) {
  if (!config.workflow.profiling) return;
  // One time base for every rank: the synchronized origin on the steady clock, which rank 0
  // pairs with its wall clock. A rank's own wall clock may differ; that offset is recorded.
  const Seconds origin = metrics::SynchronizedOrigin(comm);
  const std::int64_t origin_ns = trace::NsOfSeconds(origin);
  const std::int64_t own_wall_at_origin = WallNs() - (trace::NowNs() - origin_ns);
  const std::int64_t wall_at_origin =
      std::stoll(comm.broadcast(std::to_string(own_wall_at_origin)));

  const config::ProfilingConfig& p = config.profiling;
  trace::RecorderOptions options;
  options.path = (folder / TraceFileName(comm.rank(), comm.size())).string();
  options.rank = comm.rank();
  options.ranks = comm.size();
  options.hostname = Hostname();
  options.steady_origin_ns = origin_ns;
  options.wall_origin_ns = wall_at_origin;
  options.clock_offset_ns = own_wall_at_origin - wall_at_origin;
  options.policy = p.trace_policy == config::TracePolicy::kDrop ? trace::OverflowPolicy::kDrop
                                                                : trace::OverflowPolicy::kBlock;
  options.buffer_events = static_cast<std::size_t>(p.trace_buffer_events);
  options.sample = static_cast<std::uint64_t>(p.trace_sample);
  options.compression_level = static_cast<int>(p.trace_compression_level);
  switch (p.trace_writer_priority) {
    case config::TraceWriterPriority::kIdle:
      options.writer_priority = ThreadPriority::kIdle;
      break;
    case config::TraceWriterPriority::kLow:
      options.writer_priority = ThreadPriority::kLow;
      break;
    case config::TraceWriterPriority::kNormal:
      options.writer_priority = std::nullopt;
      break;
  }
  options.data_dirs = AbsoluteFolders(p.trace_data_dirs);
  options.version = "dlbench";
  mpi::AgreeOnFailure(comm, [&] { recorder_ = std::make_unique<trace::Recorder>(options); });
  // Perfetto shows a thread under one name (its last thread_name line): the main thread is named
  // for what it does longest — the step loop when the workflow trains (its generation or staging
  // events, if any, are on that track too), else "main". The train phase names it again; the
  // formatter writes one line.
  trace::NameThread(config.workflow.train ? "trainer" : "main");
  env_ = std::make_unique<trace::TracingEnv>(storage);
}

RunTrace::~RunTrace() = default;  // the recorder's destructor finishes it

metrics::Json RunTrace::finish() {
  metrics::Json json = metrics::Json::object();
  if (!recorder_) return json;
  trace::TraceStats stats;
  mpi::AgreeOnFailure(comm_, [&] { stats = recorder_->finish(); });
  const trace::RecorderOptions& options = recorder_->options();
  metrics::Json& t = json["trace"];
  t["files"] = std::string(file_names::kTracePrefix) + "<rank>-of-" + std::to_string(comm_.size()) +
               std::string(file_names::kTraceSuffixes[1]);
  t["events"] = comm_.sum(stats.events);
  t["dropped_events"] = comm_.sum(stats.dropped);
  t["blocked_events"] = comm_.sum(stats.blocked);
  t["blocked_seconds"] = comm_.sum(stats.blocked_seconds);
  t["bytes"] = comm_.sum(stats.file_bytes);
  t["event_totals"] = EventTotalsJson(stats.totals, comm_);
  t["policy"] = options.policy == trace::OverflowPolicy::kDrop ? "drop" : "block";
  t["sample"] = options.sample;
  const std::string priority = !options.writer_priority                           ? "normal"
                               : *options.writer_priority == ThreadPriority::kLow ? "low"
                                                                                  : "idle";
  t["writer_priority"] = priority;
  const std::uint64_t dropped = t["dropped_events"];
  if (comm_.is_root() && dropped > 0) {
    sink::Warning(sink::Format(
        "the trace dropped %llu event(s): its writer (profiling.trace_writer_priority: %s) fell "
        "behind (profiling.trace_policy: drop); summary.json trace.dropped_events",
        static_cast<unsigned long long>(dropped), priority.c_str()));
  }
  return json;
}

}  // namespace dlbench::workflow
