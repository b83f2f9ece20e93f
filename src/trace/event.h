// The events dlbench traces: DLIO's names and categories for the training structure
// (dftracer.python.ai), POSIX-style names for every storage operation
// through the Env seam, one event per object-storage request (category S3), and dlbench's own
// checkpoint and drain spans. One table
// says each event's name, category and argument names, so the writer and the docs agree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dlbench::trace {

enum class Event : std::uint8_t {
  // Training structure (cat = DLIO's ai sub-object).
  kEpochBlock,  // pipeline/epoch.block: one epoch's body (training, its checkpoints, evaluation)
  kTrain,       // pipeline/train: an epoch's training steps
  kEvaluate,    // pipeline/evaluate: one evaluation pass
  kFetchIter,   // dataloader/fetch.iter: a step's wait for its batch
  kFetchBlock,  // dataloader/fetch.block: the consumer's time on the batch (compute, barrier)
  kCompute,     // compute/compute: the emulated accelerator's step
  kItem,        // data/item: one sample read by a reader (open, read, preprocess)
  kPreprocess,  // data/preprocess: the reader.preprocess_time sleep of one sample
  kSave,        // checkpoint/checkpoint.save: one checkpoint saved by this rank
  kLoad,        // checkpoint/checkpoint.load: one checkpoint loaded by this rank
  kCapture,     // checkpoint/capture: one checkpoint file written
  kRestart,     // checkpoint/restart: one checkpoint file read back
  kDrain,       // burst_buffer/drain: one checkpoint copied from the fast tier
  // Storage operations through storage::Env (cat POSIX).
  kOpen,        // open64: open_read
  kCreate,      // creat64: create (truncates), create_for_publish
  kOpenWrite,   // open64 for writing without truncating (open_write)
  kRead,        // pread64
  kWrite,       // pwrite64: write_at
  kAppend,      // write: append at the end
  kFsync,       // fsync of a file or (with the folder's path) of a directory
  kClose,       // close
  kStat,        // __xstat64: exists, file_size
  kMkdir,       // mkdir: create_directories
  kRename,      // rename; a publish (a rename or a link into place)
  kUnlink,      // unlink: remove; an abandon of a file created for publishing; remove_files,
                // one event a batch on its first file (ret: files)
  kRemoveTree,  // remove_tree: a folder and everything under it
  kOpendir,     // opendir: for_each_entry, the caller's work on each entry included; ret entries
  kStatvfs,     // statvfs: free_space
  kFadvise,     // posix_fadvise: drop_cache
  // Object-storage requests (cat S3): one event per request, its retries and backoffs included,
  // on the thread that sent it; in the order of s3/client.h's Operation. Args: ret (payload bytes
  // sent or received, -1 when the request failed), first_byte_us (time to the first byte of the
  // answer), attempts.
  kS3Get,                // GET
  kS3RangeGet,           // range GET
  kS3Head,               // HEAD
  kS3Put,                // PUT
  kS3CreateMultipart,    // CreateMultipartUpload
  kS3UploadPart,         // UploadPart
  kS3CompleteMultipart,  // CompleteMultipartUpload
  kS3AbortMultipart,     // AbortMultipartUpload
  kS3List,               // ListObjectsV2
  kS3Delete,             // DeleteObjects
  kS3ListMultipart,      // ListMultipartUploads
  kCount
};

inline constexpr int kMaxArgs = 3;
inline constexpr auto kEventCount = static_cast<std::size_t>(Event::kCount);

// The events of one kind a trace holds: how many, and their summed durations (nested events are
// each counted whole: an `item`'s reads are in the reads' total and in the item's).
struct EventTotal {
  std::uint64_t count = 0;
  std::int64_t dur_ns = 0;
};
using EventTotals = std::array<EventTotal, kEventCount>;

struct EventInfo {
  const char* name;
  const char* category;
  std::array<const char*, kMaxArgs> args;  // names of the arguments written; null: unused
};

const EventInfo& Info(Event event);

}  // namespace dlbench::trace
