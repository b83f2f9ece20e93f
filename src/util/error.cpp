#include "util/error.h"

#include <cstring>

namespace dlbench {

Error IoError(const std::string& operation, const std::string& path, int errno_value,
              const std::string& detail) {
  std::string message = operation + " " + path;
  if (!detail.empty()) message += ": " + detail;
  if (errno_value != 0) {
    message += ": " + std::string(std::strerror(errno_value)) + " (errno " +
               std::to_string(errno_value) + ")";
  }
  return Error(ExitCode::kIo, message);
}

}  // namespace dlbench
