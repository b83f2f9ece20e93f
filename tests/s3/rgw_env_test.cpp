// storage::Env over S3 (s3/s3_env.h) against a real Ceph RGW: files written through it are
// objects (one PUT or a multipart upload, visible only once closed), reads are GETs that learn
// the size without a HEAD (plain GETs of the objects expected to be small, range GETs of the
// rest), listings give folders, and what S3 cannot do is refused.
#include <gtest/gtest.h>

#include <string>

#include "rgw_server.h"
#include "s3/s3_env.h"
#include "s3/sigv4.h"
#include "support/expect_error.h"

namespace dlbench::s3 {
namespace {

using test::TestPrefix;

constexpr WriteOptions kSmallParts{.part_size = 5 * MiB, .parallel_parts = 2};

std::string Uri(const test::RgwServer& server, const std::string& key) {
  return "s3://" + server.bucket + "/" + key;
}

void WriteFile(storage::Env& env, const std::string& path, const std::string& data) {
  auto file = env.create(path, {});
  for (std::size_t at = 0; at < data.size(); at += 1000003) {
    const std::string piece = data.substr(at, 1000003);
    file->append(piece.data(), piece.size());
  }
  file->close();
}

std::string ReadFile(storage::Env& env, const std::string& path) {
  auto file = env.open_read(path, {});
  std::string out(file->size(), '\0');
  EXPECT_EQ(file->read_at(0, out.data(), out.size()), out.size());
  return out;
}

TEST(RgwEnv, WritesObjectsVisibleOnlyOnceClosedAndReadsThemBack) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string small = Uri(server, TestPrefix() + "data/small.npz");
  const std::string large = Uri(server, TestPrefix() + "data/large.npz");
  WriteFile(env, small, test::TestData(100 * KiB, 11));
  const std::string large_data = test::TestData(11 * MiB + 1, 12);
  {
    auto file = env.create(large, {});
    file->append(large_data.data(), 6 * MiB);
    EXPECT_FALSE(env.exists(large));
    file->write_at(6 * MiB, large_data.data() + 6 * MiB, large_data.size() - 6 * MiB);
    EXPECT_EQ(file->appended(), large_data.size());
    file->close();
  }
  EXPECT_TRUE(env.exists(large));
  EXPECT_EQ(env.file_size(large), large_data.size());
  EXPECT_EQ(ReadFile(env, large), large_data);
  EXPECT_EQ(ReadFile(env, small), test::TestData(100 * KiB, 11));
  EXPECT_EQ(env.client().counts(Operation::kPut).requests, 1U);
  EXPECT_EQ(env.client().counts(Operation::kUploadPart).requests, 3U);
  EXPECT_EQ(test::Boto3(server, {"sha256", server.bucket, TestPrefix() + "data/large.npz"}),
            std::to_string(large_data.size()) + " " + Sha256Hex(large_data) + "\n");
}

TEST(RgwEnv, AReaderLearnsTheSizeFromItsFirstGetWithoutAHead) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env writer(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "sample.npy");
  const std::string data = test::TestData(300 * KiB, 13);
  WriteFile(writer, path, data);

  S3Env env(server.options, kSmallParts);  // knows nothing of the object
  auto file = env.open_read(path, {});
  std::string head(4096, '\0');
  EXPECT_EQ(file->read_at(0, head.data(), head.size()), head.size());
  EXPECT_EQ(file->size(), data.size());
  std::string tail(10000, '\0');
  EXPECT_EQ(file->read_at(data.size() - 100, tail.data(), tail.size()), 100U);
  EXPECT_EQ(tail.substr(0, 100), data.substr(data.size() - 100));
  EXPECT_EQ(file->read_at(data.size(), tail.data(), tail.size()), 0U);
  EXPECT_EQ(env.client().counts(Operation::kHead).requests, 0U);
  EXPECT_EQ(env.client().counts(Operation::kRangeGet).requests, 2U);
}

// npz's reads of a small file (its size, its end, its directory, its arrays) cost one GET.
TEST(RgwEnv, ASmallObjectReadInPiecesCostsOneGet) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env writer(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "sample.npz");
  const std::string data = test::TestData(100 * KiB, 16);
  WriteFile(writer, path, data);

  S3Env env(server.options, kSmallParts);
  auto file = env.open_read(path, {});
  EXPECT_EQ(file->size(), data.size());
  std::string piece(200, '\0');
  EXPECT_EQ(file->read_at(data.size() - 22, piece.data(), piece.size()), 22U);
  EXPECT_EQ(piece.substr(0, 22), data.substr(data.size() - 22));
  EXPECT_EQ(file->read_at(5000, piece.data(), piece.size()), piece.size());
  EXPECT_EQ(piece, data.substr(5000, 200));
  EXPECT_EQ(file->read_at(data.size() + 1, piece.data(), piece.size()), 0U);
  EXPECT_EQ(env.client().counts(Operation::kRangeGet).requests, 1U);
  EXPECT_EQ(env.client().counts(Operation::kHead).requests, 0U);
  // A missing object fails at its first read, naming it.
  auto missing = env.open_read(path + ".gone", {});
  dlbench::test::ExpectError([&] { missing->read_at(0, piece.data(), 10); }, ExitCode::kIo,
                             {path + ".gone", "NoSuchKey"});
}

// RGW serves a plain GET of a small object faster than a range GET: once a folder's objects
// are seen to be small, its objects of unknown size are read by plain GETs, whole. One that turns
// out larger than the 256 KiB window is cut there and read by range, and the folder's next
// objects go back to range GETs; an object of known size is read as its size says.
TEST(RgwEnv, ObjectsExpectedToBeSmallAreReadByPlainGets) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env writer(server.options, kSmallParts);
  const std::string folder = Uri(server, TestPrefix() + "mixed/");
  for (int i = 0; i < 3; ++i)
    WriteFile(writer, folder + std::to_string(i), test::TestData(4 * KiB, i));
  const std::string large = test::TestData(300 * KiB, 9);
  WriteFile(writer, folder + "large", large);
  WriteFile(writer, folder + "after", test::TestData(4 * KiB, 10));

  S3Env env(server.options, kSmallParts);  // knows no size
  const auto counts = [&] {
    return std::pair(env.client().counts(Operation::kGet).requests,
                     env.client().counts(Operation::kRangeGet).requests);
  };
  EXPECT_EQ(ReadFile(env, folder + "0"), test::TestData(4 * KiB, 0));
  EXPECT_EQ(counts(), std::pair(std::uint64_t{0}, std::uint64_t{1}));  // nothing seen yet: a range
  EXPECT_EQ(ReadFile(env, folder + "1"), test::TestData(4 * KiB, 1));
  EXPECT_EQ(ReadFile(env, folder + "2"), test::TestData(4 * KiB, 2));
  EXPECT_EQ(counts(), std::pair(std::uint64_t{2}, std::uint64_t{1}));
  EXPECT_EQ(ReadFile(env, folder + "large"), large);  // cut at the window, then ranges
  EXPECT_EQ(env.client().counts(Operation::kGet).requests, 3U);
  EXPECT_EQ(env.client().counts(Operation::kGet).failures, 0U);
  const std::uint64_t ranges = env.client().counts(Operation::kRangeGet).requests;
  EXPECT_EQ(ReadFile(env, folder + "after"), test::TestData(4 * KiB, 10));
  EXPECT_EQ(counts(), std::pair(std::uint64_t{3}, ranges + 1));
  // Listed: a folder of small objects is read whole from the first; one that lists an object
  // larger than the window is read by ranges (one number per folder, none per object).
  const std::string small = Uri(server, TestPrefix() + "small/");
  WriteFile(writer, small + "a", test::TestData(4 * KiB, 11));
  WriteFile(writer, small + "b", test::TestData(4 * KiB, 12));
  S3Env listed(server.options, kSmallParts);
  EXPECT_EQ(listed.list_directory(small).size(), 2U);
  EXPECT_EQ(ReadFile(listed, small + "b"), test::TestData(4 * KiB, 12));
  EXPECT_EQ(listed.client().counts(Operation::kGet).requests, 1U);
  EXPECT_EQ(listed.client().counts(Operation::kRangeGet).requests, 0U);
  EXPECT_EQ(listed.list_directory(folder).size(), 5U);
  EXPECT_EQ(ReadFile(listed, folder + "after"), test::TestData(4 * KiB, 10));
  EXPECT_EQ(listed.client().counts(Operation::kGet).requests, 1U);
  EXPECT_EQ(listed.client().counts(Operation::kRangeGet).requests, 1U);
}

TEST(RgwEnv, ALargeReadGoesOutAsParallelRanges) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env writer(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "checkpoint.pt");
  const std::string data = test::TestData(21 * MiB + 7, 15);
  WriteFile(writer, path, data);

  S3Env env(server.options, kSmallParts);
  auto file = env.open_read(path, {});
  std::string out(32 * MiB, '\0');  // more than the object: the read stops at its end
  EXPECT_EQ(file->read_at(0, out.data(), out.size()), data.size());
  out.resize(data.size());
  EXPECT_EQ(out, data);
  // 8 MiB to learn the size, then [8, 16) and [16, 21 MiB + 7) at once.
  EXPECT_EQ(env.client().counts(Operation::kRangeGet).requests, 3U);
  EXPECT_EQ(env.client().counts(Operation::kHead).requests, 0U);
}

// A checkpoint load reads 8 MiB chunks: each goes out as four 2 MiB ranges at once, on transfer
// threads that stay from one chunk to the next.
TEST(RgwEnv, AChunkOfACheckpointIsReadAsFourRangesAtOnce) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env writer(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "optim_states.pt");
  const std::string data = test::TestData(21 * MiB + 7, 16);
  WriteFile(writer, path, data);

  S3Env env(server.options, kSmallParts);
  auto file = env.open_read(path, {});
  ASSERT_EQ(file->size(), data.size());  // one range GET of the object's head
  std::string chunk(8 * MiB, '\0');
  for (Bytes at = 0; at < data.size(); at += chunk.size()) {
    const Bytes n = std::min<Bytes>(chunk.size(), data.size() - at);
    ASSERT_EQ(file->read_at(at, chunk.data(), chunk.size()), n);
    EXPECT_EQ(chunk.substr(0, n), data.substr(at, n)) << at;
  }
  // 1 + 4 + 4 + 3 (the last 5 MiB + 7: three ranges of 2 MiB at most)
  EXPECT_EQ(env.client().counts(Operation::kRangeGet).requests, 12U);
  EXPECT_LE(env.transfers().threads(), 4U);
  EXPECT_EQ(env.client().counts(Operation::kHead).requests, 0U);
}

TEST(RgwEnv, ListingGivesFilesAndFoldersAndTheSizesReadersNeed) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string folder = Uri(server, TestPrefix() + "train");
  env.create_directories(folder);
  WriteFile(env, folder + "/b.npz", "bbbb");
  WriteFile(env, folder + "/a.npz", "aa");
  WriteFile(env, folder + "/sub/c.npz", "c");
  const auto entries = env.list_directory(folder);
  ASSERT_EQ(entries.size(), 3U);
  EXPECT_EQ(entries[0].name, "a.npz");
  EXPECT_FALSE(entries[0].is_directory);
  EXPECT_EQ(entries[2].name, "sub");
  EXPECT_TRUE(entries[2].is_directory);
  EXPECT_TRUE(env.exists(folder + "/sub"));
  EXPECT_TRUE(env.list_directory(folder + "/absent").empty());

  S3Env reader(server.options, kSmallParts);
  reader.list_directory(folder);
  EXPECT_EQ(reader.open_read(folder + "/b.npz", {})->size(), 4U);
  EXPECT_EQ(reader.client().counts(Operation::kHead).requests, 0U);

  env.remove(folder + "/a.npz");
  EXPECT_FALSE(env.exists(folder + "/a.npz"));
  env.remove_tree(folder);
  EXPECT_FALSE(env.exists(folder));
  EXPECT_TRUE(env.list_directory(folder).empty());
}

TEST(RgwEnv, AFileDroppedBeforeCloseLeavesNoObject) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "dropped");
  {
    auto file = env.create(path, {});
    const std::string data = test::TestData(7 * MiB, 14);
    file->append(data.data(), data.size());
  }
  EXPECT_FALSE(env.exists(path));
  EXPECT_EQ(env.client().counts(Operation::kAbortMultipart).requests, 1U);
}

// A killed writer leaves its multipart upload pending (stored parts, billed, no object): a rerun
// aborts those of the folders it writes, the folder's own only.
TEST(RgwEnv, PendingUploadsOfAFolderAreAbortedAndNoOthers) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  Client& client = env.client();
  const std::string folder = TestPrefix() + "killed";
  const std::string data = test::TestData(5 * MiB, 17);
  for (const std::string& key : {folder + "/a.npz", folder + "/b.npz", folder + "/sub/c.npz"}) {
    const std::string id = client.create_multipart(server.bucket, key);
    client.upload_part(server.bucket, key, id, 1, std::as_bytes(std::span(data)));
  }
  EXPECT_EQ(env.abort_pending_writes(Uri(server, folder)), 2U);
  const std::vector<PendingUpload> left =
      client.list_multipart_uploads(server.bucket, folder + "/");
  ASSERT_EQ(left.size(), 1U);
  EXPECT_EQ(left[0].key, folder + "/sub/c.npz");
  EXPECT_EQ(env.abort_pending_writes(Uri(server, folder)), 0U);
  EXPECT_EQ(env.abort_pending_writes(Uri(server, folder + "/sub")), 1U);
  EXPECT_TRUE(client.list_multipart_uploads(server.bucket, folder + "/").empty());
}

TEST(RgwEnv, MissingObjectsAreNamed) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "absent");
  dlbench::test::ExpectError([&] { env.file_size(path); }, ExitCode::kIo, {path, "no such object"});
  auto file = env.open_read(path, {});
  char byte = 0;
  dlbench::test::ExpectError(
      [&] { file->read_at(0, &byte, 1); }, ExitCode::kIo,
      {"s3://" + server.bucket + "/" + TestPrefix() + "absent", "NoSuchKey (HTTP 404)"});
}

TEST(RgwEnv, RefusesWhatObjectsCannotDo) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "x");
  dlbench::test::ExpectError([&] { env.rename(path, path + "2"); }, ExitCode::kUsage,
                             {"S3 storage cannot rename", path});
  dlbench::test::ExpectError([&] { env.open_write(path, {}); }, ExitCode::kUsage,
                             {"cannot open an object for writing in place", path});
  dlbench::test::ExpectError([&] { env.open_read(path, {.direct = true}); }, ExitCode::kUsage,
                             {"O_DIRECT", path});
  dlbench::test::ExpectError([&] { env.create(Uri(server, ""), {}); }, ExitCode::kUsage,
                             {"names no object"});
  auto file = env.create(path, {});
  file->append("abc", 3);
  dlbench::test::ExpectError([&] { file->write_at(0, "z", 1); }, ExitCode::kUsage,
                             {"cannot write at offset 0 after 3 bytes", path});
  dlbench::test::ExpectError([&] { file->truncate(1); }, ExitCode::kUsage, {"truncate to 1"});
  dlbench::test::ExpectError([&] { file->publish(); }, ExitCode::kIo,
                             {"not created for publishing", path});
}

// Publishing is completing the upload: nothing under the name before publish(), all of it after;
// an abandoned upload (a multipart one too) leaves no object; close() of such a file abandons it.
TEST(RgwEnv, PublishesAnObjectWholeOrNotAtAll) {
  DLBENCH_REQUIRE_RGW(server);
  S3Env env(server.options, kSmallParts);
  const std::string path = Uri(server, TestPrefix() + "published.bin");
  const std::string data = test::TestData(6 * MiB, 14);
  auto file = env.create_for_publish(path, {.partial_name = true});
  EXPECT_EQ(file->path(), path);
  file->append(data.data(), data.size());
  EXPECT_FALSE(env.exists(path));
  file->publish();
  EXPECT_EQ(ReadFile(env, path), data);

  const std::string abandoned = Uri(server, TestPrefix() + "abandoned.bin");
  auto large = env.create_for_publish(abandoned, {});
  large->append(data.data(), data.size());  // a part is uploaded
  large->abandon();
  auto closed = env.create_for_publish(abandoned, {});
  closed->append("x", 1);
  closed->close();
  EXPECT_FALSE(env.exists(abandoned));
  EXPECT_EQ(env.client().counts(Operation::kCompleteMultipart).requests, 1U);
}

}  // namespace
}  // namespace dlbench::s3
