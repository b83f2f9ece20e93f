#include "formats/io/shared_writer.h"

#include <set>

#include "storage/atomic_file.h"
#include "storage/file.h"
#include "util/path_text.h"

namespace dlbench::formats {

void PublishSharedParts(const mpi::Communicator& comm, storage::Env& env,
                        const std::vector<std::string>& parts, bool fsync) {
  comm.barrier();
  if (!comm.is_root() || parts.empty()) return;
  for (std::size_t i = parts.size(); i-- > 0;) {
    env.rename(storage::PartialPathFor(parts[i]), parts[i]);
  }
  if (!fsync) return;
  std::set<std::string> folders;
  for (const std::string& part : parts) folders.insert(std::string(ParentFolder(part)));
  for (const std::string& folder : folders) env.sync_directory(folder);
}

}  // namespace dlbench::formats
