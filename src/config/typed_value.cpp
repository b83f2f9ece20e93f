#include "config/typed_value.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "config/scalar_parser.h"
#include "config/units_parser.h"
#include "config/workload_catalog.h"

namespace dlbench::config {

void FailAt(const std::string& path, const DocNode& node, const std::string& what) {
  throw UsageError(path + ": " + what + Where(node));
}

std::string AllowedNames(const char* const* names, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    out += i == 0 ? "" : (i + 1 == count ? " or " : ", ");
    out += names[i];
  }
  return out;
}

std::string NotOneOf(const DocNode& node, const char* const* names, std::size_t count) {
  std::string message = "'" + Describe(node) + "' is not one of " + AllowedNames(names, count);
  if (node.is_scalar()) {
    std::string lower = node.text;
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (const auto close = ClosestMatch(lower, std::vector<std::string>(names, names + count))) {
      message += "; did you mean " + *close + "?";
    }
  }
  return message;
}

namespace {

// Numbers and booleans must be plain scalars: a quoted "4" is a string in YAML and in Hydra.
const std::string* PlainScalar(const DocNode& node) {
  return node.is_scalar() && !node.quoted ? &node.text : nullptr;
}

std::int64_t Integer(const DocNode& node, const std::string& path) {
  if (const std::string* text = PlainScalar(node)) {
    if (auto value = ParseInteger(*text)) return *value;
    if (auto value = ParseFloat(*text)) {
      if (std::isfinite(*value) && *value == std::floor(*value) && std::fabs(*value) < 9.2e18) {
        return static_cast<std::int64_t>(*value);
      }
      // 99999999999999999999 is integral, just beyond 64 bits: say so, not "non-integral".
      if (std::isinf(*value) || *value == std::floor(*value)) {
        FailAt(path, node,
               "integer " + *text + " is out of range (a 64-bit integer holds at most " +
                   std::to_string(std::numeric_limits<std::int64_t>::max()) + ")");
      }
      FailAt(path, node, "expected an integer, got the non-integral number " + *text);
    }
  }
  FailAt(path, node, "expected an integer, got " + Describe(node));
}

}  // namespace

void Convert(const DocNode& node, const std::string& path, bool& out) {
  if (const std::string* text = PlainScalar(node)) {
    if (auto value = ParseBool(*text)) {
      out = *value;
      return;
    }
  }
  FailAt(path, node, "expected a boolean (true/false, yes/no, on/off), got " + Describe(node));
}

void Convert(const DocNode& node, const std::string& path, int& out) {
  const std::int64_t value = Integer(node, path);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    FailAt(path, node, "integer " + std::to_string(value) + " is out of range");
  }
  out = static_cast<int>(value);
}

void Convert(const DocNode& node, const std::string& path, std::int64_t& out) {
  out = Integer(node, path);
}

void Convert(const DocNode& node, const std::string& path, Bytes& out) {
  if (node.is_scalar()) {
    if (auto value = ParseSize(node.text)) {
      out = *value;
      return;
    }
  }
  FailAt(path, node,
         "expected a whole number of bytes, optionally with a unit (" + std::string(kSizeUnits) +
             "), got " + Describe(node));
}

void Convert(const DocNode& node, const std::string& path, double& out) {
  if (const std::string* text = PlainScalar(node)) {
    if (auto value = ParseFloat(*text)) {
      out = *value;
      return;
    }
  }
  FailAt(path, node, "expected a number, got " + Describe(node));
}

void Convert(const DocNode& node, const std::string& path, std::string& out) {
  if (!node.is_scalar()) FailAt(path, node, "expected a string, got " + Describe(node));
  out = node.text;
}

void Convert(const DocNode& node, const std::string& path, std::optional<std::string>& out) {
  if (node.is_null()) {
    out.reset();
    return;
  }
  std::string value;
  Convert(node, path, value);
  out = value;
}

void Convert(const DocNode& node, const std::string& path, std::optional<Bytes>& out) {
  if (node.is_null()) {
    out.reset();
    return;
  }
  Bytes value = 0;
  Convert(node, path, value);
  out = value;
}

void Convert(const DocNode& node, const std::string& path, std::vector<std::int64_t>& out) {
  out.clear();
  if (node.is_null()) return;
  if (!node.is_list()) FailAt(path, node, "expected a list of integers, got " + Describe(node));
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    out.push_back(Integer(node.items[i], path + "[" + std::to_string(i) + "]"));
  }
}

void Convert(const DocNode& node, const std::string& path, std::vector<std::string>& out) {
  out.clear();
  if (node.is_null()) return;
  if (node.is_scalar()) {  // DLIO turns a single string into a one-element list
    out.push_back(node.text);
    return;
  }
  if (!node.is_list()) FailAt(path, node, "expected a list of strings, got " + Describe(node));
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    std::string item;
    Convert(node.items[i], path + "[" + std::to_string(i) + "]", item);
    out.push_back(item);
  }
}

void Convert(const DocNode& node, const std::string& path,
             std::map<std::string, std::string>& out) {
  out.clear();
  if (node.is_null()) return;
  if (!node.is_map()) FailAt(path, node, "expected a mapping, got " + Describe(node));
  for (const auto& [key, value] : node.entries) {
    std::string text;
    Convert(value, path + "." + key, text);
    out[key] = text;
  }
}

void Convert(const DocNode& node, const std::string& path, Shuffle& out) {
  if (const std::string* text = PlainScalar(node)) {
    if (ParseBool(*text) == false) {  // YAML 1.1 false/off/no (defect D5)
      out = Shuffle::kOff;
      return;
    }
  }
  Convert<Shuffle>(node, path, out);
}

void Convert(const DocNode& node, const std::string& path, Preallocate& out) {
  if (const std::string* text = PlainScalar(node)) {
    if (const std::optional<bool> value = ParseBool(*text)) {
      out = *value ? Preallocate::kYes : Preallocate::kNo;
      return;
    }
  }
  Convert<Preallocate>(node, path, out);
}

std::int64_t ConvertFlooredInteger(const DocNode& node, const std::string& path) {
  if (const std::string* text = PlainScalar(node)) {
    if (auto value = ParseFloat(*text);
        value && std::isfinite(*value) && std::fabs(*value) < 9.2e18) {
      return static_cast<std::int64_t>(std::floor(*value));
    }
  }
  FailAt(path, node, "expected a number, got " + Describe(node));
}

DocNode ToNode(bool value) { return DocNode::Scalar(value ? "true" : "false"); }
DocNode ToNode(int value) { return DocNode::Scalar(std::to_string(value)); }
DocNode ToNode(std::int64_t value) { return DocNode::Scalar(std::to_string(value)); }
DocNode ToNode(Bytes value) { return DocNode::Scalar(std::to_string(value)); }
DocNode ToNode(double value) { return DocNode::Scalar(FormatFloat(value)); }
DocNode ToNode(const std::string& value) { return DocNode::Scalar(value, true); }

DocNode ToNode(const std::optional<std::string>& value) {
  return value ? ToNode(*value) : DocNode::Null();
}

DocNode ToNode(const std::optional<Bytes>& value) {
  return value ? ToNode(*value) : DocNode::Null();
}

DocNode ToNode(const std::vector<std::int64_t>& value) {
  DocNode list = DocNode::List();
  for (auto item : value) list.items.push_back(ToNode(item));
  return list;
}

DocNode ToNode(const std::vector<std::string>& value) {
  DocNode list = DocNode::List();
  for (const auto& item : value) list.items.push_back(ToNode(item));
  return list;
}

DocNode ToNode(const std::map<std::string, std::string>& value) {
  DocNode map = DocNode::Map();
  for (const auto& [key, item] : value) map.entries.emplace_back(key, ToNode(item));
  return map;
}

}  // namespace dlbench::config
