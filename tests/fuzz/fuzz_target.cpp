#include "fuzz/fuzz_target.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "util/error.h"

namespace dlbench::fuzz {

void ExpectOnlyInputErrors(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const Error& e) {
    if (e.code() == ExitCode::kUsage || e.code() == ExitCode::kIo) {
      if (std::getenv("DLBENCH_FUZZ_VERBOSE")) std::fprintf(stderr, "rejected: %s\n", e.what());
      return;
    }
    std::fprintf(stderr, "fuzz: bad input reported as exit code %d: %s\n",
                 static_cast<int>(e.code()), e.what());
    std::abort();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: exception other than dlbench::Error escaped: %s\n", e.what());
    std::abort();
  }
}

std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

std::vector<std::string_view> SplitInput(std::string_view input) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = input.find(kSeparator);
    parts.push_back(input.substr(0, at));
    if (at == std::string_view::npos) return parts;
    input.remove_prefix(at + kSeparator.size());
  }
}

}  // namespace dlbench::fuzz
