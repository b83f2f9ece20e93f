// The one way tests check an error path: `ExpectError(f, code, {fragments})` runs `f`, which must
// throw dlbench::Error with exit code `code` and a message holding every fragment (a gtest failure
// at the caller's line otherwise). Returns the message, for further checks.
#pragma once

#include <functional>
#include <source_location>
#include <string>
#include <vector>

#include "util/error.h"

namespace dlbench::test {

std::string ExpectError(const std::function<void()>& f, ExitCode code,
                        const std::vector<std::string>& fragments = {},
                        std::source_location where = std::source_location::current());

// ExpectError for an error every rank throws together (Error::collective(), mpi/agreement.h):
// printed once for the job.
std::string ExpectCollectiveError(const std::function<void()>& f, ExitCode code,
                                  const std::vector<std::string>& fragments = {},
                                  std::source_location where = std::source_location::current());

}  // namespace dlbench::test
