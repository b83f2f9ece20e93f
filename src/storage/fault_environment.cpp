#include "storage/fault_environment.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "storage/posix_file.h"
#include "util/error.h"

namespace dlbench::storage {
namespace {

std::atomic<FaultInjectionEnv*> armed{nullptr};

Error Bad(const std::string& fault, const std::string& why) {
  return UsageError(std::string(kFaultsVariable) + ": '" + fault + "': " + why);
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::optional<std::uint64_t> Whole(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<FaultOp> OpNamed(const std::string& name) {
  static constexpr std::pair<const char*, FaultOp> kNames[] = {
      {"open_read", FaultOp::kOpenRead},
      {"create", FaultOp::kCreate},
      {"open_write", FaultOp::kOpenWrite},
      {"read", FaultOp::kRead},
      {"write", FaultOp::kWrite},
      {"sync", FaultOp::kSync},
      {"close", FaultOp::kClose},
      {"rename", FaultOp::kRename},
      {"mkdir", FaultOp::kCreateDirectories},
      {"remove", FaultOp::kRemove},
      {"sync_dir", FaultOp::kSyncDirectory},
      {"remove_tree", FaultOp::kRemoveTree},
      {"list", FaultOp::kListDirectory},
      {"free_space", FaultOp::kFreeSpace},
      {"truncate", FaultOp::kTruncate}};
  for (const auto& [text, op] : kNames) {
    if (name == text) return op;
  }
  return std::nullopt;
}

std::optional<int> ErrnoNamed(const std::string& name) {
  static constexpr std::pair<const char*, int> kNames[] = {
      {"EIO", EIO},       {"ENOSPC", ENOSPC}, {"EDQUOT", EDQUOT}, {"EACCES", EACCES},
      {"EPERM", EPERM},   {"EROFS", EROFS},   {"ENOENT", ENOENT}, {"EINTR", EINTR},
      {"EAGAIN", EAGAIN}, {"ESTALE", ESTALE}, {"EBADF", EBADF},   {"ENOMEM", ENOMEM}};
  for (const auto& [text, value] : kNames) {
    if (name == text) return value;
  }
  const std::optional<std::uint64_t> number = Whole(name);
  if (number && *number > 0 && *number < 4096) return static_cast<int>(*number);
  return std::nullopt;
}

// One fault's fields; returns nothing when its rank= names another process.
std::optional<Fault> ParseFault(const std::string& text, int rank) {
  std::optional<Fault> fault;
  std::optional<std::uint64_t> nth;
  std::optional<int> only_rank;
  std::vector<std::pair<std::string, std::string>> fields;
  for (const std::string& field : Split(text, ',')) {
    const std::size_t equals = field.find('=');
    fields.emplace_back(field.substr(0, equals),
                        equals == std::string::npos ? "" : field.substr(equals + 1));
  }
  for (const auto& [key, value] : fields) {
    if (key != "op") continue;
    if (fault) throw Bad(text, "op= given twice");
    if (value == "any") {
      fault = Fault::AnyOperation();
    } else if (const std::optional<FaultOp> op = OpNamed(value)) {
      fault = Fault(*op);
    } else {
      throw Bad(text, "unknown operation '" + value +
                          "' (open_read, create, open_write, read, write, sync, close, rename, "
                          "mkdir, remove, sync_dir, remove_tree, list, free_space, truncate, any)");
    }
  }
  if (!fault) throw Bad(text, "no op= (which operation to fail)");
  int actions = 0;
  for (const auto& [key, value] : fields) {
    if (key == "op") continue;
    if (key == "nth") {
      nth = Whole(value);
      if (!nth || *nth == 0) throw Bad(text, "nth= must be a whole number >= 1");
      fault->nth(*nth);
    } else if (key == "rank") {
      const std::optional<std::uint64_t> r = Whole(value);
      if (!r) throw Bad(text, "rank= must be a whole number");
      only_rank = static_cast<int>(*r);
    } else if (key == "path") {
      if (value.empty()) throw Bad(text, "path= needs the text paths must contain");
      fault->on_paths_containing(value);
    } else if (key == "keep") {
      fault->keep_failing();
    } else if (key == "error") {
      const std::optional<int> e = ErrnoNamed(value);
      if (!e) throw Bad(text, "error= must be an errno name (EIO, ENOSPC, ...) or number");
      fault->error(*e);
      ++actions;
    } else if (key == "short") {
      fault->cut_short();
      ++actions;
    } else if (key == "slow") {
      char* end = nullptr;
      const double seconds = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0 ||
          seconds > 3600) {
        throw Bad(text, "slow= must be a number of seconds between 0 and 3600");
      }
      fault->slow_down(seconds);
      ++actions;
    } else if (key == "kill") {
      fault->kill();
      ++actions;
    } else if (key == "interrupt") {
      fault->interrupt();
      ++actions;
    } else {
      throw Bad(text, "unknown field '" + key +
                          "' (op, nth, keep, path, rank, error, short, slow, kill, interrupt)");
    }
  }
  if (actions > 1) throw Bad(text, "give one of error=, short, slow=, kill and interrupt");
  if (only_rank && *only_rank != rank) return std::nullopt;
  return fault;
}

}  // namespace

std::vector<Fault> ParseFaults(const std::string& text, int rank) {
  std::vector<Fault> faults;
  if (text == "none") return faults;
  const std::vector<std::string> parts = Split(text, ';');
  if (parts.empty()) throw Bad(text, "no fault (write 'none' to count operations only)");
  for (const std::string& part : parts) {
    if (std::optional<Fault> fault = ParseFault(part, rank)) faults.push_back(std::move(*fault));
  }
  return faults;
}

void ArmFaultsFromEnvironment(int rank) {
  const char* text = std::getenv(kFaultsVariable);
  if (text == nullptr || armed.load() != nullptr) return;
  const std::vector<Fault> faults = ParseFaults(text, rank);
  static FaultInjectionEnv env(BarePosixEnv());
  for (const Fault& fault : faults) env.inject(fault);
  env.announce_faults();
  armed.store(&env);
}

FaultInjectionEnv* ArmedFaults() { return armed.load(); }

}  // namespace dlbench::storage
