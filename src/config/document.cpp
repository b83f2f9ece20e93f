#include "config/document.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

#include "config/scalar_parser.h"
#include "config/utf8.h"
#include "util/error.h"

namespace dlbench::config {

DocNode::DocNode() = default;
DocNode::DocNode(const DocNode&) = default;
DocNode::DocNode(DocNode&&) noexcept = default;
DocNode& DocNode::operator=(const DocNode&) = default;
DocNode& DocNode::operator=(DocNode&&) noexcept = default;
DocNode::~DocNode() = default;

DocNode DocNode::Null(std::string origin) {
  DocNode node;
  node.origin = std::move(origin);
  return node;
}

DocNode DocNode::Scalar(std::string text, bool quoted, std::string origin) {
  DocNode node;
  node.kind = Kind::kScalar;
  node.text = std::move(text);
  node.quoted = quoted;
  node.origin = std::move(origin);
  return node;
}

DocNode DocNode::List(std::string origin) {
  DocNode node;
  node.kind = Kind::kList;
  node.origin = std::move(origin);
  return node;
}

DocNode DocNode::Map(std::string origin) {
  DocNode node;
  node.kind = Kind::kMap;
  node.origin = std::move(origin);
  return node;
}

const DocNode* DocNode::find(const std::string& key) const {
  if (kind != Kind::kMap) return nullptr;
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

DocNode* DocNode::find(const std::string& key) {
  return const_cast<DocNode*>(static_cast<const DocNode*>(this)->find(key));
}

DocNode& DocNode::set(const std::string& key, DocNode value) {
  if (DocNode* existing = find(key)) {
    *existing = std::move(value);
    return *existing;
  }
  entries.emplace_back(key, std::move(value));
  return entries.back().second;
}

bool DocNode::erase(const std::string& key) {
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first == key) {
      entries.erase(it);
      return true;
    }
  }
  return false;
}

bool SameValue(const DocNode& a, const DocNode& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case DocNode::Kind::kNull:
      return true;
    case DocNode::Kind::kScalar: {
      if (a.text == b.text) return true;
      if (a.quoted || b.quoted) return false;
      const auto x = ParseFloat(a.text), y = ParseFloat(b.text);
      return x && y && *x == *y;
    }
    case DocNode::Kind::kList:
      if (a.items.size() != b.items.size()) return false;
      for (std::size_t i = 0; i < a.items.size(); ++i) {
        if (!SameValue(a.items[i], b.items[i])) return false;
      }
      return true;
    case DocNode::Kind::kMap:
      if (a.entries.size() != b.entries.size()) return false;
      for (const auto& [key, value] : a.entries) {
        const DocNode* other = b.find(key);
        if (!other || !SameValue(value, *other)) return false;
      }
      return true;
  }
  return false;
}

std::string Describe(const DocNode& node) {
  switch (node.kind) {
    case DocNode::Kind::kNull:
      return "null";
    case DocNode::Kind::kScalar:
      return node.quoted ? "'" + node.text + "'" : node.text;
    case DocNode::Kind::kList: {
      std::string out = "[";
      for (std::size_t i = 0; i < node.items.size(); ++i) {
        out += (i ? ", " : "") + Describe(node.items[i]);
      }
      return out + "]";
    }
    case DocNode::Kind::kMap: {
      std::string out = "{";
      for (std::size_t i = 0; i < node.entries.size(); ++i) {
        out += (i ? ", " : "") + node.entries[i].first + ": " + Describe(node.entries[i].second);
      }
      return out + "}";
    }
  }
  return "";
}

std::string Where(const DocNode& node) {
  return node.origin.empty() ? "" : " (" + node.origin + ")";
}

namespace {

std::string OriginOf(const YAML::Mark& mark, const std::string& name) {
  if (mark.line < 0) return name;
  return name + ":" + std::to_string(mark.line + 1);
}

DocNode Convert(const YAML::Node& node, const std::string& name, const std::string& origin) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return DocNode::Null(origin);
    case YAML::NodeType::Scalar:
      // yaml-cpp tags quoted scalars "!" and leaves plain ones "?".
      if (node.Tag() != "!" && IsNullSpelling(node.Scalar())) return DocNode::Null(origin);
      return DocNode::Scalar(node.Scalar(), node.Tag() == "!", origin);
    case YAML::NodeType::Sequence: {
      DocNode list = DocNode::List(origin);
      for (const auto& item : node) {
        list.items.push_back(Convert(item, name, OriginOf(item.Mark(), name)));
      }
      return list;
    }
    case YAML::NodeType::Map: {
      DocNode map = DocNode::Map(origin);
      for (auto it = node.begin(); it != node.end(); ++it) {
        const std::string key_origin = OriginOf(it->first.Mark(), name);
        if (!it->first.IsScalar()) {
          throw UsageError("a mapping key must be a plain name (" + key_origin + ")");
        }
        const std::string key = it->first.Scalar();
        if (const DocNode* first = map.find(key)) {
          throw UsageError("duplicate key '" + key + "' (" + key_origin + "); it is already set" +
                           Where(*first));
        }
        map.entries.emplace_back(key, Convert(it->second, name, key_origin));
      }
      return map;
    }
  }
  return DocNode::Null(origin);
}

bool LooksTyped(const std::string& text) {
  return IsNullSpelling(text) || ParseBool(text) || ParseFloat(text) || text == "y" ||
         text == "n" || text == "Y" || text == "N";
}

bool AllScalars(const DocNode& list) {
  for (const auto& item : list.items) {
    if (item.is_list() || item.is_map()) return false;
  }
  return true;
}

void Emit(YAML::Emitter& out, const DocNode& node) {
  switch (node.kind) {
    case DocNode::Kind::kNull:
      out << YAML::Null;
      break;
    case DocNode::Kind::kScalar:
      if (node.quoted && LooksTyped(node.text)) {
        out << YAML::DoubleQuoted << node.text;
      } else {
        out << node.text;
      }
      break;
    case DocNode::Kind::kList:
      if (AllScalars(node)) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const auto& item : node.items) Emit(out, item);
      out << YAML::EndSeq;
      break;
    case DocNode::Kind::kMap:
      if (node.entries.empty()) out << YAML::Flow;
      out << YAML::BeginMap;
      for (const auto& [key, value] : node.entries) {
        out << YAML::Key << key << YAML::Value;
        Emit(out, value);
      }
      out << YAML::EndMap;
      break;
  }
}

// True when the quoted scalar starting at `text[pos]` has its closing quote ('' and \" escape
// one inside). yaml-cpp accepts a quote left open to the end of the text, swallowing every line
// after it into one string.
bool QuoteClosed(const std::string& text, std::size_t pos) {
  if (pos >= text.size() || (text[pos] != '"' && text[pos] != '\'')) return true;
  const char quote = text[pos];
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;
      } else {
        return true;
      }
    }
  }
  return false;
}

void CheckQuotesClosed(const YAML::Node& node, const std::string& text, const std::string& name) {
  const auto check = [&](const YAML::Node& scalar) {
    if (scalar.IsScalar() && scalar.Tag() == "!" && scalar.Mark().pos >= 0 &&
        !QuoteClosed(text, static_cast<std::size_t>(scalar.Mark().pos))) {
      throw UsageError(name + ":" + std::to_string(scalar.Mark().line + 1) +
                       ": not valid YAML: a quoted string is not closed before the end");
    }
  };
  check(node);
  if (node.IsSequence()) {
    for (const auto& item : node) CheckQuotesClosed(item, text, name);
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      check(it->first);
      CheckQuotesClosed(it->second, text, name);
    }
  }
}

// A UTF-16 or UTF-32 file (with its byte order mark, or NULs among the first bytes, YAML 1.2
// section 5.2) is decoded to UTF-8 by yaml-cpp; every other text must already be UTF-8.
bool EncodedAsUtf8(const std::string& text) {
  if (text.size() >= 2 &&
      ((text[0] == '\xFE' && text[1] == '\xFF') || (text[0] == '\xFF' && text[1] == '\xFE'))) {
    return false;
  }
  return !(text.size() >= 2 && (text[0] == '\0' || text[1] == '\0'));
}

void CheckUtf8(const std::string& text, const std::string& name) {
  if (!EncodedAsUtf8(text)) return;
  const auto bad = FirstInvalidUtf8(text);
  if (!bad) return;
  const std::string_view before(text.data(), *bad);
  const std::size_t newline = before.rfind('\n');
  const std::size_t column = newline == std::string_view::npos ? *bad + 1 : *bad - newline;
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[*bad]));
  throw UsageError(name + ":" + std::to_string(line) + ": not valid YAML: byte " + hex +
                   " at column " + std::to_string(column) +
                   " is not UTF-8 (a workload file must be UTF-8; re-save it, e.g. with "
                   "iconv -f latin1 -t utf-8)");
}

}  // namespace

DocNode ParseYaml(const std::string& text, const std::string& name) {
  CheckUtf8(text, name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError(name + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  CheckQuotesClosed(root, text, name);
  return Convert(root, name, name);
}

DocNode ReadYamlFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw IoError("open", path.string(), errno, "cannot read the workload file");
  std::stringstream text;
  text << in.rdbuf();
  DocNode root = ParseYaml(text.str(), path.string());
  // An empty file (or comments only) is a mistake, not a request for every default.
  if (root.is_null()) throw UsageError("workload file " + path.string() + " is empty");
  return root;
}

std::string EmitYaml(const DocNode& node) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetNullFormat(YAML::LowerNull);
  Emit(out, node);
  std::string text = out.c_str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace dlbench::config
