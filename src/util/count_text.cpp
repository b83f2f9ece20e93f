#include "util/count_text.h"

namespace dlbench {

std::string CountOf(std::uint64_t count, std::string_view singular, std::string_view plural) {
  std::string text = std::to_string(count) + " ";
  if (count == 1) return text.append(singular);
  if (plural.empty()) return text.append(singular).append("s");
  return text.append(plural);
}

}  // namespace dlbench
