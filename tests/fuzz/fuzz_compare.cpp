// Fuzz target: the input of `dlbench compare` (src/compare/), which reads files by path. The
// input's parts (fuzz_target.h's SplitInput) are the baseline's summary.json, the current run's
// summary.json and a tolerance file, written to a folder on /dev/shm that the process removes at
// exit. The comparison is then printed in every format, and the baseline aggregated as
// `dlbench run --repeat` does.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compare/aggregate.h"
#include "compare/comparison.h"
#include "compare/comparison_format.h"
#include "compare/metric_spec.h"
#include "compare/run_set.h"
#include "fuzz/fuzz_target.h"

namespace {

namespace fs = std::filesystem;

// This process's scratch folder: one per process, so parallel fuzzers do not share files.
const fs::path& Scratch() {
  static const fs::path kFolder = [] {
    fs::path path = fs::path("/dev/shm") / ("dlbench-fuzz-compare-" + std::to_string(getpid()));
    fs::create_directories(path / "baseline");
    fs::create_directories(path / "current");
    std::atexit([] { fs::remove_all(Scratch()); });
    return path;
  }();
  return kFolder;
}

void Write(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace compare = dlbench::compare;
  const std::vector<std::string_view> parts = fuzz::SplitInput(fuzz::AsText(data, size));
  const fs::path& folder = Scratch();
  Write(folder / "baseline" / "summary.json", parts[0]);
  Write(folder / "current" / "summary.json", parts.size() > 1 ? parts[1] : parts[0]);
  const fs::path tolerances = folder / "tolerances.yaml";
  fs::remove(tolerances);
  if (parts.size() > 2) Write(tolerances, parts[2]);
  fuzz::ExpectOnlyInputErrors([&] {
    compare::CompareSettings settings;
    settings.metrics = compare::HeadlineMetrics();
    if (parts.size() > 2) compare::ApplyToleranceFile(tolerances.string(), settings, false);
    const compare::RunSet baseline = compare::LoadRunSet((folder / "baseline").string());
    const compare::RunSet current = compare::LoadRunSet((folder / "current").string());
    compare::AggregateTable(compare::AggregateRuns(baseline, (folder / "baseline").string()));
    const compare::Comparison comparison = compare::Compare(baseline, current, settings);
    for (const compare::Format format :
         {compare::Format::kTerminal, compare::Format::kMarkdown, compare::Format::kJson}) {
      compare::FormatComparison(comparison, baseline, current, format);
    }
  });
  return 0;
}
