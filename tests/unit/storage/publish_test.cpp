// The publishing contract of storage/file.h, on the POSIX Env (with and without partial names) and
// on an Env with an object store's rules (support/memory_object_env.h), alone and under the
// counting, throttling and fault-injecting wrappers: nothing is visible under the final name
// before publish(); publish() puts the whole file there at once, replacing an older one, whose
// open readers keep their bytes; abandon() and destruction leave nothing; threads publish at once.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "storage/file.h"
#include "storage/throttled_env.h"
#include "support/expect_error.h"
#include "support/memory_object_env.h"
#include "support/test_support.h"

namespace dlbench::storage {
namespace {

struct Backend {
  const char* name;
  bool objects;       // MemoryObjectEnv, else PosixEnv
  bool partial_name;  // PublishOptions::partial_name
};

class Publishing : public ::testing::TestWithParam<Backend> {
 protected:
  Env& env() { return GetParam().objects ? static_cast<Env&>(objects_) : PosixEnv(); }
  std::string root() const {
    return GetParam().objects ? std::string("/bucket/run") : dir_.path().string();
  }
  std::string at(const std::string& name) const { return root() + "/" + name; }
  PublishOptions options() const { return {.partial_name = GetParam().partial_name}; }
  std::vector<std::string> names() {
    std::vector<std::string> names;
    for (const DirectoryEntry& entry : env().list_directory(root())) names.push_back(entry.name);
    return names;
  }
  std::string contents(const std::string& path) {
    auto in = env().open_read(path);
    std::string text(in->size(), '\0');
    EXPECT_EQ(in->read_at(0, text.data(), text.size()), text.size());
    return text;
  }
  void write(const std::string& name, const std::string& text) {
    auto out = env().create_for_publish(at(name), options());
    out->append(text.data(), text.size());
    out->publish();
  }

 private:
  test::TempDir dir_;
  test::MemoryObjectEnv objects_;
};

TEST_P(Publishing, NothingIsVisibleUntilPublishedThenTheWholeFile) {
  env().create_directories(root());
  auto out = env().create_for_publish(at("a.bin"), options());
  out->append("hello ", 6);
  out->append("world", 5);
  out->sync();
  EXPECT_FALSE(env().exists(at("a.bin")));
  for (const std::string& name : names()) EXPECT_NE(name, "a.bin");
  out->publish();
  EXPECT_EQ(names(), std::vector<std::string>{"a.bin"});
  EXPECT_EQ(env().file_size(at("a.bin")), 11u);
  EXPECT_EQ(contents(at("a.bin")), "hello world");
  test::ExpectError([&] { out->publish(); }, ExitCode::kIo, {"publish", "file closed"});
}

TEST_P(Publishing, AbandonedOrDestroyedLeavesNothing) {
  env().create_directories(root());
  {
    auto out = env().create_for_publish(at("a.bin"), options());
    out->append("half", 4);
    out->abandon();
    out->abandon();  // finished already: nothing more to do
    auto dropped = env().create_for_publish(at("b.bin"), options());
    dropped->append("half", 4);
    auto closed = env().create_for_publish(at("c.bin"), options());
    closed->close();  // close() of a file for publishing abandons it
  }
  EXPECT_TRUE(names().empty());
  EXPECT_FALSE(env().exists(at("a.bin")));
}

TEST_P(Publishing, ReplacesAnOlderFileWhoseReadersKeepItsBytes) {
  env().create_directories(root());
  write("a.bin", "old bytes");
  auto reader = env().open_read(at("a.bin"));
  write("a.bin", "new");
  EXPECT_EQ(contents(at("a.bin")), "new");
  std::string old(9, '\0');
  EXPECT_EQ(reader->read_at(0, old.data(), old.size()), 9u);
  EXPECT_EQ(old, "old bytes");
  EXPECT_EQ(names(), std::vector<std::string>{"a.bin"});
}

TEST_P(Publishing, ThreadsPublishAtOnce) {
  env().create_directories(root());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) write(std::to_string(t) + "_" + std::to_string(i), "x");
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(names().size(), 100u);
}

// Every wrapper takes part: the counters see the create, the bytes and the close; a throttled
// tier forwards; a fault fails the publish and leaves nothing.
TEST_P(Publishing, WrappersSeeEveryStepAndAFailedPublishLeavesNothing) {
  env().create_directories(root());
  CountingEnv counting(env());
  ThrottledEnv throttled(counting, {});
  FaultInjectionEnv faults(throttled);
  faults.inject(Fault(FaultOp::kRename).on_paths_containing("bad"));
  {
    auto out = faults.create_for_publish(at("good.bin"), options());
    out->append("12345", 5);
    out->publish();
    auto bad = faults.create_for_publish(at("bad.bin"), options());
    bad->append("12345", 5);
    test::ExpectError([&] { bad->publish(); }, ExitCode::kIo, {"bad.bin", "injected"});
  }
  EXPECT_EQ(names(), std::vector<std::string>{"good.bin"});
  const IoCounts counts = counting.counts();
  EXPECT_EQ(counts.creates, 2u);
  EXPECT_EQ(counts.bytes_written, 10u);
  EXPECT_EQ(counts.closes, 2u);
  EXPECT_EQ(faults.attempts(FaultOp::kRename), 2u);
}

// AtomicFileWriter (markers, manifests, copies) on every backend.
TEST_P(Publishing, AnAtomicFileWriterCommitsOrLeavesNothing) {
  env().create_directories(root());
  {
    AtomicFileWriter writer(env(), at("marker"));
    writer.file().append("done\n", 5);
    writer.commit(/*fsync=*/true);
    AtomicFileWriter dropped(env(), at("other"));
    dropped.file().append("half", 4);
  }
  EXPECT_EQ(names(), std::vector<std::string>{"marker"});
  EXPECT_EQ(contents(at("marker")), "done\n");
}

INSTANTIATE_TEST_SUITE_P(Backends, Publishing,
                         ::testing::Values(Backend{"posix", false, false},
                                           Backend{"posix_partial_name", false, true},
                                           Backend{"object_store", true, false}),
                         [](const auto& test) { return std::string(test.param.name); });

// What an object store refuses, and says it cannot do.
TEST(MemoryObjectEnv, RefusesWhatAnObjectStoreCannotDo) {
  test::MemoryObjectEnv env;
  const Capabilities can = env.capabilities("/b/k");
  EXPECT_FALSE(can.random_writes || can.rename || can.directories || can.mmap || can.direct_io ||
               can.shared_writers);
  auto out = env.create("/b/k", {});
  test::ExpectError([&] { out->write_at(0, "x", 1); }, ExitCode::kIo, {"/b/k", "object store"});
  test::ExpectError([&] { out->truncate(0); }, ExitCode::kIo, {"truncate", "/b/k"});
  EXPECT_FALSE(env.exists("/b/k"));  // not until closed
  out->append("v", 1);
  out->close();
  EXPECT_EQ(env.object("/b/k"), "v");
  test::ExpectError([&] { env.rename("/b/k", "/b/j"); }, ExitCode::kIo, {"rename", "/b/k"});
  test::ExpectError([&] { env.open_write("/b/k", {}); }, ExitCode::kIo, {"/b/k"});
  test::ExpectError([&] { env.create_for_publish("/b/k", {.reuse = true}); }, ExitCode::kIo,
                    {"/b/k"});
  EXPECT_EQ(env.refused(), 5u);
}

// Folders are key prefixes, listed with '/' as the delimiter (ListObjectsV2).
TEST(MemoryObjectEnv, ListsByPrefixWithTheSlashAsDelimiter) {
  test::MemoryObjectEnv env;
  env.create_directories("/b/empty");  // nothing: there are no folders
  for (const char* key : {"/b/t/a.npz", "/b/t/sub/c.npz", "/b/t.npz", "/b/t/b.npz", "/b/tx/d"}) {
    env.put(key, "1");
  }
  std::vector<std::string> listed;
  for (const DirectoryEntry& entry : env.list_directory("/b/t")) {
    listed.push_back(entry.name + (entry.is_directory ? "/" : ""));
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"a.npz", "b.npz", "sub/"}));
  EXPECT_EQ(env.list_directory("/b/t/").size(), 3u);
  EXPECT_TRUE(env.exists("/b/t"));
  EXPECT_TRUE(env.exists("/b/t/sub"));
  EXPECT_FALSE(env.exists("/b/empty"));
  test::ExpectError([&] { env.remove("/b/t"); }, ExitCode::kIo, {"/b/t"});
  env.remove_tree("/b/t");
  EXPECT_EQ(env.keys(), (std::vector<std::string>{"/b/t.npz", "/b/tx/d"}));
}

}  // namespace
}  // namespace dlbench::storage
