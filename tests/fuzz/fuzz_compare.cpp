// Fuzz target: the input of `dlbench compare` (src/compare/), which reads files by path. The
// input's parts (fuzz_target.h's SplitInput) are the baseline's summary.json, the current run's
// summary.json and a tolerance file, written to a folder on /dev/shm that each input removes when
// it is done (libFuzzer leaves by _Exit, so an atexit removal left one folder per run behind). The
// comparison is then printed in every format, and the baseline aggregated as `dlbench run --repeat`
// does.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "compare/aggregate.h"
#include "compare/comparison.h"
#include "compare/comparison_format.h"
#include "compare/metric_spec.h"
#include "compare/run_set.h"
#include "fuzz/fuzz_target.h"

namespace {

namespace fs = std::filesystem;

// This input's scratch folder, one per process so parallel fuzzers do not share files; removed
// when the input is done.
class Scratch {
 public:
  Scratch() : path_(fs::path("/dev/shm") / ("dlbench-fuzz-compare-" + std::to_string(getpid()))) {
    fs::create_directories(path_ / "baseline");
    fs::create_directories(path_ / "current");
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void Write(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace compare = dlbench::compare;
  const std::vector<std::string_view> parts = fuzz::SplitInput(fuzz::AsText(data, size));
  const Scratch scratch;
  const fs::path& folder = scratch.path();
  Write(folder / "baseline" / "summary.json", parts[0]);
  Write(folder / "current" / "summary.json", parts.size() > 1 ? parts[1] : parts[0]);
  const fs::path tolerances = folder / "tolerances.yaml";
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
