// The Parquet reader's cost per sample on a flux `t5_encodings`-like column (524,328 float32 per
// row, 2 MiB) laid out as pyarrow writes it for MLCommons DLIO (nullable LIST, no offset index,
// pages of 1 MiB cut inside rows), from /dev/shm: PLAIN pages against dictionary-encoded ones
// (65,536 distinct values: 16-bit indices, every page dictionary-encoded), uncompressed or snappy.
// range(0): 0 PLAIN, 1 dictionary; range(1): the codec (0 UNCOMPRESSED, 1 SNAPPY). The file is
// opened once (read_type: memory), so the page-header scan is paid once, not per sample.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "format_test_support.h"
#include "formats/parquet/parquet_reader.h"
#include "parquet_file_builder.h"
#include "storage/file.h"

namespace {

using dlbench::formats::test::ForeignFile;

void BM_ParquetReadFluxRow(benchmark::State& state) {
  ForeignFile f;
  f.columns = {
      {"t5_encodings", "float32", 524328, true, "element", state.range(0) == 1 ? 65536u : 0u}};
  f.row_groups = {8};
  f.codec = static_cast<std::int32_t>(state.range(1));
  f.page_values = 262144;
  f.dictionary_pages = state.range(0) == 1 ? 1000 : 0;
  const std::string path =
      "/dev/shm/dlbench-parquet-bench-" + std::to_string(::getpid()) + ".parquet";
  dlbench::formats::test::WriteAll(path, dlbench::formats::test::BuildForeignFile(f));
  const dlbench::formats::FileSpec spec = dlbench::formats::test::ForeignSpec(f, path);
  auto reader = dlbench::formats::ParquetReader().open(dlbench::storage::PosixEnv(), spec, {});
  std::vector<std::byte> out(reader->sample_bytes());
  std::int64_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(reader->read_sample(k, out));
    k = (k + 1) % spec.samples;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * out.size()));
  std::filesystem::remove(path);
}
BENCHMARK(BM_ParquetReadFluxRow)
    ->ArgNames({"dictionary", "snappy"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
