#include "checkpoint/drain_markers.h"

#include <cstddef>
#include <memory>
#include <string>

#include "util/error.h"
#include "util/file_names.h"

namespace dlbench::checkpoint {
namespace {

using file_names::kDrainContentPrefix;
using file_names::kDrainedPrefix;
using file_names::kDrainFailedPrefix;

// A content marker's text is emitted in pieces of about this size, in a buffer reserved with room
// for one more line (a name of up to 255 bytes), so that it never grows by doubling.
constexpr std::size_t kContentPieceBytes = 64 * 1024;
constexpr std::size_t kContentPieceSlack = 4096;

}  // namespace

std::string ReadMarkerText(storage::Env& env, const std::string& path) {
  std::unique_ptr<storage::ReadableFile> file = env.open_read(path);
  std::string text(static_cast<std::size_t>(file->size()), '\0');
  const Bytes n = file->read_at(0, text.data(), text.size());
  if (n != text.size()) {
    throw IoError("read", path, 0,
                  "short read: " + std::to_string(n) + " of " + std::to_string(text.size()) + " B");
  }
  return text;
}

std::string DrainedMarkerName(Rank rank) { return kDrainedPrefix + std::to_string(rank); }
std::string DrainFailedMarkerName(Rank rank) { return kDrainFailedPrefix + std::to_string(rank); }
std::string DrainContentMarkerName(Rank rank) { return kDrainContentPrefix + std::to_string(rank); }

void EmitDrainContentText(const ContentSettings& content, const std::string& checkpoint,
                          const PlannedFiles& files,
                          const std::function<void(std::string_view)>& emit) {
  std::string piece;
  piece.reserve(kContentPieceBytes + kContentPieceSlack);
  piece += "dlbench-drain-content 1\nseed " + std::to_string(content.seed) + "\nrandomize " +
           (content.randomize ? "1" : "0") + "\ncheckpoint " + checkpoint + "\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    piece += "file " + std::to_string(files.bytes(i)) + " " + files.name(i) + "\n";
    if (piece.size() >= kContentPieceBytes) {
      emit(piece);
      piece.clear();
    }
  }
  if (!piece.empty()) emit(piece);
}

bool DrainContentMatches(storage::Env& env, const std::string& path, const ContentSettings& content,
                         const std::string& checkpoint, const PlannedFiles& files) {
  if (!env.exists(path)) return false;
  std::unique_ptr<storage::ReadableFile> file = env.open_read(path);
  const Bytes size = file->size();
  Bytes offset = 0;
  bool same = true;
  std::string read;
  EmitDrainContentText(content, checkpoint, files, [&](std::string_view piece) {
    if (!same) return;
    if (size - offset < piece.size()) {
      same = false;
      return;
    }
    read.resize(piece.size());
    const Bytes n = file->read_at(offset, read.data(), read.size());
    if (n != read.size()) {
      throw IoError(
          "read", path, offset,
          "short read: " + std::to_string(n) + " of " + std::to_string(read.size()) + " B");
    }
    same = read == piece;
    offset += n;
  });
  return same && offset == size;
}
bool IsDrainFailedMarkerName(const std::string& file_name) {
  return file_name.starts_with(kDrainFailedPrefix);
}
bool IsDrainMarkerName(const std::string& file_name) {
  return file_name.starts_with(kDrainedPrefix) || file_name.starts_with(kDrainFailedPrefix) ||
         file_name.starts_with(kDrainContentPrefix);
}

}  // namespace dlbench::checkpoint
