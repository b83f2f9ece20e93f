#pragma once

namespace dlbench::app {

// The whole `dlbench` program: command line, MPI set-up for the commands that need it
// (commands.h), error reporting. Returns the exit code.
int Main(int argc, char** argv);

}  // namespace dlbench::app
