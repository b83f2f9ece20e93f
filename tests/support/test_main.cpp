// gtest main for dlbench unit tests. MPI is initialised lazily, only by tests that ask for a
// communicator (test::World()), so most unit tests never pay for MPI start-up.
#include <gtest/gtest.h>

#include <memory>

#include "mpi/communicator.h"
#include "support/test_support.h"

namespace dlbench::test {
namespace {
std::unique_ptr<mpi::Session> g_session;
int g_argc = 0;
char** g_argv = nullptr;
}  // namespace

mpi::Communicator World() {
  if (!g_session) g_session = std::make_unique<mpi::Session>(&g_argc, &g_argv);
  return g_session->world();
}

}  // namespace dlbench::test

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  dlbench::test::g_argc = argc;
  dlbench::test::g_argv = argv;
  const int result = RUN_ALL_TESTS();
  dlbench::test::g_session.reset();
  return result;
}
