// <rank>_output.json.
#include <string>

#include "metrics/summary.h"
#include "metrics/throughput.h"

namespace dlbench::metrics {
namespace {

// Adds one block's per-step lists and results under `key` ("block<b>" or "eval").
void AddBlock(Json& epoch, const std::string& key, const BlockRecord& block, double au_percent,
              double samples_per_second) {
  Json load = Json::array(), proc = Json::array(), compute = Json::array(),
       compute_asked = Json::array(), barrier = Json::array(), barrier_skew = Json::array();
  for (const StepRecord& step : block.steps) {
    load.push_back(step.load);
    proc.push_back(step.proc());
    compute.push_back(step.compute);
    compute_asked.push_back(step.compute_asked);
    barrier.push_back(step.barrier);
    barrier_skew.push_back(step.barrier_skew);
  }
  epoch["load"][key] = std::move(load);
  epoch["proc"][key] = std::move(proc);
  epoch["compute"][key] = std::move(compute);
  epoch["compute_asked"][key] = std::move(compute_asked);
  epoch["barrier"][key] = std::move(barrier);
  epoch["barrier_skew"][key] = std::move(barrier_skew);
  SetNumber(epoch["au"], key, au_percent);
  SetNumber(epoch["throughput"], key, samples_per_second);
}

}  // namespace

Json BuildRankOutput(const RankRecord& record, const RankHost& host, const RunSettings& settings,
                     const WallClockAnchor& clock) {
  Json output;
  SetNumber(output, "host_memory_GB", host.memory_GiB);
  output["host_cpu_count"] = host.cpu_count;
  output["host_processor_name"] = host.processor_name;
  output["potential_caching"] = host.potential_caching;
  output["host_cpuinfo"] = StringMap(host.cpuinfo);
  output["host_meminfo"] = StringMap(host.meminfo);
  output["hostname"] = host.hostname;
  for (const EpochRecord& epoch : record.epochs) {
    Json out;
    out["start"] = clock.timestamp(epoch.start);
    for (const char* list : {"load", "proc", "compute", "compute_asked", "barrier", "barrier_skew",
                             "au", "throughput"}) {
      out[list] = Json::object();
    }
    for (const BlockRecord& block : epoch.blocks) {
      const BlockTiming timing = MeasureBlock(block, settings.steps_per_epoch, settings.exclusion);
      AddBlock(out, "block" + std::to_string(block.number), block, AuPercent(timing),
               DlioBlockSamplesPerSecond(timing, settings.batch_size));
    }
    if (epoch.eval) {
      const EvalResult eval = MeasureEval(*epoch.eval, settings.eval_steps_per_epoch,
                                          settings.exclusion, settings.eval_batch_size);
      AddBlock(out, "eval", *epoch.eval, eval.au_percent, eval.dlio_samples_per_second);
    }
    if (const auto meminfo = host.epoch_meminfo.find(epoch.number);
        meminfo != host.epoch_meminfo.end()) {
      out["host_meminfo"] = StringMap(meminfo->second);
    }
    out["end"] = clock.timestamp(epoch.end);
    output[std::to_string(epoch.number)] = std::move(out);
  }
  return output;
}

}  // namespace dlbench::metrics
