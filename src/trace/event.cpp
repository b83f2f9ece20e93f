#include "trace/event.h"

namespace dlbench::trace {
namespace {

// I/O events: `ret` (bytes, 0, or -1 on failure), then the request's size and offset.
constexpr std::array<const char*, kMaxArgs> kIoArgs{"ret", "size", "offset"};
// Object-storage requests: `ret` as above, the time to the answer's first byte, the attempts.
constexpr std::array<const char*, kMaxArgs> kRequestArgs{"ret", "first_byte_us", "attempts"};

constexpr std::array<EventInfo, kEventCount> kEvents{{
    {"epoch.block", "pipeline", {"epoch", nullptr, nullptr}},
    {"train", "pipeline", {"epoch", nullptr, nullptr}},
    {"evaluate", "pipeline", {"epoch", nullptr, nullptr}},
    {"fetch.iter", "dataloader", {"epoch", "step", nullptr}},
    {"fetch.block", "dataloader", {"epoch", "step", nullptr}},
    {"compute", "compute", {"epoch", "step", nullptr}},
    {"item", "data", {"image_idx", "image_size", "step"}},
    {"preprocess", "data", {"image_idx", nullptr, nullptr}},
    {"checkpoint.save", "checkpoint", {"size", nullptr, nullptr}},
    {"checkpoint.load", "checkpoint", {"size", nullptr, nullptr}},
    {"capture", "checkpoint", {"size", nullptr, nullptr}},
    {"restart", "checkpoint", {"size", nullptr, nullptr}},
    {"drain", "burst_buffer", {"size", nullptr, nullptr}},
    {"open64", "POSIX", kIoArgs},
    {"creat64", "POSIX", kIoArgs},
    {"open64", "POSIX", kIoArgs},
    {"pread64", "POSIX", kIoArgs},
    {"pwrite64", "POSIX", kIoArgs},
    {"write", "POSIX", kIoArgs},
    {"fsync", "POSIX", kIoArgs},
    {"close", "POSIX", kIoArgs},
    {"__xstat64", "POSIX", kIoArgs},
    {"mkdir", "POSIX", kIoArgs},
    {"rename", "POSIX", kIoArgs},
    {"unlink", "POSIX", kIoArgs},
    {"remove_tree", "POSIX", kIoArgs},
    {"opendir", "POSIX", kIoArgs},
    {"statvfs", "POSIX", kIoArgs},
    {"posix_fadvise", "POSIX", kIoArgs},
    {"GET", "S3", kRequestArgs},
    {"range GET", "S3", kRequestArgs},
    {"HEAD", "S3", kRequestArgs},
    {"PUT", "S3", kRequestArgs},
    {"CreateMultipartUpload", "S3", kRequestArgs},
    {"UploadPart", "S3", kRequestArgs},
    {"CompleteMultipartUpload", "S3", kRequestArgs},
    {"AbortMultipartUpload", "S3", kRequestArgs},
    {"ListObjectsV2", "S3", kRequestArgs},
    {"DeleteObjects", "S3", kRequestArgs},
    {"ListMultipartUploads", "S3", kRequestArgs},
}};

}  // namespace

const EventInfo& Info(Event event) { return kEvents[static_cast<std::size_t>(event)]; }

}  // namespace dlbench::trace
