// CPU priority of the burst buffer's background threads (drain copies, evictions). On a node whose
// cores the ranks' savers keep busy, a drain thread that copies, or frees the pages of a file it
// replaces, takes a core from a save in progress and lengthens the trainer's stall (issue 15.3:
// 2 ranks on 2 cores). At the lowest priority they get the CPU the trainer leaves, which is most
// of it between saves; under other load they still progress, only slower.
#pragma once

namespace dlbench::checkpoint {

// Lowers the calling thread to nice 19 (Linux: per thread). Best effort: lowering one's own
// priority is always permitted; a failure leaves the thread as it was.
void LowerToBackgroundPriority();

}  // namespace dlbench::checkpoint
