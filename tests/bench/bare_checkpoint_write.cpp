// The machine's own spread of checkpoint-sized writes, for scripts/bench/bench-checkpoint.sh (d): N
// processes that each write SAVES files of BYTES bytes into DIR, one every PERIOD seconds, in 4 MiB
// write() calls from one buffer filled once (no content generation, no threads, no MPI), and
// delete each file two saves later (as the burst buffer evicts drained checkpoints). If the
// burst-buffer saves' run-to-run bimodality is the machine's (page allocation on tmpfs, the VM's
// CPU), these saves show it too when both alternate.
//
//   bare_checkpoint_write PROCESSES SAVES BYTES PERIOD DIR
//
// The processes start together (they wait on a pipe the parent closes). Prints one line: the
// save times in seconds, each the maximum over the processes (as dlbench reports a save).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bare_checkpoint_write: %s: %s\n", what.c_str(), std::strerror(errno));
  std::exit(1);
}

std::string FileOf(const std::string& dir, int process, int save) {
  return dir + "/p" + std::to_string(process) + "-s" + std::to_string(save);
}

// One process: writes its saves and returns their durations through `out` (a pipe).
void Saves(int process, int saves, unsigned long long bytes, double period, const std::string& dir,
           int out) {
  constexpr std::size_t kChunk = 4 << 20;
  std::vector<char> buffer(kChunk);
  std::mt19937_64 random(static_cast<unsigned long long>(process) + 1);
  for (std::size_t i = 0; i + 8 <= buffer.size(); i += 8) {
    const unsigned long long v = random();
    std::memcpy(buffer.data() + i, &v, 8);
  }
  using Clock = std::chrono::steady_clock;
  for (int s = 0; s < saves; ++s) {
    const Clock::time_point start = Clock::now();
    const int fd =
        open(FileOf(dir, process, s).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) Die("open");
    for (unsigned long long done = 0; done < bytes;) {
      const std::size_t length =
          static_cast<std::size_t>(std::min<unsigned long long>(kChunk, bytes - done));
      const ssize_t wrote = write(fd, buffer.data(), length);
      if (wrote <= 0) Die("write");
      done += static_cast<unsigned long long>(wrote);
    }
    close(fd);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (write(out, &seconds, sizeof seconds) != sizeof seconds) Die("pipe");
    if (s >= 2) unlink(FileOf(dir, process, s - 2).c_str());
    std::this_thread::sleep_for(std::chrono::duration<double>(period));
  }
  for (int s = std::max(0, saves - 2); s < saves; ++s) unlink(FileOf(dir, process, s).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bare_checkpoint_write PROCESSES SAVES BYTES PERIOD DIR\n");
    return 2;
  }
  const int processes = std::atoi(argv[1]);
  const int saves = std::atoi(argv[2]);
  const unsigned long long bytes = std::strtoull(argv[3], nullptr, 10);
  const double period = std::atof(argv[4]);
  const std::string dir = argv[5];
  if (processes < 1 || saves < 1 || bytes == 0 || period < 0) {
    std::fprintf(stderr, "bare_checkpoint_write: bad arguments\n");
    return 2;
  }
  int go[2];
  if (pipe(go) != 0) Die("pipe");
  std::vector<int> results;
  for (int p = 0; p < processes; ++p) {
    int out[2];
    if (pipe(out) != 0) Die("pipe");
    const pid_t child = fork();
    if (child < 0) Die("fork");
    if (child == 0) {
      close(go[1]);
      close(out[0]);
      char byte;
      if (read(go[0], &byte, 1) < 0) Die("read");
      Saves(p, saves, bytes, period, dir, out[1]);
      _exit(0);
    }
    close(out[1]);
    results.push_back(out[0]);
  }
  close(go[0]);
  close(go[1]);  // releases the processes
  std::vector<double> worst(static_cast<std::size_t>(saves), 0.0);
  for (const int fd : results) {
    for (double& w : worst) {
      double seconds = 0;
      if (read(fd, &seconds, sizeof seconds) != sizeof seconds) Die("read result");
      w = std::max(w, seconds);
    }
  }
  int status = 0;
  while (wait(&status) > 0) {
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  for (std::size_t s = 0; s < worst.size(); ++s) std::printf(s ? " %.3f" : "%.3f", worst[s]);
  std::printf("\n");
  return 0;
}
