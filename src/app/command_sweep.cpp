// `dlbench sweep WORKLOAD [OVERRIDES] --launcher TEMPLATE [--max-accelerators N] [--grid K=V,..]`:
// the most accelerators one host sustains at the workload's AU threshold, and parameter grids
// (docs/sweep.md). The search, the grid, sweep.json and resuming are sweep/'s; this file sizes
// and generates the dataset once, and starts each run as a job of the launcher running this
// binary's `train` into the run's folder.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/cli_options.h"
#include "app/commands.h"
#include "app/workload_loading.h"
#include "dataset/mlperf_dataset_size.h"
#include "sweep/launcher_template.h"
#include "sweep/process.h"
#include "sweep/sweep.h"
#include "sweep/sweep_table.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/sink.h"
#include "workflow/output_folder.h"

namespace dlbench::app {
namespace {
namespace fs = std::filesystem;

struct SweepOptions {
  std::string launcher;
  std::optional<int> max_accelerators;
  int accelerators = 1;
  int hosts = 1;
  int repeat = 1;
  std::vector<std::string> grid;
  std::optional<double> host_memory_gib;
  bool stop_on_error = false;
  bool fixed_seed = false;
};

// What makes two sweeps the same: a rerun with these arguments resumes the sweep.
sweep::Json Arguments(const WorkloadOptions& workload, const SweepOptions& options) {
  return {{"workload", workload.workload},
          {"overrides", workload.overrides},
          {"config_dirs", workload.config_dirs},
          {"launcher", options.launcher},
          {"grid", options.grid},
          {"max_accelerators",
           options.max_accelerators ? sweep::Json(*options.max_accelerators) : nullptr},
          {"accelerators",
           options.max_accelerators ? sweep::Json(nullptr) : sweep::Json(options.accelerators)},
          {"hosts", options.hosts},
          {"repeat", options.repeat},
          {"host_memory_gib",
           options.host_memory_gib ? sweep::Json(*options.host_memory_gib) : nullptr},
          {"fixed_seed", options.fixed_seed}};
}

// Starts the jobs of one sweep: the launcher's words, then this binary with the workload.
class JobStarter {
 public:
  JobStarter(const WorkloadOptions& workload, const SweepOptions& options, fs::path folder,
             std::vector<std::string> common_overrides)
      : workload_(workload),
        options_(options),
        folder_(std::move(folder)),
        common_(std::move(common_overrides)),
        launcher_(sweep::LauncherTemplate::Parse(options.launcher)),
        self_(sweep::OwnExecutable()) {}

  // Runs `command` (train or generate) at `ranks_per_host` per host into `relative` (a folder of
  // the sweep folder), its output in `relative`.log. Returns the exit code.
  sweep::ProcessExit start(const std::string& command, int ranks_per_host,
                           const std::vector<std::string>& extra_overrides,
                           const std::string& relative) const {
    std::vector<std::string> argv = launcher_.expand({options_.hosts, ranks_per_host});
    argv.insert(argv.end(), {self_, command, workload_.workload});
    argv.insert(argv.end(), common_.begin(), common_.end());
    argv.insert(argv.end(), extra_overrides.begin(), extra_overrides.end());
    for (const std::string& dir : workload_.config_dirs)
      argv.insert(argv.end(), {"--config-dir", dir});
    if (workload_.allow_unknown_keys) argv.emplace_back("--allow-unknown-keys");
    if (workload_.trace) argv.emplace_back("--trace");
    argv.insert(argv.end(), {"--quiet", "--output", (folder_ / relative).string()});
    fs::create_directories((folder_ / relative).parent_path());
    const sweep::ProcessExit exit = sweep::RunProcess(argv, log(relative));
    if (exit.signal == SIGINT || exit.signal == SIGTERM) {
      throw Error(ExitCode::kIo, "the job of " + (folder_ / relative).string() +
                                     " was ended by a signal; rerun the same command to resume "
                                     "the sweep (completed points are kept)");
    }
    return exit;
  }

  std::string log(const std::string& relative) const {
    return (folder_ / relative).string() + ".log";
  }
  const fs::path& folder() const { return folder_; }

 private:
  const WorkloadOptions& workload_;
  const SweepOptions& options_;
  fs::path folder_;
  std::vector<std::string> common_;
  sweep::LauncherTemplate launcher_;
  std::string self_;
};

// Files the largest point needs at every grid point: MLPerf's dataset-size rule with
// --host-memory-gib, else the workload's own num_files_train (0: keep it).
std::int64_t DatasetFiles(const WorkloadOptions& base, const SweepOptions& options,
                          const std::vector<sweep::GridPoint>& grid, int largest,
                          const mpi::Communicator& comm) {
  if (!options.host_memory_gib) return 0;
  std::int64_t files = 0;
  for (const sweep::GridPoint& point : grid) {
    WorkloadOptions loaded = base;
    for (const std::string& override : sweep::GridOverrides(point)) {
      loaded.overrides.push_back(override);
    }
    loaded.world_size = 1;
    loaded.forced = config::Phase::kGenerate;
    const config::Config config = LoadWorkload(loaded, comm);
    const dataset::MlperfDatasetSize size = dataset::ComputeMlperfDatasetSize(
        config, {options.hosts, largest, *options.host_memory_gib});
    files = std::max(files, size.files);
  }
  return files;
}

sweep::RunOutcome RunOne(const JobStarter& jobs, const sweep::RunRequest& request,
                         std::int64_t seed, bool fixed_seed) {
  std::vector<std::string> overrides = sweep::GridOverrides(request.grid);
  if (!fixed_seed) {
    overrides.push_back("++workload.train.seed=" + std::to_string(seed + request.run - 1));
  }
  sweep::RunOutcome outcome;
  outcome.folder = request.folder;
  const sweep::ProcessExit exit =
      jobs.start("train", request.accelerators, overrides, request.folder);
  outcome.exit_code = exit.exit_code;
  if (exit.exit_code != 0) {
    outcome.error = sweep::FailureLine(jobs.log(request.folder));
    if (outcome.error.empty()) outcome.error = "exit code " + std::to_string(exit.exit_code);
    return outcome;
  }
  const fs::path summary = jobs.folder() / request.folder / file_names::kSummary;
  try {
    std::ifstream in(summary);
    if (!in) throw IoError("open", summary.string(), errno);
    outcome =
        sweep::RunOutcomeFromSummary(sweep::Json::parse(in), request.folder, summary.string());
  } catch (const std::exception& error) {  // dlbench::Error or a JSON parse error
    outcome.exit_code = static_cast<int>(ExitCode::kIo);
    outcome.error = error.what();
  }
  return outcome;
}

// The dataset keys of a grid point: the points with the same ones read the same dataset.
sweep::GridPoint DatasetKeys(const sweep::GridPoint& point) {
  sweep::GridPoint keys;
  for (const sweep::GridValue& value : point) {
    if (value.key.rfind("dataset.", 0) == 0) keys.push_back(value);
  }
  return keys;
}

// Generates each dataset the grid reads once (one, unless the grid changes dataset.* keys), at
// as many ranks per host as this host has CPUs, up to the largest count. Kept in sweep.json.
void GenerateDatasets(const JobStarter& jobs, sweep::SweepFile& file,
                      const std::vector<sweep::GridPoint>& grid, int largest, bool quiet) {
  sweep::Json generated = file.document().value("generated", sweep::Json::array());
  const int ranks = std::max(1, std::min<int>(largest, std::thread::hardware_concurrency()));
  std::vector<sweep::GridPoint> datasets;
  for (const sweep::GridPoint& point : grid) {
    const sweep::GridPoint keys = DatasetKeys(point);
    if (std::find(datasets.begin(), datasets.end(), keys) == datasets.end()) {
      datasets.push_back(keys);
    }
  }
  for (const sweep::GridPoint& point : datasets) {
    const std::string name = sweep::GridFolderName(point);
    if (std::find(generated.begin(), generated.end(), name) != generated.end()) continue;
    const std::string relative = name.empty() ? "generate" : "generate/" + name;
    if (!quiet) {
      sink::Result("dlbench sweep: generating the dataset" +
                   (name.empty() ? "" : " of " + sweep::GridLabel(point)) + " into " +
                   (jobs.folder() / relative).string() + " (" + std::to_string(ranks) +
                   " ranks per host)\n");
    }
    const sweep::ProcessExit exit =
        jobs.start("generate", ranks, sweep::GridOverrides(point), relative);
    if (exit.exit_code != 0) {
      throw Error(ExitCode::kIo, "generating the dataset failed (exit code " +
                                     std::to_string(exit.exit_code) +
                                     "): " + sweep::FailureLine(jobs.log(relative)) + "; see " +
                                     jobs.log(relative));
    }
    generated.push_back(name);
    file.set("generated", generated);
    file.save();
  }
}

int RunSweepCommand(const WorkloadOptions& workload, const SweepOptions& options,
                    const mpi::Communicator& comm) {
  sweep::SweepSettings settings;
  for (const std::string& axis : options.grid) settings.grid.push_back(sweep::ParseGridAxis(axis));
  const std::vector<sweep::GridPoint> grid = sweep::ExpandGrid(settings.grid);
  settings.max_accelerators = options.max_accelerators;
  settings.accelerators = options.accelerators;
  settings.repeat = options.repeat;
  settings.stop_on_error = options.stop_on_error;
  const int largest = options.max_accelerators.value_or(options.accelerators);
  // The launcher's errors before any loading: one clear message, exit 2.
  sweep::CheckLauncher(sweep::LauncherTemplate::Parse(options.launcher).expand({1, 1}).front(),
                       options.launcher);

  const std::int64_t files = DatasetFiles(workload, options, grid, largest, comm);
  std::vector<std::string> common = workload.overrides;
  if (files > 0) common.push_back("++workload.dataset.num_files_train=" + std::to_string(files));
  WorkloadOptions sized = workload;
  sized.overrides = common;
  sized.world_size = options.hosts * largest;
  const config::Config config = LoadWorkload(sized, comm);

  const fs::path folder = workflow::ResolveOutputFolder(config, workload.output, comm);
  const JobStarter jobs(workload, options, folder, common);
  workflow::ClaimOutputFolder(folder, workload.force, comm);
  const double threshold = 100.0 * config.metric.au;
  sweep::SweepFile file = sweep::SweepFile::Open(folder, Arguments(workload, options), threshold);
  file.set("workload", config.model.name);
  file.set("dataset", {{"data_folder", config.dataset.data_folder},
                       {"num_files_train", config.dataset.num_files_train},
                       {"sized_by", files > 0 ? "mlperf" : "workload"}});
  if (!workload.quiet) {
    sink::Result("dlbench sweep: " + config.model.name + " into " + folder.string() + ", " +
                 std::to_string(config.dataset.num_files_train) +
                 " training files, AU >= " + sink::Format("%.4g", threshold) + " %\n");
  }
  GenerateDatasets(jobs, file, grid, largest, workload.quiet);

  const bool with_grid = !settings.grid.empty();
  if (!workload.quiet) sink::Result(sweep::TableHeader(with_grid));
  const sweep::SweepResult result = sweep::RunSweep(
      settings, file,
      [&](const sweep::RunRequest& request) {
        return RunOne(jobs, request, config.train.seed, options.fixed_seed);
      },
      [&](const sweep::PointResult& point, bool resumed) {
        if (!workload.quiet) sink::Result(sweep::TableRow(point, with_grid, resumed));
      });
  if (!workload.quiet) {
    sink::Result("\n" + sweep::FinalTable(result.points, with_grid) + "\n");
  }
  sink::Result(sweep::AnswerLines(config.model.name, result, threshold, options.repeat));
  if (result.stopped) {
    const sweep::PointResult& failed = result.points.back();
    for (const sweep::RunOutcome& run : failed.runs) {
      if (run.exit_code != 0) return run.exit_code;
    }
  }
  return 0;
}

}  // namespace

void AddSweepCommand(CLI::App& app, CommandAction& action) {
  auto workload = std::make_shared<WorkloadOptions>();
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Find the most accelerators one host sustains at the workload's AU threshold (doubling, "
      "then bisection), and run parameter grids; writes OUTPUT/sweep.json and resumes it");
  AddWorkloadOptions(*command, *workload, /*with_output=*/true);
  command
      ->add_option("--launcher", options->launcher,
                   "Command that starts one job, with {ranks} (or {ranks_per_host}) and "
                   "optionally {hosts}: \"mpirun -np {ranks}\", \"srun -n {ranks}\"")
      ->required();
  command
      ->add_option("--max-accelerators", options->max_accelerators,
                   "Search 1..N accelerators per host for the largest count whose median AU "
                   "meets metric.au")
      ->check(CLI::Range(1, 1 << 20));
  command
      ->add_option("--accelerators", options->accelerators,
                   "Accelerators per host of every point, without --max-accelerators (default 1)")
      ->check(CLI::Range(1, 1 << 20))
      ->excludes("--max-accelerators");
  command->add_option("--hosts", options->hosts, "Client hosts ({hosts}; default 1)")
      ->check(CLI::Range(1, 1 << 20));
  command->add_option("--repeat", options->repeat, "Runs per point; the point's AU is their median")
      ->check(CLI::Range(1, 1000));
  command
      ->add_option("--grid", options->grid,
                   "KEY=V1,V2,...: run every combination of the values (repeatable), each "
                   "with ++workload.KEY=V")
      ->allow_extra_args(false);
  command
      ->add_option("--host-memory-gib", options->host_memory_gib,
                   "Memory per host: size the dataset by MLPerf Storage's rule for the largest "
                   "count (else the workload's dataset.num_files_train)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--stop-on-error", options->stop_on_error,
                    "End the sweep at the first failed run (default: the point fails, the sweep "
                    "goes on)");
  command->add_flag("--fixed-seed", options->fixed_seed,
                    "Every run uses train.seed (default: run i of a point uses seed + i - 1)");
  command->callback([workload, options, &action] {
    if (workload->workload.empty()) throw CLI::RequiredError("workload");
    action.parallelism = Parallelism::kLocal;
    action.run = [workload, options](const mpi::Communicator& comm) {
      return RunSweepCommand(*workload, *options, comm);
    };
  });
}

}  // namespace dlbench::app
