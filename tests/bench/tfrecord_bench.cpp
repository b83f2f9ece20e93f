// TFRecord framing cost per record: encoding the Example around an image and computing the
// length and payload CRCs (what the writer adds on top of producing the image bytes).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "formats/crc32c.h"
#include "formats/tfrecord_example.h"

namespace {

void BM_TfrecordFraming(benchmark::State& state) {
  const auto image_bytes = static_cast<std::size_t>(state.range(0));
  const std::vector<std::byte> image(image_bytes, std::byte{0x5A});
  for (auto _ : state) {
    const dlbench::formats::tfrecord::ExampleLayout layout(image_bytes);
    const auto header = dlbench::formats::tfrecord::EncodeHeader(layout.payload_bytes());
    std::uint32_t crc =
        dlbench::formats::crc32c::Value(layout.prefix().data(), layout.prefix().size());
    crc = dlbench::formats::crc32c::Extend(crc, image.data(), image.size());
    crc = dlbench::formats::crc32c::Extend(crc, layout.suffix().data(), layout.suffix().size());
    benchmark::DoNotOptimize(header);
    benchmark::DoNotOptimize(dlbench::formats::crc32c::Mask(crc));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_TfrecordFraming)->Arg(4096)->Arg(114244)->Arg(2825761);

}  // namespace

BENCHMARK_MAIN();
