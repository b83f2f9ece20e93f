#include "checkpoint/background_priority.h"

#include <sys/resource.h>
#include <unistd.h>

namespace dlbench::checkpoint {

void LowerToBackgroundPriority() {
  // PRIO_PROCESS with a thread id sets that thread's nice value only (Linux).
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
}

}  // namespace dlbench::checkpoint
