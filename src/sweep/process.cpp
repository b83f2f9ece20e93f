#include "sweep/process.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/error.h"

namespace dlbench::sweep {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string OwnExecutable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw IoError("readlink", "/proc/self/exe", error.value());
  return self.string();
}

void CheckLauncher(const std::string& program, const std::string& template_text) {
  if (program.find('/') != std::string::npos) {
    if (IsExecutableFile(program)) return;
  } else if (const char* path = std::getenv("PATH")) {
    std::string folders = path;
    std::size_t at = 0;
    while (at <= folders.size()) {
      const std::size_t colon = std::min(folders.find(':', at), folders.size());
      const std::string folder = colon == at ? "." : folders.substr(at, colon - at);
      if (IsExecutableFile(folder + "/" + program)) return;
      at = colon + 1;
    }
  }
  throw UsageError("--launcher '" + template_text + "': '" + program +
                   "' is not an executable file" +
                   (program.find('/') == std::string::npos ? " found in PATH" : "") +
                   " (is the launcher installed?)");
}

ProcessExit RunProcess(const std::vector<std::string>& argv, const std::string& log_path) {
  const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0) throw IoError("open", log_path, errno);
  int report[2];  // the child writes exec's errno here; closed by a successful exec
  if (::pipe2(report, O_CLOEXEC) != 0) {
    const int saved = errno;
    ::close(log);
    throw IoError("pipe2", log_path, saved);
  }
  std::vector<char*> args;
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    const int saved = errno;
    ::close(log);
    ::close(report[0]);
    ::close(report[1]);
    throw IoError("fork", argv[0], saved);
  }
  if (child == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execvp(args[0], args.data());
    const int saved = errno;
    [[maybe_unused]] const ssize_t written = ::write(report[1], &saved, sizeof(saved));
    ::_exit(127);
  }
  ::close(log);
  ::close(report[1]);
  int exec_errno = 0;
  ssize_t got = 0;
  do {
    got = ::read(report[0], &exec_errno, sizeof(exec_errno));
  } while (got < 0 && errno == EINTR);
  ::close(report[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw IoError("waitpid", argv[0], errno);
  }
  if (got == static_cast<ssize_t>(sizeof(exec_errno))) {
    throw UsageError("cannot run '" + argv[0] + "': " + std::strerror(exec_errno));
  }
  ProcessExit result;
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + result.signal;
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

std::string FailureLine(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, error_line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    last = line;
    if (line.find("error") != std::string::npos) error_line = line;
  }
  return error_line.empty() ? last : error_line;
}

}  // namespace dlbench::sweep
