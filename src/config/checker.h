// How validation rules report what they find (config/validate.h): a rule that fails names the
// key, what is allowed, and where the key was set (" (w.yaml:7)", or an override). Shared by the
// files that hold the rules (validate.cpp, storage_rules.cpp); not used outside config/.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/config_builder.h"
#include "config/phase.h"
#include "config/typed_value.h"
#include "util/error.h"

namespace dlbench::config {

// Reports rule violations with the keys' origins; a key left at its default has none. Holds
// references: the origins and the notice list must outlive it.
class Checker {
 public:
  Checker(const KeyOrigins& origins, std::vector<std::string>& notices)
      : origins_(origins), notices_(notices) {}

  // " (w.yaml:7)" or "" for a default. A key inside a mapping set as a whole (a tier's path
  // inside storage.tiers) has the origin of the mapping.
  std::string at(std::string key) const {
    for (;;) {
      const auto it = origins_.find(key);
      if (it != origins_.end()) return it->second.empty() ? "" : " (" + it->second + ")";
      const std::size_t dot = key.rfind('.');
      if (dot == std::string::npos) return "";
      key.resize(dot);
    }
  }

  // "key = value (origin)", for messages that involve several keys; "(the default)" for a key
  // the workload does not set (a pytorch workload without reader.data_loader was told of a
  // "reader.data_loader = tensorflow" it never wrote).
  template <typename T>
  std::string is(const std::string& key, const T& value) const {
    const std::string where = at(key);
    return key + " = " + Describe(ToNode(value)) + (where.empty() ? " (the default)" : where);
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw UsageError(key + ": " + what + at(key));
  }

  [[noreturn]] void fail_combination(const std::string& what) const { throw UsageError(what); }

  template <typename T>
  void at_least(const std::string& key, T value, T minimum) const {
    if (value < minimum) {
      fail(key, "must be >= " + std::to_string(minimum) + ", got " + std::to_string(value));
    }
  }

  void positive(const std::string& key, double value) const {
    if (!(value > 0) || !std::isfinite(value)) {
      fail(key, "must be a finite number > 0, got " + Describe(ToNode(value)));
    }
  }

  void non_negative(const std::string& key, double value) const {
    if (!(value >= 0) || !std::isfinite(value)) {
      fail(key, "must be a finite number >= 0, got " + Describe(ToNode(value)));
    }
  }

  void all_positive(const std::string& key, const std::vector<std::int64_t>& values) const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] <= 0) {
        fail(key, "every element must be >= 1, got " + std::to_string(values[i]) + " at index " +
                      std::to_string(i));
      }
    }
  }

  // A name or path that dlbench prints (on the terminal and in dlio.log, one entry per line) or
  // makes a folder of: no control character (a newline in model.name broke dlio.log's lines and
  // made a folder "output/<first line>\n<second line>/").
  void one_line(const std::string& key, const std::string& value) const {
    for (std::size_t i = 0; i < value.size(); ++i) {
      const auto byte = static_cast<unsigned char>(value[i]);
      if (byte >= 0x20 && byte != 0x7F) continue;
      const std::string what = byte == '\n'   ? "a newline"
                               : byte == '\t' ? "a tab"
                               : byte == '\r' ? "a carriage return"
                                              : "control character " + std::to_string(byte);
      fail(key,
           "must be one line without control characters (it is printed in dlio.log and on "
           "the terminal, one line per entry), got " +
               what + " at character " + std::to_string(i + 1));
    }
  }

  void notice(const std::string& text) const { notices_.push_back(text); }

 private:
  const KeyOrigins& origins_;
  std::vector<std::string>& notices_;
};

// Which phases the run executes (config/phase.h): LoadOptions::forced alone, else those the
// workflow section enables. `stage`: the run stages or reads a staged copy, that is the stage
// command, or any run of a workload with workflow.stage on (workflow::Run resolves the staged
// folder before its first phase; training stages as it reads with per_epoch and on_demand).
struct PhasesRun {
  bool generate = false;
  bool stage = false;
  bool train = false;
  bool checkpoint = false;
};
PhasesRun PhasesThatRun(const WorkflowConfig& workflow, std::optional<Phase> forced);

// The rules on storage tiers, the burst buffer, staging and the folders dlbench writes into
// (storage_rules.cpp).
void CheckStorage(const Config& config, const Checker& check);
// dataset_rules.cpp: the dataset's rules, and the element-type rule the reader's keys share.
void CheckDataset(const Config& config, const Checker& check, const PhasesRun& run);
void CheckElementType(const Checker& check, const std::string& key, const std::string& name);
// stage.threads always; the tiers staging names and where the dataset is when staging runs.
void CheckStage(const Config& config, const Checker& check, bool stages);
void CheckBurstBuffer(const Config& config, const Checker& check);
void CheckFolders(const Config& config, const Checker& check, const PhasesRun& run);

}  // namespace dlbench::config
