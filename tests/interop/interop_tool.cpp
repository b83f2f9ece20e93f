// Writes one data file with dlbench's format writers, or reads one and prints a checksum per
// sample, so that the interop scripts can compare against numpy, h5py and a Python TFRecord codec.
//
//   interop_tool write <format> <path> <dtype> <samples> <dim>... [--zip|--gzip]
//                      [--datasets K] [--dali-index PATH] [--column NAME:DTYPE:SIZE]...
//                      [--row-group ROWS] [--snappy|--zstd] [--assembled]
//                      (--gzip: hdf5, csv or parquet; --snappy, --zstd: parquet; --assembled:
//                      jpeg, png or csv, dataset.content.encoding: assembled)
//   interop_tool read  <format> <path> <dtype> <samples> <dim>... [--datasets K] [--verify]
//                      [--column NAME:DTYPE:SIZE]...
//   interop_tool payload <path> <bytes>
//
// Output of read: one line per sample, "<k> <FNV-1a 64 of the sample bytes, hex>". payload
// writes the first <bytes> payload bytes of the written files' content (the values a writer
// was asked to store), for checkers that read a format independently.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/enums.h"
#include "dataset/content.h"
#include "formats/registry.h"
#include "storage/file.h"
#include "util/error.h"

namespace {

using dlbench::formats::FileSpec;

std::uint64_t Fnv1a(const std::vector<std::byte>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const std::byte b : bytes) {
    h ^= static_cast<std::uint64_t>(b);
    h *= 0x100000001b3ull;
  }
  return h;
}

int Usage() {
  std::fprintf(stderr,
               "usage: interop_tool write|read <format> <path> <dtype> <samples> <dim>... "
               "[--zip|--gzip|--snappy|--zstd] [--datasets K] [--dali-index PATH] [--verify] "
               "[--column NAME:DTYPE:SIZE]... [--row-group ROWS]\n       interop_tool payload "
               "<path> <bytes>\n");
  return 2;
}

// The content every write uses: seed 99, file index 1.
const dlbench::dataset::ContentGenerator& Content() {
  static const dlbench::dataset::ContentGenerator kContent(dlbench::config::ContentKind::kRandom,
                                                           2.0, 99);
  return kContent;
}

int WritePayload(const std::string& path, std::uint64_t bytes) {
  std::vector<std::byte> payload(bytes);
  Content().fill(1, 0, payload);
  auto file = dlbench::storage::PosixEnv().create(path);
  file->append(payload.data(), payload.size());
  file->close();
  return 0;
}

int Run(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "payload") {
    return WritePayload(argv[2], std::strtoull(argv[3], nullptr, 10));
  }
  if (argc < 7) return Usage();
  const std::string mode = argv[1];
  const auto format = dlbench::config::FromString<dlbench::config::Format>(argv[2]);
  if (!format) return Usage();
  FileSpec spec;
  spec.path = argv[3];
  spec.dtype = argv[4];
  spec.samples = std::atoll(argv[5]);
  spec.file_index = 1;
  dlbench::formats::FileReadOptions options;
  for (int i = 6; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--zip") {
      spec.compression = dlbench::config::Compression::kZip;
    } else if (arg == "--gzip") {
      spec.compression = dlbench::config::Compression::kGzip;
    } else if (arg == "--snappy") {
      spec.compression = dlbench::config::Compression::kSnappy;
    } else if (arg == "--zstd") {
      spec.compression = dlbench::config::Compression::kZstd;
      spec.compression_level = 1;  // pyarrow's default
    } else if (arg == "--datasets" && i + 1 < argc) {
      spec.num_dset_per_record = std::atoi(argv[++i]);
    } else if (arg == "--dali-index" && i + 1 < argc) {
      spec.dali_index_path = argv[++i];
    } else if (arg == "--column" && i + 1 < argc) {
      const std::string column = argv[++i];
      const auto first = column.find(':');
      const auto second = column.rfind(':');
      if (first == std::string::npos || second == first) return Usage();
      spec.parquet_columns.push_back({column.substr(0, first),
                                      column.substr(first + 1, second - first - 1),
                                      std::atoll(column.c_str() + second + 1), true});
    } else if (arg == "--row-group" && i + 1 < argc) {
      spec.parquet_row_group_size = std::atoll(argv[++i]);
    } else if (arg == "--assembled") {
      spec.encoding = dlbench::config::ContentEncoding::kAssembled;
    } else if (arg == "--verify") {
      options.verify_checksums = true;
    } else {
      spec.sample_dims.push_back(std::atoll(arg.c_str()));
    }
  }
  auto& env = dlbench::storage::PosixEnv();
  if (mode == "write") {
    std::vector<std::byte> buffer(1 << 16);
    const auto result = dlbench::formats::MakeWriter(*format)->write(env, spec, Content(), buffer);
    std::printf("%llu\n", static_cast<unsigned long long>(result.data_bytes));
    return 0;
  }
  if (mode != "read") return Usage();
  auto reader = dlbench::formats::MakeReader(*format)->open(env, spec, options);
  std::vector<std::byte> out(reader->sample_bytes());
  for (std::int64_t k = 0; k < reader->samples(); ++k) {
    reader->read_sample(k, out);
    std::printf("%lld %016llx\n", static_cast<long long>(k),
                static_cast<unsigned long long>(Fnv1a(out)));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const dlbench::Error& e) {
    std::fprintf(stderr, "interop_tool: %s\n", e.what());
    return static_cast<int>(e.code());
  }
}
