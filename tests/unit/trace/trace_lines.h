// Reads a trace written by trace::Recorder back for tests: every member inflated, the framing
// checked ("[" first, "]" last when complete), every other line parsed as one JSON object.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "trace/gzip_members.h"
#include "trace/recorder.h"

namespace dlbench::test {

// A recorder writing `path` as rank 1 of 2 on host node-a.
inline trace::RecorderOptions TestRecorderOptions(const std::filesystem::path& path) {
  trace::RecorderOptions options;
  options.path = path.string();
  options.rank = 1;
  options.ranks = 2;
  options.hostname = "node-a";
  options.version = "test";
  return options;
}

struct TraceLines {
  std::vector<nlohmann::json> events;  // every line but the brackets, in file order
  bool opened = false;                 // first line "["
  bool closed = false;                 // last line "]"
  bool complete_gzip = true;
};

inline std::string ReadBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The value of numeric field `key` ("ts", "dur") of a trace line in nanoseconds, read exactly from
// the text (a double cannot hold today's µs timestamps with three decimals); -1 when absent.
inline std::int64_t NanosOf(const std::string& line, const std::string& key) {
  const std::string tag = "\"" + key + "\":";
  const std::size_t at = line.find(tag);
  if (at == std::string::npos) return -1;
  std::int64_t whole = 0, frac = 0;
  int frac_digits = -1;
  for (std::size_t i = at + tag.size(); i < line.size(); ++i) {
    const char c = line[i];
    if (c == '.') {
      frac_digits = 0;
    } else if (c >= '0' && c <= '9') {
      if (frac_digits < 0) {
        whole = whole * 10 + (c - '0');
      } else if (frac_digits < 3) {
        frac = frac * 10 + (c - '0');
        ++frac_digits;
      }
    } else {
      break;
    }
  }
  for (int d = frac_digits < 0 ? 0 : frac_digits; d < 3; ++d) frac *= 10;
  return whole * 1000 + frac;
}

inline TraceLines ParseTraceText(const std::string& text) {
  TraceLines result;
  std::istringstream lines(text);
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    if (first) {
      result.opened = line == "[";
      first = false;
      continue;
    }
    if (line == "]") {
      result.closed = true;
      continue;
    }
    nlohmann::json event = nlohmann::json::parse(line);  // throws on a bad line
    if (event.contains("ts")) event["ts_ns"] = NanosOf(line, "ts");
    if (event.contains("dur")) event["dur_ns"] = NanosOf(line, "dur");
    result.events.push_back(std::move(event));
  }
  return result;
}

inline TraceLines ReadTrace(const std::filesystem::path& path, bool compressed = true) {
  const std::string bytes = ReadBytes(path);
  if (!compressed) return ParseTraceText(bytes);
  const trace::Inflated inflated = trace::InflateMembers(bytes);
  TraceLines result = ParseTraceText(inflated.text);
  result.complete_gzip = inflated.complete;
  return result;
}

// Whether `inner` lies within `outer` (exact, in nanoseconds).
inline bool Within(const nlohmann::json& inner, const nlohmann::json& outer) {
  const std::int64_t start = inner["ts_ns"], end = start + inner["dur_ns"].get<std::int64_t>();
  const std::int64_t outer_start = outer["ts_ns"];
  return start >= outer_start && end <= outer_start + outer["dur_ns"].get<std::int64_t>();
}

// The complete ("X") events named `name`.
inline std::vector<nlohmann::json> Named(const TraceLines& trace, const std::string& name) {
  std::vector<nlohmann::json> found;
  for (const auto& e : trace.events) {
    if (e.value("ph", "") == "X" && e.value("name", "") == name) found.push_back(e);
  }
  return found;
}

// The path an FH line gives for `fhash`; empty when none does.
inline std::string PathOf(const TraceLines& trace, const nlohmann::json& fhash) {
  for (const auto& e : trace.events) {
    if (e.value("name", "") == "FH" && e["args"]["value"] == fhash) return e["args"]["name"];
  }
  return "";
}

}  // namespace dlbench::test
