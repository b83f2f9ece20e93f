#include "util/thread_priority.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>

namespace dlbench {

bool LowerThisThread(ThreadPriority priority) {
  switch (priority) {
    case ThreadPriority::kLowest:
    case ThreadPriority::kLow: {
      // PRIO_PROCESS with a thread id gets and sets that thread's nice value only (Linux). A
      // thread already nicer than asked (dlbench started with `nice -n 15`) stays as it is:
      // lowering never raises.
      const auto tid = static_cast<id_t>(::gettid());
      const int wanted = priority == ThreadPriority::kLowest ? 19 : 10;
      errno = 0;
      const int now = ::getpriority(PRIO_PROCESS, tid);
      if (errno == 0 && now >= wanted) return true;
      return ::setpriority(PRIO_PROCESS, tid, wanted) == 0;
    }
    case ThreadPriority::kIdle: {
      // pid 0: the calling thread (Linux schedules threads, not processes).
      const sched_param param{};
      return ::sched_setscheduler(0, SCHED_IDLE, &param) == 0;
    }
  }
  return false;
}

}  // namespace dlbench
