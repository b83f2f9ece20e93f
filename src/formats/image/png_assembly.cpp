#include "formats/image/png_assembly.h"

#include <zlib.h>

#include <algorithm>
#include <string>

#include "formats/io/gathered_appender.h"
#include "formats/io/segment_chooser.h"
#include "formats/io/zlib_crc.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Pseudo-files of the content generator whose bytes are the pools' pixels: above any dataset's
// file indexes and the jpeg pools'.
std::uint64_t PngPoolFile(std::int64_t width, int level) {
  return ~std::uint64_t{0} - (std::uint64_t{1} << 32) - static_cast<std::uint64_t>(width) * 64 -
         static_cast<std::uint64_t>(level);
}

constexpr std::uint32_t kMaxChunk = 0x7FFFFFFF;

// Whether zlib, as PIL runs it (level 6, memLevel 9), stores the byte at `at` of a png's `total`
// bytes of filtered rows, or Huffman-codes it. It codes the rows in blocks of 32,767 literals and
// may store a block (noise: it does) only if its 64 KB window has not slid during the block; the
// window slides by 32 KB once 65,274 bytes (64 KB less MIN_LOOKAHEAD) have come in, and every
// 32 KB after. So the first block is stored, the full blocks after it are coded (a slide falls in
// each, the period being one byte longer than a block), until the last, shorter block, which is
// stored when no slide falls in it (568 x 568: 32,767 bytes stored, 262,136 coded, 28,289
// stored; a file of at most 65,274 bytes: all stored).
bool ZlibStores(std::uint64_t at, std::uint64_t total) {
  constexpr std::uint64_t kBlock = 32767;
  constexpr std::uint64_t kFirstSlide = 65274;
  constexpr std::uint64_t kSlide = 32768;
  const std::uint64_t start = at / kBlock * kBlock;
  const std::uint64_t end = std::min(total, start + kBlock);
  const std::uint64_t slides_before = start < kFirstSlide ? 0 : (start - kFirstSlide) / kSlide + 1;
  return kFirstSlide + slides_before * kSlide >= end;  // the next slide comes after the block
}

void PutU32(std::byte* at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::byte>(v >> (24 - 8 * i));
}

// Appends a whole chunk (length, type and data, CRC) that is small enough to checksum here.
void AppendChunk(GatheredAppender& out, const char (&type)[5], std::span<const std::byte> data) {
  std::array<std::byte, 8> head{};
  PutU32(head.data(), static_cast<std::uint32_t>(data.size()));
  for (int i = 0; i < 4; ++i) head[4 + i] = static_cast<std::byte>(type[i]);
  std::array<std::byte, 4> crc{};
  PutU32(crc.data(), Crc32(Crc32(0, std::span(head).subspan(4)), data));
  out.copy(head);
  out.copy(data);
  out.copy(crc);
}

}  // namespace

std::int64_t PngSegmentRows(std::int64_t width) {
  std::int64_t rows = 1;
  while (2 * rows * (width + 1) <= kPngSegmentBytes) rows *= 2;
  return rows;
}

PngWidthPools::PngWidthPools(const dataset::ContentGenerator& content, std::int64_t width)
    : width_(width) {
  const std::int64_t main_rows = PngSegmentRows(width);
  int level = 0;
  for (std::int64_t rows = 1; rows < main_rows; rows *= 2, ++level) {
    pools_.push_back(std::make_unique<const PngSegmentPool>(content, PngPoolFile(width, level),
                                                            width, rows, kPngTailSegments));
  }
  pools_.push_back(std::make_unique<const PngSegmentPool>(content, PngPoolFile(width, level), width,
                                                          main_rows, kPngMainSegments));
}

std::shared_ptr<const PngWidthPools> PngPoolCache::get(const dataset::ContentGenerator& content,
                                                       std::int64_t width) {
  const std::lock_guard lock(mutex_);
  if (!content_ || !(*content_ == content)) {
    pools_.clear();
    content_ = content;
  }
  for (auto it = pools_.begin(); it != pools_.end(); ++it) {
    if ((*it)->width() == width) {
      pools_.splice(pools_.begin(), pools_, it);
      return pools_.front();
    }
  }
  if (pools_.size() >= kPngCachedWidths) pools_.pop_back();
  pools_.push_front(std::make_shared<const PngWidthPools>(content, width));
  return pools_.front();
}

WriteResult WriteAssembledPng(storage::Env& env, const FileSpec& spec, ImageShape shape,
                              const dataset::ContentGenerator& content, PngPoolCache& pools,
                              std::span<std::byte> buffer) {
  const std::shared_ptr<const PngWidthPools> width_pools = pools.get(content, shape.width);
  const PngSegmentPool& main = width_pools->main();
  SegmentChooser chooser(content, spec.file_index, main.size());

  // The segments, top to bottom: whole main segments, then one of each power of two rows the
  // remainder holds, largest first.
  struct Choice {
    const PngSegmentPool* pool;
    const PngSegment* segment;
    const PngDeflated* form = nullptr;
  };
  std::vector<Choice> chosen;
  chosen.reserve(static_cast<std::size_t>(shape.height / main.rows() + width_pools->levels()));
  for (std::int64_t k = 0; k < shape.height / main.rows(); ++k) {
    chosen.push_back({&main, &main.segment(chooser.next_main())});
  }
  const std::int64_t rest = shape.height % main.rows();
  for (int level = width_pools->levels() - 2; level >= 0; --level) {
    if ((rest >> level & 1) == 0) continue;
    const PngSegmentPool& pool = width_pools->pool(level);
    chosen.push_back({&pool, &pool.segment(chooser.below(pool.size()))});
  }

  // Each segment in the form zlib gives its rows in a per-file png: stored or Huffman-coded as
  // the block its middle falls in.
  const std::uint64_t rows_bytes =
      static_cast<std::uint64_t>(shape.height) * (static_cast<std::uint64_t>(shape.width) + 1);
  std::uint64_t before = 0;
  for (Choice& c : chosen) {
    const bool stored = ZlibStores(before + c.segment->inflated / 2, rows_bytes);
    c.form = stored ? &c.segment->stored : &c.segment->coded;
    before += c.segment->inflated;
  }

  // IDAT's data: zlib header (deflate, 32 KB window, default level), the segments, a final
  // empty fixed-Huffman block, adler32 of the rows.
  const std::array<std::byte, 2> zlib_header = {std::byte{0x78}, std::byte{0x9C}};
  std::array<std::byte, 6> zlib_end = {std::byte{0x03}, std::byte{0x00}};
  std::uint64_t idat = zlib_header.size() + zlib_end.size();
  std::uint32_t adler = 1;
  for (const Choice& c : chosen) {
    idat += c.form->size;
    adler = static_cast<std::uint32_t>(
        adler32_combine(adler, c.segment->adler, static_cast<z_off_t>(c.segment->inflated)));
  }
  if (idat > kMaxChunk) {
    throw UsageError(spec.path + ": an assembled png of " + std::to_string(shape.height) + " x " +
                     std::to_string(shape.width) +
                     " pixels does not fit one IDAT chunk; use dataset.content.encoding per_file");
  }
  PutU32(zlib_end.data() + 2, adler);

  std::array<std::byte, 4 + 4 + 2> idat_head{};  // length, type, zlib header
  PutU32(idat_head.data(), static_cast<std::uint32_t>(idat));
  idat_head[4] = std::byte{'I'};
  idat_head[5] = std::byte{'D'};
  idat_head[6] = std::byte{'A'};
  idat_head[7] = std::byte{'T'};
  idat_head[8] = zlib_header[0];
  idat_head[9] = zlib_header[1];
  std::uint32_t crc = Crc32(0, std::span(idat_head).subspan(4, 6));
  for (const Choice& c : chosen) {
    crc = static_cast<std::uint32_t>(crc32_combine_op(crc, c.form->crc, c.form->crc_op));
  }
  crc = Crc32(crc, zlib_end);
  std::array<std::byte, 4> idat_crc{};
  PutU32(idat_crc.data(), crc);

  std::array<std::byte, 13> ihdr{};  // 8-bit grayscale, deflate, adaptive filters, no interlace
  PutU32(ihdr.data(), static_cast<std::uint32_t>(shape.width));
  PutU32(ihdr.data() + 4, static_cast<std::uint32_t>(shape.height));
  ihdr[8] = std::byte{8};
  // tEXt "dlbench": the seed's 16 hex digits (text chunks hold Latin-1 without NUL).
  std::array<std::byte, 8 + 16> text{};
  const char keyword[] = "dlbench";
  for (std::size_t i = 0; i < 7; ++i) text[i] = static_cast<std::byte>(keyword[i]);
  const char* hex = "0123456789abcdef";
  for (std::size_t i = 0; i < 8; ++i) {
    const auto b = std::to_integer<unsigned>(chooser.seed()[i]);
    text[8 + 2 * i] = static_cast<std::byte>(hex[b >> 4]);
    text[9 + 2 * i] = static_cast<std::byte>(hex[b & 15]);
  }
  const std::array<std::byte, 8> signature = {std::byte{0x89}, std::byte{'P'},  std::byte{'N'},
                                              std::byte{'G'},  std::byte{'\r'}, std::byte{'\n'},
                                              std::byte{0x1A}, std::byte{'\n'}};

  auto file = env.create(spec.path);
  {
    // One gathered write: the pools' segments by reference, the file's own chunks and
    // checksums copied into `buffer`.
    GatheredAppender out(*file, buffer);
    out.copy(signature);
    AppendChunk(out, "IHDR", ihdr);
    AppendChunk(out, "tEXt", text);
    out.copy(idat_head);
    for (const Choice& c : chosen) out.keep(c.pool->bytes(*c.form));
    out.copy(zlib_end);
    out.copy(idat_crc);
    AppendChunk(out, "IEND", {});
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
