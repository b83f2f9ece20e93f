#include "formats/io/sliced_shared_writer.h"

#include <string>
#include <vector>

#include "storage/atomic_file.h"
#include "storage/file.h"
#include "storage/mpiio_file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// A rank's range of one part, streamed through the buffer in collective writes. Every rank must
// make the same number of calls, so finish() pads with empty writes up to the maximum over ranks.
class CollectiveStream final : public ByteSink {
 public:
  CollectiveStream(storage::SharedFile& file, std::span<std::byte> buffer, Bytes begin)
      : ByteSink(buffer), file_(file), offset_(begin) {}

  // Writes what is buffered, then empty collective writes until `rounds` calls were made.
  void finish(std::uint64_t rounds) {
    flush();
    for (; calls_ < rounds; ++calls_) file_.write_at_all(offset_, buffer().data(), 0);
    if (calls_ != rounds) {
      throw InternalError("shared write of " + file_.path() + " made " + std::to_string(calls_) +
                          " collective calls, not " + std::to_string(rounds));
    }
  }
  Bytes written() const { return written_; }

 private:
  void write_out(std::span<const std::byte> bytes) override {
    file_.write_at_all(offset_, bytes.data(), bytes.size());
    offset_ += bytes.size();
    written_ += bytes.size();
    ++calls_;
  }

  storage::SharedFile& file_;
  Bytes offset_;
  Bytes written_ = 0;
  std::uint64_t calls_ = 0;
};

}  // namespace

Bytes SlicedSharedWriter::write(const mpi::Communicator& comm, storage::Env& env,
                                const FileSpec& spec, const dataset::ContentGenerator& content,
                                std::span<std::byte> buffer) const {
  if (buffer.empty()) throw InternalError("shared write without a buffer");
  const SampleSlice slice = SharedFileSlice(spec.samples, comm.size(), comm.rank());
  const std::vector<std::string> parts = layout_->parts(spec);
  storage::MpiIoOpener opener(comm);
  Bytes bytes = 0;
  for (std::size_t part = 0; part < parts.size(); ++part) {
    auto file = env.open_shared(storage::PartialPathFor(parts[part]), opener);
    // A partial file from an earlier attempt may be longer than this one will be.
    file->set_size(0);
    const ByteRange range = layout_->range(spec, part, slice.first, slice.end());
    // Agreed before streaming: the stream makes collective calls whenever its buffer fills.
    const std::uint64_t rounds =
        comm.max((range.end - range.begin + buffer.size() - 1) / buffer.size());
    CollectiveStream out(*file, buffer, range.begin);
    layout_->stream(spec, part, slice.first, slice.end(), content, out);
    out.finish(rounds);
    if (out.written() != range.end - range.begin) {
      throw InternalError("shared write of " + file->path() + " streamed " +
                          std::to_string(out.written()) + " bytes for a range of " +
                          std::to_string(range.end - range.begin));
    }
    bytes += out.written();
    if (spec.fsync) file->sync();
    file->close();
  }
  PublishSharedParts(comm, env, parts, spec.fsync);
  return bytes;
}

}  // namespace dlbench::formats
