#include "mpi/step_barrier.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <new>
#include <string>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

namespace dlbench::mpi {

// Each word on its own cache line: arrivals do not invalidate the line the sleepers watch.
struct StepBarrierWords {
  alignas(64) std::atomic<std::uint32_t> arrived{0};     // ranks in the current barrier
  alignas(64) std::atomic<std::uint32_t> generation{0};  // barriers completed (mod 2^32)
  alignas(64) std::atomic<std::uint32_t> sleepers{0};    // ranks in a futex wait now
};

namespace {

static_assert(std::atomic<std::uint32_t>::is_always_lock_free,
              "the barrier's words are shared between processes: they must be lock-free");
static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));

#if defined(__linux__)
constexpr bool kFutex = true;
// Shared (not FUTEX_PRIVATE) operations: the word is in memory mapped by several processes.
std::uint32_t* Word(std::atomic<std::uint32_t>& a) { return reinterpret_cast<std::uint32_t*>(&a); }
void FutexWait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
  // Bounded, so that a wait never depends on one wake-up alone; a timeout just waits again.
  const std::timespec timeout{0, 100'000'000};
  syscall(SYS_futex, Word(word), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}
void FutexWakeAll(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, Word(word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}
#else
constexpr bool kFutex = false;
void FutexWait(std::atomic<std::uint32_t>&, std::uint32_t) {}
void FutexWakeAll(std::atomic<std::uint32_t>&) {}
#endif

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Maps the segment `name` (created by the caller or by another rank); null on failure.
StepBarrierWords* MapSegment(const std::string& name, bool create) {
  const int fd = shm_open(name.c_str(), create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
  if (fd < 0) return nullptr;
  void* memory = MAP_FAILED;
  if (!create || ftruncate(fd, sizeof(StepBarrierWords)) == 0) {
    memory = mmap(nullptr, sizeof(StepBarrierWords), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  close(fd);
  if (memory == MAP_FAILED) return nullptr;
  return create ? new (memory) StepBarrierWords() : static_cast<StepBarrierWords*>(memory);
}

}  // namespace

StepBarrier::StepBarrier(const Communicator& comm, Mode mode) : comm_(comm), ranks_(comm.size()) {
  if (!kFutex || mode == Mode::kMpiPolls || comm.size() == 1 || !comm.uses_mpi()) return;
  // Every rank takes the same branch: ranks_on_this_node() is the same on every rank only when
  // they all share the node, so agree on it.
  if (comm.min(comm.ranks_on_this_node() == comm.size() ? 1 : 0) == 0) return;
  static std::atomic<int> created{0};
  std::string name;
  if (comm.is_root()) {
    name = "/dlbench-step-barrier-" + std::to_string(getpid()) + "-" +
           std::to_string(created.fetch_add(1));
    shared_ = MapSegment(name, /*create=*/true);
    if (shared_ == nullptr) name.clear();
  }
  name = comm.broadcast(name);
  if (name.empty()) return;  // the root could not make it: every rank polls MPI
  if (!comm.is_root()) shared_ = MapSegment(name, /*create=*/false);
  const bool everywhere = comm.min(shared_ != nullptr ? 1 : 0) == 1;
  if (comm.is_root()) shm_unlink(name.c_str());  // every rank has mapped it, or given up
  if (!everywhere && shared_ != nullptr) {
    munmap(shared_, sizeof(StepBarrierWords));
    shared_ = nullptr;
  }
}

StepBarrier::~StepBarrier() {
  if (shared_ != nullptr) munmap(shared_, sizeof(StepBarrierWords));
}

void StepBarrier::wait(double spin_seconds, double poll_seconds) {
  if (shared_ == nullptr) {
    comm_.step_barrier(spin_seconds, poll_seconds);
    return;
  }
  StepBarrierWords& s = *shared_;
  // Read before arriving: the barrier cannot complete (and the generation move on) before this
  // rank's arrival below.
  const std::uint32_t generation = s.generation.load(std::memory_order_acquire);
  if (s.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<std::uint32_t>(ranks_)) {
    // The last rank: reset for the next barrier before releasing anyone into it.
    s.arrived.store(0, std::memory_order_relaxed);
    s.generation.store(generation + 1, std::memory_order_seq_cst);
    if (s.sleepers.load(std::memory_order_seq_cst) > 0) FutexWakeAll(s.generation);
    return;
  }
  const auto passed = [&] { return s.generation.load(std::memory_order_acquire) != generation; };
  if (spin_seconds > 0) {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(spin_seconds));
    while (!passed()) {
      if (std::chrono::steady_clock::now() >= until) break;
      for (int i = 0; i < 64 && !passed(); ++i) CpuRelax();
    }
  }
  while (!passed()) {
    // Counted as a sleeper before the last look at the generation (both sequentially
    // consistent): either the last rank sees the count and wakes it, or this rank sees the new
    // generation and does not sleep. The futex also compares the word itself.
    s.sleepers.fetch_add(1, std::memory_order_seq_cst);
    if (s.generation.load(std::memory_order_seq_cst) == generation)
      FutexWait(s.generation, generation);
    s.sleepers.fetch_sub(1, std::memory_order_seq_cst);
  }
}

}  // namespace dlbench::mpi
