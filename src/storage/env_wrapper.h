// Bases for Env and file wrappers (after leveldb's EnvWrapper; readable, writable and shared
// files): each forwards every method to its target, so a wrapper (counting, throttling, tiers,
// fault injection, a test's recorder) overrides only what it changes, and a method added to Env or
// to a file reaches every wrapper's target without touching the wrapper. A wrapper that must see
// every operation (to count or to fail it) overrides each one, Env::create_for_publish,
// Env::open_mapped and WritableFile::publish/abandon included; its tests prove it does. Publishing
// is forwarded like everything else, so a wrapper never changes how the target publishes (which
// system calls a run makes does not depend on the wrappers: tracing, counting, tiers, faults).
// A wrapper forwards Env::capabilities too; one that takes a capability away (it cannot pass an
// operation through) overrides it and clears that capability.
//
// An EnvWrapper refers to its target Env, which must outlive it. A file wrapper owns its target
// file. Wrappers keep the thread-safety contract of storage/file.h.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "storage/file.h"

namespace dlbench::storage {

class EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env& target) : target_(target) {}

  Env& target() const { return target_; }

  std::unique_ptr<ReadableFile> open_read(const std::string& path,
                                          const OpenOptions& options = {}) override {
    return target_.open_read(path, options);
  }
  std::unique_ptr<ReadableFile> open_mapped(const std::string& path) override {
    return target_.open_mapped(path);
  }
  std::unique_ptr<WritableFile> create(const std::string& path,
                                       const OpenOptions& options = {}) override {
    return target_.create(path, options);
  }
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options = {}) override {
    return target_.create_for_publish(path, options);
  }
  std::unique_ptr<WritableFile> open_write(const std::string& path,
                                           const OpenOptions& options = {}) override {
    return target_.open_write(path, options);
  }
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override {
    return target_.open_shared(path, opener);
  }
  void rename(const std::string& from, const std::string& to) override { target_.rename(from, to); }
  void create_directories(const std::string& path) override { target_.create_directories(path); }
  void remove(const std::string& path) override { target_.remove(path); }
  void remove_files(const std::vector<std::string>& paths) override { target_.remove_files(paths); }
  void remove_tree(const std::string& path) override { target_.remove_tree(path); }
  std::size_t abort_pending_writes(const std::string& path) override {
    return target_.abort_pending_writes(path);
  }
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override {
    target_.for_each_entry(path, visit);
  }
  bool exists(const std::string& path) override { return target_.exists(path); }
  Bytes file_size(const std::string& path) override { return target_.file_size(path); }
  std::int64_t modified_ns(const std::string& path) override { return target_.modified_ns(path); }
  void sync_directory(const std::string& path) override { target_.sync_directory(path); }
  Bytes free_space(const std::string& path) override { return target_.free_space(path); }
  Capabilities capabilities(const std::string& path) override { return target_.capabilities(path); }
  std::vector<RequestCounts> requests() override { return target_.requests(); }

 private:
  Env& target_;
};

class ReadableFileWrapper : public ReadableFile {
 public:
  explicit ReadableFileWrapper(std::unique_ptr<ReadableFile> target) : target_(std::move(target)) {}

  ReadableFile& target() const { return *target_; }

  const std::string& path() const override { return target_->path(); }
  Bytes size() const override { return target_->size(); }
  Bytes read_at(Bytes offset, void* buffer, Bytes length) override {
    return target_->read_at(offset, buffer, length);
  }
  void drop_cache() override { target_->drop_cache(); }

 protected:
  // Destroys (closes) the target now, for a wrapper that times the close in its destructor; the
  // wrapper is unusable afterwards.
  void close_target() { target_.reset(); }

 private:
  std::unique_ptr<ReadableFile> target_;
};

class WritableFileWrapper : public WritableFile {
 public:
  explicit WritableFileWrapper(std::unique_ptr<WritableFile> target) : target_(std::move(target)) {}

  WritableFile& target() const { return *target_; }

  const std::string& path() const override { return target_->path(); }
  void write_at(Bytes offset, const void* buffer, Bytes length) override {
    target_->write_at(offset, buffer, length);
  }
  void append(const void* buffer, Bytes length) override { target_->append(buffer, length); }
  void append_gathered(std::span<const std::span<const std::byte>> pieces) override {
    target_->append_gathered(pieces);
  }
  Bytes appended() const override { return target_->appended(); }
  void truncate(Bytes size) override { target_->truncate(size); }
  void sync() override { target_->sync(); }
  void close() override { target_->close(); }
  void publish() override { target_->publish(); }
  void abandon() override { target_->abandon(); }

 private:
  std::unique_ptr<WritableFile> target_;
};

class SharedFileWrapper : public SharedFile {
 public:
  explicit SharedFileWrapper(std::unique_ptr<SharedFile> target) : target_(std::move(target)) {}

  SharedFile& target() const { return *target_; }

  const std::string& path() const override { return target_->path(); }
  void write_at_all(Bytes offset, const void* data, Bytes length) override {
    target_->write_at_all(offset, data, length);
  }
  void write_at(Bytes offset, const void* data, Bytes length) override {
    target_->write_at(offset, data, length);
  }
  Bytes read_at(Bytes offset, void* data, Bytes length) override {
    return target_->read_at(offset, data, length);
  }
  Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
    return target_->read_at_all(offset, data, length);
  }
  Bytes size() override { return target_->size(); }
  void set_size(Bytes size) override { target_->set_size(size); }
  void sync() override { target_->sync(); }
  void close() override { target_->close(); }

 private:
  std::unique_ptr<SharedFile> target_;
};

}  // namespace dlbench::storage
