// TFRecord framing cost per record: encoding the Example around an image and computing the
// length and payload CRCs (what the writer adds on top of producing the image bytes); and the
// reader's cost per byte with and without the data CRC check (reader.verify_checksums), reading
// a file in tmpfs, so that the difference is the check's CPU per GiB.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dataset/content.h"
#include "formats/tfrecord/tfrecord_example.h"
#include "formats/tfrecord/tfrecord_reader.h"
#include "formats/tfrecord/tfrecord_writer.h"
#include "storage/file.h"
#include "util/crc32c.h"

namespace {

void BM_TfrecordFraming(benchmark::State& state) {
  const auto image_bytes = static_cast<std::size_t>(state.range(0));
  const std::vector<std::byte> image(image_bytes, std::byte{0x5A});
  for (auto _ : state) {
    const dlbench::formats::tfrecord::ExampleLayout layout(image_bytes);
    const auto header = dlbench::formats::tfrecord::EncodeHeader(layout.payload_bytes());
    std::uint32_t crc = dlbench::crc32c::Value(layout.prefix().data(), layout.prefix().size());
    crc = dlbench::crc32c::Extend(crc, image.data(), image.size());
    crc = dlbench::crc32c::Extend(crc, layout.suffix().data(), layout.suffix().size());
    benchmark::DoNotOptimize(header);
    benchmark::DoNotOptimize(dlbench::crc32c::Mask(crc));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_TfrecordFraming)->Arg(4096)->Arg(114244)->Arg(2825761);

// Reads every record of a 64 MiB file of `range(0)`-byte samples from /dev/shm; range(1): data
// CRC checked (1) or not (0). Bytes processed are the file's bytes.
void BM_TfrecordRead(benchmark::State& state) {
  namespace formats = dlbench::formats;
  const auto sample_bytes = static_cast<std::int64_t>(state.range(0));
  formats::FileSpec spec;
  spec.path = "/dev/shm/dlbench-tfrecord-bench-" + std::to_string(getpid()) + ".tfrecord";
  spec.sample_dims = {sample_bytes};
  spec.samples = (64 << 20) / sample_bytes;
  const dlbench::dataset::ContentGenerator content(dlbench::config::ContentKind::kRandom, 2.0, 1);
  std::vector<std::byte> buffer(4 << 20);
  dlbench::storage::Env& env = dlbench::storage::PosixEnv();
  const auto written = formats::TfrecordWriter().write(env, spec, content, buffer);
  formats::FileReadOptions options;
  options.verify_checksums = state.range(1) != 0;
  std::vector<std::byte> out(spec.sample_bytes());
  for (auto _ : state) {
    auto reader = formats::TfrecordReader().open(env, spec, options);
    for (std::int64_t k = 0; k < spec.samples; ++k) reader->read_sample(k, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * written.data_bytes));
  std::filesystem::remove(spec.path);
}
BENCHMARK(BM_TfrecordRead)
    ->ArgNames({"sample", "data_crc"})
    ->Args({114244, 0})
    ->Args({114244, 1})
    ->Args({2825761, 0})
    ->Args({2825761, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
