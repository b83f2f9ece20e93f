#include <string>

#include "formats/format.h"
#include "util/error.h"

namespace dlbench::formats {

void FileReader::check_request(std::int64_t k, std::span<const std::byte> out) const {
  if (k < 0 || k >= samples()) {
    throw InternalError(path() + ": sample " + std::to_string(k) + " asked of a file of " +
                        std::to_string(samples()) + " samples");
  }
  if (out.size() < sample_bytes()) {
    throw InternalError(path() + ": a " + std::to_string(out.size()) + "-byte buffer for a " +
                        std::to_string(sample_bytes()) + "-byte sample");
  }
}

}  // namespace dlbench::formats
