// The thresholds of the insight rules, one home for each (docs/insights.md lists them with their
// units). A rule fires at or beyond its threshold.
#pragma once

#include <cstdint>

namespace dlbench::insights {

// A read or write of at most this many bytes is small: Darshan's size buckets up to 10K_100K.
inline constexpr double kSmallAccessBytes = 102400;

// storage_bound: AU points lost to load waits, mean over epochs.
inline constexpr double kStorageBoundPoints = 10;
inline constexpr double kStorageBoundHighPoints = 30;

// From the trace: storage_bound says the storage gave no more at the run's concurrency when the
// reader threads were busy with samples for this share of the reading window; preprocess_bound
// replaces storage_bound when the emulated preprocessing took this share of their sample time.
inline constexpr double kReadersBusyShare = 0.9;
inline constexpr double kPreprocessShare = 0.5;

// small_reads: at least this many reads, most of them small, and a small mean read.
inline constexpr std::uint64_t kSmallReadsMinReads = 100;
inline constexpr double kSmallReadsShare = 0.5;

// metadata_bound: open/stat/close/rename time over read + write + metadata time.
inline constexpr double kMetadataShare = 0.5;
inline constexpr double kMetadataMinSeconds = 0.01;

// rank_imbalance: the slowest rank's read time over the median of the other ranks'.
inline constexpr double kImbalanceRatio = 1.5;
inline constexpr double kImbalanceHighRatio = 3;
inline constexpr double kImbalanceMinExcessSeconds = 0.1;

// first_epoch_slower: the first epoch's load time over the median of the later epochs'.
inline constexpr double kFirstEpochRatio = 1.5;
inline constexpr double kFirstEpochMinExcessSeconds = 0.05;

// page_cache_served across the runs of a set (`--repeat`): the first run's read time over the
// median of the later runs', when every run read the same bytes (within a share of the first's).
inline constexpr double kRerunRatio = 1.5;
inline constexpr double kRerunMinExcessSeconds = 0.05;
inline constexpr double kRerunSameBytesShare = 0.1;

// checkpoint_stall: training blocked by saves, over the blocks' time plus that stall.
inline constexpr double kStallShare = 0.1;
inline constexpr double kStallHighShare = 0.3;

// drain_backlog: a checkpoint's drain time over the interval between saves.
inline constexpr double kDrainRatio = 1.0;

// eval_dominates: evaluation's window over training's plus evaluation's.
inline constexpr double kEvalShare = 0.5;

// shared_file_contention: accesses of one shared file, most of them small.
inline constexpr std::uint64_t kSharedMinAccesses = 100;
inline constexpr double kSharedSmallShare = 0.5;

// request_latency_bound: time to first byte over request time.
inline constexpr std::uint64_t kObjectMinRequests = 100;
inline constexpr double kFirstByteShare = 0.5;

// retries: requests retried over requests.
inline constexpr double kRetryShare = 0.01;
inline constexpr double kRetryHighShare = 0.1;

}  // namespace dlbench::insights
