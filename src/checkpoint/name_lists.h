// Checkpoint names as ranks exchange them (one per line, in one string: Communicator gathers and
// broadcasts strings) and as notes list them.
#pragma once

#include <string>
#include <vector>

namespace dlbench::checkpoint {

// "a\nb\n" from {"a", "b"}, and back (empty lines are dropped).
std::string JoinNames(const std::vector<std::string>& names);
std::vector<std::string> SplitNames(const std::string& text);

// " a b": the names as a note lists them after a colon.
template <class Names>
std::string ListNames(const Names& names) {
  std::string text;
  for (const std::string& name : names) text += " " + name;
  return text;
}

}  // namespace dlbench::checkpoint
