// What a results reader needs to know of the dlbench that wrote the results: its version, the
// git commit it was built from, the compiler and the build type. Shown by `dlbench --version`,
// written into summary.json (`dlbench`) and into dlio.log's second line.
#pragma once

#include <string>

namespace dlbench::build {

struct BuildInfo {
  const char* version;     // the project's version, "0.1.0"
  const char* git_commit;  // "<40 hex digits>", "...-dirty" (uncommitted changes), or "unknown"
  const char* compiler;    // "GNU 12.2.0"
  const char* build_type;  // CMAKE_BUILD_TYPE: "Release", "Debug", ...
};

const BuildInfo& Info();

// "dlbench 0.1.0 (git 03163e7c1a2b, GNU 12.2.0, Release)": the commit shortened to 12 digits.
std::string Description();

}  // namespace dlbench::build
