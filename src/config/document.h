// The workload document before typing: a YAML tree whose every node remembers where it came
// from (file:line or the override that set it), so that errors can point at the source.
// Files, override values and ToYaml output all use this one representation.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace dlbench::config {

struct DocNode {
  enum class Kind { kNull, kScalar, kList, kMap };

  Kind kind = Kind::kNull;
  std::string text;            // kScalar
  bool quoted = false;         // kScalar written in quotes: always a string, never a number or bool
  std::vector<DocNode> items;  // kList
  std::vector<std::pair<std::string, DocNode>> entries;  // kMap, in document order
  std::string origin;  // "workloads/x.yaml:7" or "override ++workload.x=v"; empty for defaults

  // Defined in document.cpp, where DocNode is complete: clang with libstdc++ in C++20 otherwise
  // instantiates the constexpr destructor of `entries` while std::pair<std::string, DocNode> is
  // still incomplete, and rejects the class (the fuzz build, tests/fuzz).
  DocNode();
  DocNode(const DocNode&);
  DocNode(DocNode&&) noexcept;
  DocNode& operator=(const DocNode&);
  DocNode& operator=(DocNode&&) noexcept;
  ~DocNode();

  static DocNode Null(std::string origin = "");
  static DocNode Scalar(std::string text, bool quoted = false, std::string origin = "");
  static DocNode List(std::string origin = "");
  static DocNode Map(std::string origin = "");

  bool is_null() const { return kind == Kind::kNull; }
  bool is_scalar() const { return kind == Kind::kScalar; }
  bool is_list() const { return kind == Kind::kList; }
  bool is_map() const { return kind == Kind::kMap; }

  // Map access (nullptr / false when absent or when this is not a map).
  const DocNode* find(const std::string& key) const;
  DocNode* find(const std::string& key);
  // Inserts or replaces `key`, keeping the position of an existing entry.
  DocNode& set(const std::string& key, DocNode value);
  bool erase(const std::string& key);
};

// Structural equality of values, ignoring origins. Numbers compare by value (1 == 1.0).
bool SameValue(const DocNode& a, const DocNode& b);

// A short rendering of a value for messages: `4`, `'off'`, `[1, 2]`, `{mean: 1}`.
std::string Describe(const DocNode& node);

// " (origin)" or "" when the node has no origin, for appending to messages.
std::string Where(const DocNode& node);

// Parses YAML text; `name` is used in origins and errors (usually the file path).
// Duplicate keys in one mapping are an error (as in OmegaConf's loader).
DocNode ParseYaml(const std::string& text, const std::string& name);
DocNode ReadYamlFile(const std::filesystem::path& path);

// Block-style YAML text for a document; lists of scalars are written in flow style.
std::string EmitYaml(const DocNode& node);

}  // namespace dlbench::config
