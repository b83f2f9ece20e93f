#include "dataset/layout.h"

#include <charconv>
#include <string_view>

#include "util/error.h"
#include "util/path_text.h"

namespace dlbench::dataset {
namespace {

int Digits(std::uint64_t n) { return static_cast<int>(std::to_string(n).size()); }

// Appends `value` in decimal, zero-padded to `digits`. No temporary string: file paths are made
// for every sample read.
void AppendPadded(std::string& out, std::uint64_t value, int digits) {
  char text[24];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  const auto length = static_cast<int>(end - text);
  if (length < digits) out.append(static_cast<std::size_t>(digits - length), '0');
  out.append(text, end);
}

// Writes `value` as `digits` decimal digits (zero-padded; value < 10^digits) at out[at...].
void WriteDigits(std::string& out, std::size_t at, int digits, std::uint64_t value) {
  for (std::size_t i = at + static_cast<std::size_t>(digits); i > at; value /= 10) {
    out[--i] = static_cast<char>('0' + value % 10);
  }
}

std::uint64_t NonNegative(std::int64_t value, const char* key) {
  if (value < 0) {
    throw UsageError(std::string("dataset.") + key + " must not be negative, got " +
                     std::to_string(value));
  }
  return static_cast<std::uint64_t>(value);
}

// `dataset.format` verbatim, as DLIO names files; a gzip csv gets pandas' ".gz" after it, as
// DLIO's csv generator appends it, so that pandas' compression="infer" recognises it.
std::string FileExtension(const config::DatasetConfig& dataset) {
  std::string extension = config::ToString(dataset.format);
  if (dataset.format == config::Format::kCsv && dataset.compression == config::Compression::kGzip) {
    extension += ".gz";
  }
  return extension;
}

}  // namespace

const char* FolderName(Split split) { return split == Split::kTrain ? "train" : "valid"; }

DatasetLayout::DatasetLayout(const config::DatasetConfig& dataset)
    : data_folder_(TrimTrailingSlashes(dataset.data_folder)),
      format_(dataset.format),
      extension_(FileExtension(dataset)),
      name_head_(dataset.file_prefix + "_"),
      samples_per_file_(NonNegative(dataset.num_samples_per_file, "num_samples_per_file")),
      sizes_(SampleSizeModel::FromConfig(dataset)) {
  if (samples_per_file_ == 0) throw UsageError("dataset.num_samples_per_file must be at least 1");
  auto make_side = [this](Split split, std::uint64_t files, std::uint64_t subfolders) {
    Side side;
    side.files = files;
    side.subfolders = subfolders > 1 ? subfolders : 0;
    side.index_digits = Digits(files);
    side.subfolder_digits = Digits(subfolders);
    side.folder = split_folder(split) + "/";
    side.name_tail = "_of_";
    AppendPadded(side.name_tail, files, 0);
    side.name_tail += '.';
    side.name_tail += extension_;
    side.path_template = side.folder;
    if (side.subfolders > 0) {
      side.subfolder_at = side.path_template.size();
      AppendPadded(side.path_template, 0, side.subfolder_digits);
      side.path_template += '/';
    }
    side.path_template += name_head_;
    side.index_at = side.path_template.size();
    AppendPadded(side.path_template, 0, side.index_digits);
    side.path_template += side.name_tail;
    return side;
  };
  train_ = make_side(Split::kTrain, NonNegative(dataset.num_files_train, "num_files_train"),
                     NonNegative(dataset.num_subfolders_train, "num_subfolders_train"));
  eval_ = make_side(Split::kEval, dataset.num_files_eval > 0 ? dataset.num_files_eval : 0,
                    NonNegative(dataset.num_subfolders_eval, "num_subfolders_eval"));
  for (Split split : {Split::kTrain, Split::kEval}) {
    Side& s = split == Split::kTrain ? train_ : eval_;
    if (!sizes_.varies()) {
      s.payload = s.files * sizes_.sample_bytes(0) * samples_per_file_;
      continue;
    }
    for (FileIndex file = 0; file < s.files; ++file) s.payload += file_payload_bytes(split, file);
  }
}

void DatasetLayout::check_file(Split split, FileIndex file) const {
  if (file >= num_files(split)) {
    throw InternalError(std::string("file ") + std::to_string(file) + " of split " +
                        FolderName(split) + " asked for, but it has " +
                        std::to_string(num_files(split)) + " files");
  }
}

std::string DatasetLayout::split_folder(Split split) const {
  return data_folder_ + "/" + FolderName(split);
}

std::vector<std::string> DatasetLayout::folders(Split split) const {
  std::vector<std::string> result{split_folder(split)};
  const Side& s = side(split);
  for (std::uint64_t k = 0; k < s.subfolders; ++k) {
    std::string folder = result.front() + "/";
    AppendPadded(folder, k, s.subfolder_digits);
    result.push_back(std::move(folder));
  }
  return result;
}

std::string DatasetLayout::file_name(Split split, FileIndex file) const {
  std::string name;
  append_file_name(name, split, file);
  return name;
}

std::optional<FileIndex> DatasetLayout::number_in_name(std::string_view name) const {
  if (!name.starts_with(name_head_)) return std::nullopt;
  name.remove_prefix(name_head_.size());
  const std::size_t end = name.find('_');
  // At most 19 digits: any FileIndex, and no overflow.
  if (end == 0 || end == std::string_view::npos || end > 19) return std::nullopt;
  FileIndex number = 0;
  for (const char digit : name.substr(0, end)) {
    if (digit < '0' || digit > '9') return std::nullopt;
    number = number * 10 + static_cast<FileIndex>(digit - '0');
  }
  return number;
}

void DatasetLayout::append_file_name(std::string& out, Split split, FileIndex file) const {
  check_file(split, file);
  const Side& s = side(split);
  out += name_head_;
  AppendPadded(out, file, s.index_digits);
  out += s.name_tail;
}

std::string DatasetLayout::file_path(Split split, FileIndex file) const {
  std::string path;
  assign_file_path(split, file, path);
  return path;
}

void DatasetLayout::assign_file_path(Split split, FileIndex file, std::string& out) const {
  check_file(split, file);
  const Side& s = side(split);
  out.assign(s.path_template);
  if (s.subfolders > 0) WriteDigits(out, s.subfolder_at, s.subfolder_digits, file % s.subfolders);
  WriteDigits(out, s.index_at, s.index_digits, file);
}

std::string DatasetLayout::dali_index_folder(Split split) const {
  return data_folder_ + "/index/" + FolderName(split);
}

std::string DatasetLayout::dali_index_path(Split split, FileIndex file) const {
  return dali_index_folder(split) + "/" + file_name(split, file) + ".idx";
}

std::string DatasetLayout::offsets_index_path(Split split, FileIndex file) const {
  return file_path(split, file) + ".off.idx";
}

std::string DatasetLayout::sizes_index_path(Split split, FileIndex file) const {
  return file_path(split, file) + ".sz.idx";
}

FileIndex DatasetLayout::global_file(Split split, FileIndex file) const {
  check_file(split, file);
  return split == Split::kTrain ? file : train_.files + file;
}

std::pair<Split, FileIndex> DatasetLayout::from_global(FileIndex global) const {
  if (global < train_.files) return {Split::kTrain, global};
  check_file(Split::kEval, global - train_.files);
  return {Split::kEval, global - train_.files};
}

std::vector<std::int64_t> DatasetLayout::sample_dims(Split split, FileIndex file) const {
  return sizes_.dims(global_file(split, file));
}

void DatasetLayout::assign_sample_dims(Split split, FileIndex file,
                                       std::vector<std::int64_t>& out) const {
  sizes_.assign_dims(global_file(split, file), out);
}

Bytes DatasetLayout::sample_bytes(Split split, FileIndex file) const {
  return sizes_.sample_bytes(global_file(split, file));
}

}  // namespace dlbench::dataset
