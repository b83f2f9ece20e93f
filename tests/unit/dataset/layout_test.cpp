#include "dataset/layout.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace dlbench::dataset {
namespace {

config::DatasetConfig Dataset(config::Format format, std::int64_t train, std::int64_t eval = 0) {
  config::DatasetConfig d;
  d.data_folder = "/data/";
  d.format = format;
  d.num_files_train = train;
  d.num_files_eval = eval;
  d.record_length_bytes = 4096;
  return d;
}

TEST(DatasetLayout, Unet3dNames) {
  DatasetLayout layout(Dataset(config::Format::kNpz, 168));
  EXPECT_EQ(layout.data_folder(), "/data");
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/img_000_of_168.npz");
  EXPECT_EQ(layout.file_path(Split::kTrain, 167), "/data/train/img_167_of_168.npz");
  EXPECT_EQ(layout.file_name(Split::kTrain, 7), "img_007_of_168.npz");
  EXPECT_EQ(layout.num_files(Split::kEval), 0u);
  EXPECT_EQ(layout.folders(Split::kEval), std::vector<std::string>{"/data/valid"});
  EXPECT_THROW(layout.file_name(Split::kTrain, 168), Error);
}

TEST(DatasetLayout, TheNumberInANameIsReadBackWhateverFollowsIt) {
  config::DatasetConfig dataset = Dataset(config::Format::kNpz, 168);
  dataset.file_prefix = "my_img";
  DatasetLayout layout(dataset);
  EXPECT_EQ(layout.number_in_name(layout.file_name(Split::kTrain, 7)), 7u);
  EXPECT_EQ(layout.number_in_name("my_img_167_of_168.npz.idx"), 167u);
  EXPECT_EQ(layout.number_in_name("my_img_9999999999999999999_of_1"), 9999999999999999999u);
  for (const char* name : {"my_img_0x_of_168.npz", "my_img__of_168.npz", "my_img_12", "img_7_of_8",
                           "my_img_", "my_img_99999999999999999999_of_1", ".my_img_1_of_2"}) {
    EXPECT_EQ(layout.number_in_name(name), std::nullopt) << name;
  }
}

TEST(DatasetLayout, Resnet50AndDaliIndex) {
  DatasetLayout layout(Dataset(config::Format::kTfrecord, 1024));
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/img_0000_of_1024.tfrecord");
  EXPECT_EQ(layout.file_path(Split::kTrain, 1023), "/data/train/img_1023_of_1024.tfrecord");
  EXPECT_EQ(layout.dali_index_folder(Split::kTrain), "/data/index/train");
  EXPECT_EQ(layout.dali_index_path(Split::kTrain, 0),
            "/data/index/train/img_0000_of_1024.tfrecord.idx");
}

TEST(DatasetLayout, CosmoflowScalesWithoutListing) {
  auto d = Dataset(config::Format::kTfrecord, 524288);
  d.record_length_bytes = 2828486;
  d.record_length_bytes_stdev = 71311;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/img_000000_of_524288.tfrecord");
  EXPECT_EQ(layout.file_path(Split::kTrain, 524287), "/data/train/img_524287_of_524288.tfrecord");
  EXPECT_EQ(layout.sample_bytes(Split::kTrain, 0), 2898464u);
  EXPECT_EQ(layout.total_payload_bytes(Split::kTrain), 1480619282900u);
}

TEST(DatasetLayout, BertPrefix) {
  auto d = Dataset(config::Format::kTfrecord, 500);
  d.file_prefix = "part";
  DatasetLayout layout(d);
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/part_000_of_500.tfrecord");
}

TEST(DatasetLayout, DefaultWithTwoSubfolders) {
  auto d = Dataset(config::Format::kNpz, 64, 8);
  d.num_subfolders_train = 2;
  d.num_subfolders_eval = 2;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.num_subfolders(Split::kTrain), 2u);
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/0/img_00_of_64.npz");
  EXPECT_EQ(layout.file_path(Split::kTrain, 1), "/data/train/1/img_01_of_64.npz");
  EXPECT_EQ(layout.file_path(Split::kTrain, 2), "/data/train/0/img_02_of_64.npz");
  EXPECT_EQ(layout.file_path(Split::kTrain, 63), "/data/train/1/img_63_of_64.npz");
  EXPECT_EQ(layout.file_path(Split::kEval, 0), "/data/valid/0/img_0_of_8.npz");
  EXPECT_EQ(layout.file_path(Split::kEval, 1), "/data/valid/1/img_1_of_8.npz");
  EXPECT_EQ(layout.folders(Split::kTrain),
            (std::vector<std::string>{"/data/train", "/data/train/0", "/data/train/1"}));
  // Generation order: train first, then eval.
  EXPECT_EQ(layout.total_files(), 72u);
  EXPECT_EQ(layout.global_file(Split::kTrain, 5), 5u);
  EXPECT_EQ(layout.global_file(Split::kEval, 0), 64u);
  EXPECT_EQ(layout.from_global(65), std::make_pair(Split::kEval, FileIndex{1}));
  EXPECT_EQ(layout.from_global(63), std::make_pair(Split::kTrain, FileIndex{63}));
  EXPECT_THROW(layout.from_global(72), Error);
}

TEST(DatasetLayout, SubfolderPaddingFollowsTheSubfolderCount) {
  auto d = Dataset(config::Format::kNpy, 30);
  d.num_subfolders_train = 10;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.file_path(Split::kTrain, 13), "/data/train/03/img_13_of_30.npy");
  EXPECT_EQ(layout.folders(Split::kTrain).back(), "/data/train/09");
}

TEST(DatasetLayout, ZeroAndOneSubfoldersAreBothFlat) {
  for (std::int64_t subfolders : {0, 1}) {
    auto d = Dataset(config::Format::kHdf5, 4);
    d.num_subfolders_train = subfolders;
    DatasetLayout layout(d);
    EXPECT_EQ(layout.num_subfolders(Split::kTrain), 0u);
    EXPECT_EQ(layout.file_path(Split::kTrain, 3), "/data/train/img_3_of_4.hdf5");
    EXPECT_EQ(layout.folders(Split::kTrain).size(), 1u);
  }
}

TEST(DatasetLayout, DlrmIndexedBinary) {
  auto d = Dataset(config::Format::kIndexedBinary, 1, 1);
  d.record_length_bytes = 671088640;
  d.num_samples_per_file = 1000;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.file_path(Split::kTrain, 0), "/data/train/img_0_of_1.indexed_binary");
  EXPECT_EQ(layout.offsets_index_path(Split::kTrain, 0),
            "/data/train/img_0_of_1.indexed_binary.off.idx");
  EXPECT_EQ(layout.sizes_index_path(Split::kTrain, 0),
            "/data/train/img_0_of_1.indexed_binary.sz.idx");
  EXPECT_EQ(layout.file_path(Split::kEval, 0), "/data/valid/img_0_of_1.indexed_binary");
  EXPECT_EQ(layout.sample_bytes(Split::kEval, 0), 671069025u);
  EXPECT_EQ(layout.file_payload_bytes(Split::kEval, 0), 671069025000u);
  EXPECT_EQ(layout.total_payload_bytes(Split::kTrain), 671069025000u);
}

TEST(DatasetLayout, SamplesAndLocations) {
  auto d = Dataset(config::Format::kHdf5, 10, 2);
  d.num_samples_per_file = 7;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.samples_per_file(), 7u);
  EXPECT_EQ(layout.num_samples(Split::kTrain), 70u);
  EXPECT_EQ(layout.num_samples(Split::kEval), 14u);
  const SampleLocation loc = layout.locate(23);
  EXPECT_EQ(loc.file, 3u);
  EXPECT_EQ(loc.index_in_file, 2u);
  EXPECT_EQ(layout.sample_dims(Split::kTrain, 0), (std::vector<std::int64_t>{64, 64}));
  EXPECT_EQ(layout.total_payload_bytes(Split::kTrain), 10u * 7 * 4096);
  EXPECT_EQ(layout.total_payload_bytes(Split::kEval), 2u * 7 * 4096);
}

TEST(DatasetLayout, EvalFilesContinueTheSizeDraw) {
  auto d = Dataset(config::Format::kNpz, 4, 2);
  d.record_length_bytes = 146600628;
  d.record_length_bytes_stdev = 68341808;
  DatasetLayout layout(d);
  EXPECT_EQ(layout.sample_bytes(Split::kTrain, 0), 224093125u);
  EXPECT_EQ(layout.sample_bytes(Split::kEval, 0), 140750066u);  // global file 4
  EXPECT_EQ(layout.sample_bytes(Split::kEval, 1), 206626158u);  // global file 5
  EXPECT_EQ(layout.total_payload_bytes(Split::kEval), 140750066u + 206626158u);
}

// assign_file_path writes the digits into a copy of the split's path pattern: whatever the reused
// string held before, the result is file_path(), with one- and multi-digit subfolders.
TEST(DatasetLayout, AssignWritesPathsAndDimsOverWhatTheBuffersHeld) {
  config::DatasetConfig d = Dataset(config::Format::kNpz, 12, 3);
  d.num_subfolders_train = 4;
  d.record_length_bytes_stdev = 512;
  config::DatasetConfig wide = Dataset(config::Format::kNpy, 1000, 10);
  wide.num_subfolders_train = 12;
  const DatasetLayout layout(d), wide_layout(wide);
  std::string path = "/an/earlier/and/much/longer/path/than/any/of/this/dataset.npz";
  std::vector<std::int64_t> dims{7, 7, 7};
  for (const DatasetLayout* l : {&layout, &wide_layout}) {
    for (const Split split : {Split::kTrain, Split::kEval}) {
      for (FileIndex file = 0; file < l->num_files(split); ++file) {
        l->assign_file_path(split, file, path);
        ASSERT_EQ(path, l->file_path(split, file));
        l->assign_sample_dims(split, file, dims);
        ASSERT_EQ(dims, l->sample_dims(split, file));
      }
    }
  }
  layout.assign_file_path(Split::kTrain, 9, path);
  EXPECT_EQ(path, "/data/train/1/img_09_of_12.npz");
  layout.assign_file_path(Split::kEval, 2, path);
  EXPECT_EQ(path, "/data/valid/img_2_of_3.npz");
  wide_layout.assign_file_path(Split::kTrain, 999, path);
  EXPECT_EQ(path, "/data/train/03/img_0999_of_1000.npy");
  wide_layout.assign_file_path(Split::kEval, 7, path);
  EXPECT_EQ(path, "/data/valid/img_07_of_10.npy");
  EXPECT_THROW(layout.assign_file_path(Split::kEval, 3, path), Error);
  EXPECT_THROW(wide_layout.assign_file_path(Split::kTrain, 1000, path), Error);
  EXPECT_THROW(layout.assign_sample_dims(Split::kEval, 3, dims), Error);
}

TEST(DatasetLayout, RejectsBadCounts) {
  auto d = Dataset(config::Format::kNpz, -1);
  EXPECT_THROW(DatasetLayout{d}, Error);
  d = Dataset(config::Format::kNpz, 1);
  d.num_samples_per_file = 0;
  EXPECT_THROW(DatasetLayout{d}, Error);
  d = Dataset(config::Format::kNpz, 1);
  d.num_subfolders_train = -2;
  EXPECT_THROW(DatasetLayout{d}, Error);
}

}  // namespace
}  // namespace dlbench::dataset
