#include "util/sink.h"

#include <cstdarg>
#include <cstdio>
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
};

// Never destroyed: messages may still be written while static objects are torn down at exit.
State& Global() {
  static State* state = new State;
  return *state;
}

void Write(std::string_view prefix, std::string_view text) {
  std::string line;
  line.reserve(prefix.size() + text.size());
  line.append(prefix).append(text);
  State& state = Global();
  const std::lock_guard lock(state.mutex);
  state.current->message(line);
}

}  // namespace

void TerminalSink::result(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void TerminalSink::message(std::string_view line) {
  std::fflush(stdout);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fputc('\n', stderr);
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

void Note(std::string_view text) { Write("dlbench: note: ", text); }
void Warning(std::string_view text) { Write("dlbench: warning: ", text); }
void Message(std::string_view line) { Write("", line); }

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

}  // namespace dlbench::sink
