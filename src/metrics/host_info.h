// The host facts DLIO records in summary.json and <rank>_output.json.
#pragma once

#include <map>
#include <string>

namespace dlbench::metrics {

struct HostInfo {
  std::string hostname;
  int cpu_count = 0;           // logical CPUs
  std::string processor_name;  // the machine type (what Python's platform.processor() gives)
  double memory_GiB = 0;       // MemTotal
  std::map<std::string, std::string> cpuinfo;  // /proc/cpuinfo, the last CPU's fields
  std::map<std::string, std::string> meminfo;  // /proc/meminfo
};

// Reads this host's facts. Missing /proc files leave the maps empty (not an error: the numbers
// are informational).
HostInfo ReadHostInfo();

// "key : value" lines into a map as DLIO does: lines with exactly one ':' only, key and value
// trimmed, "processor" skipped, later keys overwrite earlier ones.
std::map<std::string, std::string> ParseProcKeyValues(const std::string& text);

// ParseProcKeyValues of a file's content; empty when it cannot be read.
std::map<std::string, std::string> ReadProcKeyValues(const std::string& path);

}  // namespace dlbench::metrics
