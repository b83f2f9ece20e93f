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

Error CorruptDataError(const std::string& path, const std::string& expected,
                       const std::string& detail) {
  return IoError("read", path, 0, "bad " + expected + ": " + detail);
}

std::string FileText(std::string_view bytes, std::size_t most) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (std::size_t i = 0; i < bytes.size() && i < most; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n') {
      text += "\\n";
    } else if (c == '\r') {
      text += "\\r";
    } else if (c == '\t') {
      text += "\\t";
    } else if (c < 0x20 || c >= 0x7F) {
      text += "\\x";
      text += kHex[c >> 4];
      text += kHex[c & 0xF];
    } else {
      text += static_cast<char>(c);
    }
  }
  if (bytes.size() > most) text += "...";
  return text;
}

}  // namespace dlbench
