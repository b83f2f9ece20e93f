// Rate of turning generated values into csv text (formats/csv/csv_text.h), the CPU cost of csv
// generation besides writing: one 568 x 568 sample (retinanet's image, 322,624 values) per
// iteration, random content as `dataset.content.kind: random` makes it. Reported per value and
// as input bytes/s; scripts/bench/bench-generate.sh --formats csv measures whole files against fio.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dataset/content.h"
#include "formats/csv/csv_text.h"

namespace {

namespace csv = dlbench::formats::csv;

void Format(benchmark::State& state, const std::string& dtype, bool portable = false) {
  const csv::ElementType type = csv::ElementTypeOf(dtype);
  const std::size_t values = 568 * 568;
  std::vector<std::byte> elements(values * static_cast<std::size_t>(type.size));
  const dlbench::dataset::ContentGenerator content(dlbench::config::ContentKind::kRandom, 2.0, 42);
  content.fill(0, 0, elements);
  csv::ToStoredValues(type, elements);
  std::vector<char> text(values * csv::kMaxFieldChars);
  std::size_t length = 0;
  for (auto _ : state) {
    length = portable ? csv::FormatUint8Portable(elements, text.data())
                      : csv::FormatElements(type, elements, text.data());
    benchmark::DoNotOptimize(text.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * values));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * elements.size()));
  state.counters["text_bytes"] = static_cast<double>(length);
}

void BM_FormatUint8(benchmark::State& state) { Format(state, "uint8"); }
// The table every CPU has, which BM_FormatUint8 measures too where the CPU lacks AVX-512 VBMI2.
void BM_FormatUint8Portable(benchmark::State& state) { Format(state, "uint8", true); }
void BM_FormatInt16(benchmark::State& state) { Format(state, "int16"); }
void BM_FormatFloat32(benchmark::State& state) { Format(state, "float32"); }

BENCHMARK(BM_FormatUint8);
BENCHMARK(BM_FormatUint8Portable);
BENCHMARK(BM_FormatInt16);
BENCHMARK(BM_FormatFloat32);

}  // namespace

BENCHMARK_MAIN();
