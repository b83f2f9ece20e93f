#include "util/path_text.h"

#include <array>
#include <cstdlib>
#include <filesystem>

namespace dlbench {

namespace fs = std::filesystem;

std::string TrimTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string JoinPath(const std::string& folder, std::string_view name) {
  std::string path = folder;
  if (!path.empty() && path.back() != '/') path.push_back('/');
  path.append(name);
  return path;
}

std::size_t BaseNameStart(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? 0 : slash + 1;
}

std::string BaseName(const std::string& path) {
  const std::string trimmed = TrimTrailingSlashes(path);
  return trimmed.substr(BaseNameStart(trimmed));
}

std::string_view ParentFolder(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return path.substr(0, slash == 0 ? 1 : slash);
}

std::string AbsoluteFolder(const std::string& path) {
  return TrimTrailingSlashes(fs::absolute(path).lexically_normal().string());
}

std::string ResolvedFolder(const std::string& path) {
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path), error);
  return error ? AbsoluteFolder(path) : TrimTrailingSlashes(resolved.lexically_normal().string());
}

bool FolderContains(std::string_view folder, std::string_view path) {
  if (path.compare(0, folder.size(), folder) != 0) return false;
  return path.size() == folder.size() || folder == "/" || path[folder.size()] == '/';
}

bool IsSymbolicLink(const std::string& path) {
  std::error_code error;
  return fs::is_symlink(fs::symlink_status(path, error));
}

std::string UnsafeFolderReason(const std::string& folder) {
  // std::filesystem::absolute("") throws: `--output ""` ended in an internal error (exit 1).
  if (folder.empty()) return "'' is an empty path";
  static const std::array<const char*, 12> kSystem = {"/",     "/bin", "/boot", "/dev",
                                                      "/etc",  "/lib", "/proc", "/root",
                                                      "/sbin", "/sys", "/usr",  "/var"};
  const std::string resolved = ResolvedFolder(folder);
  const std::string is = resolved == AbsoluteFolder(folder)
                             ? "'" + folder + "' is "
                             : "'" + folder + "' resolves to " + resolved + ", ";
  if (const char* home = std::getenv("HOME"); home && *home && resolved == ResolvedFolder(home)) {
    return is + "the home folder";
  }
  for (const char* system : kSystem) {
    if (resolved == system) return is + "a system folder";
  }
  return {};
}

}  // namespace dlbench
