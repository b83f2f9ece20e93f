// BackgroundRemover: removals in queue order on a thread of their own, none while held (a save is
// being written), and every queued one done once released.
#include "checkpoint/background_remover.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "storage/file.h"
#include "support/test_support.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;

TEST(BackgroundRemover, RemovesNothingWhileHeld) {
  dlbench::test::TempDir dir;
  std::vector<std::string> paths;
  for (const char* name : {"a", "b"}) {
    dir.write(name, "bytes");
    paths.push_back((dir / name).string());
  }
  BackgroundRemover remover(storage::PosixEnv());
  remover.hold();
  remover.remove(paths);
  // Held, the remover frees no pages beside the save, however long the save takes.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(fs::exists(dir / "a"));
  EXPECT_TRUE(fs::exists(dir / "b"));
  remover.release();
  remover.wait_idle();
  EXPECT_FALSE(fs::exists(dir / "a"));
  EXPECT_FALSE(fs::exists(dir / "b"));
  EXPECT_EQ(remover.take_error(), "");
}

}  // namespace
}  // namespace dlbench::checkpoint
