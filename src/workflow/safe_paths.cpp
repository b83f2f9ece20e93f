#include "workflow/safe_paths.h"

#include <array>
#include <cstdlib>

#include "util/error.h"

namespace dlbench::workflow {

void RefuseDangerousFolder(const std::filesystem::path& folder, const std::string& what) {
  const std::filesystem::path absolute =
      std::filesystem::weakly_canonical(std::filesystem::absolute(folder));
  static const std::array<const char*, 12> kSystem = {
      "/", "/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/root", "/sbin", "/sys", "/usr",
      "/var"};
  for (const char* system : kSystem) {
    if (absolute == std::filesystem::path(system)) {
      throw UsageError(what + " '" + folder.string() + "' resolves to " + absolute.string() +
                       ", a system folder; refusing to use it. Choose a dedicated folder.");
    }
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    if (absolute == std::filesystem::weakly_canonical(home)) {
      throw UsageError(what + " '" + folder.string() +
                       "' is the home folder; refusing to use it. Choose a dedicated folder.");
    }
  }
}

}  // namespace dlbench::workflow
