// Every enumerated value of the DLIO schema, parsed once at load time (DLIO compares raw
// strings against enums at use sites, defect D4). Names are the YAML spellings.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace dlbench::config {

enum class Framework { kTensorflow, kPytorch };
enum class DataLoader { kTensorflow, kPytorch, kDali, kNativeDali, kSynthetic };
enum class SamplerKind { kIterative, kIndex };
enum class Format {
  kTfrecord,
  kHdf5,
  kCsv,
  kNpz,
  kNpy,
  kJpeg,
  kPng,
  kIndexedBinary,
  kMmapIndexedBinary,
  kSynthetic,
  kParquet
};
enum class Shuffle { kOff, kSeed, kRandom };
enum class ReadType { kOnDemand, kMemory };
enum class FileAccess { kMulti, kShared, kCollective, kMpio, kPosix };
enum class Compression { kNone, kGzip, kLzf, kBz2, kZip, kXz, kSnappy, kLz4, kZstd };
enum class StorageType { kLocalFs, kParallelFs, kS3, kAistore };
enum class CheckpointType { kRankZero, kAllRanks };
enum class CheckpointMode { kDefault, kSubset };
enum class DataType { kInt8, kUint8, kFp16, kBf16, kFp32, kFp64 };
enum class Profiler { kIostat, kDarshan, kTensorboard, kNone };
enum class MultiprocessingContext { kFork, kSpawn, kForkserver };
// dlbench additions.
enum class ContentKind { kRandom, kCompressible, kZeros };
// How jpeg, png and csv files are produced (docs/formats.md, "Assembled jpeg files"). kAuto is the
// default, which config::Load resolves to kAssembled where an assembler exists and kPerFile
// otherwise; a loaded Config never holds it.
enum class ContentEncoding { kAuto, kPerFile, kAssembled };
enum class DropCaches { kNone, kFadvise, kDrop };
enum class OnError { kFail, kSkip };
enum class ThreadPolicy { kBatch, kNormal };
enum class StagePolicy { kBeforeTraining, kPerEpoch, kOnDemand };
enum class TracePolicy { kBlock, kDrop };
enum class TraceWriterPriority { kIdle, kLow, kNormal };
// checkpoint.burst_buffer.preallocate: kAuto takes the tier's space at start only where writing
// new space allocates memory (a tier in tmpfs, Capabilities::memory); written true / false (or any
// YAML spelling of them) for always / never.
enum class Preallocate { kAuto, kYes, kNo };

template <typename E>
struct EnumNames;  // specialised below: static constexpr std::array<std::pair<E, const char*>, N>

#define DLBENCH_ENUM_NAMES(E, ...)                                       \
  template <>                                                            \
  struct EnumNames<E> {                                                  \
    static constexpr std::pair<E, const char*> kNames[] = {__VA_ARGS__}; \
  };

DLBENCH_ENUM_NAMES(Framework, {Framework::kTensorflow, "tensorflow"},
                   {Framework::kPytorch, "pytorch"})
DLBENCH_ENUM_NAMES(DataLoader, {DataLoader::kTensorflow, "tensorflow"},
                   {DataLoader::kPytorch, "pytorch"}, {DataLoader::kDali, "dali"},
                   {DataLoader::kNativeDali, "native_dali"}, {DataLoader::kSynthetic, "synthetic"})
DLBENCH_ENUM_NAMES(SamplerKind, {SamplerKind::kIterative, "iterative"},
                   {SamplerKind::kIndex, "index"})
DLBENCH_ENUM_NAMES(Format, {Format::kTfrecord, "tfrecord"}, {Format::kHdf5, "hdf5"},
                   {Format::kCsv, "csv"}, {Format::kNpz, "npz"}, {Format::kNpy, "npy"},
                   {Format::kJpeg, "jpeg"}, {Format::kPng, "png"},
                   {Format::kIndexedBinary, "indexed_binary"},
                   {Format::kMmapIndexedBinary, "mmap_indexed_binary"},
                   {Format::kSynthetic, "synthetic"}, {Format::kParquet, "parquet"})
DLBENCH_ENUM_NAMES(Shuffle, {Shuffle::kOff, "off"}, {Shuffle::kSeed, "seed"},
                   {Shuffle::kRandom, "random"})
DLBENCH_ENUM_NAMES(ReadType, {ReadType::kOnDemand, "on_demand"}, {ReadType::kMemory, "memory"})
DLBENCH_ENUM_NAMES(FileAccess, {FileAccess::kMulti, "multi"}, {FileAccess::kShared, "shared"},
                   {FileAccess::kCollective, "collective"}, {FileAccess::kMpio, "mpio"},
                   {FileAccess::kPosix, "posix"})
DLBENCH_ENUM_NAMES(Compression, {Compression::kNone, "none"}, {Compression::kGzip, "gzip"},
                   {Compression::kLzf, "lzf"}, {Compression::kBz2, "bz2"},
                   {Compression::kZip, "zip"}, {Compression::kXz, "xz"},
                   {Compression::kSnappy, "snappy"}, {Compression::kLz4, "lz4"},
                   {Compression::kZstd, "zstd"})
DLBENCH_ENUM_NAMES(StorageType, {StorageType::kLocalFs, "local_fs"},
                   {StorageType::kParallelFs, "parallel_fs"}, {StorageType::kS3, "s3"},
                   {StorageType::kAistore, "aistore"})
DLBENCH_ENUM_NAMES(CheckpointType, {CheckpointType::kRankZero, "rank_zero"},
                   {CheckpointType::kAllRanks, "all_ranks"})
DLBENCH_ENUM_NAMES(CheckpointMode, {CheckpointMode::kDefault, "default"},
                   {CheckpointMode::kSubset, "subset"})
DLBENCH_ENUM_NAMES(DataType, {DataType::kInt8, "int8"}, {DataType::kUint8, "uint8"},
                   {DataType::kFp16, "fp16"}, {DataType::kBf16, "bf16"}, {DataType::kFp32, "fp32"},
                   {DataType::kFp64, "fp64"})
DLBENCH_ENUM_NAMES(Profiler, {Profiler::kIostat, "iostat"}, {Profiler::kDarshan, "darshan"},
                   {Profiler::kTensorboard, "tensorboard"}, {Profiler::kNone, "none"})
DLBENCH_ENUM_NAMES(MultiprocessingContext, {MultiprocessingContext::kFork, "fork"},
                   {MultiprocessingContext::kSpawn, "spawn"},
                   {MultiprocessingContext::kForkserver, "forkserver"})
DLBENCH_ENUM_NAMES(ContentKind, {ContentKind::kRandom, "random"},
                   {ContentKind::kCompressible, "compressible"}, {ContentKind::kZeros, "zeros"})
DLBENCH_ENUM_NAMES(ContentEncoding, {ContentEncoding::kAuto, "auto"},
                   {ContentEncoding::kPerFile, "per_file"},
                   {ContentEncoding::kAssembled, "assembled"})
DLBENCH_ENUM_NAMES(DropCaches, {DropCaches::kNone, "none"}, {DropCaches::kFadvise, "fadvise"},
                   {DropCaches::kDrop, "drop"})
DLBENCH_ENUM_NAMES(OnError, {OnError::kFail, "fail"}, {OnError::kSkip, "skip"})
DLBENCH_ENUM_NAMES(ThreadPolicy, {ThreadPolicy::kBatch, "batch"}, {ThreadPolicy::kNormal, "normal"})
DLBENCH_ENUM_NAMES(StagePolicy, {StagePolicy::kBeforeTraining, "before_training"},
                   {StagePolicy::kPerEpoch, "per_epoch"}, {StagePolicy::kOnDemand, "on_demand"})
DLBENCH_ENUM_NAMES(TracePolicy, {TracePolicy::kBlock, "block"}, {TracePolicy::kDrop, "drop"})
DLBENCH_ENUM_NAMES(TraceWriterPriority, {TraceWriterPriority::kIdle, "idle"},
                   {TraceWriterPriority::kLow, "low"}, {TraceWriterPriority::kNormal, "normal"})
DLBENCH_ENUM_NAMES(Preallocate, {Preallocate::kAuto, "auto"}, {Preallocate::kYes, "true"},
                   {Preallocate::kNo, "false"})
#undef DLBENCH_ENUM_NAMES

template <typename E>
constexpr const char* ToString(E value) {
  for (const auto& [e, name] : EnumNames<E>::kNames) {
    if (e == value) return name;
  }
  return "?";
}

template <typename E>
constexpr std::optional<E> FromString(std::string_view name) {
  for (const auto& [e, n] : EnumNames<E>::kNames) {
    if (name == n) return e;
  }
  return std::nullopt;
}

// Bytes per element of a checkpoint datatype.
constexpr int ElementBytes(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kUint8:
      return 1;
    case DataType::kFp16:
    case DataType::kBf16:
      return 2;
    case DataType::kFp32:
      return 4;
    case DataType::kFp64:
      return 8;
  }
  return 1;
}

}  // namespace dlbench::config
