// The test helper every error-path test relies on must itself fail when it should.
#include "support/expect_error.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace dlbench::test {
namespace {

void ThrowIo() { throw Error(ExitCode::kIo, "read /data/f: Input/output error"); }

TEST(ExpectError, PassesAndReturnsTheMessage) {
  EXPECT_EQ(ExpectError(ThrowIo, ExitCode::kIo, {"read", "/data/f"}),
            "read /data/f: Input/output error");
}

TEST(ExpectError, FailsOnNoErrorAWrongCodeOrAMissingFragment) {
  EXPECT_NONFATAL_FAILURE(ExpectError([] {}, ExitCode::kIo), "no dlbench::Error thrown");
  EXPECT_NONFATAL_FAILURE(ExpectError(ThrowIo, ExitCode::kUsage), "exit code 3, expected 2");
  EXPECT_NONFATAL_FAILURE(ExpectError(ThrowIo, ExitCode::kIo, {"write"}), "'write' not in");
}

TEST(ExpectError, LetsOtherExceptionsThrough) {
  EXPECT_THROW(ExpectError([] { throw std::logic_error("bug"); }, ExitCode::kIo), std::logic_error);
}

}  // namespace
}  // namespace dlbench::test
