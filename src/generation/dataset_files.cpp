#include "generation/dataset_files.h"

#include "formats/registry.h"

namespace dlbench::generation {

DatasetFiles::DatasetFiles(const config::DatasetConfig& dataset)
    : dataset_(dataset), layout_(dataset), companions_(formats::CompanionsOf(layout_.format())) {}

std::vector<std::string> DatasetFiles::folders() const {
  std::vector<std::string> folders;
  for (const dataset::Split split : {dataset::Split::kTrain, dataset::Split::kEval}) {
    for (std::string& folder : layout_.folders(split)) folders.push_back(std::move(folder));
    if (companions_ == formats::Companions::kDaliIndex) {
      folders.push_back(layout_.dali_index_folder(split));
    }
  }
  return folders;
}

DatasetFile DatasetFiles::file(FileIndex g) const {
  DatasetFile file;
  assign_spec(g, file.spec);
  file.path = file.spec.path;
  if (!file.spec.dali_index_path.empty()) file.companions.push_back(file.spec.dali_index_path);
  if (!file.spec.offsets_index_path.empty()) {
    file.companions.push_back(file.spec.offsets_index_path);
    file.companions.push_back(file.spec.sizes_index_path);
  }
  return file;
}

void DatasetFiles::assign_spec(FileIndex g, formats::FileSpec& spec, bool again) const {
  const auto [split, i] = layout_.from_global(g);
  layout_.assign_file_path(split, i, spec.path);
  spec.file_index = g;
  layout_.assign_sample_dims(split, i, spec.sample_dims);
  if (!again) {
    spec.dims_from_record_dims = !dataset_.record_dims.empty();
    spec.dtype = dataset_.record_element_type;
    spec.samples = static_cast<std::int64_t>(layout_.samples_per_file());
    spec.compression = dataset_.compression;
    spec.compression_level = dataset_.compression_level;
    spec.chunk_dims = dataset_.hdf5.chunk_dims;
    spec.num_dset_per_record = dataset_.hdf5.num_dset_per_record;
    spec.max_shape = dataset_.hdf5.max_shape;
    spec.parquet_columns = dataset_.parquet.columns;
    spec.parquet_row_group_size = dataset_.parquet.row_group_size;
    spec.fsync = dataset_.fsync;
    spec.encoding = dataset_.content.encoding;
    spec.dali_index_path.clear();
    spec.offsets_index_path.clear();
    spec.sizes_index_path.clear();
  }
  switch (companions_) {
    case formats::Companions::kDaliIndex:
      spec.dali_index_path = layout_.dali_index_path(split, i);
      break;
    case formats::Companions::kIndexFiles:
      spec.offsets_index_path = layout_.offsets_index_path(split, i);
      spec.sizes_index_path = layout_.sizes_index_path(split, i);
      break;
    case formats::Companions::kNone:
      break;
  }
}

}  // namespace dlbench::generation
