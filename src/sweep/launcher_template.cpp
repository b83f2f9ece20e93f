#include "sweep/launcher_template.h"

#include <array>
#include <cctype>

#include "util/error.h"

namespace dlbench::sweep {
namespace {

constexpr std::array<const char*, 3> kPlaceholders = {"ranks", "hosts", "ranks_per_host"};

Error TemplateError(const std::string& text, const std::string& problem) {
  return UsageError("--launcher '" + text + "': " + problem);
}

std::vector<std::string> SplitWords(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (const char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) throw TemplateError(text, std::string("unclosed quote ") + quote);
  if (in_word) words.push_back(word);
  return words;
}

// Calls `on_placeholder(name)` for every {name} of `word` and `on_text` for the text between.
template <typename OnText, typename OnPlaceholder>
void ScanWord(const std::string& text, const std::string& word, OnText on_text,
              OnPlaceholder on_placeholder) {
  std::size_t at = 0;
  while (at < word.size()) {
    const std::size_t open = word.find('{', at);
    if (open == std::string::npos) {
      on_text(word.substr(at));
      return;
    }
    on_text(word.substr(at, open - at));
    const std::size_t close = word.find('}', open);
    if (close == std::string::npos) {
      throw TemplateError(text, "unclosed '{' in '" + word + "'");
    }
    on_placeholder(word.substr(open + 1, close - open - 1));
    at = close + 1;
  }
}

}  // namespace

LauncherTemplate LauncherTemplate::Parse(const std::string& text) {
  LauncherTemplate launcher;
  launcher.text_ = text;
  launcher.words_ = SplitWords(text);
  if (launcher.words_.empty()) {
    throw UsageError(
        "--launcher is empty: give the command that starts a job, e.g. \"mpirun -np {ranks}\"");
  }
  bool places_count = false;
  for (const std::string& word : launcher.words_) {
    ScanWord(
        text, word, [](const std::string&) {},
        [&](const std::string& name) {
          bool known = false;
          for (const char* placeholder : kPlaceholders) known = known || name == placeholder;
          if (!known) {
            throw TemplateError(text, "unknown placeholder {" + name +
                                          "}; known: {ranks}, {hosts}, {ranks_per_host}");
          }
          places_count = places_count || name != "hosts";
        });
  }
  if (!places_count) {
    throw TemplateError(text,
                        "no {ranks} (nor {ranks_per_host}): the launcher would not start the "
                        "point's number of accelerators, e.g. \"mpirun -np {ranks}\"");
  }
  return launcher;
}

std::vector<std::string> LauncherTemplate::expand(const Placement& placement) const {
  std::vector<std::string> argv;
  for (const std::string& word : words_) {
    std::string expanded;
    ScanWord(
        text_, word, [&](const std::string& part) { expanded += part; },
        [&](const std::string& name) {
          const int value = name == "ranks"   ? placement.ranks()
                            : name == "hosts" ? placement.hosts
                                              : placement.ranks_per_host;
          expanded += std::to_string(value);
        });
    argv.push_back(expanded);
  }
  return argv;
}

}  // namespace dlbench::sweep
