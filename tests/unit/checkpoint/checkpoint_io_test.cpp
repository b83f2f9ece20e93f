// Plan -> write -> manifest -> read, on a tiny model, through real files and wrapped Envs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint/checkpoint_commit.h"
#include "checkpoint/checkpoint_reader.h"
#include "checkpoint/checkpoint_writer.h"
#include "checkpoint/chunk_schedule.h"
#include "checkpoint/file_names.h"
#include "checkpoint/manifest.h"
#include "checkpoint/rank_mapping.h"
#include "checkpoint/tensor_content.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "support/files.h"
#include "support/pending_writes_env.h"
#include "support/test_support.h"
#include "unit/checkpoint/model_fixtures.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

namespace fs = std::filesystem;
using storage::CountingEnv;
using storage::Fault;
using storage::FaultInjectionEnv;
using storage::FaultOp;
using storage::PosixEnv;

constexpr int kWorld = 8;
constexpr Bytes kSmallBuffer = 4096;  // small, so that files span several chunks and threads

// TP 2 x PP 2 x DP 2, ZeRO 1: 22 files of 64 B to 67 KB.
CheckpointPlan TinyPlan() {
  return CheckpointPlan(test::Transformer(4, 100, 32, 64, 4, 2, 2, 2, 1), test::Default(), kWorld);
}

WriterOptions Options(int threads, bool fsync = false) {
  WriterOptions o;
  o.threads = threads;
  o.buffer_bytes = kSmallBuffer;
  o.fsync = fsync;
  o.content.seed = 42;
  return o;
}

CheckpointReaderOptions ReaderOptionsFor(int threads, bool verify = true) {
  CheckpointReaderOptions o;
  o.threads = threads;
  o.buffer_bytes = kSmallBuffer;
  o.verify = verify;
  return o;
}

// Every regular file in `folder`: name -> size.
std::map<std::string, Bytes> Planned(const CheckpointPlan& plan) {
  std::map<std::string, Bytes> files;
  for (Rank r = 0; r < plan.world(); ++r) {
    for (const PlannedFile& f : plan.for_rank(r).files) files[f.name] = f.bytes;
  }
  return files;
}

void WriteEveryRank(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                    const WriterOptions& options) {
  CheckpointWriter writer(env, options);
  for (Rank r = 0; r < plan.world(); ++r) writer.write_rank(folder, plan.for_rank(r));
}

std::string ReadWholeFile(const fs::path& path) {
  std::unique_ptr<storage::ReadableFile> file = PosixEnv().open_read(path.string());
  std::string bytes(file->size(), '\0');
  EXPECT_EQ(file->read_at(0, bytes.data(), bytes.size()), bytes.size());
  return bytes;
}

std::string FolderIn(const dlbench::test::TempDir& dir) {
  return (dir / CheckpointFolderName(1, 1)).string();
}

TEST(CheckpointIo, WritesExactlyThePlannedFilesThenReadsAndVerifiesThem) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  CheckpointWriter writer(PosixEnv(), Options(3));
  Bytes written = 0;
  for (Rank r = 0; r < kWorld; ++r) {
    const RankPlan rank_plan = plan.for_rank(r);
    const RankIoResult result = writer.write_rank(folder, rank_plan);
    EXPECT_EQ(result.bytes, rank_plan.bytes);
    EXPECT_EQ(result.files, rank_plan.files.size());
    EXPECT_GE(result.duration(), 0.0);
    written += result.bytes;
  }
  const PlanSummary summary = plan.summarize();
  EXPECT_EQ(written, summary.total_bytes);
  EXPECT_EQ(dlbench::test::FileSizes(folder), Planned(plan));  // no partial files, nothing else
  EXPECT_EQ(dlbench::test::FileSizes(folder).size(), 22u);
  EXPECT_FALSE(IsCheckpointComplete(PosixEnv(), folder));

  const Manifest manifest =
      WriteManifest(PosixEnv(), folder, plan, Options(1).content, /*fsync=*/false);
  EXPECT_EQ(manifest.files.size(), 22u);
  EXPECT_EQ(manifest.total_bytes, summary.total_bytes);
  EXPECT_TRUE(IsCheckpointComplete(PosixEnv(), folder));
  const Manifest again = ReadManifest(PosixEnv(), folder);
  EXPECT_EQ(again.checkpoint, "global_epoch1_step1");
  EXPECT_EQ(again.world, kWorld);
  EXPECT_EQ(again.content.seed, 42u);
  EXPECT_EQ(again.files.size(), 22u);

  CheckpointReader reader(PosixEnv(), ReaderOptionsFor(2));
  Bytes read = 0;
  for (Rank r = 0; r < kWorld; ++r) read += reader.read_rank(folder, plan.for_rank(r)).bytes;
  EXPECT_EQ(read, summary.total_bytes);
}

TEST(CheckpointIo, RecoveryRankShiftReadsTheShiftedRanksFiles) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  WriteEveryRank(PosixEnv(), folder, plan, Options(1));
  WriteManifest(PosixEnv(), folder, plan, Options(1).content, false);
  CountingEnv counting(PosixEnv());
  CheckpointReader reader(counting, ReaderOptionsFor(1));
  const Rank source = RecoveryRank(0, 2, kWorld);  // four nodes of two ranks
  ASSERT_EQ(source, 2);
  const RankIoResult result = reader.read_rank(folder, plan.for_rank(source));
  EXPECT_EQ(result.bytes, plan.for_rank(2).bytes);
  EXPECT_NE(result.bytes, plan.for_rank(0).bytes);  // stage 1 holds different layers
  EXPECT_EQ(result.files, plan.for_rank(2).files.size());
  bool read_rank_2s_first_file = false;
  for (const storage::FileCounts& f : counting.files()) {
    if (f.path == JoinPath(folder, "layer_3-model_2_model_states.pt")) {
      read_rank_2s_first_file = f.counts.bytes_read > 0;
    }
  }
  EXPECT_TRUE(read_rank_2s_first_file);
  EXPECT_EQ(counting.counts().bytes_read,
            result.bytes + fs::file_size(JoinPath(folder, file_names::kCheckpointManifest)));
}

TEST(CheckpointIo, FsyncPerFileOnlyWhenAsked) {
  dlbench::test::TempDir dir;
  const CheckpointPlan plan = TinyPlan();
  const RankPlan rank0 = plan.for_rank(0);
  {
    CountingEnv env(PosixEnv());
    const RankIoResult result =
        CheckpointWriter(env, Options(2, true)).write_rank((dir / "synced").string(), rank0);
    const storage::IoCounts c = env.counts();
    EXPECT_EQ(c.syncs, rank0.files.size());
    EXPECT_EQ(c.directory_syncs, rank0.files.size());  // each rename made durable
    EXPECT_EQ(c.renames, rank0.files.size());
    EXPECT_EQ(c.bytes_written, rank0.bytes);
    EXPECT_EQ(result.fsyncs, rank0.files.size());
  }
  {
    CountingEnv env(PosixEnv());
    const RankIoResult result =
        CheckpointWriter(env, Options(2, false)).write_rank((dir / "unsynced").string(), rank0);
    EXPECT_EQ(env.counts().syncs, 0u);
    EXPECT_EQ(env.counts().directory_syncs, 0u);
    EXPECT_EQ(result.fsyncs, 0u);
  }
}

// After a failed save: an error naming the path and the operation, no temporary files, every
// file under a final name complete, and no manifest.
void ExpectCleanFailure(const Fault& fault, const std::string& operation, int threads) {
  SCOPED_TRACE(operation + ", threads " + std::to_string(threads));
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  const RankPlan rank0 = plan.for_rank(0);
  FaultInjectionEnv env(PosixEnv());
  env.inject(fault);
  CheckpointWriter writer(env, Options(threads, true));
  dlbench::test::ExpectError([&] { writer.write_rank(folder, rank0); }, ExitCode::kIo,
                             {operation, folder + "/", "injected"});
  const bool ok = false;  // this rank's write failed
  const std::map<std::string, Bytes> planned = Planned(plan);
  for (const auto& [name, size] : dlbench::test::FileSizes(folder)) {
    ASSERT_TRUE(planned.contains(name)) << "unexpected file " << name;
    EXPECT_EQ(size, planned.at(name)) << name;
  }
  // The job-level commit sees the failure and writes no manifest.
  const mpi::Communicator world = dlbench::test::World();
  const CheckpointPlan job(test::Transformer(4, 100, 32, 64, 4, 2, 1, 1, 3), test::Default(),
                           world.size());
  EXPECT_FALSE(CommitCheckpoint(world, env, folder, job, {}, false, ok));
  EXPECT_FALSE(IsCheckpointComplete(PosixEnv(), folder));
  EXPECT_THROW(ReadManifest(PosixEnv(), folder), Error);
}

TEST(CheckpointIo, FailedWriteLeavesNoIncompleteFileAndNoManifest) {
  ExpectCleanFailure(Fault(FaultOp::kWrite).nth(3).error(ENOSPC), "write", 1);
  ExpectCleanFailure(Fault(FaultOp::kWrite).nth(7).error(EIO), "write", 3);
  ExpectCleanFailure(Fault(FaultOp::kSync).nth(2).error(EIO), "fsync", 1);
  ExpectCleanFailure(Fault(FaultOp::kSync).nth(1).error(EIO), "fsync", 2);
  ExpectCleanFailure(Fault(FaultOp::kCreate).nth(4).error(ENOSPC), "create", 2);
  ExpectCleanFailure(Fault(FaultOp::kRename).nth(2), "rename", 1);
}

TEST(CheckpointIo, ManifestRefusesMissingOrShortFiles) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  CheckpointWriter writer(PosixEnv(), Options(1));
  for (Rank r = 0; r < kWorld; ++r) {
    if (r != 5) writer.write_rank(folder, plan.for_rank(r));
  }
  dlbench::test::ExpectError([&] { WriteManifest(PosixEnv(), folder, plan, {}, false); },
                             ExitCode::kIo, {"rank 5"});
  EXPECT_FALSE(IsCheckpointComplete(PosixEnv(), folder));
  writer.write_rank(folder, plan.for_rank(5));
  const std::string victim = JoinPath(folder, plan.for_rank(5).files.back().name);
  fs::resize_file(victim, 100);
  dlbench::test::ExpectError([&] { WriteManifest(PosixEnv(), folder, plan, {}, false); },
                             ExitCode::kIo, {victim, "size 100 B"});
  EXPECT_FALSE(IsCheckpointComplete(PosixEnv(), folder));
}

TEST(CheckpointIo, ReaderRefusesIncompleteAndDetectsCorruption) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  WriteEveryRank(PosixEnv(), folder, plan, Options(2));
  CheckpointReader reader(PosixEnv(), ReaderOptionsFor(2));
  dlbench::test::ExpectError([&] { reader.read_rank(folder, plan.for_rank(0)); }, ExitCode::kIo,
                             {"incomplete checkpoint"});
  WriteManifest(PosixEnv(), folder, plan, Options(1).content, false);

  // Flip one byte in the middle of rank 0's optimizer file.
  const PlannedFile optim = plan.for_rank(0).files.back();
  const std::string path = JoinPath(folder, optim.name);
  const Bytes offset = 3 * kSmallBuffer + 17;
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x5A);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(&c, 1);
  }
  dlbench::test::ExpectError([&] { reader.read_rank(folder, plan.for_rank(0)); }, ExitCode::kIo,
                             {path, "offset " + std::to_string(offset)});
  // Without verify only sizes are checked, so the flipped byte goes unnoticed.
  CheckpointReader unverified(PosixEnv(), ReaderOptionsFor(2, false));
  EXPECT_EQ(unverified.read_rank(folder, plan.for_rank(0)).bytes, plan.for_rank(0).bytes);

  fs::resize_file(path, optim.bytes - 1);
  dlbench::test::ExpectError([&] { unverified.read_rank(folder, plan.for_rank(0)); }, ExitCode::kIo,
                             {path});

  // A plan from another configuration names files the manifest does not list.
  const CheckpointPlan other(test::Transformer(4, 100, 32, 64, 4, 2, 1, 1, 3), test::Default(), 2);
  dlbench::test::ExpectError([&] { unverified.read_rank(folder, other.for_rank(1)); },
                             ExitCode::kIo, {"not in the checkpoint's manifest"});
}

// A rank keeps none of the manifest's entries, only what they say of its own files: a size other
// than the plan's is refused, naming both, and other ranks' files do not matter.
TEST(CheckpointIo, ReaderRefusesAManifestListingAnotherSize) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  WriteEveryRank(PosixEnv(), folder, plan, Options(1));
  Manifest manifest = PlannedManifest(folder, plan, Options(1).content);
  const RankPlan rank3 = plan.for_rank(3);
  for (ManifestEntry& e : manifest.files) {
    if (e.name == rank3.files.front().name) e.bytes += 5;
  }
  WriteManifestText(PosixEnv(), folder, ManifestText(manifest), false);
  CheckpointReader reader(PosixEnv(), ReaderOptionsFor(1));
  dlbench::test::ExpectError(
      [&] { reader.read_rank(folder, rank3); }, ExitCode::kIo,
      {JoinPath(folder, rank3.files.front().name),
       "manifest lists " + std::to_string(rank3.files.front().bytes + 5) + " B, the plan " +
           std::to_string(rank3.files.front().bytes) + " B"});
  EXPECT_EQ(reader.read_rank(folder, plan.for_rank(0)).bytes, plan.for_rank(0).bytes);
}

// Of a rank's files, the first in plan order that the manifest does not list, or lists with
// another size, is named; the first entry naming a file is the one that counts.
TEST(CheckpointIo, ReaderNamesTheFirstFileAtFaultInPlanOrder) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  WriteEveryRank(PosixEnv(), folder, plan, Options(1));
  const RankPlan rank3 = plan.for_rank(3);
  ASSERT_GE(rank3.files.size(), 3u);
  const Manifest planned = PlannedManifest(folder, plan, Options(1).content);
  Manifest manifest = planned;
  std::erase_if(manifest.files,
                [&](const ManifestEntry& e) { return e.name == rank3.files[1].name; });
  for (ManifestEntry& e : manifest.files) {
    if (e.name == rank3.files.back().name) e.bytes += 5;
  }
  WriteManifestText(PosixEnv(), folder, ManifestText(manifest), false);
  CheckpointReader reader(PosixEnv(), ReaderOptionsFor(1));
  dlbench::test::ExpectError([&] { reader.read_rank(folder, rank3); }, ExitCode::kIo,
                             {JoinPath(folder, rank3.files[1].name) + ": not in the checkpoint's"});
  // Listed again further on with another size: the first listing holds.
  manifest = planned;
  manifest.files.push_back({rank3.files[1].name, rank3.files[1].bytes + 1, 3});
  WriteManifestText(PosixEnv(), folder, ManifestText(manifest), false);
  EXPECT_EQ(reader.read_rank(folder, rank3).bytes, rank3.bytes);
}

// More files than a pass keeps in flight: their state is handed from file to file, threads that
// race ahead wait for a slot, and every file is written, then read back and verified; a failure
// part way leaves no temporary file behind and no thread waiting.
TEST(CheckpointIo, ManyMoreFilesThanAPassKeepsInFlight) {
  dlbench::test::TempDir dir;
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan(test::Transformer(600, 100, 32, 64, 4, 2, 1, 2, 1), test::Default(), 2);
  ASSERT_GT(plan.for_rank(0).files.size(), 4 * FilesInFlight(4));
  WriteEveryRank(PosixEnv(), folder, plan, Options(4));
  EXPECT_EQ(dlbench::test::FileSizes(folder), Planned(plan));
  WriteManifest(PosixEnv(), folder, plan, Options(1).content, false);
  CheckpointReader reader(PosixEnv(), ReaderOptionsFor(4));
  for (Rank r = 0; r < plan.world(); ++r) {
    const RankIoResult read = reader.read_rank(folder, plan.for_rank(r));
    EXPECT_EQ(read.files, plan.for_rank(r).files.size());
    EXPECT_EQ(read.bytes, plan.for_rank(r).bytes);
  }

  const std::string failed = (dir / "failed").string();
  FaultInjectionEnv faulty(PosixEnv());
  faulty.inject(Fault(FaultOp::kCreate).error(ENOSPC).on_paths_containing("layer_200-model_0"));
  dlbench::test::ExpectError(
      [&] { CheckpointWriter(faulty, Options(4)).write_rank(failed, plan.for_rank(0)); },
      ExitCode::kIo, {"layer_200-model_0_model_states.pt"});
  const std::map<std::string, Bytes> planned = Planned(plan);
  for (const auto& [name, size] : dlbench::test::FileSizes(failed)) {
    ASSERT_TRUE(planned.contains(name)) << "unexpected file " << name;
    EXPECT_EQ(size, planned.at(name)) << name;
  }
}

TEST(CheckpointIo, CorruptManifestIsAnIoError) {
  dlbench::test::TempDir dir;
  dir.write("ckpt/" + std::string(file_names::kCheckpointManifest),
            "{\"format\": \"something else\"}");
  dlbench::test::ExpectError([&] { ReadManifest(PosixEnv(), (dir / "ckpt").string()); },
                             ExitCode::kIo, {"corrupt"});
}

// What a damaged or hostile manifest says is checked before a load, a drain or an eviction acts
// on it: a world of 2^31 - 1 ranks hung `dlbench checkpoint drain` (a stat per rank, polled), a
// negative size wrapped around, and a name with a '/' or '..' would have had a drain copy a file
// from, and to, outside the checkpoint's folder.
TEST(CheckpointIo, ManifestValuesOutOfTheirRangeAreCorrupt) {
  const std::string good = R"({"format": "dlbench-checkpoint-manifest", "version": 1,
    "checkpoint": "global_epoch1_step1", "content": {"randomize": true, "seed": 1},
    "total_bytes": 10, "world": 2, "files": [{"name": "a.pt", "bytes": 10, "rank": 1}]})";
  EXPECT_EQ(ParseManifest(good, "m.json").files.at(0).rank, 1);
  const auto corrupt = [&](const std::string& from, const std::string& to, const std::string& why) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    dlbench::test::ExpectError([&] { ParseManifest(text, "m.json"); }, ExitCode::kIo,
                               {"m.json", "corrupt", why});
  };
  corrupt(R"("world": 2)", R"("world": 2147483647)", "world 2147483647 is not 1 to 1048576 ranks");
  corrupt(R"("world": 2)", R"("world": 0)", "world 0 is not");
  corrupt(R"("rank": 1)", R"("rank": 2)", "rank 2 of a.pt is not a rank of the world of 2");
  corrupt(R"("rank": 1)", R"("rank": -1)", "rank -1 of a.pt");
  corrupt(R"("bytes": 10)", R"("bytes": -5)", "a size is not a whole number");
  corrupt(R"("bytes": 10)", R"("bytes": 1.5)", "a size is not a whole number");
  corrupt(R"("total_bytes": 10)", R"("total_bytes": 1e400)", "number overflow");
  corrupt(R"("a.pt")", R"("../../escaped")", "'../../escaped' is not a name in the checkpoint's");
  corrupt(R"("a.pt")", R"("..")", "is not a name in the checkpoint's folder");
  corrupt(R"("a.pt")", R"("")", "is not a name in the checkpoint's folder");
}

TEST(CheckpointIo, BufferMemoryIsFixedWhateverTheCheckpointSize) {
  dlbench::test::TempDir dir;
  CheckpointWriter writer(PosixEnv(), Options(3));
  EXPECT_EQ(writer.buffer_bytes(), 3 * kSmallBuffer);
  // A plan of 64 KiB and one of 4 MiB leave the writer with the same buffers.
  config::ModelConfig small;
  small.model_size_bytes = 64 * KiB;
  config::ModelConfig large;
  large.model_size_bytes = 4 * MiB + 5;
  writer.write_rank((dir / "small").string(),
                    CheckpointPlan(small, test::Default(), 1).for_rank(0));
  EXPECT_EQ(writer.buffer_bytes(), 3 * kSmallBuffer);
  writer.write_rank((dir / "large").string(),
                    CheckpointPlan(large, test::Default(), 1).for_rank(0));
  EXPECT_EQ(writer.buffer_bytes(), 3 * kSmallBuffer);
  EXPECT_EQ(fs::file_size(dir / "large" / "model_states-0.pt"), 4 * MiB + 5);

  EXPECT_EQ(CheckpointReader(PosixEnv(), ReaderOptionsFor(2, false)).buffer_bytes(),
            2 * kSmallBuffer);
  EXPECT_EQ(CheckpointReader(PosixEnv(), ReaderOptionsFor(2, true)).buffer_bytes(),
            4 * kSmallBuffer);
  EXPECT_EQ(CheckpointWriter(PosixEnv(), WriterOptions{}).buffer_bytes(),
            kDefaultCheckpointBufferBytes);
}

// checkpoint.write_threads >= 1 is config::Validate's rule and the buffer sizes are dlbench's
// own: a writer or reader handed others throws InternalError (exit 1).
TEST(CheckpointIo, BadThreadAndBufferSettingsAreInternalErrors) {
  WriterOptions no_threads = Options(0);
  dlbench::test::ExpectError([&] { CheckpointWriter writer(PosixEnv(), no_threads); },
                             ExitCode::kInternal, {"checkpoint.write_threads must be >= 1"});
  WriterOptions odd_buffer = Options(1);
  odd_buffer.buffer_bytes = 1000;
  dlbench::test::ExpectError([&] { CheckpointWriter writer(PosixEnv(), odd_buffer); },
                             ExitCode::kInternal, {"1000"});
  CheckpointReaderOptions reader_threads = ReaderOptionsFor(0);
  dlbench::test::ExpectError([&] { CheckpointReader reader(PosixEnv(), reader_threads); },
                             ExitCode::kInternal, {"checkpoint.write_threads"});
}

TEST(CheckpointIo, OnesWhenTensorsAreNotRandomized) {
  dlbench::test::TempDir dir;
  WriterOptions options = Options(2);
  options.content.randomize = false;
  config::ModelConfig m;
  m.model_size_bytes = 3 * kSmallBuffer + 11;
  const CheckpointPlan plan(m, test::Default(), 1);
  CheckpointWriter(PosixEnv(), options).write_rank((dir / "c").string(), plan.for_rank(0));
  const std::string bytes = ReadWholeFile(dir / "c" / "model_states-0.pt");
  ASSERT_EQ(bytes.size(), 3 * kSmallBuffer + 11);
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), '\1'), static_cast<long>(bytes.size()));
  WriteManifest(PosixEnv(), (dir / "c").string(), plan, options.content, false);
  EXPECT_EQ(CheckpointReader(PosixEnv(), ReaderOptionsFor(1))
                .read_rank((dir / "c").string(), plan.for_rank(0))
                .bytes,
            3 * kSmallBuffer + 11);
}

TEST(CheckpointIo, DirectIoRoundTrip) {
  dlbench::test::TempDir dir;  // $TMPDIR is a disk file system that supports O_DIRECT
  const std::string folder = FolderIn(dir);
  const CheckpointPlan plan = TinyPlan();
  WriterOptions options = Options(2, true);
  options.direct = true;
  WriteEveryRank(PosixEnv(), folder, plan, options);
  EXPECT_EQ(dlbench::test::FileSizes(folder), Planned(plan));
  WriteManifest(PosixEnv(), folder, plan, options.content, true);
  CheckpointReaderOptions read = ReaderOptionsFor(2);
  read.direct = true;
  CheckpointReader reader(PosixEnv(), read);
  for (Rank r = 0; r < kWorld; ++r) {
    EXPECT_EQ(reader.read_rank(folder, plan.for_rank(r)).bytes, plan.for_rank(r).bytes);
  }
}

TEST(CheckpointIo, CommitWritesTheManifestWhenEveryRankSucceeded) {
  dlbench::test::TempDir dir;
  const mpi::Communicator world = dlbench::test::World();
  const std::string folder = world.broadcast(FolderIn(dir));  // rank 0's folder for all ranks
  const CheckpointPlan plan(test::Transformer(4, 100, 32, 64, 4, 2, 1, 1, 3), test::Default(),
                            world.size());
  CheckpointWriter(PosixEnv(), Options(1)).write_rank(folder, plan.for_rank(world.rank()));
  // An object store holding uploads an earlier, killed save left: the commit aborts them.
  dlbench::test::PendingWritesEnv env(PosixEnv(), 1);
  EXPECT_TRUE(CommitCheckpoint(world, env, folder, plan, Options(1).content, true, true));
  EXPECT_TRUE(IsCheckpointComplete(PosixEnv(), folder));
  EXPECT_EQ(ReadManifest(PosixEnv(), folder).files.size(), 2u * world.size());
  EXPECT_EQ(env.asked,
            world.is_root() ? std::vector<std::string>{folder} : std::vector<std::string>{});

  // A file lost before the commit: every rank gets rank 0's error, and there is no manifest.
  const std::string second = folder + "_b";
  CheckpointWriter(PosixEnv(), Options(1)).write_rank(second, plan.for_rank(world.rank()));
  if (world.is_root()) fs::remove(JoinPath(second, plan.for_rank(0).files[0].name));
  EXPECT_THROW(CommitCheckpoint(world, PosixEnv(), second, plan, {}, false, true), Error);
  EXPECT_FALSE(IsCheckpointComplete(PosixEnv(), second));
}

// Writer, reader and drain buffers are allocated up front: a thread count whose buffers exceed
// half of the host's memory is a configuration error naming the key, not an out-of-memory kill.
TEST(ChunkSchedule, ThreadsWhoseBuffersExceedHalfTheMemoryAreAUsageError) {
  dlbench::test::ExpectError(
      [] {
        RequireThreadsAndBuffer(1 << 30, kDefaultCheckpointBufferBytes,
                                "checkpoint.burst_buffer.drain_threads");
      },
      ExitCode::kUsage,
      {"checkpoint.burst_buffer.drain_threads = 1073741824: its buffers, one of 8 MiB per thread",
       "more than half of this host's memory", "use fewer threads"});
  EXPECT_NO_THROW(RequireThreadsAndBuffer(2, kDefaultCheckpointBufferBytes, "t"));
}

TEST(ChunkSchedule, CoversEveryByteOnceInFileOrder) {
  const ChunkSchedule s({10, 0, 8192, 8193}, 4096);
  ASSERT_EQ(s.size(), 1u + 1u + 2u + 3u);
  EXPECT_EQ(s.chunks_in_file(1), 1u);
  const Chunk empty = s.at(1);
  EXPECT_EQ(empty.file, 1u);
  EXPECT_EQ(empty.length, 0u);
  const Chunk last = s.at(6);
  EXPECT_EQ(last.file, 3u);
  EXPECT_EQ(last.offset, 8192u);
  EXPECT_EQ(last.length, 1u);
  Bytes total = 0;
  for (std::uint64_t i = 0; i < s.size(); ++i) total += s.at(i).length;
  EXPECT_EQ(total, 10u + 8192u + 8193u);
}

// A schedule of runs of equal files is the schedule of the same files one by one.
TEST(ChunkSchedule, RunsOfEqualFilesScheduleAsTheFilesOneByOne) {
  const ChunkSchedule runs(std::vector<SizeRun>{{10, 3}, {0, 2}, {8193, 2}, {0, 0}, {4096, 1}},
                           4096);
  const ChunkSchedule files({10, 10, 10, 0, 0, 8193, 8193, 4096}, 4096);
  ASSERT_EQ(runs.size(), files.size());
  ASSERT_EQ(runs.size(), 3u + 2u + 6u + 1u);
  for (std::size_t f = 0; f < 8; ++f) EXPECT_EQ(runs.chunks_in_file(f), files.chunks_in_file(f));
  for (std::uint64_t i = 0; i < runs.size(); ++i) {
    const Chunk a = runs.at(i);
    const Chunk b = files.at(i);
    EXPECT_EQ(a.file, b.file) << i;
    EXPECT_EQ(a.offset, b.offset) << i;
    EXPECT_EQ(a.length, b.length) << i;
  }
  EXPECT_EQ(runs.at(10).file, 6u);
  EXPECT_EQ(runs.at(10).offset, 8192u);
  EXPECT_EQ(runs.at(10).length, 1u);
}

// File i + slots gets its slot only once file i is closed, and closing drops file i's handle.
TEST(FileWindow, ClosingAFileDropsItsHandleAndHandsItsSlotOn) {
  struct Handle {
    explicit Handle(int* counter) : closed(counter) {}
    ~Handle() { ++*closed; }
    int* closed;
  };
  int closed = 0;
  FileWindow<Handle> window(2);
  const auto start = [](ChunkedFile<Handle>& f) { f.key = 7; };
  ChunkedFile<Handle>* zero = window.enter(0, start);
  ASSERT_NE(zero, nullptr);
  zero->handle = std::make_unique<Handle>(&closed);
  ChunkedFile<Handle>* one = window.enter(1, start);
  ASSERT_NE(one, nullptr);
  one->handle = std::make_unique<Handle>(&closed);
  std::atomic<bool> entered{false};
  std::thread later([&] {
    ChunkedFile<Handle>* two = window.enter(2, [](ChunkedFile<Handle>& f) { f.key = 9; });
    EXPECT_EQ(two, zero);  // file 0's slot
    EXPECT_EQ(two->key, 9u);
    entered = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(entered);  // file 0 is still open
  window.close(1);
  EXPECT_EQ(closed, 1);
  EXPECT_EQ(one->handle, nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(entered);  // file 1's slot is not file 2's
  window.close(0);
  later.join();
  EXPECT_TRUE(entered);
  EXPECT_EQ(closed, 2);
}

// A thread that fails ends every wait for a slot: the waiters get null, and the failure goes on.
TEST(FileWindow, AThreadThatThrowsEndsTheWaitsOfTheOthers) {
  FileWindow<int> window(1);
  const auto start = [](ChunkedFile<int>&) {};
  ASSERT_NE(window.enter(0, start), nullptr);
  std::thread waiter([&] { EXPECT_EQ(window.enter(1, start), nullptr); });
  EXPECT_THROW(window.guard([] { throw IoError("write checkpoint", "a.pt", EIO, "failed"); }),
               Error);
  waiter.join();  // would hang if the failure left file 0's slot taken
  EXPECT_EQ(window.enter(0, start), nullptr);
}

TEST(TensorContent, AdjacentRangesMatchOneFillAndKeysDiffer) {
  const std::uint64_t key = ContentKey(7, "global_epoch1_step1", "a.pt");
  std::vector<std::byte> whole(100), parts(100);
  FillContent(key, true, 5, whole);
  FillContent(key, true, 5, std::span(parts).first(3));
  FillContent(key, true, 8, std::span(parts).subspan(3, 50));
  FillContent(key, true, 58, std::span(parts).subspan(53));
  EXPECT_EQ(whole, parts);
  EXPECT_NE(key, ContentKey(7, "global_epoch1_step2", "a.pt"));
  EXPECT_NE(key, ContentKey(7, "global_epoch1_step1", "b.pt"));
  EXPECT_NE(key, ContentKey(8, "global_epoch1_step1", "a.pt"));
  std::vector<std::byte> other(100);
  FillContent(ContentKey(7, "global_epoch1_step1", "b.pt"), true, 5, other);
  EXPECT_NE(whole, other);
}

}  // namespace
}  // namespace dlbench::checkpoint
