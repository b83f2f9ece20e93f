// The manifest's text and parser against the JSON object they stood for: ManifestText is built
// file by file and ParseManifest reads events, but both must stay what nlohmann's object made
// and accepted (earlier dlbench versions read the text; messages name what is wrong).
#include "checkpoint/manifest.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/counting_env.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

using storage::PosixEnv;

// The text as a JSON object of the whole manifest made it.
std::string ObjectText(const Manifest& manifest) {
  nlohmann::json json;
  json["format"] = "dlbench-checkpoint-manifest";
  json["version"] = 1;
  json["checkpoint"] = manifest.checkpoint;
  json["world"] = manifest.world;
  json["content"] = {{"randomize", manifest.content.randomize}, {"seed", manifest.content.seed}};
  json["total_bytes"] = manifest.total_bytes;
  nlohmann::json files = nlohmann::json::array();
  for (const ManifestEntry& e : manifest.files) {
    files.push_back({{"name", e.name}, {"bytes", e.bytes}, {"rank", e.rank}});
  }
  json["files"] = std::move(files);
  return json.dump(1) + "\n";
}

// The parse of a whole JSON object: the checks the manifest's reader made on it.
Manifest ObjectParse(const std::string& text, const std::string& path) {
  const auto count = [](const nlohmann::json& value) {
    if (!value.is_number_unsigned()) throw std::runtime_error("a size is not a whole number >= 0");
    return value.get<Bytes>();
  };
  Manifest manifest;
  try {
    const nlohmann::json json = nlohmann::json::parse(text);
    if (json.at("format").get<std::string>() != "dlbench-checkpoint-manifest") {
      throw std::runtime_error("wrong format");
    }
    if (json.at("version").get<int>() != 1) throw std::runtime_error("unknown version");
    manifest.checkpoint = json.at("checkpoint").get<std::string>();
    const nlohmann::json& world = json.at("world");
    if (!world.is_number_integer() || world.get<std::int64_t>() < 1 ||
        world.get<std::int64_t>() > (1 << 20)) {
      throw std::runtime_error("world " + world.dump() + " is not 1 to 1048576 ranks");
    }
    manifest.world = world.get<int>();
    manifest.content.randomize = json.at("content").at("randomize").get<bool>();
    manifest.content.seed = json.at("content").at("seed").get<std::uint64_t>();
    manifest.total_bytes = count(json.at("total_bytes"));
    for (const nlohmann::json& e : json.at("files")) {
      ManifestEntry entry{e.at("name").get<std::string>(), count(e.at("bytes")), 0};
      if (entry.name.empty() || entry.name == "." || entry.name == ".." ||
          entry.name.find('/') != std::string::npos) {
        throw std::runtime_error("file name '" + FileText(entry.name) +
                                 "' is not a name in the checkpoint's folder");
      }
      const nlohmann::json& rank = e.at("rank");
      if (!rank.is_number_integer() || rank.get<std::int64_t>() < 0 ||
          rank.get<std::int64_t>() >= manifest.world) {
        throw std::runtime_error("rank " + rank.dump() + " of " + entry.name +
                                 " is not a rank of the world of " +
                                 std::to_string(manifest.world));
      }
      entry.rank = rank.get<Rank>();
      manifest.files.push_back(std::move(entry));
    }
  } catch (const std::exception& e) {
    throw IoError("read checkpoint manifest", path, 0, std::string("corrupt: ") + e.what());
  }
  return manifest;
}

// What parsing `text` says: the manifest's fields, or the error's message.
std::string Outcome(const std::function<Manifest()>& parse) {
  try {
    const Manifest m = parse();
    std::string out = m.checkpoint + " " + std::to_string(m.world) + " " +
                      std::to_string(m.content.randomize) + " " + std::to_string(m.content.seed) +
                      " " + std::to_string(m.total_bytes) + ":";
    for (const ManifestEntry& e : m.files) {
      out += " " + e.name + "/" + std::to_string(e.bytes) + "/" + std::to_string(e.rank);
    }
    return out;
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

Manifest Sample() {
  Manifest m;
  m.checkpoint = "global_epoch1_step2";
  m.world = 3;
  m.content = {false, 18446744073709551615u};
  m.files = {{"a.pt", 10, 0},
             {"quote\" back\\slash", 0, 2},
             {"tab\tnewline\ncontrol\x01", 7, 1},
             {"caf\xc3\xa9 \xe2\x82\xac", 123456789012345, 2}};
  m.total_bytes = 123456789012362;
  return m;
}

TEST(Manifest, TextIsWhatTheWholeObjectPrinted) {
  Manifest m = Sample();
  EXPECT_EQ(ManifestText(m), ObjectText(m));
  m.files.clear();  // an empty list prints as []
  m.content = {true, 0};
  EXPECT_EQ(ManifestText(m), ObjectText(m));
  m.files = {{"only.pt", 1, 0}};
  EXPECT_EQ(ManifestText(m), ObjectText(m));
}

TEST(Manifest, NamesThatAreNotUtf8AreRefusedAsBefore) {
  Manifest m = Sample();
  m.files[0].name = "bad\xff";
  EXPECT_THROW(ObjectText(m), nlohmann::json::type_error);
  EXPECT_THROW(ManifestText(m), nlohmann::json::type_error);
}

TEST(Manifest, PlannedTextAndFileAreThePlannedManifestsText) {
  // TP 2 x PP 2 x DP 2, ZeRO 1, 8 ranks, and a job with ranks that write nothing (ZeRO 0).
  const std::vector<CheckpointPlan> plans = {
      CheckpointPlan(test::Transformer(4, 100, 32, 64, 4, 2, 2, 2, 1), test::Default(), 8),
      CheckpointPlan(test::Transformer(4, 100, 32, 64, 4, 2, 1, 2, 0), test::Default(), 4)};
  for (const CheckpointPlan& plan : plans) {
    dlbench::test::TempDir dir;
    const std::string folder = (dir / "global_epoch3_step7").string();
    const ContentSettings content{true, 99};
    const std::string text = ObjectText(PlannedManifest(folder, plan, content));
    EXPECT_EQ(PlannedManifestText(folder, plan, content), text);
    PosixEnv().create_directories(folder);
    WritePlannedManifest(PosixEnv(), folder, plan, content, /*fsync=*/false);
    EXPECT_EQ(
        dlbench::test::ReadFile(dir / "global_epoch3_step7" / file_names::kCheckpointManifest),
        text);
    EXPECT_EQ(ReadManifest(PosixEnv(), folder).listed_files,
              PlannedManifest(folder, plan, content).files.size());
  }
}

// A text of more files than one piece of the read, written and read back through a file.
TEST(Manifest, LargeManifestsAreReadAPieceAtATime) {
  Manifest m;
  m.checkpoint = "global_epoch1_step1";
  m.world = 4;
  for (int i = 0; i < 30000; ++i) {
    m.files.push_back(
        {"layer_" + std::to_string(i) + "-model_00_model_states.pt", static_cast<Bytes>(i), i % 4});
    m.total_bytes += static_cast<Bytes>(i);
  }
  const std::string text = ManifestText(m);
  ASSERT_GT(text.size(), 2u << 20);
  dlbench::test::TempDir dir;
  dir.write("c/" + std::string(file_names::kCheckpointManifest), text);
  const std::string folder = (dir / "c").string();
  storage::CountingEnv counting(PosixEnv());
  const Manifest read = ReadManifest(counting, folder);
  EXPECT_EQ(counting.counts().bytes_read, text.size());
  EXPECT_EQ(ManifestText(read), text);
  EXPECT_EQ(read.listed_files, 30000u);

  // A syntax error past the first piece is reported where the parser of the whole text found it.
  std::string broken = text;
  broken.insert(broken.size() - 40, "}");
  dir.write("c/" + std::string(file_names::kCheckpointManifest), broken);
  const std::string path = JoinPath(folder, file_names::kCheckpointManifest);
  EXPECT_EQ(Outcome([&] { return ReadManifest(PosixEnv(), folder); }),
            Outcome([&] { return ObjectParse(broken, path); }));
}

TEST(Manifest, AFilteredReadKeepsItsFilesAndChecksEveryOne) {
  const Manifest m = Sample();
  const std::string text = ManifestText(m);
  const ManifestFilter rank2 = [](const ManifestEntry& e) { return e.rank == 2; };
  const Manifest mine = ParseManifest(text, "m.json", rank2);
  ASSERT_EQ(mine.files.size(), 2u);
  EXPECT_EQ(mine.files[0].name, "quote\" back\\slash");
  EXPECT_EQ(mine.files[1].bytes, 123456789012345u);
  EXPECT_EQ(mine.listed_files, 4u);
  EXPECT_EQ(mine.total_bytes, m.total_bytes);
  EXPECT_EQ(mine.world, 3);
  const Manifest none = ParseManifest(text, "m.json", [](const ManifestEntry&) { return false; });
  EXPECT_TRUE(none.files.empty());
  EXPECT_EQ(none.listed_files, 4u);

  // A fault in a file the read does not keep is a fault all the same.
  std::string bad = text;
  bad.replace(bad.find("\"a.pt\""), 6, "\"../a.pt\"");
  dlbench::test::ExpectError([&] { ParseManifest(bad, "m.json", rank2); }, ExitCode::kIo,
                             {"m.json", "corrupt", "'../a.pt' is not a name"});
  std::string beyond = text;
  beyond.replace(beyond.find("\"rank\": 1"), 9, "\"rank\": 3");
  dlbench::test::ExpectError([&] { ParseManifest(beyond, "m.json", rank2); }, ExitCode::kIo,
                             {"rank 3 of tab\tnewline", "not a rank of the world of 3"});
}

// Every text below gets the same manifest, or the same message, as the whole object's parse:
// faults reported in the same order (syntax, then the header's keys in their order, then the
// first file at fault), whatever the order of the keys in the text.
TEST(Manifest, ParseSaysWhatTheWholeObjectsParseSaid) {
  const std::string head =
      R"("format": "dlbench-checkpoint-manifest", "version": 1, "checkpoint": "c", )"
      R"("content": {"randomize": true, "seed": 1}, "total_bytes": 10)";
  const auto with = [&](const std::string& files, const std::string& world = R"("world": 3)") {
    return "{" + head + ", " + files + ", " + world + "}";
  };
  const std::string a = R"({"name": "a.pt", "bytes": 1, "rank": 0})";
  const std::string b = R"({"name": "b.pt", "bytes": 2, "rank": 2})";
  const std::vector<std::string> texts = {
      ManifestText(Sample()),
      with(R"("files": [])"),
      with(R"("files": [)" + a + ", " + b + "]"),
      "{" + std::string(R"("world": 3, )") + R"("files": [)" + a + "], " + head + "}",
      // ranks beyond the world, before and after other faults
      with(R"("files": [)" + a +
           R"(, {"name": "c.pt", "bytes": 1, "rank": 3}, )"
           R"({"name": "../x", "bytes": 1, "rank": 0}])"),
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}, )"
           R"({"name": "c.pt", "bytes": 1, "rank": 3}])"),
      with(R"("files": [{"name": "c.pt", "bytes": 1, "rank": 2}, )"
           R"({"name": "d.pt", "bytes": 1, "rank": 7}, {"name": "e.pt", "bytes": 1, "rank": 5}])"),
      with(R"("files": [{"name": "d.pt", "bytes": 1, "rank": 9}, )"
           R"({"name": "e.pt", "bytes": 1, "rank": 4}])",
           R"("world": 5)"),
      with(R"("files": [{"name": "d.pt", "bytes": 1, "rank": 4000000}, )"
           R"({"name": "e.pt", "bytes": 1, "rank": 5000000}])"),
      // ranks that are no ranks
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": -1}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": 1.5}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": "1"}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": {"x": [1, null]}}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": 18446744073709551615}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": true}])"),
      with(R"("files": [{"name": "c.pt", "bytes": 1, "rank": 7}, )"
           R"({"name": "a.pt", "bytes": 1, "rank": -2}])"),
      // files that are no files
      with(R"("files": [)" + a + ", 5]"),
      with(R"("files": [[1, 2]])"),
      with(R"("files": [null])"),
      with(R"("files": [{"bytes": 1, "rank": 0}])"),
      with(R"("files": [{"name": 5, "bytes": 1, "rank": 0}])"),
      with(R"("files": [{"name": "a.pt", "bytes": -1, "rank": 0}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1e400, "rank": 0}])"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": 0, "extra": [{"y": 1}]}])"),
      with(R"("files": [{"name": "", "bytes": 1, "rank": 0}])"),
      // a list that is no list, or is given twice
      with(R"("files": {"x": )" + a + ", \"y\": " + b + "}"),
      with(R"("files": 5)"),
      with(R"("files": null)"),
      with(R"("files": "a")"),
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}], "files": [)" + a + "]"),
      with(R"("files": [)" + a + R"(], "files": 5)"),
      with(R"("files": 5, "files": [)" + b + "]"),
      with(R"("files": [{"name": "c.pt", "bytes": 1, "rank": 9}], "files": [)" + a + "]"),
      with(R"("other": [[1], {"files": [5]}], "files": [)" + a + "]"),
      "{" + head + R"(, "world": 3})",
      // header faults come before file faults
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}])", R"("world": 0)"),
      with(R"("files": [{"name": "c.pt", "bytes": 1, "rank": 9}])", R"("world": "3")"),
      with(R"("files": [{"name": "c.pt", "bytes": 1, "rank": 9}])", R"("world": 2147483647)"),
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}])", R"("world": 3, "version": 2)"),
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}], "format": "other")"),
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 0}])", R"("world": 3, "content": 1)"),
      with(R"("files": [{"name": "a.pt", "bytes": 1, "rank": 0}])",
           R"("world": 3, "total_bytes": -1)"),
      // syntax comes first of all
      with(R"("files": [{"name": "../x", "bytes": 1, "rank": 9}])", R"("world": 0,)"),
      with(R"("files": [)" + a + "]") + " x",
      with(R"("files": [)" + a + ",]"),
      "",
      "[]",
      "[{\"files\": []}]",
      "5",
      "\"text\"",
      "{}",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    EXPECT_EQ(Outcome([&] { return ParseManifest(text, "m.json"); }),
              Outcome([&] { return ObjectParse(text, "m.json"); }));
  }
}

}  // namespace
}  // namespace dlbench::checkpoint
