// The one error type of dlbench. Every failure a user can cause or meet carries the exit code
// the process ends with, so that `main` never has to guess.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dlbench {

// Process exit codes (docs/cli.md). Stable: scripts and CI depend on them.
enum class ExitCode : int {
  kOk = 0,
  kInternal = 1,    // a bug in dlbench
  kUsage = 2,       // bad command line, bad configuration
  kIo = 3,          // an I/O error or bad data on storage
  kRegression = 4,  // `dlbench compare` found a regression
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

  // True when every rank of the job throws this error together (an agreed failure, see
  // mpi/agreement.h): it is then printed once, by rank 0, and no rank has to abort the others.
  bool collective() const noexcept { return collective_; }
  Error& mark_collective() noexcept {
    collective_ = true;
    return *this;
  }

 private:
  ExitCode code_;
  bool collective_ = false;
};

// Bad configuration or command line (exit 2).
inline Error UsageError(const std::string& message) { return Error(ExitCode::kUsage, message); }

// A bug in dlbench (exit 1): a state the code above should have made impossible. In particular,
// a module that meets a configuration value config::Validate refuses (every rule on a value lives
// in config/) throws this, not UsageError: the value should never have reached it.
inline Error InternalError(const std::string& message) {
  return Error(ExitCode::kInternal, message);
}

// An I/O failure or corrupt data (exit 3). `errno_value` 0 means "no errno to report".
Error IoError(const std::string& operation, const std::string& path, int errno_value,
              const std::string& detail = "");

// Data that is not what its format says — a damaged header, a wrong checksum, a file cut short,
// a shape other than the configuration's (exit 3): "read <path>: bad <expected>: <detail>", for
// example "read /d/img_3_of_8.png: bad png: IDAT: incorrect data check". `expected` names what
// the bytes should have been ("png", "npy header", "zip directory"). Every format reader reports
// corrupt data through this one helper, so the message always names the file and the format.
Error CorruptDataError(const std::string& path, const std::string& expected,
                       const std::string& detail);

// Bytes of a data file as an error message shows them (a key of a damaged header, a name in a
// hostile schema): printable ASCII as it is, a newline, return and tab as \n \r \t, any other
// byte (control characters, 0x7F and above) as \xNN, and at most `most` bytes followed by "..."
// when there are more. A message must stay one line on the terminal and in dlio.log, and valid
// UTF-8 in summary.json's run_status (whose JSON writer refuses other bytes).
std::string FileText(std::string_view bytes, std::size_t most = 64);

}  // namespace dlbench
