#pragma once

namespace dlbench::app {

// The whole `dlbench` program: MPI set-up, command line, error reporting. Returns the exit code.
int Main(int argc, char** argv);

}  // namespace dlbench::app
