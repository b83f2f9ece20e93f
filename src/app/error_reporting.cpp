#include "app/error_reporting.h"

#include <climits>
#include <cstdio>
#include <exception>
#include <string>

namespace dlbench::app {

void PrintError(const mpi::Communicator& comm, const std::string& message) {
  std::fflush(stdout);
  if (comm.size() > 1) {
    std::fprintf(stderr, "dlbench: error (rank %d of %d): %s\n", comm.rank(), comm.size(),
                 message.c_str());
  } else {
    std::fprintf(stderr, "dlbench: error: %s\n", message.c_str());
  }
  std::fflush(stderr);
}

int RunGuarded(const mpi::Communicator& comm, const std::function<int()>& body) {
  ExitCode code = ExitCode::kInternal;
  try {
    return body();
  } catch (const AlreadyReported& reported) {
    return static_cast<int>(reported.code);
  } catch (const Error& error) {
    PrintError(comm, error.what());
    code = error.code();
  } catch (const std::bad_alloc&) {
    PrintError(comm, "out of memory");
  } catch (const std::exception& error) {
    PrintError(comm, std::string("internal error: ") + error.what() +
                         " (this is a bug in dlbench; please report it)");
  }
  if (comm.size() > 1) comm.abort(code);
  return static_cast<int>(code);
}

void Collectively(const mpi::Communicator& comm, const std::function<void()>& step) {
  std::string message;
  ExitCode code = ExitCode::kOk;
  try {
    step();
  } catch (const Error& error) {
    message = error.what();
    code = error.code();
  } catch (const std::exception& error) {
    message = std::string("internal error: ") + error.what();
    code = ExitCode::kInternal;
  }
  const int failing = comm.min(code == ExitCode::kOk ? INT_MAX : comm.rank());
  if (failing == INT_MAX) return;
  const int agreed = std::stoi(comm.broadcast(std::to_string(static_cast<int>(code)), failing));
  if (comm.rank() == failing) {
    std::fflush(stdout);
    std::fprintf(stderr, "dlbench: error: %s\n", message.c_str());
    std::fflush(stderr);
  }
  throw AlreadyReported{static_cast<ExitCode>(agreed)};
}

}  // namespace dlbench::app
