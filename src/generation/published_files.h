// How generation publishes the files a format writer writes. A writer creates its data file and
// its companions (index files) under the partial names it is given (storage::PartialPathFor) and
// closes them; through this Env each is instead created for publishing under its final name
// (storage::Env::create_for_publish: on POSIX an unnamed O_TMPFILE file where the file system has
// them, else the partial name), kept open when the writer closes it, and published by publish()
// once the writer is done: the companions first, the data file last, so that a data file under its
// final name always has its companions. Nothing is visible under a final name before, and without
// publish() nothing is left. Every other call goes to the target unchanged.
//
// The writer must touch a file by name only to create it once: exists, file_size, open_read,
// open_write, rename or remove of a partial name it created throw InternalError (no writer of a
// whole file does; the tests of each format's generation prove it). One object per file and
// thread; the target Env outlives it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "storage/env_wrapper.h"

namespace dlbench::generation {

class PublishedFiles final : public storage::EnvWrapper {
 public:
  // `partial`: the name the writer creates the data file under; `final_path`: its name once
  // published. Any other partial name the writer creates is a companion, published under
  // storage::FinalPathFor of it.
  PublishedFiles(storage::Env& target, std::string partial, std::string final_path);
  // Abandons what was not published.
  ~PublishedFiles() override;

  // Publishes the companions, in the order they were created, then the data file. Throws
  // Error(kIo) naming the file whose publishing failed (it and those not yet published are
  // abandoned), InternalError when the writer did not create the data file.
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
  struct Companion {
    std::string partial;
    std::unique_ptr<storage::WritableFile> file;  // null once published
  };
  // Throws InternalError when `path` is a partial name the writer created.
  void refuse_by_name(const std::string& path, const char* operation) const;

  std::string partial_;
  std::string final_;
  bool created_ = false;                         // the writer created the data file
  std::unique_ptr<storage::WritableFile> data_;  // the data file, until published
  std::vector<Companion> companions_;            // in creation order (most formats: none)
};

}  // namespace dlbench::generation
