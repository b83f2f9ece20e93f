#include "workflow/output_folder.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/test_support.h"
#include "util/file_names.h"
#include "workflow/folder_claim.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

TEST(PrepareOutputFolder, RemovesAnEarlierRunsResultsFromAFolderOfDlbenchs) {
  test::TempDir dir;
  dir.write(std::string("out/") + file_names::kFolderMarker, "");
  for (const char* name :
       {"summary.json", "1_output.json", "1_per_epoch_stats.json", "1_posix_counters.json.gz",
        "0_posix_counters.json", "trace-1-of-2.pfw.gz", "notes.txt", "1_output.json.bak",
        "x_output.json", "x_posix_counters.json.gz"}) {
    dir.write(std::string("out/") + name, "{}");
  }
  PrepareOutputFolder(dir / "out", config::Config{}, false, test::World());
  // An earlier summary saying complete would stand for this run until its first write.
  // Both spellings of the counters file: .json.gz, and .json of runs by earlier versions.
  for (const char* name :
       {"summary.json", "1_output.json", "1_per_epoch_stats.json", "1_posix_counters.json.gz",
        "0_posix_counters.json", "trace-1-of-2.pfw.gz"}) {
    EXPECT_FALSE(fs::exists(dir / "out" / name)) << name;
  }
  for (const char* name : {"notes.txt", "1_output.json.bak", "x_output.json",
                           "x_posix_counters.json.gz", "config.yaml"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / name)) << name;
  }
}

TEST(PrepareOutputFolder, AForcedForeignFolderKeepsFilesNamedLikeResults) {
  test::TempDir dir;
  for (const char* name : {"notes.txt", "summary.json", "5_output.json"}) {
    dir.write(std::string("out/") + name, "mine");
  }
  PrepareOutputFolder(dir / "out", config::Config{}, /*force=*/true, test::World());
  for (const char* name : {"notes.txt", "summary.json", "5_output.json"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / name)) << name;
  }
  EXPECT_TRUE(fs::exists(dir / "out" / file_names::kFolderMarker));
}

}  // namespace
}  // namespace dlbench::workflow
