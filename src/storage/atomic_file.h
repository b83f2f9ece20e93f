// Files appear under their final name only when complete. AtomicFileWriter writes to a hidden
// temporary name next to the final one, `<dir>/.<name>.dlbench-partial`, and renames it into
// place on commit. The temporary name starts with '.' and ends in ".dlbench-partial", so it never
// matches a format's extension filter (DLIO keeps names ending in the format string) nor a
// `*.<format>` glob: readers never pick up a half-written file. A run interrupted mid-file leaves
// such partial files behind; FindPartialFiles lets generation detect and redo them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/file.h"

namespace dlbench::storage {

inline constexpr std::string_view kPartialSuffix = ".dlbench-partial";

// "<dir>/.<name>.dlbench-partial" for "<dir>/<name>".
std::string PartialPathFor(const std::string& final_path);
// True for a base name made by PartialPathFor.
bool IsPartialFileName(std::string_view file_name);
// The final path a partial path stands for ("" if `partial_path` is not one).
std::string FinalPathFor(const std::string& partial_path);

// The partial files directly in `folder` (not in its subfolders), sorted. A missing folder has
// none. Throws Error(kIo) if the folder cannot be listed.
std::vector<std::string> FindPartialFiles(Env& env, const std::string& folder);

class AtomicFileWriter {
 public:
  // Creates (truncating) the temporary file; the parent folder must exist. With `reuse`, the
  // temporary file already exists (the caller renamed an earlier copy there) and is opened
  // without truncation, to be overwritten in place (no pages freed and allocated anew on a
  // memory-backed tier); the caller cuts it to its size before commit.
  AtomicFileWriter(Env& env, std::string final_path, const OpenOptions& options = {},
                   bool reuse = false);
  // Without a successful commit, removes the temporary file (errors swallowed).
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  WritableFile& file() { return *file_; }
  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return temp_path_; }

  // fsync (if `fsync`), close, rename to the final name, then fsync the folder (if `fsync`) so
  // that the rename itself is durable. On failure the temporary file is removed by the
  // destructor; once the rename succeeded the final file stays.
  void commit(bool fsync);
  // Closes and removes the temporary file now.
  void abort();

 private:
  Env& env_;
  std::string final_path_;
  std::string temp_path_;
  std::unique_ptr<WritableFile> file_;
  bool renamed_ = false;
};

}  // namespace dlbench::storage
