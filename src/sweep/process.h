// Starting one job of a sweep: the launcher's expanded words and the dlbench command line, run
// as a child process (fork/exec, no shell) with its output in a log file, waited for.
#pragma once

#include <string>
#include <vector>

namespace dlbench::sweep {

// The path of the running dlbench binary (/proc/self/exe), for the launcher to start.
std::string OwnExecutable();

// Throws Error(kUsage) (exit 2) when `program` (a path, or a name looked up in PATH) is not an
// executable file: the launcher is not installed or misspelt.
void CheckLauncher(const std::string& program, const std::string& template_text);

struct ProcessExit {
  int exit_code = 0;  // the child's exit status, or 128 + signal when a signal ended it
  int signal = 0;     // the signal that ended it, 0 if it exited
};

// Runs argv (argv[0] looked up in PATH) with stdout and stderr appended to `log_path` and waits
// for it. Throws Error(kUsage) when argv[0] cannot be executed (exec failed: not found, not
// executable), Error(kIo) when the log cannot be opened or the process not started.
ProcessExit RunProcess(const std::vector<std::string>& argv, const std::string& log_path);

// The line of `log_path` that says why a job failed: the last line holding "error", else the
// last non-empty line, else "".
std::string FailureLine(const std::string& log_path);

}  // namespace dlbench::sweep
