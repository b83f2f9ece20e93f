#include "config/override_parser.h"

#include <cctype>
#include <utility>

#include "config/scalar_parser.h"
#include "config/schema.h"
#include "config/secrets.h"
#include "config/utf8.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

bool IsIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Recursive descent over Hydra's value grammar (OverrideParser.g4, the subset DLIO users rely
// on). Typing of plain scalars is left to the schema, which knows each key's type.
class ValueParser {
 public:
  ValueParser(std::string text, std::string origin, std::string override_text)
      : text_(std::move(text)),
        origin_(std::move(origin)),
        override_text_(std::move(override_text)) {}

  DocNode parse_top_level() {
    skip_blanks();
    if (at_end()) return DocNode::Scalar("", true, origin_);  // `a.b=` sets the empty string
    DocNode value = parse_element(/*nested=*/false);
    skip_blanks();
    if (!at_end() && peek() == ',') {
      fail(
          "ambiguous value (a comma-separated sweep is only meaningful to Hydra --multirun); "
          "quote it or use a list");
    }
    if (!at_end()) fail("unexpected '" + std::string(1, peek()) + "'");
    return value;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_blanks() {
    while (!at_end() && IsBlank(peek())) ++pos_;
  }

  [[noreturn]] void fail(const std::string& what) const {
    // A credential is never shown, nor what in it did not parse.
    const std::string shown = HideSecretOverride(override_text_);
    if (shown != override_text_) {
      throw UsageError("override '" + shown +
                       "': the value does not parse as an override value; quote it, "
                       "++key='value' (a quote inside escaped with a backslash)");
    }
    throw UsageError("override '" + override_text_ + "': " + what + " (at character " +
                     std::to_string(pos_ + 1) + " of the value)");
  }

  DocNode parse_element(bool nested) {
    skip_blanks();
    if (at_end()) fail("a value is missing");
    const char c = peek();
    if (c == '[') return parse_list();
    if (c == '{') return parse_map();
    if (c == '\'' || c == '"') return parse_quoted();
    return parse_primitive(nested);
  }

  DocNode parse_list() {
    ++pos_;  // [
    DocNode list = DocNode::List(origin_);
    skip_blanks();
    if (!at_end() && peek() == ']') {
      ++pos_;
      return list;
    }
    while (true) {
      list.items.push_back(parse_element(/*nested=*/true));
      skip_blanks();
      if (at_end()) fail("missing ']'");
      if (peek() == ']') {
        ++pos_;
        return list;
      }
      if (peek() != ',') fail("expected ',' or ']'");
      ++pos_;
    }
  }

  DocNode parse_map() {
    ++pos_;  // {
    DocNode map = DocNode::Map(origin_);
    skip_blanks();
    if (!at_end() && peek() == '}') {
      ++pos_;
      return map;
    }
    while (true) {
      skip_blanks();
      const std::size_t start = pos_;
      while (!at_end() && IsIdentifierChar(peek())) ++pos_;
      const std::string key = text_.substr(start, pos_ - start);
      if (key.empty() || !IsIdentifierStart(key[0])) fail("expected a key name in the mapping");
      skip_blanks();
      if (at_end() || peek() != ':') fail("expected ':' after '" + key + "'");
      ++pos_;
      if (map.find(key)) fail("duplicate key '" + key + "'");
      map.entries.emplace_back(key, parse_element(/*nested=*/true));
      skip_blanks();
      if (at_end()) fail("missing '}'");
      if (peek() == '}') {
        ++pos_;
        return map;
      }
      if (peek() != ',') fail("expected ',' or '}'");
      ++pos_;
    }
  }

  DocNode parse_quoted() {
    const char quote = text_[pos_++];
    std::string value;
    while (true) {
      if (at_end()) fail(std::string("missing closing ") + quote);
      char c = text_[pos_++];
      if (c == '\\' && !at_end() && (peek() == quote || peek() == '\\')) {
        value += text_[pos_++];
        continue;
      }
      if (c == quote) break;
      value += c;
    }
    return DocNode::Scalar(value, true, origin_);
  }

  DocNode parse_primitive(bool nested) {
    std::string value;
    bool escaped = false;
    std::size_t trailing_blanks = 0;
    while (!at_end()) {
      const char c = peek();
      if (c == '\\' && pos_ + 1 < text_.size()) {
        value += text_[pos_ + 1];
        pos_ += 2;
        escaped = true;
        trailing_blanks = 0;
        continue;
      }
      if (c == ',' || (nested && (c == ']' || c == '}'))) break;
      if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\'' || c == '"') {
        fail("unexpected '" + std::string(1, c) + "' in an unquoted value; quote the value");
      }
      if (c == '(') {
        fail(
            "functions such as range(), choice() or int() are not supported; write the value "
            "itself");
      }
      if (c == '$' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '{') {
        fail("interpolations ${...} are not supported; write the value itself");
      }
      trailing_blanks = IsBlank(c) ? trailing_blanks + 1 : 0;
      value += c;
      ++pos_;
    }
    value.resize(value.size() - trailing_blanks);
    if (value.empty()) fail("a value is missing");
    if (!escaped && Lowercase(value) == "null") return DocNode::Null(origin_);
    // Hydra types a lone INT/FLOAT/BOOL token; anything else is a string. The schema does the
    // typing, so an escaped value is marked as the string it must stay.
    return DocNode::Scalar(value, escaped, origin_);
  }

  std::string text_;
  std::string origin_;
  std::string override_text_;
  std::size_t pos_ = 0;
};

std::vector<std::string> ParseKey(const std::string& key, const std::string& text) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    const std::string segment = key.substr(start, dot - start);
    if (segment.empty()) throw UsageError("override '" + text + "': empty key segment");
    if (std::isdigit(static_cast<unsigned char>(segment[0]))) {
      throw UsageError("override '" + text +
                       "': list elements cannot be set one by one; give "
                       "the whole list, e.g. key=[1,2]");
    }
    for (char c : segment) {
      if (!IsIdentifierChar(c)) {
        throw UsageError("override '" + text + "': '" + key +
                         "' is not a key (dot-separated names of letters, digits and _)");
      }
    }
    segments.push_back(segment);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return segments;
}

}  // namespace

DocNode ParseOverrideValue(const std::string& value, const std::string& origin) {
  return ValueParser(value, origin, origin).parse_top_level();
}

Override ParseOverride(const std::string& text) {
  if (const auto bad = FirstInvalidUtf8(text)) {
    throw UsageError("override at character " + std::to_string(*bad + 1) +
                     " is not UTF-8: overrides, like workload files, must be UTF-8 text");
  }
  Override result;
  result.text = text;
  std::string rest = text;
  if (rest.rfind("++", 0) == 0) {
    result.op = Override::Op::kUpsert;
    rest.erase(0, 2);
  } else if (rest.rfind('+', 0) == 0) {
    result.op = Override::Op::kAdd;
    rest.erase(0, 1);
  } else if (rest.rfind('~', 0) == 0) {
    result.op = Override::Op::kDelete;
    rest.erase(0, 1);
  } else {
    result.op = Override::Op::kSet;
  }
  const std::size_t equals = rest.find('=');
  std::string key = rest.substr(0, equals);
  while (!key.empty() && IsBlank(key.back())) key.pop_back();
  if (equals == std::string::npos && result.op != Override::Op::kDelete) {
    throw UsageError("override '" + text +
                     "': expected key=value (e.g. "
                     "++workload.dataset.num_files_train=16)");
  }
  if (key.empty()) throw UsageError("override '" + text + "': the key is missing");
  if (key == "workload" || key.find('/') != std::string::npos ||
      key.find('@') != std::string::npos) {
    throw UsageError("override '" + text +
                     "': config groups cannot be selected by an override; "
                     "give the workload name or file as the workload argument");
  }
  auto segments = ParseKey(key, text);
  if (segments[0] == "workload") segments.erase(segments.begin());
  if (segments.size() >= 1 && segments[0] == "hydra") {
    if (JoinKey(segments) == "hydra.run.dir") {
      segments = {"output", "folder"};
    } else if (JoinKey(segments) == "hydra.output_subdir" ||
               (segments.size() > 1 && segments[1] == "job")) {
      result.ignored_notice = "override '" + text + "': Hydra setting ignored by dlbench";
    } else {
      throw UsageError("override '" + text +
                       "': of Hydra's settings dlbench understands only "
                       "hydra.run.dir (the output folder)");
    }
  }
  result.key = segments;
  if (equals != std::string::npos) {
    ValueParser parser(rest.substr(equals + 1), "override " + HideSecretOverride(text), text);
    result.value = parser.parse_top_level();
  }
  return result;
}

}  // namespace dlbench::config
