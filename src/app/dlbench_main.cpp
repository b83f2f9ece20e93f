#include "app/dlbench_main.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/error_reporting.h"
#include "app/storage_backends.h"
#include "config/workload_catalog.h"
#include "mpi/communicator.h"
#include "mpi/launch.h"
#include "storage/fault_environment.h"
#include "util/build_info.h"
#include "util/error.h"
#include "util/sink.h"

namespace dlbench::app {
namespace {

constexpr const char* kFooter = R"(Examples:
  dlbench workloads
  dlbench run default
  mpirun -np 8 dlbench run unet3d_h100 ++workload.dataset.data_folder=/lustre/x
  dlbench config show resnet50_h100 ++workload.reader.read_threads=16
  dlbench config query unet3d_h100 dataset.num_files_train
  dlbench compare results/baselines/ci_train_small out/ci_train_small --tolerance 10%

)";

constexpr const char* kExitCodes =
    R"(Exit codes: 0 ok, 1 internal error, 2 usage or configuration error, 3 I/O or data error,
4 regression found. Documentation: docs/ (start with README.md).)";

// Each command's own examples, by its path below `dlbench` ("checkpoint plan"); a command
// without an entry shows its parent's. CLI11 gives a subcommand its parent's footer: every
// command's help showed the top-level examples.
struct CommandExamples {
  const char* path;
  const char* lines;
};
constexpr CommandExamples kExamples[] = {
    {"run",
     "  dlbench run default\n"
     "  mpirun -np 8 dlbench run unet3d_h100 ++workload.dataset.data_folder=/lustre/x\n"
     "  dlbench run configs/ci/ci_train_small.yaml --repeat 8 --output baselines/ci_train_small\n"},
    {"generate",
     "  mpirun -np 8 dlbench generate unet3d_h100 ++workload.dataset.data_folder=/lustre/x\n"
     "  dlbench generate configs/ci/ci_generate.yaml --repeat 8 --output out/ci_generate\n"},
    {"train",
     "  mpirun -np 8 dlbench train unet3d_h100 ++workload.dataset.data_folder=/lustre/x\n"
     "  dlbench train resnet50_h100 --trace --output out/resnet50\n"},
    {"checkpoint",
     "  mpirun -np 8 dlbench checkpoint llama3_8b "
     "++workload.checkpoint.checkpoint_folder=/lustre/ckpt\n"
     "  dlbench checkpoint plan llama3_8b --ranks 8\n"},
    {"checkpoint plan", "  dlbench checkpoint plan llama3_70b --ranks 64\n"},
    {"checkpoint drain", "  mpirun -np 8 dlbench checkpoint drain burst_buffered_llama3_8b.yaml\n"},
    {"stage", "  mpirun -np 8 dlbench stage tiered_unet3d.yaml --from pfs --to nvme --verify\n"},
    {"config",
     "  dlbench config show resnet50_h100 ++workload.reader.read_threads=16\n"
     "  dlbench config query unet3d_h100 dataset.num_files_train\n"},
    {"workloads",
     "  dlbench workloads\n"
     "  dlbench workloads --config-dir <mlcommons/storage>/configs/dlio\n"},
    {"datasize",
     "  dlbench datasize unet3d_h100 --hosts 1 --accelerators-per-host 36 "
     "--host-memory-gib 251\n"},
    {"compare",
     "  dlbench compare results/baselines/ci_train_small out/ci_train_small --tolerance 10%\n"
     "  dlbench compare baseline current --format markdown >> \"$GITHUB_STEP_SUMMARY\"\n"},
    {"report", "  dlbench report baseline current -o report.html\n"},
    {"trace", "  dlbench trace summary out/unet3d --json\n"},
    {"sweep",
     "  dlbench sweep resnet50_h100 --launcher \"mpirun -np {ranks}\" --max-accelerators 16 "
     "--repeat 3\n"
     "  dlbench sweep unet3d_h100 --launcher \"mpirun -np {ranks}\" --accelerators 4 "
     "--grid reader.read_threads=1,4,8\n"},
};

// Sets the footer of every subcommand below `command` (`path`: its path) to its own examples.
void SetExamples(CLI::App& command, const std::string& path, const std::string& inherited) {
  for (CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; })) {
    const std::string sub_path = (path.empty() ? "" : path + " ") + sub->get_name();
    std::string examples = inherited;
    for (const CommandExamples& entry : kExamples) {
      if (sub_path == entry.path) examples = entry.lines;
    }
    sub->footer((examples.empty() ? "" : "Examples:\n" + examples + "\n") + kExitCodes);
    SetExamples(*sub, sub_path, examples);
  }
}

// "unknown command 'rnu' (did you mean run?)" for a word where `app`, or a subcommand that needs
// one of its own (`config`, `trace`), expects a subcommand name; CLI11 says only "A subcommand is
// required". Nothing for a command line whose command names are all known.
std::optional<std::string> UnknownCommand(CLI::App& app, int argc, char** argv) {
  CLI::App* current = &app;
  std::string path = "dlbench";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    const std::vector<CLI::App*> subs = current->get_subcommands([](CLI::App*) { return true; });
    std::vector<std::string> names;
    CLI::App* match = nullptr;
    for (CLI::App* sub : subs) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) match = sub;
    }
    if (match) {
      current = match;
      path += " " + word;
      continue;
    }
    if (current->get_require_subcommand_min() == 0) return std::nullopt;  // a positional
    const auto closest = config::ClosestMatch(word, names);
    return "unknown command '" + path + " " + word + "'" +
           (closest ? " (did you mean " + *closest + "?)" : "") + "; `" + path +
           " --help` lists the commands";
  }
  return std::nullopt;
}

// Parses the command line, without MPI, and fills `action` with the chosen command. Returns the
// exit code of a parse that ends the program (help, version, usage error) or nothing.
std::optional<int> Parse(int argc, char** argv, const mpi::Launch& launch, CommandAction& action) {
  CLI::App app{
      "dlbench: storage benchmark for deep-learning training. Reads DLIO workload YAMLs, "
      "generates datasets, replays training reads and checkpoints, and reports what the "
      "storage delivered.",
      "dlbench"};
  app.set_version_flag(
      "--version", std::string("dlbench ") + build::Info().version + "\n" + build::Description());
  app.footer(std::string(kFooter) + kExitCodes);
  app.require_subcommand(1);

  AddRunCommands(app, action);
  AddConfigCommand(app, action);
  AddWorkloadsCommand(app, action);
  AddDatasizeCommand(app, action);
  AddCompareCommand(app, action);
  AddReportCommand(app, action);
  AddTraceCommand(app, action);
  AddSweepCommand(app, action);
  SetExamples(app, "", "");

  try {
    storage::ArmFaultsFromEnvironment(launch.rank);
  } catch (const Error& error) {
    // Every rank reads the same environment; only rank 0 speaks.
    if (launch.rank == 0) sink::Error(error.what());
    return static_cast<int>(error.code());
  }
  if (const auto unknown = UnknownCommand(app, argc, argv)) {
    if (launch.rank == 0) sink::Error(*unknown);
    return static_cast<int>(ExitCode::kUsage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // Every rank parses the same arguments; only rank 0 speaks. Help and version are printed by
    // CLI11; a usage error is one diagnostic line like every other (docs/cli.md "Messages"),
    // where CLI11 printed two lines without the "dlbench: error: " prefix.
    if (error.get_exit_code() == 0) {
      if (launch.rank == 0) app.exit(error);
      return 0;
    }
    if (launch.rank == 0) {
      std::string command = "dlbench";
      for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
        sub = sub->get_subcommands().front();
        command += " " + sub->get_name();
      }
      sink::Error(std::string(error.what()) + " (see `" + command + " --help`)");
    }
    return static_cast<int>(ExitCode::kUsage);
  }
  if (!action.run) return static_cast<int>(ExitCode::kUsage);
  return std::nullopt;
}

}  // namespace

int Main(int argc, char** argv) {
  RegisterStorageBackends();
  const mpi::Launch launch = mpi::LaunchFromEnvironment();
  const mpi::Communicator local = mpi::Communicator::Local();
  CommandAction action;
  std::optional<int> finished;  // parsing ended the program (help, version, usage error)
  const int code = RunGuarded(local, [&] {
    finished = Parse(argc, argv, launch, action);
    return 0;
  });
  if (code != 0) return code;
  if (finished) return *finished;
  if (action.parallelism == Parallelism::kLocal) {
    // The work of one process: under mpirun, the launcher's other ranks have nothing to do.
    if (launch.rank != 0) return 0;
    return RunGuarded(local, [&] { return action.run(local); });
  }
  mpi::Session session(&argc, &argv);
  const mpi::Communicator comm = session.world();
  return RunGuarded(comm, [&] { return action.run(comm); });
}

}  // namespace dlbench::app
