#include "storage/mount_table.h"

#include <iterator>
#include <utility>

#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::storage {

Env& MountTable::SchemeRouter::route(const std::string& path) {
  const std::string_view scheme = UriScheme(path);
  if (scheme.empty()) return local_;
  for (std::size_t i = 0; i < schemes_.size(); ++i) {
    if (schemes_[i] == scheme) return *envs_[i];
  }
  throw UsageError("'" + path + "' is a " + std::string(scheme) +
                   ":// URI, and no storage backend for " + std::string(scheme) +
                   ":// is mounted (this run handles " + handled() + ")");
}

bool MountTable::SchemeRouter::handles(std::string_view path) const {
  const std::string_view scheme = UriScheme(path);
  if (scheme.empty()) return true;
  for (const std::string& mounted : schemes_) {
    if (mounted == scheme) return true;
  }
  return false;
}

std::string MountTable::SchemeRouter::handled() const {
  std::string text = "local paths";
  for (std::size_t i = 0; i < schemes_.size(); ++i) {
    text += (i + 1 == schemes_.size() ? " and " : ", ") + schemes_[i] + "://";
  }
  return schemes_.empty() ? text + " only" : text + " URIs";
}

std::vector<RequestCounts> MountTable::SchemeRouter::requests() {
  std::vector<RequestCounts> all = local_.requests();
  for (Env* env : envs_) {
    std::vector<RequestCounts> more = env->requests();
    all.insert(all.end(), std::make_move_iterator(more.begin()),
               std::make_move_iterator(more.end()));
  }
  return all;
}

void MountTable::SchemeRouter::add(const std::string& scheme, Env& env) {
  if (UriScheme(scheme + "://") != scheme) {
    throw InternalError("mount: '" + scheme + "' is not a URI scheme");
  }
  for (const std::string& mounted : schemes_) {
    if (mounted == scheme) throw InternalError("mount: " + scheme + ":// is mounted twice");
  }
  schemes_.push_back(scheme);
  envs_.push_back(&env);
}

// --- the table ---

MountTable::MountTable(Env& local) : schemes_(local) {}

void MountTable::mount_scheme(const std::string& scheme, Env& env) { schemes_.add(scheme, env); }

void MountTable::mount_scheme(const std::string& scheme, std::unique_ptr<Env> env) {
  mount_scheme(scheme, *env);
  owned_.push_back(std::move(env));
}

void MountTable::mount_folder(const std::string& folder, Env& env) {
  std::string normal = AbsoluteFolder(folder);
  for (const std::string& mounted : folders_) {
    if (mounted == normal) throw InternalError("mount: folder '" + folder + "' is mounted twice");
  }
  folders_.push_back(std::move(normal));
  folder_envs_.push_back(&env);
}

void MountTable::mount_folder(const std::string& folder, std::unique_ptr<Env> env) {
  mount_folder(folder, *env);
  owned_.push_back(std::move(env));
}

std::size_t MountTable::folder_of(const std::string& path) const {
  if (folders_.empty()) return std::string::npos;
  return DeepestFolderHolding(folders_, AbsoluteFolder(path));
}

Env& MountTable::route(const std::string& path) {
  const std::size_t folder = folder_of(path);
  return folder != std::string::npos ? *folder_envs_[folder] : schemes_.route(path);
}

// --- RoutingEnv ---

std::unique_ptr<ReadableFile> RoutingEnv::open_read(const std::string& path,
                                                    const OpenOptions& options) {
  return route(path).open_read(path, options);
}

std::unique_ptr<ReadableFile> RoutingEnv::open_mapped(const std::string& path) {
  return route(path).open_mapped(path);
}

std::unique_ptr<WritableFile> RoutingEnv::create(const std::string& path,
                                                 const OpenOptions& options) {
  return route(path).create(path, options);
}

std::unique_ptr<WritableFile> RoutingEnv::create_for_publish(const std::string& path,
                                                             const PublishOptions& options) {
  return route(path).create_for_publish(path, options);
}

std::unique_ptr<WritableFile> RoutingEnv::open_write(const std::string& path,
                                                     const OpenOptions& options) {
  return route(path).open_write(path, options);
}

std::unique_ptr<SharedFile> RoutingEnv::open_shared(const std::string& path,
                                                    SharedFileOpener& opener) {
  return route(path).open_shared(path, opener);
}

void RoutingEnv::rename(const std::string& from, const std::string& to) {
  route(to).rename(from, to);
}

void RoutingEnv::create_directories(const std::string& path) {
  route(path).create_directories(path);
}

void RoutingEnv::remove(const std::string& path) { route(path).remove(path); }

void RoutingEnv::remove_files(const std::vector<std::string>& paths) {
  // Each run of paths one backend holds goes to it at once.
  std::vector<std::string> run;
  Env* backend = nullptr;
  for (const std::string& path : paths) {
    Env& holder = route(path);
    if (&holder != backend && !run.empty()) {
      backend->remove_files(run);
      run.clear();
    }
    backend = &holder;
    run.push_back(path);
  }
  if (!run.empty()) backend->remove_files(run);
}

void RoutingEnv::remove_tree(const std::string& path) { route(path).remove_tree(path); }

std::size_t RoutingEnv::abort_pending_writes(const std::string& path) {
  return route(path).abort_pending_writes(path);
}

void RoutingEnv::for_each_entry(const std::string& path, const EntryVisitor& visit) {
  route(path).for_each_entry(path, visit);
}

bool RoutingEnv::exists(const std::string& path) { return route(path).exists(path); }

Bytes RoutingEnv::file_size(const std::string& path) { return route(path).file_size(path); }

std::int64_t RoutingEnv::modified_ns(const std::string& path) {
  return route(path).modified_ns(path);
}

void RoutingEnv::sync_directory(const std::string& path) { route(path).sync_directory(path); }

Bytes RoutingEnv::free_space(const std::string& path) { return route(path).free_space(path); }

Capabilities RoutingEnv::capabilities(const std::string& path) {
  return route(path).capabilities(path);
}

}  // namespace dlbench::storage
