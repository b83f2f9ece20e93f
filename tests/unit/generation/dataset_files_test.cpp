#include "generation/dataset_files.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/expect_error.h"

namespace dlbench::generation {
namespace {

// 5 train + 3 eval indexed_binary files in 2 subfolders, sizes drawn per file, hdf5 and parquet
// keys set (a spec carries them whatever the format).
config::DatasetConfig IndexedBinary() {
  config::DatasetConfig dataset;
  dataset.data_folder = "/data/ib/";
  dataset.format = config::Format::kIndexedBinary;
  dataset.num_files_train = 5;
  dataset.num_files_eval = 3;
  dataset.num_subfolders_train = 2;
  dataset.num_samples_per_file = 3;
  dataset.record_length_bytes = 4096;
  dataset.record_length_bytes_stdev = 1024;
  dataset.record_element_type = "uint16";
  dataset.hdf5.chunk_dims = {1, 8};
  dataset.parquet.columns = {{.name = "x", .dtype = "int32", .size = 4, .read = true}};
  dataset.fsync = true;
  return dataset;
}

// 2 tfrecord files with a long data folder: their specs have a DALI index and different
// strings and vectors, to be overwritten.
config::DatasetConfig Tfrecord() {
  config::DatasetConfig dataset;
  dataset.data_folder = "/data/a/much/longer/folder/than/the/other/dataset/has";
  dataset.format = config::Format::kTfrecord;
  dataset.num_files_train = 2;
  dataset.record_dims = {3, 4, 5};
  dataset.compression = config::Compression::kGzip;
  return dataset;
}

TEST(DatasetFiles, AssignSpecWritesTheFilesSpecOverAnyOtherSpec) {
  const config::DatasetConfig ib_config = IndexedBinary();
  const config::DatasetConfig tf_config = Tfrecord();
  const DatasetFiles ib(ib_config);
  const DatasetFiles tf(tf_config);
  formats::FileSpec spec;
  // One spec reused across files and datasets, as a reader thread does.
  for (FileIndex g = 0; g < ib.total(); ++g) {
    tf.assign_spec(g % 2, spec);
    EXPECT_EQ(spec, tf.file(g % 2).spec);
    ib.assign_spec(g, spec);
    EXPECT_EQ(spec, ib.file(g).spec) << "file " << g;
  }
  ib.assign_spec(6, spec);  // eval file 1, in the eval split's folder
  EXPECT_EQ(spec.path, "/data/ib/valid/img_1_of_3.indexed_binary");
  EXPECT_EQ(spec.file_index, 6u);
  EXPECT_EQ(spec.offsets_index_path, spec.path + ".off.idx");
  EXPECT_EQ(spec.sizes_index_path, spec.path + ".sz.idx");
  EXPECT_TRUE(spec.dali_index_path.empty());
  EXPECT_EQ(spec.dtype, "uint16");
  EXPECT_EQ(spec.samples, 3);
  EXPECT_TRUE(spec.fsync);
  ib.assign_spec(3, spec);  // train file 3, subfolder 1
  EXPECT_EQ(spec.path, "/data/ib/train/1/img_3_of_5.indexed_binary");
  tf.assign_spec(1, spec);
  EXPECT_EQ(spec.path, tf_config.data_folder + "/train/img_1_of_2.tfrecord");
  EXPECT_EQ(spec.dali_index_path, tf_config.data_folder + "/index/train/img_1_of_2.tfrecord.idx");
  EXPECT_TRUE(spec.offsets_index_path.empty());
  EXPECT_TRUE(spec.sizes_index_path.empty());
  EXPECT_EQ(spec.sample_dims, (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_TRUE(spec.dims_from_record_dims);
  EXPECT_TRUE(spec.chunk_dims.empty());
  EXPECT_TRUE(spec.parquet_columns.empty());
  EXPECT_FALSE(spec.fsync);
}

// A reader thread's spec holds another file's spec of the same dataset: writing only what
// differs from file to file gives the file's whole spec, for formats with and without companions.
TEST(DatasetFiles, AssignSpecAgainOverAnotherFilesSpecGivesTheWholeSpec) {
  config::DatasetConfig npy_config = IndexedBinary();
  npy_config.format = config::Format::kNpy;
  for (const config::DatasetConfig& config : {IndexedBinary(), Tfrecord(), npy_config}) {
    const DatasetFiles files(config);
    formats::FileSpec spec;
    files.assign_spec(files.total() - 1, spec);
    for (FileIndex g = 0; g < files.total(); ++g) {
      files.assign_spec(g, spec, /*again=*/true);
      EXPECT_EQ(spec, files.file(g).spec) << config.data_folder << " file " << g;
    }
  }
}

TEST(DatasetFiles, SpecsOfDifferentSizesFollowTheSizeModel) {
  const config::DatasetConfig config = IndexedBinary();
  const DatasetFiles files(config);
  formats::FileSpec spec;
  bool differ = false;
  for (FileIndex g = 0; g < files.total(); ++g) {
    files.assign_spec(g, spec);
    const auto [split, i] = files.layout().from_global(g);
    EXPECT_EQ(spec.sample_dims, files.layout().sample_dims(split, i));
    differ = differ || spec.sample_dims != files.file(0).spec.sample_dims;
  }
  EXPECT_TRUE(differ);  // the stdev draws different shapes
}

TEST(DatasetFiles, FileListsTheCompanionsOfItsFormat) {
  const config::DatasetConfig ib_config = IndexedBinary();  // outlives the DatasetFiles
  const DatasetFiles ib(ib_config);
  const DatasetFile ib_file = ib.file(1);
  EXPECT_EQ(ib_file.path, ib_file.spec.path);
  EXPECT_EQ(ib_file.companions,
            (std::vector<std::string>{ib_file.path + ".off.idx", ib_file.path + ".sz.idx"}));
  const config::DatasetConfig tf_config = Tfrecord();
  const DatasetFiles tf(tf_config);
  EXPECT_EQ(tf.file(0).companions, std::vector<std::string>{tf.file(0).spec.dali_index_path});
  config::DatasetConfig npy = IndexedBinary();
  npy.format = config::Format::kNpy;
  const DatasetFiles npy_files(npy);
  EXPECT_TRUE(npy_files.file(0).companions.empty());
  EXPECT_EQ(npy_files.file(0).path, "/data/ib/train/0/img_0_of_5.npy");
}

TEST(DatasetFiles, AFileBeyondTheDatasetIsAnInternalError) {
  const config::DatasetConfig config = IndexedBinary();
  const DatasetFiles files(config);
  formats::FileSpec spec;
  test::ExpectError([&] { files.assign_spec(8, spec); }, ExitCode::kInternal,
                    {"file 3 of split valid", "it has 3 files"});
}

}  // namespace
}  // namespace dlbench::generation
