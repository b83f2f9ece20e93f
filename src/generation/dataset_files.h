// The files generation produces, as FileSpecs a format writer takes: dataset::DatasetLayout's
// names, folders and sample shapes plus the dataset options a writer needs. Global file index g
// covers train files [0, N_t) then eval files [N_t, N_t + N_e).
#pragma once

#include <string>
#include <vector>

#include "config/config.h"
#include "dataset/layout.h"
#include "formats/format.h"
#include "formats/registry.h"

namespace dlbench::generation {

struct DatasetFile {
  std::string path;                     // final data file path
  std::vector<std::string> companions;  // final paths of its index files
  formats::FileSpec spec;               // spec.path == path; companion paths set explicitly
};

class DatasetFiles {
 public:
  explicit DatasetFiles(const config::DatasetConfig& dataset);

  const dataset::DatasetLayout& layout() const { return layout_; }
  FileIndex total() const { return layout_.total_files(); }
  // Every folder generation creates: split folders, subfolders, DALI index folders.
  std::vector<std::string> folders() const;
  // File `g` of the global list.
  DatasetFile file(FileIndex g) const;
  // file(g).spec written into `spec`, every field assigned, reusing the storage of its strings
  // and vectors: reader threads build one spec per sample read, so a spec kept per thread makes
  // no allocation once it has held the longest path. `again`: `spec` holds the spec of another
  // file of this dataset, so only what differs from file to file is written (the path, the
  // index, the sample shape, the companions' paths): ~150 of the ~420 instructions a 4 KiB npy
  // sample spent here (callgrind).
  void assign_spec(FileIndex g, formats::FileSpec& spec, bool again = false) const;

 private:
  const config::DatasetConfig& dataset_;
  dataset::DatasetLayout layout_;
  formats::Companions companions_;  // of the dataset's format
};

}  // namespace dlbench::generation
