// The one place where dlbench's words reach the user. Results (a phase's table, the lines a
// command exists to print) and diagnostics (notes, warnings, errors) are handed here by every
// module instead of being written to stdout/stderr directly, so that
//  * the terminal format is decided once: results go to stdout as given, diagnostics to stderr as
//    "dlbench: note: ...", "dlbench: warning: ...", "dlbench: error: ...";
//  * tests can capture what a run said (CapturingSink under a ScopedSink);
//  * a warning raised on many ranks can be printed once per job: RaiseWarning keeps it pending,
//    and mpi::PublishWarnings (mpi/agreement.h) collects the pending warnings of every rank and
//    prints each distinct one once, on rank 0. Errors are agreed the same way (mpi/agreement.h,
//    app/error_reporting.h).
//
// Thread-safety: every function here may be called from any thread at any time. A Sink's methods
// are only ever called under one process-wide lock, one at a time, so a Sink needs no locking of
// its own; do not call back into this header from inside a Sink's method.
// The run's log (DLIO's `dlio.log` in the output folder): while one is open, every result and
// diagnostic this process writes is also appended to it, one entry per call, as DLIO's logger
// writes them: "[LEVEL] <local time, ISO 8601 with microseconds> <text>" (levels OUTPUT for
// results, INFO, WARNING, ERROR), on every line of a multi-line text — except lines that carry
// DLIO's own "[METRIC] " tag (the end block's), kept as DLIO writes them.
// Lifetime: the process starts with a terminal sink that lives until exit. A ScopedSink installs
// another sink for its own lifetime; the sink it installs must outlive it, and ScopedSinks nest
// like a stack (the innermost is destroyed first).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dlbench::sink {

class Sink {
 public:
  virtual ~Sink() = default;
  // Text a command or phase exists to print (tables, requested lines), exactly as given.
  virtual void result(std::string_view text) = 0;
  // One diagnostic line, prefix included, without its trailing newline.
  virtual void message(std::string_view line) = 0;
};

// stdout for results, stderr for messages, each flushed at once (stdout before a message, so
// that the two streams interleave in the order things happened). The process's default sink.
class TerminalSink final : public Sink {
 public:
  void result(std::string_view text) override;
  void message(std::string_view line) override;
};

// Keeps everything, for tests.
class CapturingSink final : public Sink {
 public:
  void result(std::string_view text) override { results_ += text; }
  void message(std::string_view line) override { messages_.emplace_back(line); }

  const std::string& results() const { return results_; }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::string results_;
  std::vector<std::string> messages_;
};

// Sends everything to `sink` while alive (see the lifetime rule above).
class ScopedSink {
 public:
  explicit ScopedSink(Sink& sink);
  ~ScopedSink();
  ScopedSink(const ScopedSink&) = delete;
  ScopedSink& operator=(const ScopedSink&) = delete;

 private:
  Sink* previous_;
};

// A result, as is (a table, or a line with its "\n").
void Result(std::string_view text);
// printf-style text for Result and the others: Result(Format("%.1f MiB/s\n", rate)).
std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));
// "dlbench: note: <text>".
void Note(std::string_view text);
// "dlbench: warning: <text>", now. For code that already speaks for the whole job: rank 0 after a
// reduction, or a command without parallel work. Any rank, possibly all: use RaiseWarning.
void Warning(std::string_view text);
// "dlbench: error: <text>", or "dlbench: error (<source>): <text>" when `source` says where the
// error arose ("rank 1 of 4"); logged as ERROR. Printing an error once per job is the caller's
// part: app/error_reporting.h decides which rank speaks (every module throws instead).
void Error(std::string_view text, std::string_view source = {});

// A warning that may arise on any rank and thread: kept pending until mpi::PublishWarnings prints
// it once for the job. The same text raised again in this process (by another thread, or in a
// later phase) is dropped, so a per-thread or per-rank condition is reported once.
void RaiseWarning(std::string text);
// Removes and returns this process's pending warnings, oldest first (mpi::PublishWarnings).
std::vector<std::string> TakeRaisedWarnings();

// Opens the run's log at `path`, replacing an earlier one (DLIO deletes its log at start). A log
// that cannot be opened or written is a warning, never an error: it is a copy of the terminal.
// Returns whether the log is open.
bool OpenLog(const std::string& path);
// Flushes and closes the log, if one is open.
void CloseLog();
// An entry for the log alone ("[level] <time> text"), e.g. DLIO's [METRIC] block in quiet runs.
void Log(std::string_view level, std::string_view text);

// The log of one run: opened by the constructor, closed by the destructor — except while an
// exception unwinds through it, so that the error which ends the run, reported after the
// unwinding, still reaches the log (the next OpenLog, or the process's exit, closes it then).
class RunLog {
 public:
  explicit RunLog(const std::string& path);
  ~RunLog();
  RunLog(const RunLog&) = delete;
  RunLog& operator=(const RunLog&) = delete;

 private:
  int exceptions_at_start_;
};

}  // namespace dlbench::sink
