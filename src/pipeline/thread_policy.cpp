#include "pipeline/thread_policy.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "util/sink.h"

namespace dlbench::pipeline {

std::string ApplyThreadPolicy(config::ThreadPolicy policy) {
  if (policy != config::ThreadPolicy::kBatch) return {};
  const int current = sched_getscheduler(0);
  if (current < 0) return std::string("sched_getscheduler: ") + std::strerror(errno);
  if (current != SCHED_OTHER) return {};
  const sched_param parameters{};  // SCHED_BATCH takes static priority 0
  if (sched_setscheduler(0, SCHED_BATCH, &parameters) != 0) {
    return std::string("sched_setscheduler(SCHED_BATCH): ") + std::strerror(errno);
  }
  return {};
}

void ApplyThreadPolicyOrWarn(config::ThreadPolicy policy) {
  const std::string why = ApplyThreadPolicy(policy);
  if (why.empty()) return;
  sink::RaiseWarning("reader.thread_policy=batch not applied (" + why +
                     "); reader threads run at the normal policy and their wake-ups may delay the "
                     "emulated accelerator");
}

int CoresAvailable() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0) return std::max(1, CPU_COUNT(&cpus));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

bool SpareCoreForTrainer(int ranks_on_node, int read_threads, int cores) {
  const long threads =
      static_cast<long>(std::max(ranks_on_node, 1)) * (std::max(read_threads, 0) + 1);
  return threads <= cores;
}

}  // namespace dlbench::pipeline
