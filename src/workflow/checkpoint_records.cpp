#include "workflow/checkpoint_records.h"

#include <algorithm>

#include "trace/record.h"
#include "util/error.h"

namespace dlbench::workflow {

checkpoint::StoreOpResult Traced(bool load, const std::function<checkpoint::StoreOpResult()>& op) {
  trace::Span span(load ? trace::Event::kLoad : trace::Event::kSave);
  checkpoint::StoreOpResult result = op();
  span.set_arg(0, static_cast<std::int64_t>(result.bytes));
  return result;
}

void CheckpointLog::add(metrics::CheckpointKind kind, int epoch, int number,
                        const checkpoint::StoreOpResult& op) {
  metrics::CheckpointRecord record;
  record.kind = kind;
  record.epoch = epoch;
  record.number = number;
  record.start = op.start;
  record.end = op.end;
  record.bytes = op.bytes;
  record.backpressure = op.backpressure;
  records_.push_back(record);
  names_.push_back(op.name);
}

void CheckpointLog::attach_drains(const std::vector<checkpoint::DrainResult>& drains) {
  for (const checkpoint::DrainResult& drain : drains) {
    bool attached = false;
    for (std::size_t i = 0; i < records_.size() && !attached; ++i) {
      metrics::CheckpointRecord& record = records_[i];
      if (record.kind != metrics::CheckpointKind::kSave || names_[i] != drain.name ||
          record.drain_end) {
        continue;
      }
      record.drain_start = drain.start;
      record.drain_end = std::max(drain.end, drain.durable_at);
      record.drained_bytes = drain.bytes;
      attached = true;
    }
    if (!attached) {
      throw InternalError("checkpoint store reported a drain of " + drain.name +
                          ", which was not saved");
    }
  }
}

metrics::Json CheckpointExtraFields(const mpi::Communicator& comm, Seconds finish,
                                    const Seconds* stall, const checkpoint::PlanSummary& plan) {
  metrics::Json fields = metrics::Json::object();
  metrics::SetNumber(fields, "checkpoint_finish_seconds", comm.max(finish));
  if (stall != nullptr) metrics::SetNumber(fields, "checkpoint_stall_seconds", comm.max(*stall));
  if (plan.dlio_own_bytes > 0) {
    metrics::SetNumber(fields, "dlio_checkpoint_size_GB",
                       static_cast<double>(plan.dlio_own_bytes) / static_cast<double>(GiB));
  }
  return fields;
}

}  // namespace dlbench::workflow
