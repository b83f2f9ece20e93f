#include "workflow/run_results.h"

#include "storage/atomic_file.h"

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
  storage::AtomicFileWriter writer(storage::PosixEnv(), path.string());
  writer.file().append(text.data(), text.size());
  writer.commit(/*fsync=*/false);
}

RunResults::RunResults(std::filesystem::path folder, const mpi::Communicator& comm)
    : folder_(std::move(folder)), writer_(comm.is_root()) {
  summary_[kRunStatusKey] = {
      {"complete", false}, {"phase", kSetupPhase}, {"exit_code", nullptr}, {"error", nullptr}};
  write();
}

void RunResults::write() const {
  if (!writer_) return;
  WriteFileAtomically(folder_ / "summary.json", summary_.dump(2) + "\n");
}

void RunResults::add(const metrics::Json& part) {
  if (!writer_) return;
  MergeInto(summary_, part);
  write();
}

void RunResults::begin_phase(const std::string& phase) {
  summary_[kRunStatusKey]["phase"] = phase;
  write();
}

void RunResults::fail(ExitCode code, const std::string& message) noexcept {
  try {
    metrics::Json& status = summary_[kRunStatusKey];
    status["exit_code"] = static_cast<int>(code);
    status["error"] = message;
    write();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the error being reported matters more
  }
}

void RunResults::complete() {
  summary_[kRunStatusKey] = {
      {"complete", true}, {"phase", kDonePhase}, {"exit_code", 0}, {"error", nullptr}};
  write();
}

}  // namespace dlbench::workflow
