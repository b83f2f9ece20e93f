// The launcher template of `dlbench sweep --launcher`: the command line that starts one point's
// job, with the point's rank count in placeholders, e.g. "mpirun -np {ranks} --oversubscribe",
// "srun -n {ranks}", or for several hosts "srun -N {hosts} --ntasks-per-node {ranks_per_host}"
// (MLPerf Storage's rule: the same number of accelerators on every host). The dlbench command
// line of the point is appended after the template's words.
#pragma once

#include <string>
#include <vector>

namespace dlbench::sweep {

// Where the template places the count: a job of `hosts` hosts with `ranks_per_host` ranks each.
struct Placement {
  int hosts = 1;
  int ranks_per_host = 1;
  int ranks() const { return hosts * ranks_per_host; }
};

class LauncherTemplate {
 public:
  // Splits `text` into words at blanks (single and double quotes group words, without escapes)
  // and checks its placeholders. Throws Error(kUsage), naming the template, for an empty
  // template, an unclosed quote or brace, a placeholder other than {ranks}, {hosts} and
  // {ranks_per_host}, and a template without {ranks} nor {ranks_per_host} (the count would not
  // reach the launcher).
  static LauncherTemplate Parse(const std::string& text);

  // The template's words with every placeholder replaced.
  std::vector<std::string> expand(const Placement& placement) const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::vector<std::string> words_;
};

}  // namespace dlbench::sweep
