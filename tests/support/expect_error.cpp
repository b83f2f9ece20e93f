#include "support/expect_error.h"

#include <gtest/gtest.h>

namespace dlbench::test {

namespace {

std::string Expect(const std::function<void()>& f, ExitCode code,
                   const std::vector<std::string>& fragments, bool collective,
                   std::source_location where) {
  try {
    f();
  } catch (const Error& e) {
    const std::string message = e.what();
    if (e.code() != code) {
      ADD_FAILURE_AT(where.file_name(), where.line())
          << "exit code " << static_cast<int>(e.code()) << ", expected " << static_cast<int>(code)
          << ": " << message;
    }
    if (collective && !e.collective()) {
      ADD_FAILURE_AT(where.file_name(), where.line())
          << "not a collective error (every rank should throw it together): " << message;
    }
    for (const std::string& fragment : fragments) {
      if (message.find(fragment) == std::string::npos) {
        ADD_FAILURE_AT(where.file_name(), where.line())
            << "'" << fragment << "' not in: " << message;
      }
    }
    return message;
  }
  ADD_FAILURE_AT(where.file_name(), where.line()) << "no dlbench::Error thrown";
  return "";
}

}  // namespace

std::string ExpectError(const std::function<void()>& f, ExitCode code,
                        const std::vector<std::string>& fragments, std::source_location where) {
  return Expect(f, code, fragments, /*collective=*/false, where);
}

std::string ExpectCollectiveError(const std::function<void()>& f, ExitCode code,
                                  const std::vector<std::string>& fragments,
                                  std::source_location where) {
  return Expect(f, code, fragments, /*collective=*/true, where);
}

}  // namespace dlbench::test
