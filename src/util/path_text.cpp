#include "util/path_text.h"

#include <array>
#include <cctype>
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

std::string_view UriScheme(std::string_view path) {
  if (path.empty() || !std::isalpha(static_cast<unsigned char>(path[0]))) return {};
  std::size_t i = 1;
  while (i < path.size() && (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '+' ||
                             path[i] == '-' || path[i] == '.')) {
    ++i;
  }
  return path.substr(i).starts_with("://") ? path.substr(0, i) : std::string_view();
}

std::optional<UriParts> SplitUri(std::string_view path) {
  const std::string_view scheme = UriScheme(path);
  if (scheme.empty()) return std::nullopt;
  const std::string_view rest = path.substr(scheme.size() + 3);
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return UriParts{scheme, rest, {}};
  return UriParts{scheme, rest.substr(0, slash), rest.substr(slash + 1)};
}

namespace {

// "scheme://authority": the root of a URI, which no parent or ".." climbs above.
std::string_view UriRoot(std::string_view path, const UriParts& uri) {
  return path.substr(0, uri.scheme.size() + 3 + uri.authority.size());
}

}  // namespace

std::string_view ParentFolder(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (const std::optional<UriParts> uri = SplitUri(path)) {
    const std::string_view root = UriRoot(path, *uri);
    const std::size_t slash = path.rfind('/');
    return slash < root.size() ? root : path.substr(0, slash);
  }
  const std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return path.substr(0, slash == 0 ? 1 : slash);
}

std::string AbsoluteFolder(const std::string& path) {
  if (const std::optional<UriParts> uri = SplitUri(path)) {
    // The key made normal as an absolute path would be, so that ".." stops at the root.
    const std::string key = fs::path("/" + std::string(uri->key)).lexically_normal().string();
    return std::string(UriRoot(path, *uri)) + TrimTrailingSlashes(key == "/" ? "" : key);
  }
  return TrimTrailingSlashes(fs::absolute(path).lexically_normal().string());
}

std::string ResolvedFolder(const std::string& path) {
  if (IsUri(path)) return AbsoluteFolder(path);
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path), error);
  return error ? AbsoluteFolder(path) : TrimTrailingSlashes(resolved.lexically_normal().string());
}

bool FolderContains(std::string_view folder, std::string_view path) {
  if (path.compare(0, folder.size(), folder) != 0) return false;
  return path.size() == folder.size() || folder == "/" || path[folder.size()] == '/';
}

std::optional<std::string_view> PathBelow(std::string_view folder, std::string_view path) {
  if (!FolderContains(folder, path)) return std::nullopt;
  std::string_view below = path.substr(folder.size());
  while (!below.empty() && below.front() == '/') below.remove_prefix(1);
  return below;
}

std::size_t DeepestFolderHolding(std::span<const std::string> folders, std::string_view path) {
  std::size_t best = std::string_view::npos;
  for (std::size_t i = 0; i < folders.size(); ++i) {
    if (FolderContains(folders[i], path) &&
        (best == std::string_view::npos || folders[i].size() > folders[best].size())) {
      best = i;
    }
  }
  return best;
}

std::string UnsafeFolderReason(const std::string& folder) {
  // std::filesystem::absolute("") throws: `--output ""` ended in an internal error (exit 1).
  if (folder.empty()) return "'' is an empty path";
  if (const std::optional<UriParts> uri = SplitUri(folder)) {
    if (uri->authority.empty()) {
      return "'" + folder + "' names no " + std::string(uri->scheme) + " bucket or host";
    }
    return {};
  }
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
