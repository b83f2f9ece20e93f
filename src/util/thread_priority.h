// The CPU priority of dlbench's background threads, in one place. On a node whose cores the run's
// own threads (readers, trainer, savers) keep busy, a background thread that takes a core delays
// them: the burst buffer's drain copies and evictions (2 ranks on 2 cores) and the
// trace writer (the cost of --trace). Lowered, they get the CPU the run leaves.
//
//  * kLowest — nice 19: still a (small) share of a busy core, so the thread progresses under any
//    load, only slower. For work the run waits for in the end (drains, evictions).
//  * kLow — nice 10: a tenth of a busy core's share next to a thread at nice 0 (CFS weights 110
//    against 1024), so it keeps up under load yet yields to the run's threads. The trace writer
//    at `profiling.trace_writer_priority: low`.
//  * kIdle — SCHED_IDLE: runs only on a core nothing else wants. For work that may fall behind
//    while the run is busy and catch up in its gaps (the trace writer: its buffers absorb the lag,
//    and what happens when they are full is the recorder's policy, trace/recorder.h).
//
// Linux: both apply to the calling thread only. Lowering one's own priority is always permitted;
// raising it back is not (without CAP_SYS_NICE), so a lowered thread stays lowered until it exits.
#pragma once

namespace dlbench {

enum class ThreadPriority { kLowest, kLow, kIdle };

// Lowers the calling thread (to at least the nice value named; a thread already nicer is left
// as it is). Best effort: returns false (and leaves the thread as it was) when
// the system refused, which a caller may ignore — the work is the same, only its priority differs.
bool LowerThisThread(ThreadPriority priority);

}  // namespace dlbench
