#include "mpi/agreement.h"

#include <climits>
#include <exception>
#include <string>

namespace dlbench::mpi {

void AgreeOnFailure(const Communicator& comm, const std::function<void()>& step) {
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
  const std::string agreed_code = comm.broadcast(std::to_string(static_cast<int>(code)), failing);
  const std::string agreed_message = comm.broadcast(message, failing);
  throw Error(static_cast<ExitCode>(std::stoi(agreed_code)), agreed_message).mark_collective();
}

}  // namespace dlbench::mpi
