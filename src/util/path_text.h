// Path names as text: the one home for joining a folder and a name, a path's parent folder and
// base name, and comparing folders (is one inside another). Plain string work where it runs per
// file (generation, checkpoints, tiers); std::filesystem only where a path is made absolute.
// All functions are pure (but AbsoluteFolder and ResolvedFolder, which read the working folder
// and, for ResolvedFolder, the filesystem) and safe to call from any thread.
//
// A path is either local ("data/train", "/lustre/proj") or a URI naming other storage
// ("s3://bucket/key": scheme "://" authority, then "/" and a key). Every function here knows
// both: a URI is never made absolute against the working folder, never resolved through the
// local file system, and its authority is its root (the parent of "s3://b/x" is "s3://b", and
// ".." never climbs above it). Folder safety (symbolic links, system folders) applies to local
// paths only.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dlbench {

// The parts of a URI "scheme://authority/key": "s3://bucket/a/b" -> {"s3", "bucket", "a/b"}.
struct UriParts {
  std::string_view scheme;     // letters, digits, '+', '-', '.', starting with a letter (RFC 3986)
  std::string_view authority;  // the bucket or host; may be empty ("s3:///x")
  std::string_view key;        // after the '/' that ends the authority; may be empty
};
// The scheme of `path` ("s3"), or empty for a local path. Looks at the leading characters only,
// and at one character of a path that starts with '/' or '.'.
std::string_view UriScheme(std::string_view path);
inline bool IsUri(std::string_view path) { return !UriScheme(path).empty(); }
// The parts of `path` when it is a URI, nullopt when it is a local path.
std::optional<UriParts> SplitUri(std::string_view path);

// `path` without trailing '/' (but "/" stays "/").
std::string TrimTrailingSlashes(std::string path);
// `folder` + "/" + `name`, without doubling a '/' `folder` already ends with.
std::string JoinPath(const std::string& folder, std::string_view name);
// Where the last component of `path` starts (after the last '/'; 0 when there is none).
std::size_t BaseNameStart(std::string_view path);
// The last component of `path`, trailing '/' ignored ("a/b/" -> "b").
std::string BaseName(const std::string& path);
// The folder holding `path`, trailing '/' ignored: "a/b" -> "a", "/b" -> "/", "b" -> ".",
// "s3://b/x" -> "s3://b", "s3://b" -> "s3://b".
std::string_view ParentFolder(std::string_view path);

// `path` made absolute against the working folder and lexically normal, without trailing '/'.
// A URI keeps its scheme and authority and has its key made lexically normal:
// "s3://b/x/../y//z/" -> "s3://b/y/z".
std::string AbsoluteFolder(const std::string& path);
// AbsoluteFolder with symbolic links resolved as far as the path exists
// (std::filesystem::weakly_canonical): where the files will really go. A URI: AbsoluteFolder.
std::string ResolvedFolder(const std::string& path);
// True when `folder` is `path` or one of its ancestors (both as AbsoluteFolder gives them).
bool FolderContains(std::string_view folder, std::string_view path);
// The part of `path` below `folder` ("" when they are equal), both as AbsoluteFolder gives them;
// nullopt when `folder` does not contain `path`.
std::optional<std::string_view> PathBelow(std::string_view folder, std::string_view path);
// The index of the deepest of `folders` (each as AbsoluteFolder gives it) that contains `path`
// (as AbsoluteFolder gives it): the longest folder prefix, compared component by component;
// npos when none does.
std::size_t DeepestFolderHolding(std::span<const std::string> folders, std::string_view path);

// Why dlbench must not write into, or delete under, `folder`: it resolves (symbolic links
// followed) to the root, a system folder (/usr, /etc, ...) or the home folder, or it is a URI
// with no authority ("s3:///x" names no bucket). The text reads "'<folder>' is a system folder"
// or "'<folder>' resolves to /usr, a system folder"; empty when the folder is fine.
std::string UnsafeFolderReason(const std::string& folder);

}  // namespace dlbench
