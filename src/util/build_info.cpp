#include "util/build_info.h"

#include "util/git_commit.h"  // generated at build time (cmake/GitCommit.cmake)

namespace dlbench::build {

const BuildInfo& Info() {
  static const BuildInfo info{DLBENCH_VERSION, DLBENCH_GIT_COMMIT, DLBENCH_COMPILER,
                              DLBENCH_BUILD_TYPE};
  return info;
}

std::string Description() {
  const BuildInfo& info = Info();
  std::string commit = info.git_commit;
  const std::size_t dirty = commit.find("-dirty");
  if (commit != "unknown") {
    commit = commit.substr(0, 12) + (dirty == std::string::npos ? "" : "-dirty");
  }
  return std::string("dlbench ") + info.version + " (git " + commit + ", " + info.compiler + ", " +
         info.build_type + ")";
}

}  // namespace dlbench::build
