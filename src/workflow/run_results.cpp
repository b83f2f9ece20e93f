#include "workflow/run_results.h"

#include <csignal>
#include <memory>
#include <string>

#include "storage/atomic_file.h"
#include "storage/file.h"
#include "util/build_info.h"
#include "util/file_names.h"

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

metrics::Json ReadSummaryFile(const std::string& path) {
  std::unique_ptr<storage::ReadableFile> file = storage::PosixEnv().open_read(path);
  std::string text(file->size(), '\0');
  text.resize(file->read_at(0, text.data(), text.size()));
  return metrics::Json::parse(text);
}

// Whether a run_status holds a failure already.
bool HoldsFailure(const metrics::Json& summary) {
  const auto status = summary.find(kRunStatusKey);
  return status != summary.end() && status->is_object() &&
         !status->value("error", metrics::Json()).is_null();
}

// summary.json's text. A message can hold bytes that are not UTF-8 (a file's name, or its bytes
// in an error): they become U+FFFD rather than the dump throwing, which left the summary saying
// the run was still in its phase, as if killed, instead of recording the failure.
std::string SummaryText(const metrics::Json& summary) {
  return summary.dump(2, ' ', false, metrics::Json::error_handler_t::replace) + "\n";
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
  WriteFileAtomically(folder_ / file_names::kSummary, SummaryText(summary_));
}

void RunResults::add(const metrics::Json& part) {
  if (!writer_) return;
  const std::lock_guard lock(mutex_);
  if (interrupted_) return;
  MergeInto(summary_, part);
  write();
}

void RunResults::begin_phase(const std::string& phase) {
  const std::lock_guard lock(mutex_);
  if (interrupted_) return;
  summary_[kRunStatusKey]["phase"] = phase;
  write();
}

void RunResults::fail(ExitCode code, const std::string& message, bool collective) noexcept {
  try {
    const std::lock_guard lock(mutex_);
    if (interrupted_) return;
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
  const std::string path = (folder_ / file_names::kSummary).string();
  metrics::Json summary = ReadSummaryFile(path);
  metrics::Json& status = summary[kRunStatusKey];
  if (!status.is_object() || !status.value("error", metrics::Json()).is_null()) return;
  status["phase"] = summary_.at(kRunStatusKey).at("phase");
  status["exit_code"] = static_cast<int>(code);
  status["error"] =
      "rank " + std::to_string(rank_) + " of " + std::to_string(ranks_) + ": " + message;
  // Written under a name of this rank's, then renamed over rank 0's file.
  const std::string own = (folder_ / ("summary.rank-" + std::to_string(rank_) + ".json")).string();
  WriteFileAtomically(own, SummaryText(summary));
  env.rename(own, path);
}

void RunResults::complete() {
  const std::lock_guard lock(mutex_);
  if (interrupted_) return;
  // Said only once written: if the write fails, fail() records that failure, not "complete".
  metrics::Json done = summary_;
  done[kRunStatusKey] = {
      {"complete", true}, {"phase", kDonePhase}, {"exit_code", 0}, {"error", nullptr}};
  if (writer_) WriteFileAtomically(folder_ / file_names::kSummary, SummaryText(done));
  summary_ = std::move(done);
}

void RunResults::interrupt(int signal_number, const std::string& sent_by) noexcept {
  try {
    const std::lock_guard lock(mutex_);
    if (interrupted_) return;
    interrupted_ = true;
    if (!writer_) return;
    // A failure recorded before is the cause, the signal its consequence: a rank that failed
    // alone recorded its error in the file and ended the job through MPI_Abort, which mpirun
    // carries out by signalling the other ranks.
    if (HoldsFailure(summary_) ||
        HoldsFailure(ReadSummaryFile((folder_ / file_names::kSummary).string())))
      return;
    const std::string name = SignalName(signal_number);
    metrics::Json& status = summary_[kRunStatusKey];
    status["exit_code"] = 128 + signal_number;
    status["error"] = "interrupted by " + name;
    status["signal"] = name;
    if (!sent_by.empty()) status["sent_by"] = sent_by;
    write();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the process is ending on the signal anyway
  }
}

std::string SignalName(int signal_number) {
  switch (signal_number) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "signal " + std::to_string(signal_number);
  }
}

}  // namespace dlbench::workflow
