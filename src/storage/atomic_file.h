// Files appear under their final name only when complete (Env::create_for_publish, storage/file.h).
// This header holds the partial name PosixEnv writes such a file under when it cannot or is asked
// not to write it without a name, `<dir>/.<name>.dlbench-partial`, and AtomicFileWriter, the
// scoped writer of one such file. The partial name starts with '.' and ends in
// ".dlbench-partial", so it never matches a format's extension filter (DLIO keeps names ending in
// the format string) nor a `*.<format>` glob: readers never pick up a half-written file. A run
// interrupted mid-file leaves such partial files behind; FindPartialFiles lets generation detect
// and redo them.
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

// One file written to be published: Env::create_for_publish with a partial name (so that an
// interrupted run leaves it for FindPartialFiles, and what it writes is a named file's I/O), and
// publish() with the syncs that make it durable.
class AtomicFileWriter {
 public:
  // Creates (truncating) the file under its partial name; the parent folder must exist. With
  // `reuse`, PublishOptions::reuse: the caller moved an earlier copy to the partial name, which
  // is overwritten in place and cut to its size by the caller before commit.
  AtomicFileWriter(Env& env, std::string final_path, const OpenOptions& options = {},
                   bool reuse = false);
  // Without a successful commit, abandons the file (errors swallowed).
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  WritableFile& file() { return *file_; }
  const std::string& final_path() const { return final_path_; }
  // The name the file is written under until commit (its path()).
  const std::string& temp_path() const { return temp_path_; }

  // fsync (if `fsync`), publish under the final name, then fsync the folder (if `fsync`) so that
  // the name itself is durable. On failure nothing is under the final name, unless the folder's
  // fsync failed after the publish (the final file then stays).
  void commit(bool fsync);
  // Abandons the file now (WritableFile::abandon); throws Error(kIo) if that fails.
  void abort();

 private:
  Env& env_;
  std::string final_path_;
  std::unique_ptr<WritableFile> file_;
  std::string temp_path_;
  bool finished_ = false;  // committed or aborted (successfully or not)
};

}  // namespace dlbench::storage
