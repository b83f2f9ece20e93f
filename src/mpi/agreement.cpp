#include "mpi/agreement.h"

#include <climits>
#include <cstdint>
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "util/sink.h"

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

void PublishWarnings(const Communicator& comm) {
  // Texts are joined with NUL, which no warning contains.
  std::string mine;
  for (const std::string& text : sink::TakeRaisedWarnings()) mine.append(text).push_back('\0');
  const std::vector<std::uint64_t> sizes = comm.all_gather(std::uint64_t{mine.size()});
  std::set<std::string> printed;
  for (int rank = 0; rank < comm.size(); ++rank) {
    if (sizes[static_cast<std::size_t>(rank)] == 0) continue;
    const std::string theirs = comm.broadcast(mine, rank);
    if (!comm.is_root()) continue;
    for (std::size_t begin = 0, end; begin < theirs.size(); begin = end + 1) {
      end = theirs.find('\0', begin);
      std::string text = theirs.substr(begin, end - begin);
      if (printed.insert(text).second) sink::Warning(text);
    }
  }
}

}  // namespace dlbench::mpi
