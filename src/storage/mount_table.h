// The one place that decides which storage holds a path: an Env that sends every operation to the
// Env mounted for its path, by URI scheme and then by folder prefix.
// - A local path ("data/train", "/lustre/proj/x") goes to the local Env: storage::PosixEnv() in
//   a run (which DLBENCH_FAULTS may wrap).
// - A URI ("s3://bucket/key") goes to the Env mounted for its scheme (mount_scheme); a scheme
//   nothing is mounted for is refused (Error(kUsage) naming the path and what is mounted), never
//   taken for a local folder named "s3:".
// - Over both, folders may be mounted (mount_folder: a local folder or a URI prefix): a path under
//   one goes to its Env, the deepest folder winning (longest prefix, compared component by
//   component after util/path_text.h AbsoluteFolder). Storage tiers are mounted so
//   (storage/tier_env.h): their Env wraps `schemes()`, the table's routing by scheme alone.
// The run's table is built once from the configuration (workflow/run_storage.h). A lookup is
// made per operation on a path (open, create, list, ...), never per read or write of an open file:
// for a local path with no folder mounted it costs the scan of its leading characters for a
// scheme (one character for a path starting with '/').
//
// Mounting is not thread-safe: mount everything before the table is used. Lookups and the
// operations they route are (storage/file.h's contract). The table owns the Envs mounted as
// unique_ptr; an Env mounted by reference must outlive the table, which must outlive its files.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/file.h"

namespace dlbench::storage {

// An Env that sends every operation on a path to the Env route(path) gives (a rename to its
// destination's). The base of MountTable and of its routing by scheme.
class RoutingEnv : public Env {
 public:
  // The Env holding `path`.
  virtual Env& route(const std::string& path) = 0;

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override;
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override;
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override;
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options = {}) override;
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override;
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override;
  // Sent to the Env of the destination (a rename between two backends fails in it).
  void rename(const std::string& from, const std::string& to) override;
  void create_directories(const std::string& path) override;
  void remove(const std::string& path) override;
  void remove_files(const std::vector<std::string>& paths) override;
  void remove_tree(const std::string& path) override;
  std::size_t abort_pending_writes(const std::string& path) override;
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;
  std::int64_t modified_ns(const std::string& path) override;
  void sync_directory(const std::string& path) override;
  Bytes free_space(const std::string& path) override;
  // Those of the Env holding `path`.
  Capabilities capabilities(const std::string& path) override;
};

class MountTable : public RoutingEnv {
 public:
  explicit MountTable(Env& local);
  MountTable(const MountTable&) = delete;
  MountTable& operator=(const MountTable&) = delete;

  // Paths "<scheme>://..." go to `env`. Throws InternalError when the scheme is not one
  // (util/path_text.h UriScheme) or is mounted already.
  void mount_scheme(const std::string& scheme, Env& env);
  void mount_scheme(const std::string& scheme, std::unique_ptr<Env> env);
  // Paths under `folder` go to `env`. Throws InternalError when the folder is mounted already. A
  // folder may be a URI prefix whose scheme is mounted later (routing happens per operation).
  void mount_folder(const std::string& folder, Env& env);
  void mount_folder(const std::string& folder, std::unique_ptr<Env> env);

  // True when a backend holds `path`: a local path, or a URI whose scheme is mounted.
  bool handles(std::string_view path) const { return schemes_.handles(path); }
  // What the table handles, for messages: "local paths only" or "local paths and s3:// URIs".
  std::string handled() const { return schemes_.handled(); }
  // The Env holding `path` (the deepest folder mount's, else its scheme's). Error(kUsage) naming
  // the path and handled() when no backend holds it.
  Env& route(const std::string& path) override;
  // The index (in mounting order) of the deepest mounted folder holding `path`, or npos.
  std::size_t folder_of(const std::string& path) const;
  // The table routing by scheme alone (no folder mounts): what a folder mount's Env wraps.
  Env& schemes() { return schemes_; }
  // Those of the local Env and of each scheme's Env (a folder mount wraps one of them).
  std::vector<RequestCounts> requests() override { return schemes_.requests(); }

 private:
  // Local paths to the local Env, URIs to their scheme's Env.
  class SchemeRouter final : public RoutingEnv {
   public:
    explicit SchemeRouter(Env& local) : local_(local) {}
    Env& route(const std::string& path) override;
    bool handles(std::string_view path) const;
    std::string handled() const;
    void add(const std::string& scheme, Env& env);
    std::vector<RequestCounts> requests() override;

   private:
    Env& local_;
    std::vector<std::string> schemes_;  // parallel to envs_
    std::vector<Env*> envs_;
  };

  SchemeRouter schemes_;
  std::vector<std::string> folders_;  // AbsoluteFolder of each mounted folder
  std::vector<Env*> folder_envs_;     // parallel to folders_
  std::vector<std::unique_ptr<Env>> owned_;
};

}  // namespace dlbench::storage
