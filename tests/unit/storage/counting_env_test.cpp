#include "storage/counting_env.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "memory_shared_file.h"
#include "support/test_support.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

using test::TempDir;

TEST(CountingEnv, CountsOperationsAndBytes) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  env.create_directories(dir / "d");
  auto out = env.create(dir / "d/f.bin");
  out->append("hello", 5);
  out->write_at(5, " world", 6);
  out->sync();
  out->close();
  env.rename(dir / "d/f.bin", dir / "d/g.bin");
  env.sync_directory(dir / "d");
  auto in = env.open_read(dir / "d/g.bin");
  char buffer[64];
  EXPECT_EQ(in->read_at(0, buffer, 64), 11u);
  env.remove(dir / "d/g.bin");
  EXPECT_EQ(env.list_directory(dir / "d").size(), 0u);
  EXPECT_GT(env.free_space(dir.path()), 0u);
  env.remove_tree(dir / "d");

  const IoCounts c = env.counts();
  EXPECT_EQ(c.mkdirs, 1u);
  EXPECT_EQ(c.creates, 1u);
  EXPECT_EQ(c.writes, 2u);
  EXPECT_EQ(c.bytes_written, 11u);
  EXPECT_EQ(c.syncs, 1u);
  EXPECT_EQ(c.closes, 1u);
  EXPECT_EQ(c.renames, 1u);
  EXPECT_EQ(c.directory_syncs, 1u);
  EXPECT_EQ(c.opens, 2u);  // Darshan counts every open, the create too
  EXPECT_EQ(c.reads, 1u);
  EXPECT_EQ(c.bytes_read, 11u);  // bytes returned, not bytes asked for
  EXPECT_EQ(c.removes, 1u);
  EXPECT_EQ(c.lists, 1u);
  EXPECT_EQ(c.free_space_queries, 1u);
  EXPECT_EQ(c.tree_removes, 1u);  // one call, whatever the tree held
  env.reset();
  EXPECT_EQ(env.counts().writes, 0u);
  EXPECT_EQ(env.counts().bytes_read, 0u);
  EXPECT_EQ(env.counts().lists, 0u);
}

TEST(CountingEnv, CountsSharedFileWritesAndBytes) {
  CountingEnv env(PosixEnv());
  test::MemorySharedOpener opener;
  auto file = env.open_shared("shared.bin", opener);
  file->set_size(0);
  file->write_at_all(0, "hello", 5);
  file->write_at_all(5, "", 0);  // a rank with nothing left still joins the collective
  file->write_at(5, " world", 6);
  char buffer[16];
  EXPECT_EQ(file->read_at(0, buffer, 16), 11u);
  EXPECT_EQ(file->read_at_all(6, buffer, 16), 5u);
  file->sync();
  file->close();
  const IoCounts c = env.counts();
  EXPECT_EQ(c.creates, 1u);
  EXPECT_EQ(c.writes, 3u);
  EXPECT_EQ(c.bytes_written, 11u);
  EXPECT_EQ(c.reads, 2u);
  EXPECT_EQ(c.bytes_read, 16u);
  EXPECT_EQ(c.syncs, 1u);
  EXPECT_EQ(c.closes, 1u);
  EXPECT_EQ(opener.bytes, "hello world");
}

TEST(CountingEnv, FailedOperationsAreNotCounted) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  EXPECT_THROW(env.open_read(dir / "missing"), Error);
  EXPECT_THROW(env.rename(dir / "missing", dir / "x"), Error);
  EXPECT_THROW(env.free_space(dir / "missing"), Error);
  EXPECT_THROW(env.list_directory(dir.write("f", "x")), Error);
  EXPECT_EQ(env.counts().opens, 0u);
  EXPECT_EQ(env.counts().renames, 0u);
  EXPECT_EQ(env.counts().free_space_queries, 0u);
  EXPECT_EQ(env.counts().lists, 0u);
}

// Every path hashes alike: records are still one per path, each with its own counts.
std::uint64_t CollidingHash(std::string_view) { return 42; }

TEST(CountingEnv, PathsWhoseHashesCollideKeepRecordsOfTheirOwn) {
  TempDir dir;
  for (const char* name : {"a", "bb", "c"}) {
    auto out = PosixEnv().create(dir / name);
    out->append("0123456789", std::string_view(name).size() * 3);
    out->close();
  }
  CountingEnv env(PosixEnv(), std::chrono::steady_clock::now(), CollidingHash);
  char buffer[16];
  for (int pass = 0; pass < 2; ++pass) {
    for (const char* name : {"a", "bb", "c"}) {
      auto in = env.open_read(dir / name);
      EXPECT_EQ(in->read_at(0, buffer, sizeof buffer), std::string_view(name).size() * 3);
    }
  }
  EXPECT_TRUE(env.exists(dir / "bb"));
  const std::vector<FileCounts> files = env.files();
  ASSERT_EQ(files.size(), 3u);
  const Bytes sizes[] = {3, 6, 3};
  for (std::size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(files[i].path, (dir / std::string(i == 0 ? "a" : i == 1 ? "bb" : "c")).string());
    EXPECT_EQ(files[i].counts.opens, 2u);
    EXPECT_EQ(files[i].counts.closes, 2u);
    EXPECT_EQ(files[i].counts.reads, 2u);
    EXPECT_EQ(files[i].counts.bytes_read, 2 * sizes[i]);
    EXPECT_EQ(files[i].counts.stats, i == 1 ? 1u : 0u);
  }
  EXPECT_EQ(env.counts().opens, 6u);
}

// Records keep short paths inline and longer ones on the heap: both kinds, around the boundary
// and sharing a hash, keep their own records and report their whole paths.
TEST(CountingEnv, ShortAndLongPathsKeepRecordsOfTheirOwn) {
  TempDir dir;
  const std::string base = (dir / "").string();
  std::vector<std::string> paths;
  for (const std::size_t length : {std::size_t{1}, std::size_t{100}, std::size_t{111},
                                   std::size_t{112}, std::size_t{113}, std::size_t{200}}) {
    if (length <= base.size()) continue;
    paths.push_back(base + std::string(length - base.size(), 'x'));
    PosixEnv().create(paths.back())->close();
  }
  ASSERT_GE(paths.size(), 4u);  // lengths on both sides of the inline limit
  for (const CountingEnv::PathHash hash : {&CountingEnv::HashPath, &CollidingHash}) {
    CountingEnv env(PosixEnv(), std::chrono::steady_clock::now(), hash);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      for (std::size_t opens = 0; opens <= i; ++opens) env.open_read(paths[i]);
    }
    const std::vector<FileCounts> files = env.files();
    ASSERT_EQ(files.size(), paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
      EXPECT_EQ(files[i].path, paths[i]);  // sorted by path: by length here
      EXPECT_EQ(files[i].counts.opens, i + 1) << paths[i].size();
    }
  }
}

// The table of records grows as files are added (from 64 slots, kept at most half full): every
// path keeps its one record across the growths, with distinct and with colliding hashes.
TEST(CountingEnv, RecordsSurviveTheTableGrowing) {
  TempDir dir;
  constexpr int kFiles = 300;
  for (int f = 0; f < kFiles; ++f) PosixEnv().create(dir / std::to_string(f))->close();
  for (const CountingEnv::PathHash hash : {&CountingEnv::HashPath, &CollidingHash}) {
    CountingEnv env(PosixEnv(), std::chrono::steady_clock::now(), hash);
    for (int pass = 0; pass < 2; ++pass) {
      for (int f = 0; f < kFiles; ++f) env.open_read(dir / std::to_string(f));
    }
    const std::vector<FileCounts> files = env.files();
    ASSERT_EQ(files.size(), static_cast<std::size_t>(kFiles));
    for (const FileCounts& file : files) EXPECT_EQ(file.counts.opens, 2u) << file.path;
    EXPECT_EQ(env.counts().opens, 2u * kFiles);
  }
}

// Counts the hashes taken, to tell a predicted record (no hash) from a looked-up one.
thread_local int hashes = 0;
std::uint64_t CountedHash(std::string_view path) {
  ++hashes;
  return CountingEnv::HashPath(path);
}

// A thread that opens the files again in the order it did (a dataset read without shuffling)
// finds each one's record as the one that followed the previous file's: no hash, no lookup. Any
// other order (a shuffle, a file read twice in a row, files that join) falls back to the lookup,
// and every file keeps exactly its own counts either way.
TEST(CountingEnv, FilesOpenedInTheirLastOrderAreFoundWithoutALookup) {
  TempDir dir;
  constexpr int kFiles = 50;
  std::vector<std::string> paths;
  for (int f = 0; f < kFiles; ++f) {
    paths.push_back((dir / ("f" + std::to_string(f))).string());
    PosixEnv().create(paths.back())->append("abcd", 1 + f % 4);
  }
  CountingEnv env(PosixEnv(), std::chrono::steady_clock::now(), CountedHash);
  std::vector<int> opens(kFiles, 0);
  char buffer[8];
  const auto pass = [&](const std::vector<int>& order) {
    hashes = 0;
    for (const int f : order) {
      env.open_read(paths[f])->read_at(0, buffer, sizeof buffer);
      ++opens[f];
    }
    return hashes;
  };
  std::vector<int> order(kFiles);
  for (int f = 0; f < kFiles; ++f) order[f] = f;
  EXPECT_EQ(pass(order), kFiles);  // every record is new
  EXPECT_EQ(pass(order), 1);       // the first file did not follow the last one before
  EXPECT_EQ(pass(order), 0);
  std::vector<int> shuffled = order;
  std::reverse(shuffled.begin(), shuffled.end());
  EXPECT_EQ(pass(shuffled), kFiles);
  EXPECT_EQ(pass(shuffled), 1);
  EXPECT_EQ(pass({3, 3, 3, 4}), 3);    // 3 after 3 is learnt once, 4 after 3 again
  EXPECT_EQ(pass(order), kFiles - 1);  // only 4 after 3 was as last time
  const std::vector<FileCounts> files = env.files();
  ASSERT_EQ(files.size(), static_cast<std::size_t>(kFiles));
  for (const FileCounts& file : files) {
    const int f = std::stoi(file.path.substr(file.path.rfind('f') + 1));
    EXPECT_EQ(file.counts.opens, static_cast<std::uint64_t>(opens[f])) << file.path;
    EXPECT_EQ(file.counts.reads, static_cast<std::uint64_t>(opens[f])) << file.path;
    EXPECT_EQ(file.counts.bytes_read, static_cast<Bytes>(opens[f] * (1 + f % 4))) << file.path;
  }
}

// A wrapper built where a destroyed one was (here: the same stack slot, round after round) must
// not follow the thread's last record of the old one (freed with it: ASan would see the use), and
// threads that read the same files in the same order at once each learn and follow their own.
TEST(CountingEnv, PredictionsStayWithTheirWrapperAndThread) {
  TempDir dir;
  std::vector<std::string> paths;
  for (int f = 0; f < 20; ++f) {
    paths.push_back((dir / std::to_string(f)).string());
    PosixEnv().create(paths.back())->append("x", 1);
  }
  for (int round = 0; round < 3; ++round) {
    CountingEnv env(PosixEnv());
    char byte;
    for (const std::string& path : paths) env.open_read(path)->read_at(0, &byte, 1);
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t) {
      threads.emplace_back([&] {
        char mine;
        for (int pass = 0; pass < 4; ++pass) {
          for (const std::string& path : paths) env.open_read(path)->read_at(0, &mine, 1);
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const FileCounts& file : env.files()) {
      EXPECT_EQ(file.counts.opens, 13u) << "round " << round << " " << file.path;
      EXPECT_EQ(file.counts.bytes_read, 13u) << "round " << round << " " << file.path;
    }
    EXPECT_EQ(env.counts().opens, 260u) << "round " << round;
  }
}

TEST(CountingEnv, CountsFromManyThreads) {
  TempDir dir;
  CountingEnv env(PosixEnv());
  auto out = env.create(dir / "shared.bin");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      char block[16] = {};
      for (int i = 0; i < 100; ++i)
        out->write_at(static_cast<Bytes>((t * 100 + i) * 16), block, 16);
    });
  }
  for (auto& thread : threads) thread.join();
  out->close();
  EXPECT_EQ(env.counts().writes, 400u);
  EXPECT_EQ(env.counts().bytes_written, 6400u);
}

}  // namespace
}  // namespace dlbench::storage
