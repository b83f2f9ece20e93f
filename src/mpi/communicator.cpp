#include "mpi/communicator.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>

namespace dlbench::mpi {
namespace {

MPI_Comm Comm(int handle) { return MPI_Comm_f2c(handle); }

// Every collective of a Local() communicator is the identity; this one template is where the
// reductions learn it.
template <typename T>
T Reduce(const Communicator& comm, T value, MPI_Datatype type, MPI_Op op) {
  if (!comm.uses_mpi()) return value;
  T result{};
  MPI_Allreduce(&value, &result, 1, type, op, Comm(comm.fortran_handle()));
  return result;
}

}  // namespace

int Communicator::fortran_handle() const {
  if (!uses_mpi_) {
    throw InternalError(
        "an MPI communicator was asked of a command that runs "
        "without MPI (declare it parallel in app/commands.h)");
  }
  return handle_;
}

void Communicator::barrier() const { step_barrier(kBarrierSpin, kBarrierPoll); }

void Communicator::step_barrier(double spin_seconds, double poll_seconds) const {
  if (size_ == 1) return;
  MPI_Request request;
  MPI_Ibarrier(Comm(handle_), &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);  // the last rank to arrive is through at once
  const auto spin_until = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(spin_seconds));
  while (!done && std::chrono::steady_clock::now() < spin_until) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
  const auto poll = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(poll_seconds));
  while (!done) {
    std::this_thread::sleep_for(poll);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

double Communicator::max(double v) const { return Reduce(*this, v, MPI_DOUBLE, MPI_MAX); }
double Communicator::min(double v) const { return Reduce(*this, v, MPI_DOUBLE, MPI_MIN); }
double Communicator::sum(double v) const { return Reduce(*this, v, MPI_DOUBLE, MPI_SUM); }
std::uint64_t Communicator::max(std::uint64_t v) const {
  return Reduce(*this, v, MPI_UINT64_T, MPI_MAX);
}
std::uint64_t Communicator::min(std::uint64_t v) const {
  return Reduce(*this, v, MPI_UINT64_T, MPI_MIN);
}
std::uint64_t Communicator::sum(std::uint64_t v) const {
  return Reduce(*this, v, MPI_UINT64_T, MPI_SUM);
}
int Communicator::max(int v) const { return Reduce(*this, v, MPI_INT, MPI_MAX); }
int Communicator::min(int v) const { return Reduce(*this, v, MPI_INT, MPI_MIN); }
int Communicator::sum(int v) const { return Reduce(*this, v, MPI_INT, MPI_SUM); }

namespace {
std::vector<double> AllReduce(const std::vector<double>& values, MPI_Op op, MPI_Comm comm) {
  std::vector<double> result(values.size());
  MPI_Allreduce(values.data(), result.data(), static_cast<int>(values.size()), MPI_DOUBLE, op,
                comm);
  return result;
}
}  // namespace

std::vector<double> Communicator::max(const std::vector<double>& values) const {
  return uses_mpi_ ? AllReduce(values, MPI_MAX, Comm(handle_)) : values;
}

std::vector<double> Communicator::sum(const std::vector<double>& values) const {
  return uses_mpi_ ? AllReduce(values, MPI_SUM, Comm(handle_)) : values;
}

std::vector<double> Communicator::all_gather(double value) const {
  if (!uses_mpi_) return {value};
  std::vector<double> all(static_cast<size_t>(size_));
  MPI_Allgather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, Comm(handle_));
  return all;
}

std::vector<std::uint64_t> Communicator::all_gather(std::uint64_t value) const {
  if (!uses_mpi_) return {value};
  std::vector<std::uint64_t> all(static_cast<size_t>(size_));
  MPI_Allgather(&value, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, Comm(handle_));
  return all;
}

std::vector<std::string> Communicator::all_gather(const std::string& value) const {
  if (!uses_mpi_) return {value};
  const int length = static_cast<int>(value.size());
  std::vector<int> lengths(static_cast<size_t>(size_));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, Comm(handle_));
  std::vector<int> offsets(static_cast<size_t>(size_), 0);
  for (size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string joined(static_cast<size_t>(offsets.back() + lengths.back()), '\0');
  MPI_Allgatherv(value.data(), length, MPI_CHAR, joined.data(), lengths.data(), offsets.data(),
                 MPI_CHAR, Comm(handle_));
  std::vector<std::string> all;
  for (size_t r = 0; r < offsets.size(); ++r) all.push_back(joined.substr(offsets[r], lengths[r]));
  return all;
}

std::string Communicator::broadcast(const std::string& value, int root) const {
  if (!uses_mpi_) return value;
  std::uint64_t length = value.size();
  MPI_Bcast(&length, 1, MPI_UINT64_T, root, Comm(handle_));
  std::string result = rank_ == root ? value : std::string(length, '\0');
  MPI_Bcast(result.data(), static_cast<int>(length), MPI_CHAR, root, Comm(handle_));
  return result;
}

std::vector<std::string> Communicator::gather(const std::string& value, int root) const {
  if (!uses_mpi_) return {value};
  const std::vector<std::uint64_t> lengths = all_gather(std::uint64_t{value.size()});
  std::uint64_t total = 0;
  for (std::uint64_t length : lengths) total += length;
  if (total >= (std::uint64_t{1} << 31)) {
    throw InternalError("cannot gather " + std::to_string(total) +
                        " bytes of strings (limit 2 GiB)");
  }
  std::vector<int> counts(lengths.size()), displacements(lengths.size());
  for (std::size_t r = 0, offset = 0; r < lengths.size(); offset += lengths[r], ++r) {
    counts[r] = static_cast<int>(lengths[r]);
    displacements[r] = static_cast<int>(offset);
  }
  std::string all(rank_ == root ? total : 0, '\0');
  MPI_Gatherv(value.data(), static_cast<int>(value.size()), MPI_CHAR, all.data(), counts.data(),
              displacements.data(), MPI_CHAR, root, Comm(handle_));
  if (rank_ != root) return {};
  std::vector<std::string> values;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    values.push_back(all.substr(static_cast<std::size_t>(displacements[r]), lengths[r]));
  }
  return values;
}

void Communicator::gather_each(const std::string& value,
                               const std::function<void(int rank, std::string_view bytes)>& take,
                               int root) const {
  if (!uses_mpi_) {
    take(0, value);
    return;
  }
  const std::vector<std::uint64_t> lengths = all_gather(std::uint64_t{value.size()});
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    if (lengths[r] >= (std::uint64_t{1} << 31)) {
      throw InternalError("cannot gather " + std::to_string(lengths[r]) + " bytes of rank " +
                          std::to_string(r) + "'s string (limit 2 GiB)");
    }
  }
  constexpr int kTag = 0x6a7;
  if (rank_ != root) {
    MPI_Send(value.data(), static_cast<int>(value.size()), MPI_CHAR, root, kTag, Comm(handle_));
    return;
  }
  // A `take` that throws still lets every rank's send complete (received and dropped), then the
  // root rethrows: no rank is left blocked in MPI_Send.
  std::exception_ptr failed;
  std::string received;
  for (int r = 0; r < size_; ++r) {
    if (r != root) {
      received.resize(lengths[static_cast<std::size_t>(r)]);
      MPI_Recv(received.data(), static_cast<int>(received.size()), MPI_CHAR, r, kTag, Comm(handle_),
               MPI_STATUS_IGNORE);
    }
    if (failed) continue;
    try {
      take(r, r == root ? std::string_view(value) : std::string_view(received));
    } catch (...) {
      failed = std::current_exception();
    }
  }
  if (failed) std::rethrow_exception(failed);
}

int Communicator::ranks_on_this_node() const {
  if (!uses_mpi_) return 1;
  MPI_Comm node;
  MPI_Comm_split_type(Comm(handle_), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int count = 0;
  MPI_Comm_size(node, &count);
  MPI_Comm_free(&node);
  return count;
}

int Communicator::lowest_rank_on_this_node() const {
  if (!uses_mpi_) return rank_;
  MPI_Comm node;
  MPI_Comm_split_type(Comm(handle_), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int lowest = rank_;
  MPI_Allreduce(&rank_, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  return lowest;
}

void Communicator::abort(ExitCode code) const {
  std::fflush(stdout);
  std::fflush(stderr);
  if (uses_mpi_) MPI_Abort(Comm(handle_), static_cast<int>(code));
  std::_Exit(static_cast<int>(code));  // Local(); MPI_Abort does not return.
}

Session::Session(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // Reader, writer and drain threads never call MPI; only the main thread does.
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  }
  // Errors inside MPI calls come back as codes we turn into dlbench errors, not as aborts
  // with MPI's own message.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

Session::~Session() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

Communicator Session::world() const {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return Communicator(static_cast<int>(MPI_Comm_c2f(MPI_COMM_WORLD)), rank, size);
}

bool Session::Started() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  return initialized != 0;
}

}  // namespace dlbench::mpi
