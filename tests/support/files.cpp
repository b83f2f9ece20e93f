#include "support/files.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace dlbench::test {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::uint64_t> FileSizes(const std::filesystem::path& folder) {
  std::map<std::string, std::uint64_t> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    files[entry.path().filename().string()] = entry.file_size();
  }
  return files;
}

bool AppearsWithinAMinute(const std::filesystem::path& path) {
  for (int i = 0; i < 60000; ++i) {
    if (std::filesystem::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

}  // namespace dlbench::test
