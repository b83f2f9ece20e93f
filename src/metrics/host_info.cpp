#include "metrics/host_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "util/units.h"

namespace dlbench::metrics {
namespace {

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::map<std::string, std::string> ParseProcKeyValues(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (std::count(line.begin(), line.end(), ':') != 1) continue;
    const auto colon = line.find(':');
    const std::string key = Trim(line.substr(0, colon));
    if (key == "processor") continue;
    values[key] = Trim(line.substr(colon + 1));
  }
  return values;
}

std::map<std::string, std::string> ReadProcKeyValues(const std::string& path) {
  std::ifstream file(path);
  if (!file) return {};
  std::ostringstream content;
  content << file.rdbuf();
  return ParseProcKeyValues(content.str());
}

HostInfo ReadHostInfo() {
  HostInfo info;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0) info.hostname = name;
  info.cpu_count = static_cast<int>(std::thread::hardware_concurrency());
  utsname uts{};
  if (uname(&uts) == 0) info.processor_name = uts.machine;
  info.cpuinfo = ReadProcKeyValues("/proc/cpuinfo");
  info.meminfo = ReadProcKeyValues("/proc/meminfo");
  if (const auto total = info.meminfo.find("MemTotal"); total != info.meminfo.end()) {
    // "16315248 kB"
    info.memory_GiB =
        std::strtod(total->second.c_str(), nullptr) * 1024.0 / static_cast<double>(GiB);
  }
  return info;
}

}  // namespace dlbench::metrics
