#include "workflow/run_results.h"

#include <memory>
#include <string>

#include "storage/atomic_file.h"
#include "storage/file.h"
#include "util/build_info.h"

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
    : folder_(std::move(folder)), writer_(comm.is_root()), rank_(comm.rank()), ranks_(comm.size()) {
  summary_[kRunStatusKey] = {
      {"complete", false}, {"phase", kSetupPhase}, {"exit_code", nullptr}, {"error", nullptr}};
  const build::BuildInfo& build = build::Info();
  summary_[kBuildKey] = {{"version", build.version},
                         {"git_commit", build.git_commit},
                         {"compiler", build.compiler},
                         {"build_type", build.build_type}};
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

void RunResults::fail(ExitCode code, const std::string& message, bool collective) noexcept {
  try {
    if (!writer_) {
      if (!collective) record_failure_of_this_rank(code, message);
      return;
    }
    metrics::Json& status = summary_[kRunStatusKey];
    status["exit_code"] = static_cast<int>(code);
    status["error"] = message;
    write();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the error being reported matters more
  }
}

void RunResults::record_failure_of_this_rank(ExitCode code, const std::string& message) const {
  storage::Env& env = storage::PosixEnv();
  const std::string path = (folder_ / "summary.json").string();
  std::unique_ptr<storage::ReadableFile> file = env.open_read(path);
  std::string text(file->size(), '\0');
  text.resize(file->read_at(0, text.data(), text.size()));
  file.reset();
  metrics::Json summary = metrics::Json::parse(text);
  metrics::Json& status = summary[kRunStatusKey];
  if (!status.is_object() || !status.value("error", metrics::Json()).is_null()) return;
  status["phase"] = summary_.at(kRunStatusKey).at("phase");
  status["exit_code"] = static_cast<int>(code);
  status["error"] =
      "rank " + std::to_string(rank_) + " of " + std::to_string(ranks_) + ": " + message;
  // Written under a name of this rank's, then renamed over rank 0's file.
  const std::string own = (folder_ / ("summary.rank-" + std::to_string(rank_) + ".json")).string();
  WriteFileAtomically(own, summary.dump(2) + "\n");
  env.rename(own, path);
}

void RunResults::complete() {
  // Said only once written: if the write fails, fail() records that failure, not "complete".
  metrics::Json done = summary_;
  done[kRunStatusKey] = {
      {"complete", true}, {"phase", kDonePhase}, {"exit_code", 0}, {"error", nullptr}};
  if (writer_) WriteFileAtomically(folder_ / "summary.json", done.dump(2) + "\n");
  summary_ = std::move(done);
}

}  // namespace dlbench::workflow
