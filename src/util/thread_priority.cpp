#include "util/thread_priority.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

namespace dlbench {

bool LowerThisThread(ThreadPriority priority) {
  switch (priority) {
    case ThreadPriority::kLowest:
      // PRIO_PROCESS with a thread id sets that thread's nice value only (Linux).
      return ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19) == 0;
    case ThreadPriority::kIdle: {
      // pid 0: the calling thread (Linux schedules threads, not processes).
      const sched_param param{};
      return ::sched_setscheduler(0, SCHED_IDLE, &param) == 0;
    }
  }
  return false;
}

}  // namespace dlbench
