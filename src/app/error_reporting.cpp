#include "app/error_reporting.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <string>
#include <thread>

#include "mpi/agreement.h"
#include "util/sink.h"

namespace dlbench::app {

void PrintError(const mpi::Communicator& comm, const std::string& message) {
  if (comm.size() > 1) {
    sink::Error(message,
                "rank " + std::to_string(comm.rank()) + " of " + std::to_string(comm.size()));
  } else {
    sink::Error(message);
  }
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
    const int exit_code = body();
    mpi::PublishWarnings(comm);
    return exit_code;
  } catch (const Error& error) {
    if (error.collective()) {
      // Every rank is here: the job's warnings can still be agreed, then the error said once.
      mpi::PublishWarnings(comm);
      if (comm.is_root()) sink::Error(error.what());
      return static_cast<int>(error.code());
    }
    StaggerBeforeAbort(comm);
    // The other ranks are not here to agree: this rank's own warnings, then its error.
    for (const std::string& text : sink::TakeRaisedWarnings()) sink::Warning(text);
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
