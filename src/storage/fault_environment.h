// DLBENCH_FAULTS: faults a run injects into its own storage, for the fault sweep and the
// killed-rank tests (docs/reliability.md). When the variable is set, storage::PosixEnv() is a
// FaultInjectionEnv over the POSIX Env, so every operation of every phase (data, checkpoints,
// drains, staging, traces, result files) can be failed, cut short, slowed down or made to kill the
// process.
//
//   DLBENCH_FAULTS='op=write,nth=3,error=ENOSPC,path=ckpt;op=any,nth=40,kill,rank=1'
//
// Faults are separated by ';', their fields by ','. Fields: op=NAME (required: open_read, create,
// open_write, read, write, sync, close, rename, mkdir, remove, sync_dir, remove_tree, list,
// free_space, truncate, or any), nth=N (the Nth matching operation of this process, default 1),
// keep (every later match too), path=TEXT (only paths containing TEXT), rank=R (only launcher
// rank R), and what happens: error=NAME|NUMBER (default EIO), short, slow=SECONDS, kill, or
// interrupt (storage/fault_injection_env.h's FaultAction says what each does).
// DLBENCH_FAULTS=none injects nothing but still counts operations (summary.json's
// fault_injection), which is how a sweep learns how many operations a phase has.
#pragma once

#include <string>
#include <vector>

#include "storage/fault_injection_env.h"

namespace dlbench::storage {

inline constexpr const char* kFaultsVariable = "DLBENCH_FAULTS";

// Parses the text of DLBENCH_FAULTS for the process of launcher rank `rank` (faults for other
// ranks are left out). Throws Error(kUsage) naming the variable and the bad field.
std::vector<Fault> ParseFaults(const std::string& text, int rank);

// Reads DLBENCH_FAULTS once, before any I/O (app's main); afterwards PosixEnv() injects what it
// asks for. Throws Error(kUsage) when the text is malformed. Does nothing when it is unset.
void ArmFaultsFromEnvironment(int rank);

// The process's fault-injecting Env when DLBENCH_FAULTS is set (PosixEnv() returns it), else
// nullptr. It lives until the process exits.
FaultInjectionEnv* ArmedFaults();

}  // namespace dlbench::storage
