// The HDF5 Env driver (formats/hdf5/hdf5_env_driver.h): every byte HDF5 moves goes through the Env
// — the reader reports exactly what a counting Env saw, metadata included; the writer's writes,
// fsync and truncation reach the Env; and a failure injected into any of them comes back as the
// Env's own Error (exit 3, path and operation named).
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "format_files_fixture.h"
#include "format_test_support.h"
#include "formats/hdf5/hdf5_handles.h"
#include "formats/hdf5/hdf5_reader.h"
#include "formats/hdf5/hdf5_writer.h"
#include "storage/counting_env.h"
#include "storage/fault_injection_env.h"
#include "support/expect_error.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

using dlbench::test::ExpectError;
using storage::Fault;
using storage::FaultInjectionEnv;
using storage::FaultOp;

class Hdf5EnvDriver : public test::FormatFiles<Hdf5Reader> {
 protected:
  Hdf5EnvDriver() : FormatFiles("img_0_of_1.hdf5", 3) {}

  WriteResult write(storage::Env& env, const FileSpec& spec) {
    std::vector<std::byte> buffer(4096);
    return Hdf5Writer().write(env, spec, test::RandomContent(), buffer);
  }
};

TEST_F(Hdf5EnvDriver, ReaderReportsExactlyTheBytesTheEnvRead) {
  FileSpec contiguous = make_spec({32, 32}, 16);
  FileSpec chunked = make_spec({16, 8}, 12, "float32");
  chunked.compression = config::Compression::kGzip;
  chunked.num_dset_per_record = 2;
  chunked.path = dir_ / "chunked.hdf5";
  for (const FileSpec& spec : {contiguous, chunked}) {
    test::WriteFile(Hdf5Writer(), spec, test::RandomContent());
    storage::CountingEnv counting(storage::PosixEnv());
    auto reader = Hdf5Reader().open(counting, spec, {});
    // The superblock, object headers and B-trees: read through the Env and reported.
    EXPECT_GT(reader->open_bytes(), 0u);
    EXPECT_EQ(reader->open_bytes(), counting.counts().bytes_read);
    EXPECT_EQ(counting.counts().opens, 1u);
    std::vector<std::byte> out(reader->sample_bytes());
    Bytes samples_read = 0;
    for (std::int64_t k = spec.samples - 1; k >= 0; --k) {
      const Bytes before = counting.counts().bytes_read;
      const Bytes got = reader->read_sample(k, out);
      EXPECT_EQ(got, counting.counts().bytes_read - before) << spec.path << " sample " << k;
      samples_read += got;
      const auto expected = test::SampleFirstBytes(test::RandomContent(), spec, k);
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()));
    }
    EXPECT_EQ(reader->open_bytes() + samples_read, counting.counts().bytes_read);
    if (spec.compression == config::Compression::kNone) {
      // Every byte of every sample came from storage at least once.
      EXPECT_GE(samples_read, static_cast<Bytes>(spec.samples) * reader->sample_bytes());
    }
  }
}

TEST_F(Hdf5EnvDriver, WriterWritesSyncsAndClosesThroughTheEnv) {
  FileSpec spec = make_spec({64, 64}, 8);
  for (const bool fsync : {false, true}) {
    spec.fsync = fsync;
    storage::CountingEnv counting(storage::PosixEnv());
    const WriteResult written = write(counting, spec);
    const storage::IoCounts counts = counting.counts();
    // What the writer reports is what went through the Env.
    EXPECT_EQ(written.data_bytes, counts.bytes_written);
    EXPECT_EQ(counts.creates, 1u);  // HDF5's first, non-creating attempt is a stat
    EXPECT_EQ(counts.closes, 1u);
    EXPECT_EQ(counts.syncs, fsync ? 1u : 0u);
    // The payload and the metadata, within a few KiB of the file's size: HDF5 writes part of its
    // metadata twice and leaves gaps it allocated but never wrote (the file is extended over
    // them at close).
    EXPECT_GE(counts.bytes_written, 8u * 64 * 64);
    const Bytes size = storage::PosixEnv().file_size(spec.path);
    EXPECT_LE(counts.bytes_written, size + 4096);
    EXPECT_GE(counts.bytes_written + 4096, size);
    auto reader = Hdf5Reader().open(storage::PosixEnv(), spec, {});
    std::vector<std::byte> out(reader->sample_bytes());
    reader->read_sample(7, out);
    const auto expected = test::SampleFirstBytes(test::RandomContent(), spec, 7);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()));
  }
}

// A file whose space HDF5 allocates but never writes ends where its allocation ends: HDF5 asks
// the driver to truncate (here: extend) it, and that goes through the Env and can fail there.
TEST_F(Hdf5EnvDriver, TruncationGoesThroughTheEnv) {
  const std::string path = dir_ / "allocated.hdf5";
  constexpr hsize_t kBytes = 100000;
  const auto create = [&](storage::Env& env) {
    const hdf5::Lock lock;
    const hdf5::Handle fapl = hdf5::FileAccess(lock, env, path);
    hdf5::Handle file =
        hdf5::Open(lock, H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose,
                   "create", path);
    const hdf5::Handle dcpl =
        hdf5::Open(lock, H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "property list", path);
    hdf5::Check(lock, H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "alloc time", path);
    hdf5::Check(lock, H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "fill time", path);
    const hdf5::Handle space =
        hdf5::Open(lock, H5Screate_simple(1, &kBytes, nullptr), H5Sclose, "space", path);
    hdf5::Open(lock,
               H5Dcreate2(file.get(), "d", H5T_STD_U8LE, space.get(), H5P_DEFAULT, dcpl.get(),
                          H5P_DEFAULT),
               H5Dclose, "create dataset", path);
    hdf5::Close(lock, file, "close", path);
  };
  FaultInjectionEnv watched(storage::PosixEnv());
  create(watched);
  EXPECT_EQ(watched.attempts(FaultOp::kTruncate), 1u);
  EXPECT_GT(storage::PosixEnv().file_size(path), kBytes);

  FaultInjectionEnv faulty(storage::PosixEnv());
  faulty.inject(Fault(FaultOp::kTruncate).error(EFBIG).keep_failing());
  ExpectError([&] { create(faulty); }, ExitCode::kIo, {"truncate", path, "injected"});
  {
    const hdf5::Lock lock;  // closed all the same: HDF5 holds no identifier of it
    EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
  }
  EXPECT_LT(storage::PosixEnv().file_size(path), kBytes);
}

TEST_F(Hdf5EnvDriver, InjectedReadFailuresNameThePathAndTheOperation) {
  const FileSpec spec = make_spec({32, 32}, 4);
  test::WriteFile(Hdf5Writer(), spec, test::RandomContent());
  const std::string errno_text = "errno " + std::to_string(EIO);
  {
    FaultInjectionEnv faulty(storage::PosixEnv());
    faulty.inject(Fault(FaultOp::kOpenRead).keep_failing());
    ExpectError([&] { Hdf5Reader().open(faulty, spec, {}); }, ExitCode::kIo,
                {"open for reading", spec.path, "injected"});
  }
  {
    FaultInjectionEnv faulty(storage::PosixEnv());
    faulty.inject(Fault(FaultOp::kRead).nth(2));  // a metadata read while opening
    ExpectError([&] { Hdf5Reader().open(faulty, spec, {}); }, ExitCode::kIo,
                {"read " + spec.path, errno_text, "injected"});
  }
  FaultInjectionEnv faulty(storage::PosixEnv());
  auto reader = Hdf5Reader().open(faulty, spec, {});
  faulty.inject(Fault(FaultOp::kRead));  // the next read: the first sample's
  std::vector<std::byte> out(reader->sample_bytes());
  ExpectError([&] { reader->read_sample(2, out); }, ExitCode::kIo,
              {"read " + spec.path, "offset", errno_text, "injected"});
  // One-shot: the reader goes on, and asks storage again (HDF5 had kept the failed read's sieve
  // buffer as if it held the sample: 0 bytes read and stale data).
  EXPECT_GT(reader->read_sample(2, out), 0u);
  const auto expected = test::SampleFirstBytes(test::RandomContent(), spec, 2);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), out.begin()));
}

TEST_F(Hdf5EnvDriver, InjectedWriteAndSyncFailuresNameThePathAndTheOperation) {
  FileSpec spec = make_spec({32, 32}, 4);
  FaultInjectionEnv faulty(storage::PosixEnv());
  faulty.inject(Fault(FaultOp::kWrite).nth(2).error(ENOSPC));
  ExpectError([&] { write(faulty, spec); }, ExitCode::kIo,
              {"write " + spec.path, "offset", "No space left", "injected"});
  faulty.clear();
  faulty.inject(Fault(FaultOp::kCreate));
  // A new file: HDF5 first tries to open it without creating it, and that failure is not the one
  // reported.
  FileSpec fresh = spec;
  fresh.path = dir_ / "fresh.hdf5";
  ExpectError([&] { write(faulty, fresh); }, ExitCode::kIo, {"create", fresh.path, "injected"});
  faulty.clear();
  spec.fsync = true;
  faulty.inject(Fault(FaultOp::kSync));
  ExpectError([&] { write(faulty, spec); }, ExitCode::kIo, {"fsync", spec.path, "injected"});
  faulty.clear();
  {
    const hdf5::Lock lock;  // every failed file was closed all the same
    EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
  }
  write(faulty, spec);  // and a good write afterwards, in the same process
  EXPECT_GT(Hdf5Reader().open(faulty, spec, {})->open_bytes(), 0u);
}

}  // namespace
}  // namespace dlbench::formats
