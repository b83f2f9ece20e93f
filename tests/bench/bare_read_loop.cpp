// The physical limit of the training read path, for scripts/bench/bench-read.sh: N processes that
// each open / pread to the end / close their share of the files of a folder, nothing else — no
// format, no threads, no queue, no metrics. dlbench's samples/s on the same files (one sample
// per file) divided by this loop's files/s is how much of the limit the sample pipeline reaches.
//
//   bare_read_loop PROCESSES PASSES DIR
//
// Reads the regular files of DIR (sorted by name) PASSES times; process p reads the p-th of N
// contiguous shards of the list in every pass, in name order — dlbench's sharding without
// shuffles (DLIO's default) — through one buffer reused for every read (as dlbench reuses its
// sample buffers), with pread calls of up to 1 MiB until one returns 0. The processes start
// together (they wait on a pipe the parent closes) and the time runs from that release to the
// last process's exit. Prints one line: "files/s FILES_READ SECONDS BYTES".
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bare_read_loop: %s: %s\n", what.c_str(), std::strerror(errno));
  std::exit(1);
}

std::vector<std::string> RegularFiles(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) Die("opendir " + dir);
  std::vector<std::string> files;
  while (const dirent* entry = readdir(d)) {
    const std::string path = dir + "/" + entry->d_name;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) files.push_back(path);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}

// One process's share: returns the bytes read.
unsigned long long ReadShare(const std::vector<std::string>& files, int process, int processes,
                             int passes) {
  constexpr std::size_t kBuffer = 1 << 20;
  std::vector<char> buffer(kBuffer);
  unsigned long long bytes = 0;
  const std::size_t shard = files.size() / static_cast<std::size_t>(processes);
  const std::size_t first = shard * static_cast<std::size_t>(process);
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = first; i < first + shard; ++i) {
      const int fd = open(files[i].c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) Die("open " + files[i]);
      off_t offset = 0;
      for (;;) {
        const ssize_t got = pread(fd, buffer.data(), kBuffer, offset);
        if (got < 0) Die("pread " + files[i]);
        if (got == 0) break;
        offset += got;
      }
      bytes += static_cast<unsigned long long>(offset);
      close(fd);
    }
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: bare_read_loop PROCESSES PASSES DIR\n");
    return 2;
  }
  const int processes = std::atoi(argv[1]);
  const int passes = std::atoi(argv[2]);
  if (processes < 1 || passes < 1) {
    std::fprintf(stderr, "bare_read_loop: PROCESSES and PASSES must be positive\n");
    return 2;
  }
  const std::vector<std::string> files = RegularFiles(argv[3]);
  if (files.empty()) {
    std::fprintf(stderr, "bare_read_loop: no regular files in %s\n", argv[3]);
    return 2;
  }
  int start[2];
  int results[2];
  if (pipe(start) != 0 || pipe(results) != 0) Die("pipe");
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = fork();
    if (pid < 0) Die("fork");
    if (pid == 0) {
      close(start[1]);
      char byte;
      while (read(start[0], &byte, 1) < 0 && errno == EINTR) {
      }
      const unsigned long long bytes = ReadShare(files, p, processes, passes);
      if (write(results[1], &bytes, sizeof bytes) != sizeof bytes) Die("write");
      _exit(0);
    }
  }
  close(start[0]);
  close(results[1]);
  const auto begin = std::chrono::steady_clock::now();
  close(start[1]);  // go
  unsigned long long bytes = 0;
  bool failed = false;
  for (int p = 0; p < processes; ++p) {
    int status = 0;
    if (wait(&status) < 0) Die("wait");
    failed = failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  for (unsigned long long share = 0; read(results[0], &share, sizeof share) == sizeof share;) {
    bytes += share;
  }
  if (failed) return 1;
  const double count =
      static_cast<double>(files.size() / static_cast<std::size_t>(processes) * processes) * passes;
  std::printf("%.0f %.0f %.6f %llu\n", count / seconds, count, seconds, bytes);
  return 0;
}
