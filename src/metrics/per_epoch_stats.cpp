// <rank>_per_epoch_stats.json.
#include <cstdio>
#include <string>

#include "metrics/summary.h"

namespace dlbench::metrics {
namespace {

// DLIO writes block, epoch and eval durations as '{:.2f}' strings.
std::string TwoDecimals(Seconds seconds) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.2f", seconds);
  return text;
}

Json Interval(Seconds start, Seconds end, const WallClockAnchor& clock) {
  Json interval;
  interval["start"] = clock.timestamp(start);
  interval["end"] = clock.timestamp(end);
  interval["duration"] = TwoDecimals(end - start);
  return interval;
}

}  // namespace

Json BuildPerEpochStats(const RankRecord& record, const RunSettings& settings,
                        const WallClockAnchor& clock) {
  Json stats = Json::object();
  for (const EpochRecord& epoch : record.epochs) {
    Json out = Interval(epoch.start, epoch.end, clock);
    for (const BlockRecord& block : epoch.blocks) {
      out["block" + std::to_string(block.number)] = Interval(block.start, block.end, clock);
    }
    if (epoch.eval) out["eval"] = Interval(epoch.eval->start, epoch.eval->end, clock);
    stats[std::to_string(epoch.number)] = std::move(out);
  }
  // Checkpoints go under their epoch; in checkpoint-only runs that creates epoch "1".
  for (const CheckpointRecord& checkpoint : record.checkpoints) {
    const std::string prefix = checkpoint.kind == CheckpointKind::kSave ? "save_ckpt" : "load_ckpt";
    Json op;
    op["start"] = clock.timestamp(checkpoint.start);
    op["end"] = clock.timestamp(checkpoint.end);
    SetNumber(op, "duration", checkpoint.duration());
    if (checkpoint.duration() > 0) {
      SetNumber(op, "throughput", settings.checkpoint_size_GiB / checkpoint.duration());
    }
    stats[std::to_string(checkpoint.epoch)][prefix + std::to_string(checkpoint.number)] =
        std::move(op);
  }
  return stats;
}

}  // namespace dlbench::metrics
