// The checkpoint byte plan: for every rank, the exact files it writes into a checkpoint folder
// (global_epoch{E}_step{S}/), their sizes and the tensors inside them, following DLIO's
// Megatron-DeepSpeed model. Pure arithmetic:
// a rank's plan is computed on its own, and the summary of a whole job visits one representative
// rank per model-parallel rank, so a 1024-rank 1T plan costs microseconds. A rank's layer files
// are held as runs (planned_files.h): neither a plan nor the totals grow with the number of
// layer files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/layer_split.h"
#include "checkpoint/planned_files.h"
#include "checkpoint/rank_mapping.h"
#include "checkpoint/tensor_sizes.h"
#include "config/config.h"
#include "util/units.h"

namespace dlbench::checkpoint {

struct RankPlan {
  Rank rank = 0;
  RankCoordinates at;
  bool participates = false;  // false: ZeRO 0 ranks outside the first model-parallel group
  PlannedFiles files;         // a few runs whatever the number of files
  Bytes bytes = 0;
  // What DLIO counts for this rank in its reported checkpoint size.
  Bytes dlio_model_bytes = 0;
  Bytes dlio_optimizer_bytes = 0;
};

struct FileSizeCount {
  FileKind kind = FileKind::kOptimizer;
  Bytes bytes = 0;
  std::uint64_t count = 0;
};

// Ranks whose files have the same kinds and sizes (names differ).
struct RankGroup {
  std::vector<Rank> ranks;  // ascending
  RankPlan example;         // the plan of ranks.front()
};

struct PlanSummary {
  Bytes total_bytes = 0;
  Bytes model_bytes = 0;  // everything but optimizer state
  Bytes optimizer_bytes = 0;
  std::uint64_t files = 0;
  int writing_ranks = 0;     // ranks with at least one file
  Bytes min_rank_bytes = 0;  // over writing ranks
  Bytes max_rank_bytes = 0;
  std::vector<FileSizeCount> file_sizes;  // distinct (kind, size), by kind then size
  std::vector<RankGroup> groups;          // by first rank
  // DLIO's checkpoint_size_GB times 2^30: allocated (not written) layer state plus optimizer
  // state, legacy groups not counted, model_size_bytes for non-transformers.
  Bytes dlio_reported_bytes = 0;
  // What DLIO >=2.0 itself writes and reports per checkpoint for the same configuration, when that
  // is not what dlbench writes: with model_size_bytes given as model.model_size, a key DLIO never
  // reads (config::ModelConfig::model_size_ignored_by_dlio), DLIO writes its default 10240-byte
  // model instead. 0 when DLIO writes what dlbench writes.
  Bytes dlio_own_bytes = 0;
};

class CheckpointPlan {
 public:
  // Validates the model against `world` ranks; throws Error(kUsage) naming the key at fault.
  CheckpointPlan(const config::ModelConfig& model, const config::CheckpointConfig& checkpoint,
                 int world);

  const ParallelLayout& layout() const { return layout_; }
  int world() const { return layout_.world; }
  int zero_stage() const { return zero_stage_; }
  bool legacy_layers() const { return !layer_parameters_.empty(); }
  bool legacy_optimizer() const { return !optimization_groups_.empty(); }
  // P_total, or 0 when the model has no transformer layers.
  std::uint64_t total_parameters() const { return total_parameters_; }

  // The files `rank` writes (throws Error(kUsage) if rank is outside 0..world-1). Restoring with
  // checkpoint.recovery_rank_shift reads ForRank(RecoveryRank(rank, ...)).
  RankPlan for_rank(Rank rank) const;

  PlanSummary summarize() const;
  // summarize() without `groups` (left empty), holding one rank's plan at a time. For a run's
  // checks and metrics, which need the totals only.
  PlanSummary totals() const;

 private:
  PlanSummary make_summary(bool with_groups) const;
  void add_layer_files(RankPlan& plan) const;
  void add_optimizer_file(RankPlan& plan) const;
  std::vector<Bytes> layer_tensor_bytes(std::int64_t layer) const;
  // `range` cut where the layers' tensors change (embedding, transformer layers, head, norm).
  std::vector<LayerRange> same_tensor_pieces(const LayerRange& range) const;
  // The tensors of every layer of `pieces` in order: the one file of a stage (ZeRO 0 and 3, or
  // pipeline 1).
  std::vector<Bytes> stage_tensors(const std::vector<LayerRange>& pieces) const;

  ParallelLayout layout_;
  int zero_stage_ = 0;
  bool transformer_type_ = false;
  Bytes model_size_bytes_ = 0;  // model_states-{rank}.pt, non-transformers only
  bool model_size_ignored_by_dlio_ = false;
  std::int64_t num_layers_ = -1;
  std::vector<std::int64_t> layer_parameters_;
  std::vector<std::int64_t> optimization_groups_;
  TransformerShape shape_;  // valid when num_layers_ > 0 and not legacy
  bool has_transformer_layers_ = false;
  std::uint64_t total_parameters_ = 0;
  Bytes model_element_bytes_ = 2;
  Bytes optimizer_element_bytes_ = 4;
};

}  // namespace dlbench::checkpoint
