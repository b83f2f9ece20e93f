#include "storage/env_wrapper.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "memory_shared_file.h"

namespace dlbench::storage {
namespace {

// A target that records every call it receives, by method name and path.
class Recorder final : public Env {
 public:
  std::vector<std::string> calls;

  class File final : public ReadableFile, public WritableFile {
   public:
    File(std::string path, std::vector<std::string>& calls)
        : path_(std::move(path)), calls_(calls) {}
    const std::string& path() const override { return path_; }
    Bytes size() const override {
      calls_.push_back("size");
      return 7;
    }
    Bytes read_at(Bytes, void*, Bytes length) override {
      calls_.push_back("read_at");
      return length;
    }
    void drop_cache() override { calls_.push_back("drop_cache"); }
    void write_at(Bytes, const void*, Bytes) override { calls_.push_back("write_at"); }
    void append(const void*, Bytes) override { calls_.push_back("append"); }
    Bytes appended() const override {
      calls_.push_back("appended");
      return 3;
    }
    void truncate(Bytes) override { calls_.push_back("truncate"); }
    void sync() override { calls_.push_back("sync"); }
    void close() override { calls_.push_back("close"); }
    void publish() override { calls_.push_back("publish"); }
    void abandon() override { calls_.push_back("abandon"); }

   private:
    std::string path_;
    std::vector<std::string>& calls_;
  };

  std::unique_ptr<ReadableFile> open_read(const std::string& path, const OpenOptions&) override {
    calls.push_back("open_read " + path);
    return std::make_unique<File>(path, calls);
  }
  std::unique_ptr<WritableFile> create(const std::string& path, const OpenOptions&) override {
    calls.push_back("create " + path);
    return std::make_unique<File>(path, calls);
  }
  std::unique_ptr<WritableFile> create_for_publish(const std::string& path,
                                                   const PublishOptions& options) override {
    calls.push_back("create_for_publish " + path + (options.partial_name ? " partial" : ""));
    return std::make_unique<File>(path, calls);
  }
  std::unique_ptr<WritableFile> open_write(const std::string& path, const OpenOptions&) override {
    calls.push_back("open_write " + path);
    return std::make_unique<File>(path, calls);
  }
  std::unique_ptr<SharedFile> open_shared(const std::string& path,
                                          SharedFileOpener& opener) override {
    calls.push_back("open_shared " + path);
    return opener.open(path);
  }
  void rename(const std::string& from, const std::string& to) override {
    calls.push_back("rename " + from + " " + to);
  }
  void create_directories(const std::string& path) override {
    calls.push_back("create_directories " + path);
  }
  void remove(const std::string& path) override { calls.push_back("remove " + path); }
  void remove_tree(const std::string& path) override { calls.push_back("remove_tree " + path); }
  std::size_t abort_pending_writes(const std::string& path) override {
    calls.push_back("abort_pending_writes " + path);
    return 2;
  }
  void for_each_entry(const std::string& path, const EntryVisitor& visit) override {
    calls.push_back("for_each_entry " + path);
    visit({"entry", true});
  }
  bool exists(const std::string& path) override {
    calls.push_back("exists " + path);
    return true;
  }
  Bytes file_size(const std::string& path) override {
    calls.push_back("file_size " + path);
    return 5;
  }
  std::int64_t modified_ns(const std::string& path) override {
    calls.push_back("modified_ns " + path);
    return 11;
  }
  void sync_directory(const std::string& path) override {
    calls.push_back("sync_directory " + path);
  }
  Bytes free_space(const std::string& path) override {
    calls.push_back("free_space " + path);
    return 9;
  }
  Capabilities capabilities(const std::string& path) override {
    calls.push_back("capabilities " + path);
    return {.backend = "recorder", .mmap = false};
  }
};

TEST(EnvWrapper, ForwardsEveryEnvMethodToItsTarget) {
  Recorder target;
  EnvWrapper env(target);
  EXPECT_EQ(&env.target(), &target);
  env.open_read("r");
  env.create("c");
  env.open_write("w");
  test::MemorySharedOpener opener;
  env.open_shared("m", opener);
  env.rename("a", "b");
  env.create_directories("d");
  env.remove("x");
  env.remove_files({"y", "z"});  // the target's own (the default: one by one)
  EXPECT_EQ(env.abort_pending_writes("u"), 2u);
  const std::vector<DirectoryEntry> listed = env.list_directory("l");
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].name, "entry");
  EXPECT_TRUE(env.exists("e"));
  EXPECT_EQ(env.file_size("s"), 5u);
  EXPECT_EQ(env.modified_ns("t"), 11);
  env.sync_directory("f");
  const Capabilities capabilities = env.capabilities("k");
  EXPECT_EQ(capabilities.backend, "recorder");
  EXPECT_FALSE(capabilities.mmap);
  const std::vector<std::string> expected = {
      "open_read r",          "create c", "open_write w", "open_shared m", "rename a b",
      "create_directories d", "remove x", "remove y",     "remove z",      "abort_pending_writes u",
      "for_each_entry l",     "exists e", "file_size s",  "modified_ns t", "sync_directory f",
      "capabilities k"};
  EXPECT_EQ(target.calls, expected);
}

// Publishing is forwarded like every other operation, options unchanged: a wrapper never changes
// how the target publishes (once a wrapper that did not take part made callers rename instead).
TEST(EnvWrapper, ForwardsPublishingWithItsOptions) {
  Recorder target;
  EnvWrapper env(target);
  env.create_for_publish("u");
  env.create_for_publish("p", {.partial_name = true});
  const std::vector<std::string> expected = {"create_for_publish u",
                                             "create_for_publish p partial"};
  EXPECT_EQ(target.calls, expected);
}

TEST(EnvWrapper, FileWrappersForwardEveryMethod) {
  Recorder target;
  ReadableFileWrapper in(target.open_read("r", {}));
  WritableFileWrapper out(target.create("c", {}));
  target.calls.clear();
  char buffer[4];
  EXPECT_EQ(in.path(), "r");
  EXPECT_EQ(in.size(), 7u);
  EXPECT_EQ(in.read_at(0, buffer, 4), 4u);
  in.drop_cache();  // once missed by a hand-written test wrapper
  EXPECT_EQ(out.path(), "c");
  out.write_at(0, buffer, 4);
  out.append(buffer, 4);
  EXPECT_EQ(out.appended(), 3u);
  out.truncate(2);
  out.sync();
  out.publish();
  out.abandon();
  out.close();
  const std::vector<std::string> expected = {"size",    "read_at",  "drop_cache", "write_at",
                                             "append",  "appended", "truncate",   "sync",
                                             "publish", "abandon",  "close"};
  EXPECT_EQ(target.calls, expected);
}

TEST(EnvWrapper, SharedFileWrapperForwardsEveryMethod) {
  test::MemorySharedOpener opener;
  SharedFileWrapper file(opener.open("m"));
  char buffer[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(file.path(), "m");
  file.write_at_all(0, buffer, 4);
  file.write_at(4, buffer, 2);
  EXPECT_EQ(file.read_at(0, buffer, 4), 4u);
  EXPECT_EQ(file.read_at_all(4, buffer, 4), 2u);
  EXPECT_EQ(file.size(), 6u);
  file.set_size(3);
  file.sync();
  file.close();
  const std::vector<std::string> expected = {"open m",   "write_at_all", "write_at",
                                             "read_at",  "read_at_all",  "size",
                                             "set_size", "sync",         "close"};
  EXPECT_EQ(opener.calls, expected);
  EXPECT_EQ(opener.bytes, "abc");
}

}  // namespace
}  // namespace dlbench::storage
