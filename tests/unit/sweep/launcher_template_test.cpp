#include "sweep/launcher_template.h"

#include <gtest/gtest.h>

#include "support/expect_error.h"
#include "sweep/process.h"

namespace dlbench::sweep {
namespace {

using Words = std::vector<std::string>;

TEST(LauncherTemplate, PlacesTheCountInEveryPlaceholder) {
  EXPECT_EQ(LauncherTemplate::Parse("mpirun -np {ranks} --oversubscribe").expand({1, 6}),
            (Words{"mpirun", "-np", "6", "--oversubscribe"}));
  EXPECT_EQ(
      LauncherTemplate::Parse("srun -N {hosts} --ntasks-per-node={ranks_per_host}").expand({2, 8}),
      (Words{"srun", "-N", "2", "--ntasks-per-node=8"}));
  EXPECT_EQ(LauncherTemplate::Parse("srun -n {ranks}").expand({3, 4}), (Words{"srun", "-n", "12"}));
}

TEST(LauncherTemplate, QuotesGroupWords) {
  EXPECT_EQ(
      LauncherTemplate::Parse("mpirun -np {ranks} -x 'A=b c' \"--bind-to none\"").expand({1, 2}),
      (Words{"mpirun", "-np", "2", "-x", "A=b c", "--bind-to none"}));
}

TEST(LauncherTemplate, RefusesAnUnknownPlaceholder) {
  test::ExpectError([] { LauncherTemplate::Parse("mpirun -np {rank}"); }, ExitCode::kUsage,
                    {"--launcher 'mpirun -np {rank}'", "unknown placeholder {rank}", "{ranks}"});
}

TEST(LauncherTemplate, RefusesATemplateWithoutTheCount) {
  test::ExpectError([] { LauncherTemplate::Parse("mpirun -N {hosts}"); }, ExitCode::kUsage,
                    {"no {ranks}"});
  test::ExpectError([] { LauncherTemplate::Parse("mpirun -np 4"); }, ExitCode::kUsage,
                    {"no {ranks}"});
}

TEST(LauncherTemplate, RefusesEmptyAndUnclosedTemplates) {
  test::ExpectError([] { LauncherTemplate::Parse("  "); }, ExitCode::kUsage, {"empty"});
  test::ExpectError([] { LauncherTemplate::Parse("mpirun -np {ranks"); }, ExitCode::kUsage,
                    {"unclosed '{'"});
  test::ExpectError([] { LauncherTemplate::Parse("mpirun -np {ranks} 'x"); }, ExitCode::kUsage,
                    {"unclosed quote"});
}

TEST(LauncherCheck, RefusesAProgramThatIsNotInstalled) {
  test::ExpectError(
      [] { CheckLauncher("dlbench-no-such-launcher", "dlbench-no-such-launcher {ranks}"); },
      ExitCode::kUsage, {"'dlbench-no-such-launcher' is not an executable file found in PATH"});
  test::ExpectError([] { CheckLauncher("/nonexistent/mpirun", "/nonexistent/mpirun {ranks}"); },
                    ExitCode::kUsage, {"'/nonexistent/mpirun' is not an executable file"});
  CheckLauncher("sh", "sh {ranks}");  // found in PATH
}

}  // namespace
}  // namespace dlbench::sweep
