// How generation writes a data file without a temporary name. A format writer creates its data
// file under the partial name it is given (storage::PartialPathFor) and closes it; through this
// Env the data file is instead created without a name (storage::Env::create_unnamed, O_TMPFILE)
// where the file system allows it, kept open when the writer closes it, and named by publish()
// once the writer and its companions are done: one create and one link per file instead of a
// create of the partial name and a rename, and nothing left behind by a crash. Where there are
// no unnamed files, the data file is created under the partial name as before and publish()
// renames it. Every other call goes to the target unchanged.
//
// The writer must touch its data file by name only to create it once: exists, file_size,
// open_read, open_write, rename or remove of the partial name while the file has no name throw
// InternalError (no writer of a whole file does; the tests of each format's generation prove it).
// One object per file and thread; the target Env outlives it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"

namespace dlbench::workflow {

class UnnamedDataFile final : public storage::EnvWrapper {
 public:
  // `partial`: the name the writer creates the data file under; `final_path`: its name once
  // published.
  UnnamedDataFile(storage::Env& target, std::string partial, std::string final_path);
  // Without publish(), an unnamed data file disappears with its descriptor.
  ~UnnamedDataFile() override;

  // Names the finished data file `final_path` (replacing a file of that name, as rename does)
  // and closes it for real. Throws Error(kIo) naming the file.
  void publish();

  std::unique_ptr<storage::WritableFile> create(const std::string& path,
                                                const storage::OpenOptions& options) override;
  std::unique_ptr<storage::ReadableFile> open_read(const std::string& path,
                                                   const storage::OpenOptions& options) override;
  std::unique_ptr<storage::WritableFile> open_write(const std::string& path,
                                                    const storage::OpenOptions& options) override;
  void rename(const std::string& from, const std::string& to) override;
  void remove(const std::string& path) override;
  bool exists(const std::string& path) override;
  Bytes file_size(const std::string& path) override;

 private:
  // Throws InternalError when `path` is the data file's partial name and the file has none.
  void refuse_by_name(const std::string& path, const char* operation) const;

  std::string partial_;
  std::string final_;
  std::unique_ptr<storage::WritableFile> unnamed_;  // the data file, while it has no name
  bool created_ = false;                            // the writer created the data file
};

}  // namespace dlbench::workflow
