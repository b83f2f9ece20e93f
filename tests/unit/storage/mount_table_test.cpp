#include "storage/mount_table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"
#include "support/expect_error.h"
#include "support/limited_env.h"
#include "support/memory_object_env.h"
#include "support/pending_writes_env.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

// Records which paths reached it, and forwards them to the POSIX Env.
class Seen final : public EnvWrapper {
 public:
  Seen() : EnvWrapper(PosixEnv()) {}
  bool exists(const std::string& path) override {
    paths.push_back(path);
    return EnvWrapper::exists(path);
  }
  std::vector<std::string> paths;
};

TEST(MountTable, LocalPathsGoToTheLocalEnvAndUrisToTheirSchemes) {
  Seen local;
  Seen s3;
  MountTable table(local);
  table.mount_scheme("s3", s3);
  table.exists("data/x");
  table.exists("/abs/y");
  table.exists("s3://bucket/key");
  table.exists("./s3://not-a-uri");  // a local folder named "s3:"
  EXPECT_EQ(local.paths, (std::vector<std::string>{"data/x", "/abs/y", "./s3://not-a-uri"}));
  EXPECT_EQ(s3.paths, (std::vector<std::string>{"s3://bucket/key"}));
  EXPECT_TRUE(table.handles("s3://b/k"));
  EXPECT_FALSE(table.handles("gs://b/k"));
  EXPECT_EQ(table.handled(), "local paths and s3:// URIs");
}

TEST(MountTable, AUriOfASchemeNothingHandlesIsRefusedNotMadeALocalFolder) {
  MountTable table(PosixEnv());
  EXPECT_FALSE(table.handles("s3://bucket/data"));
  EXPECT_EQ(table.handled(), "local paths only");
  test::ExpectError([&] { table.create_directories("s3://bucket/data"); }, ExitCode::kUsage,
                    {"'s3://bucket/data' is a s3:// URI, and no storage backend for s3:// is "
                     "mounted (this run handles local paths only)"});
  EXPECT_FALSE(std::filesystem::exists("s3:"));
}

TEST(MountTable, TheDeepestMountedFolderWinsOverTheScheme) {
  test::TempDir dir;
  const std::string root = dir.path().string();
  Seen local;
  Seen outer;
  Seen inner;
  Seen bucket;
  Seen prefix;
  MountTable table(local);
  table.mount_scheme("s3", bucket);
  table.mount_folder(root + "/a", outer);
  table.mount_folder(root + "/a/b/", inner);
  table.mount_folder("s3://bucket/fast", prefix);
  table.exists(root + "/a/x");
  table.exists(root + "/a/b/c");
  table.exists(root + "/a/bc");
  table.exists(root + "/ab");
  table.exists("s3://bucket/fast/k");
  table.exists("s3://bucket/slow/k");
  EXPECT_EQ(outer.paths, (std::vector<std::string>{root + "/a/x", root + "/a/bc"}));
  EXPECT_EQ(inner.paths, (std::vector<std::string>{root + "/a/b/c"}));
  EXPECT_EQ(local.paths, (std::vector<std::string>{root + "/ab"}));
  EXPECT_EQ(prefix.paths, (std::vector<std::string>{"s3://bucket/fast/k"}));
  EXPECT_EQ(bucket.paths, (std::vector<std::string>{"s3://bucket/slow/k"}));
  EXPECT_EQ(table.folder_of(root + "/a/b/../x"), 0u);
  EXPECT_EQ(table.folder_of(root), std::string::npos);
}

TEST(MountTable, CapabilitiesAreThoseOfTheBackendHoldingThePath) {
  test::LimitedEnv store(PosixEnv(), storage::Capabilities::ObjectStore("S3"));
  MountTable table(PosixEnv());
  table.mount_scheme("s3", store);
  EXPECT_EQ(table.capabilities("data/x"), PosixEnv().capabilities("data/x"));
  EXPECT_EQ(table.capabilities("data/x").backend, "POSIX");
  const Capabilities s3 = table.capabilities("s3://b/k");
  EXPECT_EQ(s3.backend, "S3");
  EXPECT_FALSE(s3.direct_io);
  EXPECT_FALSE(s3.random_writes);
  // A wrapper over the table answers for the path too.
  EnvWrapper wrapped(table);
  EXPECT_FALSE(wrapped.capabilities("s3://b/k").mmap);
  EXPECT_TRUE(wrapped.capabilities("/tmp/x").mmap);
}

// Publishing and mapped reads are the backend's: an object appears when published, and a mapped
// read of it reads positionally where the backend cannot map.
TEST(MountTable, PublishingAndMappedReadsGoToTheBackendHoldingThePath) {
  test::MemoryObjectEnv store;
  MountTable table(PosixEnv());
  table.mount_scheme("s3", store);
  auto file = table.create_for_publish("s3://b/k", {.partial_name = true});
  file->append("abc", 3);
  EXPECT_FALSE(store.exists("s3://b/k"));
  file->publish();
  EXPECT_EQ(store.object("s3://b/k"), "abc");
  auto mapped = table.open_mapped("s3://b/k");
  char out[3];
  EXPECT_EQ(mapped->read_at(0, out, 3), 3u);
  EXPECT_EQ(std::string(out, 3), "abc");
}

// A store whose folders hold pending uploads: the table asks the backend holding the folder.
TEST(MountTable, PendingWritesAreAbortedByTheBackendHoldingTheFolder) {
  test::MemoryObjectEnv objects;
  test::PendingWritesEnv store(objects, 3);
  MountTable table(PosixEnv());
  table.mount_scheme("s3", store);
  EXPECT_EQ(table.abort_pending_writes("s3://b/data/train"), 3u);
  EXPECT_EQ(table.abort_pending_writes(::testing::TempDir()), 0u);  // a file system has none
  EXPECT_EQ(store.asked, std::vector<std::string>{"s3://b/data/train"});
}

TEST(MountTable, MountingASchemeOrFolderTwiceIsABug) {
  MountTable table(PosixEnv());
  table.mount_scheme("s3", PosixEnv());
  test::ExpectError([&] { table.mount_scheme("s3", PosixEnv()); }, ExitCode::kInternal,
                    {"s3:// is mounted twice"});
  test::ExpectError([&] { table.mount_scheme("3s", PosixEnv()); }, ExitCode::kInternal,
                    {"'3s' is not a URI scheme"});
  table.mount_folder("/x/y", PosixEnv());
  test::ExpectError([&] { table.mount_folder("/x/y/", PosixEnv()); }, ExitCode::kInternal,
                    {"mounted twice"});
}

}  // namespace
}  // namespace dlbench::storage
