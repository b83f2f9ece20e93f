#include "config/schema.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "config/distribution_parser.h"
#include "config/secrets.h"
#include "config/typed_value.h"
#include "config/units_parser.h"
#include "config/workload_catalog.h"
#include "util/path_text.h"
#include "util/size_text.h"

namespace dlbench::config {
namespace {

// A key whose value converts with the Convert/ToNode overloads of its field's C++ type.
// `access` is a generic lambda returning a reference into a Config, const or not.
template <typename Access>
Field Leaf(std::string path, Access access) {
  Field field;
  field.path = path;
  field.set = [access, path](Config& config, const DocNode& node) {
    Convert(node, path, access(config));
  };
  field.get = [access](const Config& config) -> std::optional<DocNode> {
    return ToNode(access(config));
  };
  return field;
}

Field WithSubkeys(Field field, std::vector<std::string> subkeys) {
  field.subkeys = std::move(subkeys);
  return field;
}

Field NoEffect(Field field, std::string why) {
  field.no_effect = std::move(why);
  return field;
}

// Keys DLIO knows that dlbench deliberately does not hold: accepted, never written back.
Field Ignored(std::string path, std::string why) {
  Field field;
  field.path = path;
  field.set = [](Config&, const DocNode&) {};
  field.get = [](const Config&) -> std::optional<DocNode> { return std::nullopt; };
  field.no_effect = std::move(why);
  return field;
}

// DLIO plugin hooks (custom Python classes): dlbench has no plugins.
Field Rejected(std::string path, std::string what) {
  Field field;
  field.path = path;
  field.set = [path, what](Config&, const DocNode& node) {
    if (!node.is_null()) {
      FailAt(path, node, what + " are not supported by dlbench (no plugins); remove the key");
    }
  };
  field.get = [](const Config&) -> std::optional<DocNode> { return std::nullopt; };
  return field;
}

// storage.storage_options, its credentials written back hidden (config/secrets.h).
Field StorageOptionsField() {
  Field field = WithSubkeys(
      Leaf(
          "storage.storage_options", [](auto& c) -> auto& { return c.storage.storage_options; }),
      {"*"});
  field.get = [](const Config& config) -> std::optional<DocNode> {
    return ToNode(HideSecretOptions(config.storage.storage_options));
  };
  return field;
}

// Folders keep DLIO's rule: a trailing '/' is stripped (but "/" stays "/").
template <typename Access>
Field Folder(std::string path, Access access) {
  Field field = Leaf(path, access);
  field.set = [access, path](Config& config, const DocNode& node) {
    std::string& folder = access(config);
    Convert(node, path, folder);
    folder = TrimTrailingSlashes(std::move(folder));
  };
  return field;
}

// A byte length DLIO allows to be fractional (114660.07): written as an integer when it is one.
template <typename Access>
Field Length(std::string path, Access access) {
  Field field = Leaf(path, access);
  field.get = [access](const Config& config) -> std::optional<DocNode> {
    const double value = access(config);
    if (value == std::floor(value) && std::fabs(value) < 9e15) {
      return ToNode(static_cast<std::int64_t>(value));
    }
    return ToNode(value);
  };
  return field;
}

Field ResizeField() {
  Field field = Leaf(
      "dataset.record_length_bytes_resize",
      [](auto& c) -> auto& { return c.dataset.record_length_bytes_resize; });
  field.set = [](Config& config, const DocNode& node) {
    config.dataset.record_length_bytes_resize =
        ConvertFlooredInteger(node, "dataset.record_length_bytes_resize");
  };
  return field;
}

// Reads the entries of a composite's mapping (null counts as empty).
template <typename Fn>
void ForEachEntry(const DocNode& node, const std::string& path, const std::string& expected,
                  Fn fn) {
  if (node.is_null()) return;
  if (!node.is_map()) FailAt(path, node, "expected " + expected + ", got " + Describe(node));
  for (const auto& [key, value] : node.entries) fn(key, value, path + "." + key);
}

Field TiersField() {
  Field field;
  field.path = "storage.tiers";
  field.subkeys = {"*.path", "*.capacity", "*.bandwidth_limit", "*.latency", "*.node_local"};
  field.set = [](Config& config, const DocNode& node) {
    config.storage.tiers.clear();
    ForEachEntry(
        node, "storage.tiers", "a mapping of tier names",
        [&](const std::string& name, const DocNode& spec, const std::string& path) {
          TierConfig tier;
          tier.name = name;
          const char* shape =
              "a mapping like {path: /nvme, capacity: 64GiB, "
              "bandwidth_limit: 400MiB/s, latency: 2ms}";
          if (!spec.is_map()) FailAt(path, spec, std::string("expected ") + shape);
          const DocNode* folder = spec.find("path");
          if (!folder) FailAt(path, spec, "a tier needs a path");
          Convert(*folder, path + ".path", tier.path);
          tier.path_template = tier.path;
          tier.node_local = tier.path.find(kNodePlaceholder) != std::string::npos;
          if (const DocNode* local = spec.find("node_local"); local && !local->is_null()) {
            bool value = false;
            Convert(*local, path + ".node_local", value);
            if (!value && tier.node_local) {
              FailAt(path + ".node_local", *local,
                     std::string("false, but the path uses ") + kNodePlaceholder +
                         ", which makes a folder per node: a node-local tier");
            }
            tier.node_local = value;
          }
          if (const DocNode* capacity = spec.find("capacity")) {
            Convert(*capacity, path + ".capacity", tier.capacity);
          }
          if (const DocNode* rate = spec.find("bandwidth_limit"); rate && !rate->is_null()) {
            const auto value = rate->is_scalar() ? ParseRate(rate->text) : std::nullopt;
            if (!value) {
              FailAt(path + ".bandwidth_limit", *rate,
                     "expected a rate like 400MiB/s (units " + std::string(kSizeUnits) +
                         " per second), got " + Describe(*rate));
            }
            tier.bandwidth_limit = *value;
          }
          if (const DocNode* latency = spec.find("latency"); latency && !latency->is_null()) {
            const auto value = latency->is_scalar() ? ParseDuration(latency->text) : std::nullopt;
            if (!value) {
              FailAt(path + ".latency", *latency,
                     "expected a duration like 2ms (units " + std::string(kDurationUnits) +
                         "), got " + Describe(*latency));
            }
            tier.latency = *value;
          }
          config.storage.tiers.push_back(tier);
        });
  };
  field.get = [](const Config& config) -> std::optional<DocNode> {
    DocNode map = DocNode::Map();
    for (const auto& tier : config.storage.tiers) {
      DocNode spec = DocNode::Map();
      spec.set("path", ToNode(tier.path_template.empty() ? tier.path : tier.path_template));
      spec.set("node_local", ToNode(tier.node_local));
      spec.set("capacity",
               tier.capacity ? DocNode::Scalar(FormatSize(*tier.capacity)) : DocNode::Null());
      spec.set("bandwidth_limit", tier.bandwidth_limit
                                      ? DocNode::Scalar(FormatRate(*tier.bandwidth_limit))
                                      : DocNode::Null());
      spec.set("latency", DocNode::Scalar(FormatDuration(tier.latency)));
      map.set(tier.name, spec);
    }
    return map;
  };
  return field;
}

// dataset.parquet.columns: a list of {name, dtype, size, read} (MLCommons DLIO).
Field ParquetColumnsField() {
  Field field;
  field.path = "dataset.parquet.columns";
  field.set = [](Config& config, const DocNode& node) {
    const std::string base = "dataset.parquet.columns";
    std::vector<ParquetColumn>& columns = config.dataset.parquet.columns;
    columns.clear();
    if (node.is_null()) return;
    const char* shape = "a list of {name, dtype, size, read} mappings";
    if (!node.is_list()) FailAt(base, node, std::string("expected ") + shape);
    for (std::size_t i = 0; i < node.items.size(); ++i) {
      const DocNode& item = node.items[i];
      const std::string path = base + "[" + std::to_string(i) + "]";
      if (!item.is_map()) FailAt(path, item, std::string("expected ") + shape);
      ParquetColumn column;
      for (const auto& [key, value] : item.entries) {
        if (key == "name") {
          Convert(value, path + ".name", column.name);
        } else if (key == "dtype") {
          Convert(value, path + ".dtype", column.dtype);
        } else if (key == "size") {
          Convert(value, path + ".size", column.size);
        } else if (key == "read") {
          Convert(value, path + ".read", column.read);
        } else {
          FailAt(path + "." + key, value, "unknown key (a column has name, dtype, size, read)");
        }
      }
      if (!item.find("name")) FailAt(path, item, "a column needs a name");
      columns.push_back(column);
    }
  };
  field.get = [](const Config& config) -> std::optional<DocNode> {
    DocNode list = DocNode::List();
    for (const ParquetColumn& c : config.dataset.parquet.columns) {
      DocNode item = DocNode::Map();
      item.set("name", ToNode(c.name));
      item.set("dtype", ToNode(c.dtype));
      item.set("size", ToNode(c.size));
      item.set("read", ToNode(c.read));
      list.items.push_back(item);
    }
    return list;
  };
  return field;
}

// A key whose DLIO feature dlbench does not have: only its default (null) is accepted.
Field Unsupported(std::string path, std::string why) {
  Field field;
  field.path = path;
  field.set = [path, why](Config&, const DocNode& node) {
    if (!node.is_null()) FailAt(path, node, why + "; remove the key");
  };
  field.get = [](const Config&) -> std::optional<DocNode> { return std::nullopt; };
  return field;
}

Field KsmField() {
  Field field;
  field.path = "checkpoint.ksm";
  field.subkeys = {"madv_mergeable_id", "high_ram_trigger", "low_ram_exit", "await_time"};
  field.set = [](Config& config, const DocNode& node) {
    // DLIO: the presence of the map, even empty, turns KSM on.
    config.checkpoint.ksm = true;
    KsmConfig& ksm = config.checkpoint.ksm_options;
    ksm = KsmConfig{};
    ForEachEntry(node, "checkpoint.ksm", "a mapping",
                 [&](const std::string& key, const DocNode& value, const std::string& path) {
                   if (key == "madv_mergeable_id") Convert(value, path, ksm.madv_mergeable_id);
                   if (key == "high_ram_trigger") Convert(value, path, ksm.high_ram_trigger);
                   if (key == "low_ram_exit") Convert(value, path, ksm.low_ram_exit);
                   if (key == "await_time") Convert(value, path, ksm.await_time);
                 });
  };
  field.get = [](const Config& config) -> std::optional<DocNode> {
    if (!config.checkpoint.ksm) return std::nullopt;
    const KsmConfig& ksm = config.checkpoint.ksm_options;
    DocNode map = DocNode::Map();
    map.set("madv_mergeable_id", ToNode(ksm.madv_mergeable_id));
    map.set("high_ram_trigger", ToNode(ksm.high_ram_trigger));
    map.set("low_ram_exit", ToNode(ksm.low_ram_exit));
    map.set("await_time", ToNode(ksm.await_time));
    return map;
  };
  return field;
}

Field BurstBufferField() {
  Field field;
  field.path = "checkpoint.burst_buffer";
  field.subkeys = {"tier", "drain_threads", "evict_after_drain", "max_pending_checkpoints",
                   "preallocate"};
  field.set = [](Config& config, const DocNode& node) {
    config.checkpoint.burst_buffer.reset();
    if (node.is_null()) return;
    const std::string base = "checkpoint.burst_buffer";
    BurstBufferConfig buffer;
    ForEachEntry(node, base, "a mapping like {tier: nvme, drain_threads: 2}",
                 [&](const std::string& key, const DocNode& value, const std::string& path) {
                   if (key == "tier") Convert(value, path, buffer.tier);
                   if (key == "drain_threads") Convert(value, path, buffer.drain_threads);
                   if (key == "evict_after_drain") Convert(value, path, buffer.evict_after_drain);
                   if (key == "max_pending_checkpoints")
                     Convert(value, path, buffer.max_pending_checkpoints);
                   if (key == "preallocate") Convert(value, path, buffer.preallocate);
                 });
    if (!node.find("tier")) {
      FailAt(base, node, "a burst buffer needs `tier`, the name of a storage.tiers entry");
    }
    config.checkpoint.burst_buffer = buffer;
  };
  field.get = [](const Config& config) -> std::optional<DocNode> {
    if (!config.checkpoint.burst_buffer) return DocNode::Null();
    const BurstBufferConfig& buffer = *config.checkpoint.burst_buffer;
    DocNode map = DocNode::Map();
    map.set("tier", ToNode(buffer.tier));
    map.set("drain_threads", ToNode(buffer.drain_threads));
    map.set("evict_after_drain", ToNode(buffer.evict_after_drain));
    map.set("max_pending_checkpoints", ToNode(buffer.max_pending_checkpoints));
    map.set("preallocate", ToNode(buffer.preallocate));
    return map;
  };
  return field;
}

#define DLBENCH_KEY(section, key) \
  Leaf(                           \
      #section "." #key, [](auto& c) -> auto& { return c.section.key; })

std::vector<Field> BuildSchema() {
  const std::vector<std::string>& time_keys = DistributionKeys();
  const std::string unused_at_head = "parsed but unused by DLIO; no effect in dlbench";
  return {
      DLBENCH_KEY(model, name),
      DLBENCH_KEY(model, type),
      DLBENCH_KEY(model, model_size_bytes),
      DLBENCH_KEY(model, model_datatype),
      DLBENCH_KEY(model, optimizer_datatype),
      DLBENCH_KEY(model, optimization_groups),
      DLBENCH_KEY(model, num_layers),
      DLBENCH_KEY(model, layer_parameters),
      DLBENCH_KEY(model.parallelism, tensor),
      DLBENCH_KEY(model.parallelism, pipeline),
      DLBENCH_KEY(model.parallelism, data),
      DLBENCH_KEY(model.parallelism, zero_stage),
      DLBENCH_KEY(model.transformer, vocab_size),
      DLBENCH_KEY(model.transformer, hidden_size),
      DLBENCH_KEY(model.transformer, ffn_hidden_size),
      DLBENCH_KEY(model.transformer, num_attention_heads),
      DLBENCH_KEY(model.transformer, num_kv_heads),

      Leaf(
          "framework", [](auto& c) -> auto& { return c.framework; }),

      DLBENCH_KEY(workflow, generate_data),
      DLBENCH_KEY(workflow, train),
      DLBENCH_KEY(workflow, evaluation),
      DLBENCH_KEY(workflow, checkpoint),
      DLBENCH_KEY(workflow, profiling),
      DLBENCH_KEY(workflow, stage),
      DLBENCH_KEY(workflow, query),
      Ignored("workflow.debug", "a DLIO <=1.0 key, ignored"),

      DLBENCH_KEY(storage, storage_type),
      DLBENCH_KEY(storage, storage_root),
      StorageOptionsField(),
      DLBENCH_KEY(storage, storage_library),
      TiersField(),

      Folder(
          "dataset.data_folder", [](auto& c) -> auto& { return c.dataset.data_folder; }),
      DLBENCH_KEY(dataset, format),
      DLBENCH_KEY(dataset, num_files_train),
      DLBENCH_KEY(dataset, num_files_eval),
      DLBENCH_KEY(dataset, num_samples_per_file),
      DLBENCH_KEY(dataset, num_subfolders_train),
      DLBENCH_KEY(dataset, num_subfolders_eval),
      DLBENCH_KEY(dataset, file_prefix),
      Length(
          "dataset.record_length_bytes",
          [](auto& c) -> auto& { return c.dataset.record_length_bytes; }),
      Length(
          "dataset.record_length_bytes_stdev",
          [](auto& c) -> auto& { return c.dataset.record_length_bytes_stdev; }),
      ResizeField(),
      DLBENCH_KEY(dataset, record_dims),
      DLBENCH_KEY(dataset, record_element_type),
      Ignored("dataset.record_element_bytes",
              "always derived from record_element_type (as DLIO does)"),
      DLBENCH_KEY(dataset, compression),
      DLBENCH_KEY(dataset, compression_level),
      NoEffect(DLBENCH_KEY(dataset, enable_chunking), unused_at_head + "; use hdf5.chunk_dims"),
      NoEffect(DLBENCH_KEY(dataset, chunk_size), unused_at_head + "; use hdf5.chunk_dims"),
      DLBENCH_KEY(dataset.hdf5, chunk_dims),
      DLBENCH_KEY(dataset.hdf5, num_dset_per_record),
      DLBENCH_KEY(dataset.hdf5, max_shape),
      ParquetColumnsField(),
      DLBENCH_KEY(dataset.parquet, row_group_size),
      Ignored("dataset.parquet.generation_batch_size",
              "rows DLIO generates at a time (memory only); dlbench writes page by page"),
      Unsupported("dataset.parquet.partition_by",
                  "Hive-partitioned Parquet datasets are not supported by dlbench"),
      Ignored("dataset.parquet.use_s3dlio_gen", "an s3dlio generation switch; no effect"),
      Ignored("dataset.parquet.read_mode",
              "dlbench reads the pages of a sample's row (docs/formats.md)"),
      DLBENCH_KEY(dataset, generation_buffer_size),
      DLBENCH_KEY(dataset, keep_files),
      DLBENCH_KEY(dataset, generation_threads),
      DLBENCH_KEY(dataset, fsync),
      DLBENCH_KEY(dataset.content, kind),
      DLBENCH_KEY(dataset.content, compress_ratio),
      DLBENCH_KEY(dataset.content, seed),
      DLBENCH_KEY(dataset.content, encoding),

      DLBENCH_KEY(reader, data_loader),
      Rejected("reader.data_loader_classname", "custom data loader classes"),
      DLBENCH_KEY(reader, data_loader_sampler),
      Rejected("reader.reader_classname", "custom reader classes"),
      DLBENCH_KEY(reader, batch_size),
      DLBENCH_KEY(reader, batch_size_eval),
      DLBENCH_KEY(reader, read_threads),
      DLBENCH_KEY(reader, computation_threads),
      DLBENCH_KEY(reader, prefetch_size),
      DLBENCH_KEY(reader, file_shuffle),
      DLBENCH_KEY(reader, sample_shuffle),
      DLBENCH_KEY(reader, shuffle_size),
      DLBENCH_KEY(reader, read_type),
      NoEffect(DLBENCH_KEY(reader, file_access), unused_at_head),
      DLBENCH_KEY(reader, transfer_size),
      WithSubkeys(DLBENCH_KEY(reader, preprocess_time), time_keys),
      DLBENCH_KEY(reader, pin_memory),
      DLBENCH_KEY(reader, multiprocessing_context),
      DLBENCH_KEY(reader, dont_use_mmap),
      DLBENCH_KEY(reader, odirect),
      DLBENCH_KEY(reader, transformed_record_dims),
      DLBENCH_KEY(reader, transformed_record_element_type),
      DLBENCH_KEY(reader, drop_caches),
      DLBENCH_KEY(reader, on_error),
      DLBENCH_KEY(reader, verify_checksums),
      DLBENCH_KEY(reader, thread_policy),

      DLBENCH_KEY(train, epochs),
      DLBENCH_KEY(train, total_training_steps),
      WithSubkeys(DLBENCH_KEY(train, computation_time), time_keys),
      DLBENCH_KEY(train, seed),
      DLBENCH_KEY(train, seed_change_epoch),
      DLBENCH_KEY(train, step_barrier),

      WithSubkeys(DLBENCH_KEY(evaluation, eval_time), time_keys),
      DLBENCH_KEY(evaluation, eval_after_epoch),
      DLBENCH_KEY(evaluation, epochs_between_evals),

      Folder(
          "checkpoint.checkpoint_folder",
          [](auto& c) -> auto& { return c.checkpoint.checkpoint_folder; }),
      DLBENCH_KEY(checkpoint, checkpoint_after_epoch),
      DLBENCH_KEY(checkpoint, epochs_between_checkpoints),
      DLBENCH_KEY(checkpoint, steps_between_checkpoints),
      NoEffect(DLBENCH_KEY(checkpoint, type),
               "unused by DLIO since v2.0; the checkpoint layout follows the model"),
      Rejected("checkpoint.checkpoint_mechanism_classname", "custom checkpoint mechanisms"),
      DLBENCH_KEY(checkpoint, fsync),
      DLBENCH_KEY(checkpoint, time_between_checkpoints),
      DLBENCH_KEY(checkpoint, num_checkpoints_write),
      DLBENCH_KEY(checkpoint, num_checkpoints_read),
      DLBENCH_KEY(checkpoint, recovery_rank_shift),
      DLBENCH_KEY(checkpoint, rank_sync),
      DLBENCH_KEY(checkpoint, mode),
      DLBENCH_KEY(checkpoint, randomize_tensor),
      KsmField(),
      DLBENCH_KEY(checkpoint, write_threads),
      DLBENCH_KEY(checkpoint, odirect),
      DLBENCH_KEY(checkpoint, verify),
      BurstBufferField(),

      DLBENCH_KEY(output, folder),
      DLBENCH_KEY(output, log_file),
      DLBENCH_KEY(output.metric, exclude_start_steps),
      DLBENCH_KEY(output.metric, exclude_end_steps),

      DLBENCH_KEY(profiling, profiler),
      DLBENCH_KEY(profiling, iostat_devices),
      DLBENCH_KEY(profiling, trace_data_dirs),
      DLBENCH_KEY(profiling, trace_sample),
      DLBENCH_KEY(profiling, trace_policy),
      DLBENCH_KEY(profiling, trace_buffer_events),
      DLBENCH_KEY(profiling, trace_compression_level),
      DLBENCH_KEY(profiling, trace_writer_priority),
      DLBENCH_KEY(profiling, counters_memory_mib),

      DLBENCH_KEY(metric, au),

      DLBENCH_KEY(stage, from),
      DLBENCH_KEY(stage, to),
      DLBENCH_KEY(stage, policy),
      DLBENCH_KEY(stage, all_files),
      DLBENCH_KEY(stage, threads),
      DLBENCH_KEY(stage, verify),
  };
}

#undef DLBENCH_KEY

struct Pattern {
  std::vector<std::string> segments;
  const Field* field;
  std::size_t field_depth;  // segments of the field's own path
};

const std::vector<Pattern>& Patterns() {
  static const std::vector<Pattern> kPatterns = [] {
    std::vector<Pattern> patterns;
    for (const Field& field : Schema()) {
      const auto base = SplitKey(field.path);
      patterns.push_back({base, &field, base.size()});
      for (const auto& sub : field.subkeys) {
        auto segments = base;
        for (auto& s : SplitKey(sub)) segments.push_back(s);
        patterns.push_back({segments, &field, base.size()});
      }
    }
    return patterns;
  }();
  return kPatterns;
}

// How many leading segments of `key` the pattern matches.
std::size_t Matched(const Pattern& pattern, const std::vector<std::string>& key) {
  std::size_t n = 0;
  while (n < key.size() && n < pattern.segments.size() &&
         (pattern.segments[n] == "*" || pattern.segments[n] == key[n])) {
    ++n;
  }
  return n;
}

}  // namespace

const std::vector<Field>& Schema() {
  static const std::vector<Field> kSchema = BuildSchema();
  return kSchema;
}

std::vector<std::string> SplitKey(const std::string& dotted) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    segments.push_back(dotted.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return segments;
}

std::string JoinKey(const std::vector<std::string>& segments, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < segments.size(); ++i) {
    out += (i ? "." : "") + segments[i];
  }
  return out;
}

KeyLookup Lookup(const std::vector<std::string>& key) {
  KeyLookup result;
  std::size_t best_depth = 0;
  for (const Pattern& pattern : Patterns()) {
    const std::size_t matched = Matched(pattern, key);
    if (matched == key.size()) {
      KeyLookup found;
      found.field = pattern.field;
      if (key.size() == pattern.field_depth) {
        found.kind = KeyLookup::Kind::kField;
      } else if (key.size() > pattern.field_depth) {
        found.kind = KeyLookup::Kind::kInsideField;
      } else {
        found.kind = KeyLookup::Kind::kSection;
        found.field = nullptr;
      }
      if (result.kind == KeyLookup::Kind::kUnknown || found.kind < result.kind) result = found;
      continue;
    }
    best_depth = std::max(best_depth, matched);
  }
  if (result.kind != KeyLookup::Kind::kUnknown) return result;
  std::vector<std::string> candidates;
  for (const Pattern& pattern : Patterns()) {
    if (Matched(pattern, key) == best_depth && pattern.segments.size() > best_depth &&
        pattern.segments[best_depth] != "*") {
      candidates.push_back(pattern.segments[best_depth]);
    }
  }
  result.known_segments = best_depth;
  result.suggestion = ClosestMatch(key[best_depth], candidates);
  return result;
}

std::string UnknownKeyMessage(const std::vector<std::string>& segments, const KeyLookup& lookup,
                              const std::string& origin) {
  std::string message = JoinKey(segments, lookup.known_segments + 1) + ": unknown key";
  if (!origin.empty()) message += " (" + origin + ")";
  if (lookup.suggestion) message += "; did you mean " + *lookup.suggestion + "?";
  return message;
}

}  // namespace dlbench::config
