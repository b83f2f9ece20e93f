#include "workflow/run_results.h"

#include <cerrno>
#include <cstdio>
#include <fstream>

#include "util/error.h"

namespace dlbench::workflow {
namespace {

void MergeInto(metrics::Json& target, const metrics::Json& part) {
  for (auto it = part.begin(); it != part.end(); ++it) {
    if (it.value().is_object() && target.contains(it.key()) && target[it.key()].is_object()) {
      MergeInto(target[it.key()], it.value());
    } else {
      target[it.key()] = it.value();
    }
  }
}

}  // namespace

void WriteFileAtomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.string() + ".dlbench-partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw IoError("write", temporary.string(), errno);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw IoError("rename to " + path.string(), temporary.string(), errno);
  }
}

RunResults::RunResults(std::filesystem::path folder, const mpi::Communicator& comm)
    : folder_(std::move(folder)), writer_(comm.is_root()) {}

void RunResults::Add(const metrics::Json& part) {
  if (!writer_) return;
  MergeInto(summary_, part);
  WriteFileAtomically(folder_ / "summary.json", summary_.dump(2) + "\n");
}

}  // namespace dlbench::workflow
