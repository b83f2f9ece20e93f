// Commands that do no parallel work never initialise MPI (app/commands.h): `dlbench --version`
// must not pay a third of a second of MPI start-up. Main() runs in the test process and the
// communicator layer says afterwards whether MPI_Init ever ran. ctest runs every test in a process
// of its own (gtest_discover_tests), so each starts with MPI untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/dlbench_main.h"
#include "mpi/communicator.h"
#include "mpi/launch.h"

namespace dlbench::app {
namespace {

int RunMain(std::vector<std::string> args) {
  std::string program = "dlbench";
  std::vector<char*> argv{program.data()};
  for (std::string& arg : args) argv.push_back(arg.data());
  const int argc = static_cast<int>(argv.size());
  argv.push_back(nullptr);
  return Main(argc, argv.data());
}

struct Case {
  std::vector<std::string> args;
  int code;
};

TEST(Startup, CommandsWithoutParallelWorkNeverInitialiseMpi) {
  ASSERT_FALSE(mpi::Session::Started());
  const std::vector<Case> cases = {
      {{"--version"}, 0},
      {{"--help"}, 0},
      {{"run", "--help"}, 0},
      {{"workloads"}, 0},
      {{"config", "show", "default"}, 0},
      {{"config", "query", "default", "reader.batch_size"}, 0},
      {{"checkpoint", "plan", "default"}, 0},
      // Errors too: a bad workload, a missing subcommand, an unknown one, a parallel command
      // whose arguments do not parse (they are refused before MPI starts).
      {{"config", "show", "no_such_workload"}, 2},
      {{}, 2},
      {{"frobnicate"}, 2},
      {{"train"}, 2},
  };
  for (const Case& c : cases) {
    const std::string line = testing::PrintToString(c.args);
    EXPECT_EQ(RunMain(c.args), c.code) << line;
    EXPECT_FALSE(mpi::Session::Started()) << line << " initialised MPI";
  }
}

TEST(Startup, ParallelCommandsInitialiseMpi) {
  ASSERT_FALSE(mpi::Session::Started());
  // `checkpoint drain` is parallel; the default workload has no burst buffer, so it ends with a
  // usage error after loading the configuration on every rank.
  EXPECT_EQ(RunMain({"checkpoint", "drain", "default"}), 2);
  EXPECT_TRUE(mpi::Session::Started());
}

TEST(Startup, LocalCommunicatorNeedsNoMpi) {
  const mpi::Communicator local = mpi::Communicator::Local();
  EXPECT_FALSE(local.uses_mpi());
  EXPECT_EQ(local.rank(), 0);
  EXPECT_EQ(local.size(), 1);
  local.barrier();
  local.step_barrier(1e-4, 2e-5);
  EXPECT_EQ(local.max(2.5), 2.5);
  EXPECT_EQ(local.max(std::vector<double>{1.5, -2.0}), (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(local.sum(std::uint64_t{7}), 7u);
  EXPECT_EQ(local.min(-3), -3);
  EXPECT_EQ(local.all_gather(1.5), std::vector<double>{1.5});
  EXPECT_EQ(local.broadcast("x"), "x");
  EXPECT_EQ(local.ranks_on_this_node(), 1);
  EXPECT_THROW(static_cast<void>(local.fortran_handle()), Error);
  EXPECT_FALSE(mpi::Session::Started());
}

TEST(Startup, LaunchFromEnvironment) {
  for (const char* name :
       {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    unsetenv(name);
  }
  EXPECT_EQ(mpi::LaunchFromEnvironment().rank, 0);
  EXPECT_EQ(mpi::LaunchFromEnvironment().size, 1);
  setenv("PMI_RANK", "2", 1);
  setenv("PMI_SIZE", "4", 1);
  EXPECT_EQ(mpi::LaunchFromEnvironment().rank, 2);
  EXPECT_EQ(mpi::LaunchFromEnvironment().size, 4);
  setenv("OMPI_COMM_WORLD_RANK", "1", 1);  // Open MPI's wins
  setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
  EXPECT_EQ(mpi::LaunchFromEnvironment().rank, 1);
  EXPECT_EQ(mpi::LaunchFromEnvironment().size, 3);
  setenv("OMPI_COMM_WORLD_RANK", "x1", 1);  // not a number: ignored
  setenv("OMPI_COMM_WORLD_SIZE", "-3", 1);
  EXPECT_EQ(mpi::LaunchFromEnvironment().rank, 2);
  EXPECT_EQ(mpi::LaunchFromEnvironment().size, 4);
  for (const char* name :
       {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE"}) {
    unsetenv(name);
  }
  EXPECT_FALSE(mpi::Session::Started());
}

}  // namespace
}  // namespace dlbench::app
