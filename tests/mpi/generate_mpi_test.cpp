// Generation under mpiexec: every rank writes its share, files and sizes are exact, the rank
// totals add up, and a rerun keeps what is complete.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "dataset/content.h"
#include "formats/io/slice_layout.h"
#include "formats/registry.h"
#include "generation/dataset_files.h"
#include "generation/generation.h"
#include "generation/generation_plan.h"
#include "generation/generation_resume.h"
#include "storage/counting_env.h"
#include "storage/file.h"
#include "support/shared_temp_dir.h"
#include "support/test_support.h"

namespace dlbench::workflow {
namespace {

namespace fs = std::filesystem;

config::Config Tiny(const fs::path& folder, config::Format format, std::int64_t train,
                    std::int64_t eval, std::int64_t samples) {
  config::Config config;
  config.dataset.data_folder = (folder / "data").string();
  config.dataset.format = format;
  config.dataset.num_files_train = train;
  config.dataset.num_files_eval = eval;
  config.dataset.num_samples_per_file = samples;
  config.dataset.record_length_bytes = 1024;
  config.dataset.generation_threads = 2;
  return config;
}

TEST(GenerateMpi, ManyFilesAreDealtRoundRobinAndSumUp) {
  const mpi::Communicator comm = test::World();
  test::SharedTempDir folder;
  const config::Config config = Tiny(folder.path(), config::Format::kNpy, 7, 3, 2);
  const generation::RankGeneration mine =
      generation::GenerateDataset(config, comm, storage::PosixEnv());
  const Bytes file_bytes = 128 + 2 * 1024;

  EXPECT_FALSE(mine.shared_files);
  EXPECT_EQ(mine.io.files, generation::FilesOfRank(10, comm.size(), comm.rank()).size());
  EXPECT_EQ(mine.io.bytes, mine.io.files * file_bytes);
  EXPECT_EQ(comm.sum(std::uint64_t{mine.io.files}), 10u);
  EXPECT_EQ(comm.sum(std::uint64_t{mine.io.bytes}), 10 * file_bytes);
  for (int i = 0; i < 7; ++i) {
    const fs::path path =
        fs::path(config.dataset.data_folder) / "train" / ("img_" + std::to_string(i) + "_of_7.npy");
    ASSERT_TRUE(fs::exists(path)) << path;
    EXPECT_EQ(fs::file_size(path), file_bytes) << path;
  }
  EXPECT_TRUE(generation::IsDatasetComplete(storage::PosixEnv(), config));
}

TEST(GenerateMpi, OneSharedFileIsWrittenInSlicesByEveryRank) {
  const mpi::Communicator comm = test::World();
  test::SharedTempDir folder;
  const config::Config config = Tiny(folder.path(), config::Format::kIndexedBinary, 1, 0, 37);
  const generation::RankGeneration mine =
      generation::GenerateDataset(config, comm, storage::PosixEnv());
  const formats::SampleSlice slice = formats::SharedFileSlice(37, comm.size(), comm.rank());

  EXPECT_TRUE(mine.shared_files);
  // Data (1 KiB per sample) and two 8-byte index entries per sample of this rank's slice.
  EXPECT_EQ(mine.io.bytes, static_cast<Bytes>(slice.count) * (1024 + 16));
  EXPECT_EQ(mine.io.files, comm.is_root() ? 1u : 0u);
  const fs::path path = fs::path(config.dataset.data_folder) / "train/img_0_of_1.indexed_binary";
  EXPECT_EQ(fs::file_size(path), 37u * 1024);
  EXPECT_EQ(fs::file_size(path.string() + ".off.idx"), 37u * 8);
  EXPECT_EQ(fs::file_size(path.string() + ".sz.idx"), 37u * 8);

  // A rerun finds the file complete and writes nothing.
  const generation::RankGeneration rerun =
      generation::GenerateDataset(config, comm, storage::PosixEnv());
  EXPECT_EQ(rerun.io.bytes, 0u);
  EXPECT_EQ(comm.sum(std::uint64_t{rerun.files_kept}), 1u);
}

TEST(GenerateMpi, SharedTfrecordHasExactRecordsAndIndex) {
  const mpi::Communicator comm = test::World();
  test::SharedTempDir folder;
  const config::Config config = Tiny(folder.path(), config::Format::kTfrecord, 1, 0, 5);
  generation::GenerateDataset(config, comm, storage::PosixEnv());
  // 1024-byte images: 1024 + 54 bytes of framing and Example encoding per record.
  const fs::path data = config.dataset.data_folder;
  EXPECT_EQ(fs::file_size(data / "train/img_0_of_1.tfrecord"), 5u * 1078);
  // "0 1078\n1078 1078\n2156 1078\n3234 1078\n4312 1078\n"
  EXPECT_EQ(fs::file_size(data / "index/train/img_0_of_1.tfrecord.idx"), 7u + 4 * 10);
}

// Every byte of a shared file goes through the Env (MPI-IO through Env::open_shared, parallel
// HDF5's own MPI-IO through the PMPI capture): the bytes counted on all ranks are the sizes of the
// files written, HDF5's metadata included, and each rank's count is what its writer reports.
// HDF5 writes its superblock (version 2 under libver bounds v18..v110: 48 bytes) twice, at create
// and at close with the final end of file.
TEST(GenerateMpi, SharedFileBytesAreCountedThroughTheEnvAndEqualTheFileSizes) {
  const mpi::Communicator comm = test::World();
  for (const config::Format format : {config::Format::kNpy, config::Format::kTfrecord,
                                      config::Format::kIndexedBinary, config::Format::kHdf5}) {
    const std::string name = config::ToString(format);
    test::SharedTempDir folder;
    const config::Config config = Tiny(folder.path(), format, 1, 0, 37);
    const generation::DatasetFiles files(config.dataset);
    const generation::DatasetFile file = files.file(0);
    if (comm.is_root()) {
      for (const std::string& f : files.folders()) storage::PosixEnv().create_directories(f);
    }
    comm.barrier();
    storage::CountingEnv env(storage::PosixEnv());
    std::vector<std::byte> buffer(4096);
    const Bytes reported = formats::MakeSharedWriter(format)->write(
        comm, env, file.spec, dataset::ContentGenerator(config::ContentKind::kRandom, 2.0, 7),
        buffer);
    const storage::IoCounts counts = env.counts();
    EXPECT_EQ(reported, counts.bytes_written) << name;
    EXPECT_GT(counts.bytes_written, 0u) << name << " on rank " << comm.rank();
    comm.barrier();  // rank 0 renamed the files into place
    std::uint64_t sizes = fs::file_size(file.path);
    for (const std::string& companion : file.companions) sizes += fs::file_size(companion);
    const Bytes rewritten = format == config::Format::kHdf5 ? 48 : 0;
    EXPECT_EQ(comm.sum(std::uint64_t{counts.bytes_written}), sizes + rewritten) << name;
  }
}

}  // namespace
}  // namespace dlbench::workflow
