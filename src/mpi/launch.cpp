#include "mpi/launch.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <system_error>

namespace dlbench::mpi {
namespace {

std::optional<int> IntFromEnvironment(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  int value = 0;
  const char* end = text + std::strlen(text);
  const auto [ptr, error] = std::from_chars(text, end, value);
  if (error != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

std::optional<int> FirstOf(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const auto value = IntFromEnvironment(name)) return value;
  }
  return std::nullopt;
}

}  // namespace

Launch LaunchFromEnvironment() {
  Launch launch;
  launch.rank = FirstOf({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}).value_or(0);
  launch.size = FirstOf({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}).value_or(1);
  if (launch.size < 1) launch.size = 1;
  if (launch.rank >= launch.size) launch.size = launch.rank + 1;  // PMIx gives no size here
  return launch;
}

}  // namespace dlbench::mpi
