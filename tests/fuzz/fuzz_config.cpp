// Fuzz target: the YAML workload loader and the `++` overrides. The input's first part
// (fuzz_target.h's SplitInput) is the workload document, each further part one override. A
// config that loads must also survive its round trip (config/load.h): ToYaml of the loaded
// config loads again to the same YAML.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/load.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace config = dlbench::config;
  const std::vector<std::string_view> parts = fuzz::SplitInput(fuzz::AsText(data, size));
  const std::vector<std::string> overrides(parts.begin() + 1, parts.end());
  config::LoadOptions options;
  options.workloads_dir = DLBENCH_SOURCE_WORKLOADS_DIR;
  options.world_size = 4;
  options.node = "fuzznode";
  fuzz::ExpectOnlyInputErrors([&] {
    const config::LoadResult loaded =
        config::LoadYamlText(std::string(parts[0]), "fuzz.yaml", overrides, options);
    const std::string yaml = config::ToYaml(loaded.config);
    const std::string again =
        config::ToYaml(config::LoadYamlText(yaml, "round-trip.yaml", {}, options).config);
    if (again != yaml) {
      std::fprintf(stderr, "fuzz: config round trip differs:\n%s\n--- reloaded ---\n%s\n",
                   yaml.c_str(), again.c_str());
      std::abort();
    }
  });
  return 0;
}
