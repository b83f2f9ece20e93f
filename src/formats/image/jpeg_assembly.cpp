#include "formats/image/jpeg_assembly.h"

#include <string>

#include "formats/io/gathered_appender.h"
#include "formats/io/segment_chooser.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Pseudo-files of the content generator whose bytes are the pools' pixels: above any dataset's
// file indexes.
constexpr std::uint64_t kMainPoolFile = ~std::uint64_t{0};
std::uint64_t TailPoolFile(int blocks) {
  return kMainPoolFile - static_cast<std::uint64_t>(blocks);
}

}  // namespace

JpegPools::JpegPools(const dataset::ContentGenerator& content)
    : content_(content), main_(content, kMainPoolFile, kJpegSegmentBlocks, kJpegSegments) {}

const JpegSegmentPool& JpegPools::tail(int blocks) {
  if (blocks < 1 || blocks >= kJpegSegmentBlocks) {
    throw InternalError("jpeg assembly: no tail pool of " + std::to_string(blocks) + " blocks");
  }
  const std::lock_guard lock(mutex_);
  auto& pool = tails_[static_cast<std::size_t>(blocks)];
  if (!pool) {
    pool = std::make_unique<const JpegSegmentPool>(content_, TailPoolFile(blocks), blocks,
                                                   kJpegTailSegments);
  }
  return *pool;
}

std::shared_ptr<JpegPools> JpegPoolCache::get(const dataset::ContentGenerator& content) {
  const std::lock_guard lock(mutex_);
  if (!pools_ || !(pools_->content() == content)) pools_ = std::make_shared<JpegPools>(content);
  return pools_;
}

WriteResult WriteAssembledJpeg(storage::Env& env, const FileSpec& spec, ImageShape shape,
                               JpegPools& pools, std::span<std::byte> buffer) {
  const JpegSegmentPool& pool = pools.pool();
  const std::uint64_t blocks = static_cast<std::uint64_t>((shape.width + 7) / 8) *
                               static_cast<std::uint64_t>((shape.height + 7) / 8);
  const std::uint64_t full = blocks / kJpegSegmentBlocks;
  const int last = static_cast<int>(blocks % kJpegSegmentBlocks);
  SegmentChooser chooser(pools.content(), spec.file_index, pool.size());

  auto file = env.create(spec.path);
  {
    // One gathered write: the pool's header parts and segments by reference, the file's own
    // bytes (seed, dimensions, markers) copied into `buffer`.
    GatheredAppender out(*file, buffer);
    const std::span<const std::byte> header = pool.header();
    const std::size_t at = pool.dimensions_offset();
    const std::array<std::byte, 4> dimensions = {
        static_cast<std::byte>(shape.height >> 8), static_cast<std::byte>(shape.height & 0xFF),
        static_cast<std::byte>(shape.width >> 8), static_cast<std::byte>(shape.width & 0xFF)};
    // COM right after SOI: 8 bytes of the file's content, so that files differ even when their
    // few blocks come from one segment of a tail pool.
    const std::array<std::byte, 4> comment = {std::byte{0xFF}, std::byte{0xFE}, std::byte{0},
                                              std::byte{10}};  // COM, length 10, the seed
    out.copy(header.first(2));
    out.copy(comment);
    out.copy(chooser.seed());
    out.keep(header.subspan(2, at - 2));
    out.copy(dimensions);
    out.keep(header.subspan(at + dimensions.size()));
    // Segments follow each other with nothing between them (jpeg_segment_pool.h).
    for (std::uint64_t k = 0; k < full; ++k) out.keep(pool.segment(chooser.next_main()));
    if (last > 0) {
      const JpegSegmentPool& tail = pools.tail(last);
      out.keep(tail.segment(chooser.below(tail.size())));
    }
    const std::array<std::byte, 2> eoi = {std::byte{0xFF}, std::byte{0xD9}};
    out.copy(eoi);
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
