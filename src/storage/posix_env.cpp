// PosixEnv: the Env every real run uses.
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/fault_environment.h"
#include "storage/file.h"
#include "storage/mapped_file.h"
#include "storage/posix_file.h"
#include "storage/raw_syscalls.h"
#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::storage {
namespace {

constexpr const char* kDirectUnsupported =
    "O_DIRECT is not supported by the file system of this path (e.g. tmpfs on older kernels); "
    "use a path on a file system that supports it, or turn odirect off";

int OpenRetrying(const std::string& path, int flags, mode_t mode = 0644) {
  int fd;
  do {
    fd = RawOpen(path.c_str(), flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Opens the buffered descriptor with `flags` and, when asked, a second O_DIRECT one on the same
// file (without O_CREAT/O_TRUNC, which the first open already applied). `pending` and
// `final_path`: a file created for publishing under its partial name `path`.
std::unique_ptr<WritableFile> OpenForWriting(
    const std::string& path, int flags, const OpenOptions& options,
    PosixWritableFile::Pending pending = PosixWritableFile::Pending::kNo,
    const std::string& final_path = {}) {
  const bool existed = options.direct && PathExists(path);
  const int fd = OpenRetrying(path, flags);
  if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW) != 0) {
    throw IoError("open for writing", path, errno,
                  "it is a symbolic link, which dlbench does not write through; remove it");
  }
  if (fd < 0) throw IoError("open for writing", path, errno);
  int direct_fd = -1;
  if (options.direct) {
    direct_fd = OpenRetrying(path, O_WRONLY | O_DIRECT);
    if (direct_fd < 0) {
      const int error = errno;
      ::close(fd);
      if (!existed) ::unlink(path.c_str());
      if (error == EINVAL) throw IoError("open (O_DIRECT)", path, error, kDirectUnsupported);
      throw IoError("open (O_DIRECT)", path, error);
    }
  }
  return std::make_unique<PosixWritableFile>(path, fd, direct_fd, pending, final_path);
}

// Env::for_each_entry on POSIX: readdir's order, one entry held at a time.
void ForEachEntry(const std::string& path, const Env::EntryVisitor& visit) {
  const std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(path.c_str()), ::closedir);
  if (!dir) {
    if (errno == ENOENT) return;
    throw IoError("list", path, errno);
  }
  DirectoryEntry entry;
  while (true) {
    errno = 0;
    const dirent* found = ::readdir(dir.get());
    if (found == nullptr) break;
    if (std::strcmp(found->d_name, ".") == 0 || std::strcmp(found->d_name, "..") == 0) continue;
    entry.name = found->d_name;
    entry.is_directory = found->d_type == DT_DIR;
    entry.is_symlink = found->d_type == DT_LNK;
    if (found->d_type == DT_UNKNOWN) {  // file systems that do not fill d_type
      struct stat st {};
      entry.is_symlink =
          ::fstatat(::dirfd(dir.get()), found->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode);
      entry.is_directory = !entry.is_symlink && S_ISDIR(st.st_mode);
    }
    if (entry.is_symlink) {
      // Follows the link; one that points nowhere is not a folder.
      struct stat st {};
      entry.is_directory =
          ::fstatat(::dirfd(dir.get()), found->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
    }
    if (!visit(entry)) return;
  }
  if (errno != 0) throw IoError("list", path, errno);
}

void RemoveTree(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw IoError("remove", path, errno);
  }
  if (S_ISDIR(st.st_mode)) {
    ForEachEntry(path, [&](const DirectoryEntry& entry) {
      RemoveTree(path + "/" + entry.name);
      return true;
    });
    if (::rmdir(path.c_str()) != 0 && errno != ENOENT) throw IoError("remove folder", path, errno);
  } else if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw IoError("remove", path, errno);
  }
}

class PosixEnvImpl final : public Env {
 public:
  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options) override {
    // O_NONBLOCK: a FIFO (or device) standing where a file should be opens at once instead of
    // waiting for a writer, and its reads then fail; it changes nothing for regular files.
    const int fd = OpenRetrying(path, O_RDONLY | O_NONBLOCK | (options.direct ? O_DIRECT : 0));
    if (fd < 0) {
      if (options.direct && errno == EINVAL) {
        throw IoError("open (O_DIRECT)", path, errno, kDirectUnsupported);
      }
      throw IoError("open for reading", path, errno);
    }
    return std::make_unique<PosixReadableFile>(path, fd, options.direct);
  }

  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override {
    return std::make_unique<MappedReadableFile>(path);
  }

  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options) override {
    // O_NOFOLLOW: a symbolic link under a name dlbench writes is never written through (the
    // file it points to is not dlbench's); the open fails with ELOOP instead.
    return OpenForWriting(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, options);
  }

  // Without a name (O_TMPFILE, linked into place by publish) where it can: one create and one
  // link per file instead of a create of the partial name and a rename, and nothing left behind
  // by a crash. Otherwise under the partial name, renamed by publish: when asked to
  // (partial_name, reuse), for O_DIRECT (which would need a second descriptor opened by name),
  // without /proc/self/fd to link through, or where the file system or kernel has no unnamed
  // files.
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options) override {
    static const bool proc = ::access("/proc/self/fd", X_OK) == 0;
    if (proc && !options.direct && !options.partial_name && !options.reuse) {
      const std::string folder(ParentFolder(path));
      const int fd = OpenRetrying(folder, O_WRONLY | O_TMPFILE);
      if (fd >= 0) {
        return std::make_unique<PosixWritableFile>(path, fd, -1,
                                                   PosixWritableFile::Pending::kUnnamed);
      }
      // EOPNOTSUPP: the file system has no unnamed files; EISDIR: the kernel does not know
      // O_TMPFILE (it read O_DIRECTORY); EINVAL: either, as some file systems say it.
      if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        throw IoError("open for writing", path, errno, "an unnamed file in " + folder);
      }
    }
    // O_NOFOLLOW as create's; reuse opens the earlier copy without truncating it.
    const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | (options.reuse ? 0 : O_TRUNC);
    return OpenForWriting(PartialPathFor(path), flags, options.open(),
                          PosixWritableFile::Pending::kPartial, path);
  }

  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options) override {
    // O_CREAT without O_TRUNC: ranks sharing a file may open it in any order.
    return OpenForWriting(path, O_WRONLY | O_CREAT | O_NOFOLLOW, options);
  }

  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override {
    return opener.open(path);
  }

  void rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) throw IoError("rename", from, errno, "to " + to);
  }

  void create_directories(const std::string& path) override {
    std::filesystem::path prefix;
    for (const auto& part : std::filesystem::path(path)) {
      prefix /= part;
      const std::string current = prefix.string();
      if (part.empty() || current == "/" || part == "." || part == "..") continue;
      if (::mkdir(current.c_str(), 0755) == 0) continue;
      const int error = errno;
      struct stat st {};
      if (error == EEXIST && ::stat(current.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) continue;
        throw IoError("mkdir", current, ENOTDIR, "exists and is not a directory");
      }
      throw IoError("mkdir", current, error);
    }
  }

  void remove(const std::string& path) override {
    if (::unlink(path.c_str()) == 0) return;
    if (errno == ENOENT) return;
    if (errno == EISDIR || errno == EPERM) {
      if (::rmdir(path.c_str()) == 0 || errno == ENOENT) return;
    }
    throw IoError("remove", path, errno);
  }

  void remove_tree(const std::string& path) override { RemoveTree(path); }

  void for_each_entry(const std::string& path, const EntryVisitor& visit) override {
    ForEachEntry(path, visit);
  }

  bool exists(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return true;
    if (errno == ENOENT || errno == ENOTDIR) return false;
    throw IoError("stat", path, errno);
  }

  Bytes file_size(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw IoError("stat", path, errno);
    // A FIFO's size (0) compared with a data file's would pass for a file to rewrite, or, where
    // the size is not predictable, for a complete one (generation kept it).
    RequireRegularFile(st.st_mode, "stat", path);
    return static_cast<Bytes>(st.st_size);
  }

  std::int64_t modified_ns(const std::string& path) override {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw IoError("stat", path, errno);
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  }

  void sync_directory(const std::string& path) override {
    const int fd = OpenRetrying(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0) throw IoError("open directory", path, errno);
    while (::fsync(fd) != 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      throw IoError("fsync directory", path, error);
    }
    ::close(fd);
  }

  Bytes free_space(const std::string& path) override {
    struct statvfs st {};
    if (::statvfs(path.c_str(), &st) != 0) throw IoError("statvfs", path, errno);
    return static_cast<Bytes>(st.f_bavail) * static_cast<Bytes>(st.f_frsize);
  }

  // All of them; `memory` from the file system of the path, or of its nearest existing folder.
  Capabilities capabilities(const std::string& path) override {
    Capabilities can;
    std::string at = path.empty() ? "." : path;
    struct statfs st {};
    while (::statfs(at.c_str(), &st) != 0) {
      if (errno != ENOENT && errno != ENOTDIR) return can;
      std::string parent(ParentFolder(at));
      if (parent == at) return can;
      at = std::move(parent);
    }
    can.memory = st.f_type == TMPFS_MAGIC || st.f_type == RAMFS_MAGIC;
    return can;
  }
};

}  // namespace

Env& BarePosixEnv() {
  static PosixEnvImpl env;
  return env;
}

Env& PosixEnv() {
  if (FaultInjectionEnv* faults = ArmedFaults()) return *faults;
  return BarePosixEnv();
}

}  // namespace dlbench::storage
