#include "util/sink.h"

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <mutex>
#include <set>
#include <utility>

namespace dlbench::sink {
namespace {

struct State {
  std::mutex mutex;
  TerminalSink terminal;
  Sink* current = &terminal;
  std::set<std::string, std::less<>> raised;  // every warning text raised in this process
  std::vector<std::string> pending;           // raised, not yet published
  std::FILE* log = nullptr;                   // the run's log, while open
  std::string log_path;
};

// Never destroyed: messages may still be written while static objects are torn down at exit.
State& Global() {
  static State* state = new State;
  return *state;
}

// Python's datetime.now().isoformat(), as DLIO's log lines start: 2026-11-23T16:40:01.390131.
std::string LocalTimestamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
      1000000;
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[40];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &local);
  std::snprintf(text + length, sizeof text - length, ".%06lld", static_cast<long long>(micros));
  return text;
}

// The caller holds the lock. A failed write closes the log, with a warning on the terminal. Every
// line of a multi-line text gets the entry's "[LEVEL] <time> " (a table's rows were written bare
// and did not parse as log lines), except DLIO's own "[METRIC] " lines, kept as DLIO writes them.
void AppendToLog(State& state, std::string_view level, std::string_view text) {
  if (state.log == nullptr) return;
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (text.empty()) return;
  const std::string prefix = "[" + std::string(level) + "] " + LocalTimestamp() + " ";
  std::string entry;
  entry.reserve(text.size() + prefix.size() + 1);
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (start == 0 || !line.starts_with("[METRIC] ")) entry += prefix;
    entry += line;
    entry += '\n';
    start = end + 1;
  }
  const bool written = std::fwrite(entry.data(), 1, entry.size(), state.log) == entry.size() &&
                       std::fflush(state.log) == 0;
  if (written) return;
  const int error = errno;
  std::fclose(state.log);
  state.log = nullptr;
  state.current->message("dlbench: warning: cannot write the log " + state.log_path + ": " +
                         std::strerror(error) + "; the run goes on without it");
}

// `line` to the sink; `logged` to the log, under `level`.
void Write(std::string_view level, std::string_view line, std::string_view logged) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  state.current->message(line);
  AppendToLog(state, level, logged);
}

void CloseLocked(State& state) {
  if (state.log != nullptr) std::fclose(state.log);
  state.log = nullptr;
}

}  // namespace

void TerminalSink::result(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void TerminalSink::message(std::string_view line) {
  std::fflush(stdout);
  // One write, newline included: stderr is unbuffered, and under mpirun a line written in two
  // pieces could be forwarded in two, with mpirun's own lines between them.
  std::string text(line);
  text += '\n';
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

ScopedSink::ScopedSink(Sink& sink) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  previous_ = std::exchange(state.current, &sink);
}

ScopedSink::~ScopedSink() {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  state.current = previous_;
}

void Result(std::string_view text) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  state.current->result(text);
  AppendToLog(state, "OUTPUT", text);
}

std::string Format(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::va_list again;
  va_copy(again, args);
  const int length = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(length > 0 ? static_cast<std::size_t>(length) : 0, '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  return text;
}

void Note(std::string_view text) { Write("INFO", "dlbench: note: " + std::string(text), text); }
void Warning(std::string_view text) {
  Write("WARNING", "dlbench: warning: " + std::string(text), text);
}
void Error(std::string_view text, std::string_view source) {
  if (source.empty()) {
    Write("ERROR", "dlbench: error: " + std::string(text), text);
    return;
  }
  // The log says where too: "rank 1 of 4: <text>".
  const std::string logged = std::string(source) + ": " + std::string(text);
  Write("ERROR", "dlbench: error (" + std::string(source) + "): " + std::string(text), logged);
}

void RaiseWarning(std::string text) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  if (state.raised.insert(text).second) state.pending.push_back(std::move(text));
}

std::vector<std::string> TakeRaisedWarnings() {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  return std::exchange(state.pending, {});
}

bool OpenLog(const std::string& path) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  CloseLocked(state);
  state.log_path = path;
  state.log = std::fopen(path.c_str(), "w");
  if (state.log != nullptr) return true;
  state.current->message("dlbench: warning: cannot open the log " + path + ": " +
                         std::strerror(errno) + "; the run goes on without it");
  return false;
}

void CloseLog() {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  CloseLocked(state);
}

void Log(std::string_view level, std::string_view text) {
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  AppendToLog(state, level, text);
}

RunLog::RunLog(const std::string& path) : exceptions_at_start_(std::uncaught_exceptions()) {
  OpenLog(path);
}

RunLog::~RunLog() {
  if (std::uncaught_exceptions() == exceptions_at_start_) CloseLog();
}

}  // namespace dlbench::sink
