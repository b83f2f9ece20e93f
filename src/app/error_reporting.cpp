#include "app/error_reporting.h"

#include <cstdio>
#include <exception>
#include <new>

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
  } catch (const Error& error) {
    if (error.collective()) {
      if (comm.is_root()) {
        std::fflush(stdout);
        std::fprintf(stderr, "dlbench: error: %s\n", error.what());
        std::fflush(stderr);
      }
      return static_cast<int>(error.code());
    }
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
