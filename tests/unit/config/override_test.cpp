// Hydra override grammar: forms, value syntax, precedence, errors.
#include <gtest/gtest.h>

#include "config/override_parser.h"
#include "config_test_util.h"

namespace dlbench::config {
namespace {

using testing::LoadError;
using testing::LoadText;

constexpr const char* kFile =
    "dataset:\n  num_files_train: 16\n  file_prefix: img\n"
    "train:\n  computation_time: 0.3\n";

Config With(const std::vector<std::string>& overrides, const std::string& yaml = kFile) {
  return LoadText(yaml, overrides).config;
}

std::string OverrideError(const std::vector<std::string>& overrides,
                          const std::string& yaml = kFile) {
  return LoadError(yaml, overrides);
}

TEST(OverrideForms, UpsertSetsPresentAndAbsentKeys) {
  const Config config =
      With({"++workload.dataset.num_files_train=32", "++workload.dataset.num_files_eval=4"});
  EXPECT_EQ(config.dataset.num_files_train, 32);
  EXPECT_EQ(config.dataset.num_files_eval, 4);
}

TEST(OverrideForms, PlainSetAcceptsAnyKnownKey) {
  const Config config =
      With({"workload.dataset.num_files_train=8", "workload.reader.batch_size=2"});
  EXPECT_EQ(config.dataset.num_files_train, 8);
  EXPECT_EQ(config.reader.batch_size, 2);
}

TEST(OverrideForms, ShortFormWithoutWorkloadPrefix) {
  EXPECT_EQ(With({"dataset.num_files_train=3"}).dataset.num_files_train, 3);
  EXPECT_EQ(With({"++reader.batch_size=5"}).reader.batch_size, 5);
}

TEST(OverrideForms, AddOnlyWhenAbsent) {
  EXPECT_EQ(With({"+workload.dataset.num_files_eval=2"}).dataset.num_files_eval, 2);
  EXPECT_EQ(OverrideError({"+workload.dataset.num_files_train=2"}),
            "override '+workload.dataset.num_files_train=2': dataset.num_files_train is already "
            "set (w.yaml:2); use ++workload.dataset.num_files_train=2 to replace the value");
  // The suggestion is the override as given, with the second '+': the short form stays short.
  EXPECT_EQ(OverrideError({"+dataset.num_files_train=2"}),
            "override '+dataset.num_files_train=2': dataset.num_files_train is already set "
            "(w.yaml:2); use ++dataset.num_files_train=2 to replace the value");
}

TEST(OverrideForms, DeleteRevertsToTheDefault) {
  const Config config = With({"~workload.dataset.num_files_train"});
  EXPECT_EQ(config.dataset.num_files_train, 8);
  EXPECT_EQ(With({"~dataset.num_files_train=16"}).dataset.num_files_train, 8);
  EXPECT_EQ(With({"~dataset.num_files_eval"}).dataset.num_files_eval, 0);  // absent: no-op
  EXPECT_EQ(With({"~train"}).train.computation_time.mean, 0.0);            // a whole section
}

TEST(OverrideForms, DeleteWithAValueMustMatch) {
  EXPECT_EQ(OverrideError({"~dataset.num_files_train=4"}),
            "override '~dataset.num_files_train=4': dataset.num_files_train is 16 (w.yaml:2), "
            "not 4; nothing deleted");
}

TEST(OverrideForms, HydraRunDirIsTheOutputFolder) {
  EXPECT_EQ(With({"hydra.run.dir=results/run1"}).output.folder, "results/run1");
  EXPECT_EQ(With({"++hydra.run.dir=results/run2"}).output.folder, "results/run2");
}

TEST(OverrideForms, OtherHydraSettings) {
  const auto result = LoadText(kFile, {"++hydra.output_subdir=dlio_config"});
  ASSERT_EQ(result.notices.size(), 1u);
  EXPECT_NE(result.notices[0].find("Hydra setting ignored"), std::string::npos);
  EXPECT_NE(OverrideError({"hydra.launcher.x=1"}).find("only hydra.run.dir"), std::string::npos);
}

TEST(OverrideForms, LaterWinsAndOverridesBeatTheFile) {
  const Config config = With({"++dataset.num_files_train=1", "++dataset.num_files_train=2"});
  EXPECT_EQ(config.dataset.num_files_train, 2);
  EXPECT_EQ(
      With({"~dataset.num_files_train", "+dataset.num_files_train=5"}).dataset.num_files_train, 5);
}

TEST(OverrideForms, OverridesAreRecordedVerbatim) {
  const std::vector<std::string> overrides = {"++workload.dataset.file_prefix='a b'",
                                              "hydra.run.dir=x"};
  EXPECT_EQ(With(overrides).overrides, overrides);
}

TEST(OverrideForms, UnknownKeySuggestsTheClosest) {
  EXPECT_EQ(OverrideError({"++workload.dataset.num_file_train=4"}),
            "dataset.num_file_train: unknown key (override ++workload.dataset.num_file_train=4); "
            "did you mean num_files_train?");
  EXPECT_EQ(OverrideError({"++workload.datset.num_files_train=4"}),
            "datset: unknown key (override ++workload.datset.num_files_train=4); did you mean "
            "dataset?");
}

TEST(OverrideForms, SyntaxErrors) {
  EXPECT_NE(OverrideError({"dataset.num_files_train"}).find("expected key=value"),
            std::string::npos);
  EXPECT_NE(OverrideError({"workload=unet3d_h100"}).find("config groups cannot be selected"),
            std::string::npos);
  EXPECT_NE(OverrideError({"dataset.record_dims.0=5"}).find("give the whole list"),
            std::string::npos);
  EXPECT_NE(OverrideError({"dataset.num-files=5"}).find("is not a key"), std::string::npos);
  EXPECT_NE(OverrideError({"=5"}).find("the key is missing"), std::string::npos);
}

// A credential never appears in an error, whatever is wrong with its override: a value that does
// not parse (MinIO and RGW users choose their own secrets), a misspelled key above it.
TEST(OverrideForms, ErrorsNeverShowASecret) {
  for (const char* value : {"ab,cd", "'ab", "[ab", "{ab", "ab\"cd"}) {
    const std::string error = OverrideError(
        {std::string("++workload.storage.storage_options.secret_access_key=") + value});
    EXPECT_EQ(error.find("ab"), std::string::npos) << error;
    EXPECT_NE(error.find("secret_access_key=(hidden)"), std::string::npos) << error;
    EXPECT_NE(error.find("quote it"), std::string::npos) << error;
  }
  const std::string error =
      OverrideError({"++workload.storag.storage_options.secret_access_key=ab"});
  EXPECT_EQ(error.find("=ab"), std::string::npos) << error;
  EXPECT_NE(error.find("did you mean storage?"), std::string::npos) << error;
}

TEST(OverrideValues, Scalars) {
  EXPECT_EQ(With({"++dataset.file_prefix='hello world'"}).dataset.file_prefix, "hello world");
  EXPECT_EQ(With({"++dataset.file_prefix=\"a,b\""}).dataset.file_prefix, "a,b");
  EXPECT_EQ(With({"++dataset.file_prefix='it\\'s'"}).dataset.file_prefix, "it's");
  EXPECT_EQ(With({"++dataset.data_folder=/lustre/x"}).dataset.data_folder, "/lustre/x");
  EXPECT_EQ(With({"++dataset.data_folder=data/unet3d/"}).dataset.data_folder, "data/unet3d");
  EXPECT_EQ(With({"++dataset.file_prefix=a\\,b"}).dataset.file_prefix, "a,b");
  EXPECT_EQ(With({"++dataset.file_prefix= spaced out "}).dataset.file_prefix, "spaced out");
  EXPECT_EQ(With({"++reader.odirect=True", "++dataset.format=npz"}).reader.odirect, true);
  EXPECT_EQ(With({"++reader.pin_memory=FALSE"}).reader.pin_memory, false);
  EXPECT_EQ(With({"++dataset.num_files_train=1_000"}).dataset.num_files_train, 1000);
  EXPECT_EQ(With({"++train.computation_time=.5"}).train.computation_time.mean, 0.5);
  EXPECT_EQ(With({"++train.computation_time=1e-3"}).train.computation_time.mean, 0.001);
  EXPECT_EQ(With({"++model.type=null"}).model.type, std::nullopt);
  EXPECT_EQ(With({"++model.type=NULL"}).model.type, std::nullopt);
  EXPECT_EQ(With({"++model.type='null'"}).model.type, "null");
  EXPECT_EQ(With({"++output.log_file=run.log"}).output.log_file, "run.log");
}

TEST(OverrideValues, EmptyValueIsTheEmptyString) {
  EXPECT_EQ(With({"++workflow.query="}).workflow.query, "");
  EXPECT_EQ(OverrideError({"++dataset.data_folder="}),
            "dataset.data_folder: must not be empty (override ++dataset.data_folder=)");
}

TEST(OverrideValues, Lists) {
  EXPECT_EQ(With({"++model.optimization_groups=[1024,128]"}).model.optimization_groups,
            (std::vector<std::int64_t>{1024, 128}));
  EXPECT_EQ(With({"++dataset.record_dims=[ 4 , 4 ]"}).dataset.record_dims,
            (std::vector<std::int64_t>{4, 4}));
  EXPECT_TRUE(With({"++model.layer_parameters=[]"}).model.layer_parameters.empty());
  EXPECT_EQ(With({"++profiling.iostat_devices=[sda, 'nvme0n1']"}).profiling.iostat_devices,
            (std::vector<std::string>{"sda", "nvme0n1"}));
  EXPECT_EQ(OverrideError({"++dataset.record_dims=[1,[2,3]]"}),
            "dataset.record_dims[1]: expected an integer, got [2, 3] (override "
            "++dataset.record_dims=[1,[2,3]])");
}

TEST(OverrideValues, NestedListsAndMapsParse) {
  const DocNode value = ParseOverrideValue("[a, b, [1,2], {x: 1}]", "o");
  ASSERT_TRUE(value.is_list());
  ASSERT_EQ(value.items.size(), 4u);
  EXPECT_EQ(value.items[1].text, "b");
  ASSERT_TRUE(value.items[2].is_list());
  EXPECT_EQ(value.items[2].items[1].text, "2");
  ASSERT_TRUE(value.items[3].is_map());
  EXPECT_EQ(value.items[3].find("x")->text, "1");
  EXPECT_EQ(Describe(ParseOverrideValue("{}", "o")), "{}");
}

TEST(OverrideValues, Maps) {
  const Config config = With({"++train.computation_time={mean:1.0,stdev:0.1}"});
  EXPECT_EQ(config.train.computation_time.kind, TimeDistribution::Kind::kNormal);
  EXPECT_EQ(config.train.computation_time.mean, 1.0);
  EXPECT_EQ(config.train.computation_time.stdev, 0.1);
  const Config tiers = With({"++storage.tiers={nvme: {path: /nvme, latency: 2ms}}"});
  ASSERT_EQ(tiers.storage.tiers.size(), 1u);
  EXPECT_EQ(tiers.storage.tiers[0].latency, 0.002);
}

TEST(OverrideValues, SubkeysOfAScalarTimeValueExtendIt) {
  const Config config = With({"++workload.train.computation_time.stdev=0.1"});
  EXPECT_EQ(config.train.computation_time.kind, TimeDistribution::Kind::kNormal);
  EXPECT_EQ(config.train.computation_time.mean, 0.3);
  EXPECT_EQ(config.train.computation_time.stdev, 0.1);
  const Config typed = With({"++workload.train.computation_time.mean=1.0",
                             "++workload.train.computation_time.type=normal"});
  EXPECT_EQ(typed.train.computation_time.kind, TimeDistribution::Kind::kNormal);
  EXPECT_EQ(typed.train.computation_time.mean, 1.0);
}

TEST(OverrideValues, KeysOfCompositesAreChecked) {
  EXPECT_EQ(OverrideError({"++train.computation_time.stdv=1"}),
            "train.computation_time.stdv: unknown key (override "
            "++train.computation_time.stdv=1); did you mean stdev?");
  EXPECT_EQ(With({"++storage.tiers.fast.path=/fast"}).storage.tiers.at(0).path, "/fast");
  EXPECT_NE(OverrideError({"++storage.tiers.fast.pth=/fast"}).find("did you mean path?"),
            std::string::npos);
}

TEST(OverrideValues, AScalarInTheWayIsAnError) {
  EXPECT_NE(OverrideError({"++dataset.num_files_train.x=1"}).find("unknown key"),
            std::string::npos);
}

TEST(OverrideValues, SweepsFunctionsAndInterpolationsAreRejected) {
  EXPECT_NE(OverrideError({"++reader.batch_size=1,2"})
                .find("ambiguous value (a comma-separated sweep is only meaningful to Hydra "
                      "--multirun); quote it or use a list"),
            std::string::npos);
  EXPECT_NE(OverrideError({"++reader.batch_size=range(1,4)"}).find("functions such as range()"),
            std::string::npos);
  EXPECT_NE(OverrideError({"++dataset.file_prefix=choice(a,b)"}).find("are not supported"),
            std::string::npos);
  EXPECT_NE(OverrideError({"++dataset.data_folder=${workload.model.name}"})
                .find("interpolations ${...} are not supported"),
            std::string::npos);
}

TEST(OverrideValues, MalformedStructures) {
  EXPECT_NE(OverrideError({"++dataset.record_dims=[1,2"}).find("missing ']'"), std::string::npos);
  EXPECT_NE(OverrideError({"++train.computation_time={mean 1}"}).find("expected ':'"),
            std::string::npos);
  EXPECT_NE(OverrideError({"++dataset.file_prefix='abc"}).find("missing closing '"),
            std::string::npos);
  EXPECT_NE(
      OverrideError({"++train.computation_time={mean: 1, mean: 2}"}).find("duplicate key 'mean'"),
      std::string::npos);
}

TEST(OverrideValues, TypesFollowTheKey) {
  EXPECT_EQ(OverrideError({"++reader.batch_size='4'"}),
            "reader.batch_size: expected an integer, got '4' (override "
            "++reader.batch_size='4')");
  EXPECT_EQ(OverrideError({"++reader.batch_size=4.5"}),
            "reader.batch_size: expected an integer, got the non-integral number 4.5 (override "
            "++reader.batch_size=4.5)");
  EXPECT_EQ(With({"++reader.batch_size=4.0"}).reader.batch_size, 4);
  EXPECT_NE(OverrideError({"++metric.au=nan"}).find("metric.au: must be in (0, 1]"),
            std::string::npos);
  EXPECT_NE(OverrideError({"++metric.au=inf"}).find("metric.au: must be in (0, 1], got .inf"),
            std::string::npos);
}

}  // namespace
}  // namespace dlbench::config
