// The two shapes of an I/O error message: the failed operation with errno, and corrupt data.
#include "util/error.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace dlbench {
namespace {

TEST(IoError, NamesTheOperationThePathTheDetailAndErrno) {
  const Error e = IoError("write", "/d/f.npy", ENOSPC, "at offset 4096");
  EXPECT_EQ(e.code(), ExitCode::kIo);
  EXPECT_STREQ(e.what(), "write /d/f.npy: at offset 4096: No space left on device (errno 28)");
  EXPECT_STREQ(IoError("open", "/d/g", 0).what(), "open /d/g");
}

TEST(CorruptDataError, NamesTheFileWhatItShouldBeAndWhatIsWrongWithExitThree) {
  const Error e = CorruptDataError("/d/img_3_of_8.png", "png", "IDAT: incorrect data check");
  EXPECT_EQ(e.code(), ExitCode::kIo);
  EXPECT_STREQ(e.what(), "read /d/img_3_of_8.png: bad png: IDAT: incorrect data check");
}

}  // namespace
}  // namespace dlbench
