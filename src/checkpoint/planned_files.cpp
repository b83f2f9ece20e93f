#include "checkpoint/planned_files.h"

#include <algorithm>
#include <charconv>

#include "checkpoint/file_names.h"
#include "util/error.h"

namespace dlbench::checkpoint {
namespace {

constexpr std::string_view kLayerPrefix = "layer_";

std::string NameIn(const FileRun& run, std::uint64_t offset) {
  if (run.kind != FileKind::kLayer) return run.name;
  return LayerFileName(run.first_layer + static_cast<std::int64_t>(offset), run.mp);
}

// The layer a layer file's name carries (layer_{i}-...), if it starts like one.
std::optional<std::int64_t> LayerOfName(std::string_view name) {
  if (!name.starts_with(kLayerPrefix)) return std::nullopt;
  const char* first = name.data() + kLayerPrefix.size();
  std::int64_t layer = 0;
  const auto [end, error] = std::from_chars(first, name.data() + name.size(), layer);
  if (error != std::errc{} || end == first) return std::nullopt;
  return layer;
}

// The layer and model-parallel rank of a layer file's name (LayerFileName), if it is one.
std::optional<std::pair<std::int64_t, int>> LayerFileOfName(std::string_view name) {
  const std::optional<std::int64_t> layer = LayerOfName(name);
  constexpr std::string_view kModel = "-model_";
  const std::size_t at = name.find(kModel);
  if (!layer || at == std::string_view::npos) return std::nullopt;
  const char* first = name.data() + at + kModel.size();
  int mp = 0;
  const auto [end, error] = std::from_chars(first, name.data() + name.size(), mp);
  if (error != std::errc{} || end == first || LayerFileName(*layer, mp) != name) {
    return std::nullopt;
  }
  return std::pair{*layer, mp};
}

}  // namespace

const char* FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kModelStates:
      return "model state";
    case FileKind::kLayer:
      return "layer";
    case FileKind::kModel:
      return "model";
    case FileKind::kZeroModel:
      return "model shard";
    case FileKind::kOptimizer:
      return "optimizer";
  }
  return "?";
}

void PlannedFiles::add(FileRun run) {
  if (run.count == 0 || (run.kind != FileKind::kLayer && run.count != 1)) {
    throw InternalError("a planned file run of " + std::to_string(run.count) + " files of kind " +
                        FileKindName(run.kind));
  }
  size_ += static_cast<std::size_t>(run.count);
  runs_.push_back(std::move(run));
  ends_.push_back(size_);
}

void PlannedFiles::append_listed(const std::string& name, Bytes bytes) {
  const std::optional<std::pair<std::int64_t, int>> layer = LayerFileOfName(name);
  if (layer && !runs_.empty()) {
    FileRun& last = runs_.back();
    if (last.kind == FileKind::kLayer && last.mp == layer->second && last.bytes == bytes &&
        last.first_layer + static_cast<std::int64_t>(last.count) == layer->first) {
      ++last.count;
      ++size_;
      ++ends_.back();
      return;
    }
  }
  FileRun run;
  run.kind = layer ? FileKind::kLayer : FileKind::kModel;
  if (layer) {
    run.first_layer = layer->first;
    run.mp = layer->second;
  } else {
    run.name = name;
  }
  run.tensor_bytes = {bytes};
  run.bytes = bytes;
  add(std::move(run));
}

std::pair<const FileRun*, std::uint64_t> PlannedFiles::locate(std::size_t index) const {
  const auto end = std::upper_bound(ends_.begin(), ends_.end(), index);
  if (end == ends_.end()) {
    throw InternalError("planned file " + std::to_string(index) + " of " + std::to_string(size_));
  }
  const auto run = static_cast<std::size_t>(end - ends_.begin());
  return {&runs_[run], index - (run == 0 ? 0 : ends_[run - 1])};
}

PlannedFile PlannedFiles::operator[](std::size_t index) const {
  const auto [run, offset] = locate(index);
  PlannedFile file;
  file.name = NameIn(*run, offset);
  file.kind = run->kind;
  if (run->kind == FileKind::kLayer) {
    file.layer = run->first_layer + static_cast<std::int64_t>(offset);
  }
  file.tensor_bytes = run->tensor_bytes;
  file.bytes = run->bytes;
  return file;
}

std::string PlannedFiles::name(std::size_t index) const {
  const auto [run, offset] = locate(index);
  return NameIn(*run, offset);
}

Bytes PlannedFiles::bytes(std::size_t index) const { return locate(index).first->bytes; }

Bytes PlannedFiles::total_bytes() const {
  Bytes total = 0;
  for (const FileRun& run : runs_) total += run.bytes * run.count;
  return total;
}

PlannedFiles PlannedFiles::without_tensors() const {
  PlannedFiles files;
  files.size_ = size_;
  files.ends_ = ends_;
  files.runs_.reserve(runs_.size());
  for (const FileRun& run : runs_) {
    files.runs_.push_back({.kind = run.kind,
                           .name = run.name,
                           .first_layer = run.first_layer,
                           .mp = run.mp,
                           .count = run.count,
                           .tensor_bytes = {},
                           .bytes = run.bytes});
  }
  return files;
}

std::optional<std::size_t> PlannedFiles::find(std::string_view name) const {
  const std::optional<std::int64_t> layer = LayerOfName(name);
  std::size_t first = 0;
  for (const FileRun& run : runs_) {
    if (run.kind != FileKind::kLayer) {
      if (run.name == name) return first;
    } else if (layer && *layer >= run.first_layer &&
               static_cast<std::uint64_t>(*layer - run.first_layer) < run.count &&
               LayerFileName(*layer, run.mp) == name) {
      return first + static_cast<std::size_t>(*layer - run.first_layer);
    }
    first += static_cast<std::size_t>(run.count);
  }
  return std::nullopt;
}

}  // namespace dlbench::checkpoint
