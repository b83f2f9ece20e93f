#include "checkpoint/plan.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>

#include "checkpoint/file_names.h"
#include "checkpoint/layer_split.h"
#include "util/error.h"

namespace dlbench::checkpoint {
namespace {

Bytes Sum(const std::vector<Bytes>& values) {
  return std::accumulate(values.begin(), values.end(), Bytes{0});
}

FileRun OneFile(std::string name, FileKind kind, std::vector<Bytes> tensors) {
  FileRun run;
  run.kind = kind;
  run.name = std::move(name);
  run.bytes = Sum(tensors);
  run.tensor_bytes = std::move(tensors);
  return run;
}

// (kind, size, files in a row) of every file in order, adjacent runs of one kind and size joined:
// two ranks with the same profile write the same bytes.
std::vector<std::tuple<FileKind, Bytes, std::uint64_t>> Profile(const RankPlan& plan) {
  std::vector<std::tuple<FileKind, Bytes, std::uint64_t>> profile;
  for (const FileRun& run : plan.files.runs()) {
    if (!profile.empty() && std::get<0>(profile.back()) == run.kind &&
        std::get<1>(profile.back()) == run.bytes) {
      std::get<2>(profile.back()) += run.count;
    } else {
      profile.emplace_back(run.kind, run.bytes, run.count);
    }
  }
  return profile;
}

}  // namespace

CheckpointPlan::CheckpointPlan(const config::ModelConfig& model,
                               const config::CheckpointConfig& checkpoint, int world)
    : layout_(MakeLayout(model, checkpoint, world)),
      zero_stage_(model.parallelism.zero_stage),
      transformer_type_(model.is_transformer()),
      num_layers_(model.num_layers),
      model_element_bytes_(config::ElementBytes(model.model_datatype)),
      optimizer_element_bytes_(config::ElementBytes(model.optimizer_datatype)) {
  if (zero_stage_ < 0 || zero_stage_ > 3) {
    throw UsageError("model.parallelism.zero_stage must be 0, 1, 2 or 3, got " +
                     std::to_string(zero_stage_));
  }
  if (zero_stage_ == 3 && layout_.pp > 1) {
    throw UsageError(
        "model.parallelism.zero_stage: 3 shards the model over data-parallel ranks and needs "
        "model.parallelism.pipeline: 1, got " +
        std::to_string(layout_.pp));
  }
  if (!transformer_type_ && model.model_size_bytes > 0) {
    model_size_bytes_ = static_cast<Bytes>(model.model_size_bytes);
  }
  model_size_ignored_by_dlio_ = !transformer_type_ && model.model_size_ignored_by_dlio &&
                                model.model_size_bytes != config::ModelConfig{}.model_size_bytes;
  // DLIO's legacy lists: only their positive entries produce tensors.
  for (std::int64_t p : model.layer_parameters) layer_parameters_.push_back(p);
  for (std::int64_t g : model.optimization_groups) optimization_groups_.push_back(g);
  has_transformer_layers_ = num_layers_ > 0 && (!legacy_layers() || !legacy_optimizer());
  if (has_transformer_layers_) {
    shape_ = ShapeOf(model);
    total_parameters_ = TotalParameters(shape_);
  }
}

std::vector<Bytes> CheckpointPlan::layer_tensor_bytes(std::int64_t layer) const {
  std::vector<Bytes> bytes;
  if (legacy_layers()) {
    for (std::int64_t p : layer_parameters_) {
      if (p <= 0) continue;
      const Bytes elements = static_cast<Bytes>(p) / static_cast<Bytes>(layout_.tp);
      if (elements > 0) bytes.push_back(elements);  // int8
    }
    return bytes;
  }
  const int shard_factor = zero_stage_ == 3 ? layout_.dp : 1;
  for (std::uint64_t e : LayerTensorElements(shape_, layer, layout_.tp, shard_factor)) {
    bytes.push_back(e * model_element_bytes_);
  }
  return bytes;
}

std::vector<LayerRange> CheckpointPlan::same_tensor_pieces(const LayerRange& range) const {
  // Only the embedding (0), the head (L+1) and the final norm (L+2) differ from the transformer
  // layers 1..L (tensor_sizes.h); DLIO's legacy layers are all alike.
  const std::int64_t l = num_layers_;
  const LayerRange kinds[] = {{0, 0}, {1, l}, {l + 1, l + 1}, {l + 2, l + 2}};
  std::vector<LayerRange> pieces;
  for (const LayerRange& kind : kinds) {
    const LayerRange piece{std::max(range.first, kind.first), std::min(range.last, kind.last)};
    if (!piece.empty()) pieces.push_back(piece);
  }
  return pieces;
}

void CheckpointPlan::add_layer_files(RankPlan& plan) const {
  if (num_layers_ <= 0) return;
  const RankCoordinates& at = plan.at;
  const LayerRange range = StageLayers(num_layers_, layout_.pp, at.pp, !legacy_layers());
  if (range.empty()) return;
  const std::vector<LayerRange> pieces = same_tensor_pieces(range);

  // DLIO allocates layer state everywhere except on ZeRO-1 replicas, and counts what it
  // allocates (not what it writes) in its reported size; legacy layers are never counted.
  const bool allocated = !(zero_stage_ == 1 && at.dp != 0);
  if (allocated && !legacy_layers()) {
    for (const LayerRange& piece : pieces) {
      plan.dlio_model_bytes +=
          Sum(layer_tensor_bytes(piece.first)) * static_cast<Bytes>(piece.count());
    }
  }

  if (zero_stage_ == 1 || zero_stage_ == 2) {
    if (at.dp != 0) return;  // only the first replica writes the (replicated) model
    if (layout_.pp > 1) {
      for (const LayerRange& piece : pieces) {
        FileRun run;
        run.kind = FileKind::kLayer;
        run.first_layer = piece.first;
        run.mp = at.mp;
        run.count = static_cast<std::uint64_t>(piece.count());
        run.tensor_bytes = layer_tensor_bytes(piece.first);
        run.bytes = Sum(run.tensor_bytes);
        plan.files.add(std::move(run));
      }
      return;
    }
    plan.files.add(OneFile(ModelFileName(at.mp), FileKind::kModel, stage_tensors(pieces)));
    return;
  }
  // ZeRO 0 (full stage, first replica only) and ZeRO 3 (1/DP shard on every rank).
  plan.files.add(
      OneFile(ZeroModelFileName(at.dp, at.mp), FileKind::kZeroModel, stage_tensors(pieces)));
}

std::vector<Bytes> CheckpointPlan::stage_tensors(const std::vector<LayerRange>& pieces) const {
  std::vector<Bytes> tensors;
  for (const LayerRange& piece : pieces) {
    const std::vector<Bytes> layer = layer_tensor_bytes(piece.first);
    for (std::int64_t i = 0; i < piece.count(); ++i) {
      tensors.insert(tensors.end(), layer.begin(), layer.end());
    }
  }
  return tensors;
}

void CheckpointPlan::add_optimizer_file(RankPlan& plan) const {
  const RankCoordinates& at = plan.at;
  std::vector<Bytes> tensors;
  if (legacy_optimizer()) {
    // Two int8 tensors per positive group plus one holding all of them; DLIO writes the
    // file even if every group is empty, and does not count it in its reported size.
    Bytes combined = 0;
    for (std::int64_t g : optimization_groups_) {
      if (g <= 0) continue;
      tensors.push_back(static_cast<Bytes>(g));
      tensors.push_back(static_cast<Bytes>(g));
      combined += static_cast<Bytes>(g);
    }
    if (combined > 0) tensors.push_back(combined);
  } else {
    if (!has_transformer_layers_) return;
    const std::uint64_t divisor = zero_stage_ == 0
                                      ? static_cast<std::uint64_t>(layout_.mp())
                                      : static_cast<std::uint64_t>(layout_.dp) * layout_.mp();
    const std::vector<std::uint64_t> elements = OptimizerTensorElements(shape_, divisor);
    if (elements.empty()) return;
    for (std::uint64_t e : elements) tensors.push_back(e * optimizer_element_bytes_);
    plan.dlio_optimizer_bytes = Sum(tensors);
  }
  plan.files.add(
      OneFile(OptimizerFileName(at.dp, at.mp), FileKind::kOptimizer, std::move(tensors)));
}

RankPlan CheckpointPlan::for_rank(Rank rank) const {
  if (rank < 0 || rank >= layout_.world) {
    throw UsageError("checkpoint plan: rank " + std::to_string(rank) + " is outside 0.." +
                     std::to_string(layout_.world - 1));
  }
  RankPlan plan;
  plan.rank = rank;
  plan.at = layout_.coordinates(rank);
  // Without ZeRO only the first model-parallel group holds any state at all.
  plan.participates = zero_stage_ != 0 || rank < layout_.mp();
  if (!plan.participates) return plan;
  // DLIO's save order: model state, layers, optimizer.
  if (model_size_bytes_ > 0) {
    plan.files.add(OneFile(ModelStatesFileName(rank), FileKind::kModelStates, {model_size_bytes_}));
  }
  add_layer_files(plan);
  add_optimizer_file(plan);
  plan.bytes = plan.files.total_bytes();
  return plan;
}

PlanSummary CheckpointPlan::summarize() const { return make_summary(true); }

PlanSummary CheckpointPlan::totals() const { return make_summary(false); }

PlanSummary CheckpointPlan::make_summary(bool with_groups) const {
  // Plans differ only by mp and by whether dp == 0 (names aside), so one representative of each
  // (mp, dp == 0) class and the class sizes give the whole job. One class's plan is built at a
  // time, in the order of their first ranks (that of the groups), and kept only as the example of
  // a new group.
  const int world = layout_.world;
  const int mp = layout_.mp();
  const int classes_per_kind = std::min(mp, world);
  auto class_of = [&](Rank r) { return static_cast<std::size_t>(r % mp) * 2 + (r < mp ? 0 : 1); };
  std::vector<int> group_of_class(2 * static_cast<std::size_t>(classes_per_kind), -1);

  PlanSummary summary;
  std::map<std::tuple<FileKind, Bytes>, std::uint64_t> sizes;
  std::map<std::vector<std::tuple<FileKind, Bytes, std::uint64_t>>, int> group_of_profile;
  bool any_writer = false;
  Bytes dlio_model = 0;
  for (int replica = 0; replica < 2; ++replica) {
    for (int m = 0; m < classes_per_kind; ++m) {
      const Rank first = m + replica * mp;
      if (first >= world) continue;
      const std::uint64_t ranks =
          replica == 0 ? 1
                       : static_cast<std::uint64_t>(world - 1 - m) / static_cast<std::uint64_t>(mp);
      RankPlan p = for_rank(first);
      summary.total_bytes += p.bytes * ranks;
      summary.files += p.files.size() * ranks;
      dlio_model += p.dlio_model_bytes * ranks;
      summary.dlio_reported_bytes += p.dlio_optimizer_bytes * ranks;
      for (const FileRun& run : p.files.runs()) {
        (run.kind == FileKind::kOptimizer ? summary.optimizer_bytes : summary.model_bytes) +=
            run.bytes * run.count * ranks;
        sizes[{run.kind, run.bytes}] += run.count * ranks;
      }
      if (!p.files.empty()) {
        summary.writing_ranks += static_cast<int>(ranks);
        summary.min_rank_bytes = any_writer ? std::min(summary.min_rank_bytes, p.bytes) : p.bytes;
        summary.max_rank_bytes = any_writer ? std::max(summary.max_rank_bytes, p.bytes) : p.bytes;
        any_writer = true;
      }
      if (with_groups) {
        auto [it, inserted] =
            group_of_profile.try_emplace(Profile(p), static_cast<int>(summary.groups.size()));
        if (inserted) {
          summary.groups.emplace_back();
          summary.groups.back().example = std::move(p);
        }
        group_of_class[class_of(first)] = it->second;
      }
    }
  }
  // For a non-transformer DLIO reports the model size once, whatever the ranks holding it.
  summary.dlio_reported_bytes += model_size_bytes_ > 0 ? model_size_bytes_ : dlio_model;
  if (model_size_ignored_by_dlio_) {
    const auto dlio_default = static_cast<Bytes>(config::ModelConfig{}.model_size_bytes);
    summary.dlio_own_bytes = summary.dlio_reported_bytes - model_size_bytes_ + dlio_default;
  }
  for (const auto& [key, count] : sizes) {
    summary.file_sizes.push_back({std::get<0>(key), std::get<1>(key), count});
  }
  std::stable_sort(summary.file_sizes.begin(), summary.file_sizes.end(),
                   [](const FileSizeCount& a, const FileSizeCount& b) {
                     return std::tie(a.kind, a.bytes) < std::tie(b.kind, b.bytes);
                   });

  if (with_groups) {
    for (Rank r = 0; r < world; ++r) {
      summary.groups[static_cast<std::size_t>(group_of_class[class_of(r)])].ranks.push_back(r);
    }
  }
  return summary;
}

}  // namespace dlbench::checkpoint
