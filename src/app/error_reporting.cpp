#include "app/error_reporting.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <thread>

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

// When several ranks fail at once (every rank meets the same unreadable folder), each would print
// the same message before the abort reaches it. A failing rank therefore waits a little longer the
// higher its rank: the lowest failing rank prints and aborts first, and Open MPI's abort normally
// ends the others before their turn. Bounded, so a lone failure on a high rank still ends the
// job within seconds.
void StaggerBeforeAbort(const mpi::Communicator& comm) {
  if (comm.size() <= 1 || comm.rank() == 0) return;
  constexpr auto kStep = std::chrono::milliseconds(150);
  constexpr int kMaxSteps = 12;
  std::this_thread::sleep_for(kStep * std::min(comm.rank(), kMaxSteps));
}

int RunGuarded(const mpi::Communicator& comm, const std::function<int()>& body) {
  ExitCode code = ExitCode::kInternal;
  try {
    return body();
  } catch (const Error& error) {
    if (error.collective()) {
      if (comm.is_root()) {
        std::fflush(stdout);
        std::fprintf(stderr, "dlbench: error: %s\n", error.what());
        std::fflush(stderr);
      }
      return static_cast<int>(error.code());
    }
    StaggerBeforeAbort(comm);
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

}  // namespace dlbench::app
