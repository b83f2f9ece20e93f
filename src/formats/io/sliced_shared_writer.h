// The shared-file writer of the formats with a SliceLayout (slice_layout.h): for each part, rank r
// streams the byte range of its slice of the samples through the buffer in collective MPI-IO
// writes (storage::SharedFile::write_at_all through Env::open_shared, opened by
// storage::MpiIoOpener), every rank making the same number of calls.
#pragma once

#include <memory>
#include <utility>

#include "formats/io/shared_writer.h"
#include "formats/io/slice_layout.h"

namespace dlbench::formats {

class SlicedSharedWriter final : public SharedWriter {
 public:
  explicit SlicedSharedWriter(std::unique_ptr<SliceLayout> layout) : layout_(std::move(layout)) {}

  std::optional<Bytes> file_size(const FileSpec& spec) const override {
    return layout_->part_size(spec, 0);
  }
  Bytes write(const mpi::Communicator& comm, storage::Env& env, const FileSpec& spec,
              const dataset::ContentGenerator& content, std::span<std::byte> buffer) const override;

 private:
  std::unique_ptr<SliceLayout> layout_;
};

}  // namespace dlbench::formats
