// The files one rank writes into a checkpoint, held as runs of files that differ only by name:
// the layer files of a pipeline stage are one run per kind of layer (embedding, transformer
// layers, head, final norm), so a rank with a million layer files holds a few runs, not a
// million names and tensor lists. A file (its name, size and tensors) is made on demand by its
// index in plan order; a name is found back by parsing it. A list of files read back from a
// manifest is held the same way (append_listed): consecutive layer files of one size are one run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/units.h"

namespace dlbench::checkpoint {

enum class FileKind {
  kModelStates,  // model_states-{rank}.pt (non-transformer model)
  kLayer,        // layer_{i}-model_{mp}_model_states.pt
  kModel,        // model_{mp}_model_states.pt
  kZeroModel,    // zero_pp_rank_{dp}_mp_rank_{mp}_model_states.pt
  kOptimizer,    // zero_pp_rank_{dp}_mp_rank_{mp}_optim_states.pt
};
const char* FileKindName(FileKind kind);

struct PlannedFile {
  std::string name;  // relative to the checkpoint folder
  FileKind kind = FileKind::kOptimizer;
  std::int64_t layer = -1;          // the layer index of a kLayer file
  std::vector<Bytes> tensor_bytes;  // in the order they are written
  Bytes bytes = 0;                  // sum of tensor_bytes: the file's size as dlbench writes it
};

// Files in a row of one kind and the same tensors: `count` layer files of layers first_layer,
// first_layer + 1, ... (kLayer, named by LayerFileName(layer, mp)), or one file named `name`.
struct FileRun {
  FileKind kind = FileKind::kOptimizer;
  std::string name;               // every kind but kLayer
  std::int64_t first_layer = -1;  // kLayer
  int mp = 0;                     // kLayer: the model-parallel rank its names carry
  std::uint64_t count = 1;
  std::vector<Bytes> tensor_bytes;  // of each file
  Bytes bytes = 0;                  // of each file: the sum of tensor_bytes
};

class PlannedFiles {
 public:
  // Visits the files in plan order, making each as it is reached.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = PlannedFile;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = PlannedFile;

    Iterator() = default;
    Iterator(const PlannedFiles* files, std::size_t index) : files_(files), index_(index) {}
    PlannedFile operator*() const { return (*files_)[index_]; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++index_;
      return before;
    }
    bool operator==(const Iterator& other) const = default;

   private:
    const PlannedFiles* files_ = nullptr;
    std::size_t index_ = 0;
  };

  // Appends a run (count >= 1; a kLayer run names its layers, any other run its one file).
  void add(FileRun run);
  // Appends a file known by its name and size only (a manifest's entry): a layer file's name
  // (LayerFileName) that follows the last run's last layer with the same model-parallel rank and
  // size extends that run, any other name is a run of its own. A listing tells no tensors: the
  // file's one tensor is its size, and a file other than a layer file counts as kModel.
  void append_listed(const std::string& name, Bytes bytes);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // File `index` (< size()), tensors included.
  PlannedFile operator[](std::size_t index) const;
  PlannedFile front() const { return (*this)[0]; }
  PlannedFile back() const { return (*this)[size_ - 1]; }
  // Its name and size only, without its tensors (a merged model file lists every layer's).
  std::string name(std::size_t index) const;
  Bytes bytes(std::size_t index) const;
  // The bytes of every file.
  Bytes total_bytes() const;
  // The index of the file named `name`, if this rank plans one.
  std::optional<std::size_t> find(std::string_view name) const;
  // The same files with no tensor lists (a stage's one model file lists every layer's tensors):
  // what copying or removing them needs, kept per pending checkpoint by a burst buffer.
  PlannedFiles without_tensors() const;

  const std::vector<FileRun>& runs() const { return runs_; }
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size_}; }

 private:
  // The run holding file `index` and the file's place in it.
  std::pair<const FileRun*, std::uint64_t> locate(std::size_t index) const;

  std::vector<FileRun> runs_;
  // ends_[k]: the index after run k's last file; a run is found by bisection, as a listing
  // (append_listed) may be many runs.
  std::vector<std::size_t> ends_;
  std::size_t size_ = 0;
};

}  // namespace dlbench::checkpoint
