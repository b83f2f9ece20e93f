#include "workflow/interruption.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>

#include "util/error.h"
#include "util/sink.h"

namespace dlbench::workflow {
namespace {

constexpr std::array<int, 3> kStopSignals = {SIGINT, SIGTERM, SIGHUP};

// What the handler may touch (async-signal-safe): the write end of the pipe to the watcher, and
// whether a signal came already.
int g_pipe[2] = {-1, -1};
std::atomic<int> g_received{0};
std::atomic<pid_t> g_sender{0};  // the first signal's sending process (0: the kernel, a tty)
struct sigaction g_previous[kStopSignals.size()];
bool g_installed[kStopSignals.size()] = {};

void EndBySignal(int signal_number) {
  struct sigaction action = {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal_number);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  raise(signal_number);
}

void OnStopSignal(int signal_number, siginfo_t* info, void* /*context*/) {
  int expected = 0;
  if (!g_received.compare_exchange_strong(expected, signal_number)) {
    EndBySignal(signal_number);  // a second signal: no more waiting
    return;
  }
  g_sender = info != nullptr && info->si_code == SI_USER ? info->si_pid : 0;
  const int saved_errno = errno;
  const auto byte = static_cast<unsigned char>(signal_number);
  [[maybe_unused]] const ssize_t written = write(g_pipe[1], &byte, 1);
  errno = saved_errno;
}

// What the terminal and the run's log say: "interrupted by SIGINT (exit 130)", the process's
// status; sent by mpirun, what the job's user sees instead: mpirun's status, 1.
std::string InterruptionMessage(int signal_number, const std::string& sender) {
  const std::string text = "interrupted by " + SignalName(signal_number);
  if (sender == "mpirun") {
    return text +
           " from mpirun (it stops every rank with SIGTERM when it gets a Ctrl-C or a SIGTERM; "
           "mpirun then exits 1)";
  }
  return text + " (exit " + std::to_string(128 + signal_number) + ")";
}

}  // namespace

Interruption::Interruption(RunResults& results, bool speaks) : results_(results), speaks_(speaks) {
  if (g_pipe[0] != -1) throw InternalError("two Interruptions at a time");
  if (pipe2(g_pipe, O_CLOEXEC) != 0) {
    throw InternalError("pipe for the signal watcher: " + std::to_string(errno));
  }
  g_received = 0;
  g_sender = 0;
  watcher_ = std::thread([this] { watch(); });
  for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
    struct sigaction current = {};
    sigaction(kStopSignals[i], nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;  // nohup, or a background job's SIGINT
    struct sigaction action = {};
    action.sa_sigaction = OnStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_SIGINFO;
    g_installed[i] = sigaction(kStopSignals[i], &action, &g_previous[i]) == 0;
  }
}

Interruption::~Interruption() {
  for (std::size_t i = 0; i < kStopSignals.size(); ++i) {
    if (g_installed[i]) sigaction(kStopSignals[i], &g_previous[i], nullptr);
    g_installed[i] = false;
  }
  // Byte 0: no signal, stop watching. (A signal that came meanwhile is being recorded, and the
  // watcher ends the process.)
  const unsigned char stop = 0;
  while (write(g_pipe[1], &stop, 1) < 0 && errno == EINTR) {
  }
  watcher_.join();
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

void Interruption::watch() {
  unsigned char byte = 0;
  ssize_t got = 0;
  do {
    got = read(g_pipe[0], &byte, 1);
  } while (got < 0 && errno == EINTR);
  if (got != 1 || byte == 0) return;
  const int signal_number = byte;
  // Open MPI's mpirun (or its orted), the parent of every rank it starts, stops them all with
  // SIGTERM when it gets a Ctrl-C or a SIGTERM itself: the ranks never see the SIGINT.
  const std::string sender =
      g_sender != 0 && g_sender == getppid() && std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr
          ? "mpirun"
          : "";
  if (!speaks_) {
    // The other ranks of an mpirun job get the signal too. One that ended at once would make
    // mpirun kill rank 0 while it records the interruption (seen: summary.json written, the
    // log's line not): rank 0's end ends this rank first, or this rank ends after the grace.
    std::this_thread::sleep_for(std::chrono::seconds(5));
  }
  // Recorded with the interruption, never on its own: a failure another rank wrote into
  // summary.json before it ended the job (MPI_Abort, carried out by mpirun's SIGTERM) stays.
  results_.interrupt(signal_number, sender);
  if (speaks_) sink::Error(InterruptionMessage(signal_number, sender));
  sink::CloseLog();
  EndBySignal(signal_number);
}

}  // namespace dlbench::workflow
