// Path names as text: the one home for joining a folder and a name, a path's parent folder and
// base name, and comparing folders (is one inside another). Plain string work where it runs per
// file (generation, checkpoints, tiers); std::filesystem only where a path is made absolute.
// All functions are pure (but AbsoluteFolder and ResolvedFolder, which read the working folder
// and, for ResolvedFolder, the filesystem) and safe to call from any thread.
#pragma once

#include <string>
#include <string_view>

namespace dlbench {

// `path` without trailing '/' (but "/" stays "/").
std::string TrimTrailingSlashes(std::string path);
// `folder` + "/" + `name`, without doubling a '/' `folder` already ends with.
std::string JoinPath(const std::string& folder, std::string_view name);
// Where the last component of `path` starts (after the last '/'; 0 when there is none).
std::size_t BaseNameStart(std::string_view path);
// The last component of `path`, trailing '/' ignored ("a/b/" -> "b").
std::string BaseName(const std::string& path);
// The folder holding `path`, trailing '/' ignored: "a/b" -> "a", "/b" -> "/", "b" -> ".".
std::string_view ParentFolder(std::string_view path);

// `path` made absolute against the working folder and lexically normal, without trailing '/'.
std::string AbsoluteFolder(const std::string& path);
// AbsoluteFolder with symbolic links resolved as far as the path exists
// (std::filesystem::weakly_canonical): where the files will really go.
std::string ResolvedFolder(const std::string& path);
// True when `folder` is `path` or one of its ancestors (both as AbsoluteFolder gives them).
bool FolderContains(std::string_view folder, std::string_view path);

// True when `path` is a symbolic link (to anything, or to nothing); false when it is absent.
bool IsSymbolicLink(const std::string& path);

// Why dlbench must not write into, or delete under, `folder`: it resolves (symbolic links
// followed) to the root, a system folder (/usr, /etc, ...) or the home folder. The text reads
// "'<folder>' is a system folder" or "'<folder>' resolves to /usr, a system folder"; empty when
// the folder is fine.
std::string UnsafeFolderReason(const std::string& folder);

}  // namespace dlbench
