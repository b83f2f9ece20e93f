// Where every file of a dataset lives and what it holds, computed from the naming rule
// rather than by listing folders, so it scales to millions of files:
//   <data_folder>/<split>/[<k>/]<prefix>_<i>_of_<N>.<format>   (csv with gzip: .csv.gz)
// i is zero-padded to len(str(N)); with more than one subfolder, file i goes to subfolder
// k = i % num_subfolders, zero-padded to len(str(num_subfolders)) (0 and 1 subfolders are both
// flat). Files are numbered per split; the global generation order is train then eval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config.h"
#include "dataset/sample_size_model.h"
#include "util/units.h"

namespace dlbench::dataset {

enum class Split { kTrain, kEval };
// The folder name of a split: "train" or "valid".
const char* FolderName(Split split);

// Where global sample g of a split lives: file g / spf, index g % spf.
struct SampleLocation {
  FileIndex file = 0;
  std::uint64_t index_in_file = 0;
};

class DatasetLayout {
 public:
  // Throws UsageError for negative counts, no samples per file, or a bad element type.
  explicit DatasetLayout(const config::DatasetConfig& dataset);

  const std::string& data_folder() const { return data_folder_; }
  config::Format format() const { return format_; }
  const SampleSizeModel& size_model() const { return sizes_; }

  std::uint64_t num_files(Split split) const { return side(split).files; }
  // 0 when the split is flat (num_subfolders 0 or 1).
  std::uint64_t num_subfolders(Split split) const { return side(split).subfolders; }
  std::uint64_t samples_per_file() const { return samples_per_file_; }
  std::uint64_t num_samples(Split split) const { return num_files(split) * samples_per_file_; }
  std::uint64_t total_files() const { return train_.files + eval_.files; }

  // <data_folder>/train or <data_folder>/valid.
  std::string split_folder(Split split) const;
  // The folders generation creates for a split: the split folder, then its subfolders.
  std::vector<std::string> folders(Split split) const;
  // "img_007_of_168.npz" (base name) and its full path.
  std::string file_name(Split split, FileIndex file) const;
  // The number in a name made by file_name, or in a companion's name that starts with one
  // ("img_007_of_168.npz.idx": 7): the digits after "<file_prefix>_", up to the next '_'; nullopt
  // when the name does not start so. Which file, of which split, if any, is the caller's to check
  // (the path of the file of that number).
  std::optional<FileIndex> number_in_name(std::string_view name) const;
  std::string file_path(Split split, FileIndex file) const;
  // file_path() written into `out`, reusing its storage: made for every sample read, so no
  // allocation once `out` has held a path as long.
  void assign_file_path(Split split, FileIndex file, std::string& out) const;
  // tfrecord: <data_folder>/index/<split>/<file name>.idx (DALI index).
  std::string dali_index_folder(Split split) const;
  std::string dali_index_path(Split split, FileIndex file) const;
  // indexed_binary: <file>.off.idx and <file>.sz.idx next to the data file.
  std::string offsets_index_path(Split split, FileIndex file) const;
  std::string sizes_index_path(Split split, FileIndex file) const;

  // Position in the generation order (train 0..N_t-1, then eval), and back.
  FileIndex global_file(Split split, FileIndex file) const;
  std::pair<Split, FileIndex> from_global(FileIndex global) const;

  SampleLocation locate(SampleIndex sample) const {
    return {sample / samples_per_file_, sample % samples_per_file_};
  }

  // Shape and size of one sample of a file, and its payload (samples_per_file samples).
  std::vector<std::int64_t> sample_dims(Split split, FileIndex file) const;
  // sample_dims() written into `out`, reusing its storage.
  void assign_sample_dims(Split split, FileIndex file, std::vector<std::int64_t>& out) const;
  Bytes sample_bytes(Split split, FileIndex file) const;
  Bytes file_payload_bytes(Split split, FileIndex file) const {
    return sample_bytes(split, file) * samples_per_file_;
  }
  // Sum of the payloads of every file of a split.
  Bytes total_payload_bytes(Split split) const { return side(split).payload; }

 private:
  struct Side {
    std::uint64_t files = 0;
    std::uint64_t subfolders = 0;
    int index_digits = 1;
    int subfolder_digits = 1;
    Bytes payload = 0;
    // What every file path of the split starts and ends with: "<data_folder>/<split>/" and
    // "_of_<N>.<extension>".
    std::string folder;
    std::string name_tail;
    // Every path of the split has the same length (i < N and k < num_subfolders are padded to
    // the digits of N and num_subfolders): the path of file 0, whose digits assign_file_path
    // overwrites in place — a copy and a few digits per sample read, not a string built up.
    std::string path_template;
    std::size_t subfolder_at = 0;  // offset of k's digits in path_template (with subfolders)
    std::size_t index_at = 0;      // offset of i's digits
  };
  const Side& side(Split split) const { return split == Split::kTrain ? train_ : eval_; }
  void check_file(Split split, FileIndex file) const;
  void append_file_name(std::string& out, Split split, FileIndex file) const;

  std::string data_folder_;
  config::Format format_;
  std::string extension_;
  std::string name_head_;  // "<file_prefix>_"
  std::uint64_t samples_per_file_;
  SampleSizeModel sizes_;
  Side train_;
  Side eval_;
};

}  // namespace dlbench::dataset
