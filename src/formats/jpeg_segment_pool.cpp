#include "formats/jpeg_segment_pool.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "dataset/content.h"
#include "formats/jpeg_parameters.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Encodes `rows` into memory that libjpeg allocates (*memory, freed with std::free) with a
// restart marker every `mcus` blocks. Only C-like objects here: the frame calls setjmp.
void CompressToMemory(ImageShape shape, int mcus, JSAMPARRAY rows, unsigned char** memory,
                      unsigned long* memory_size) {  // NOLINT(google-runtime-int): libjpeg's type
  JpegErrors errors;
  jpeg_compress_struct cinfo{};
  cinfo.err = InstallJpegErrors(errors, /*warnings_are_errors=*/false);
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    throw Error(ExitCode::kInternal, std::string("jpeg segment pool: libjpeg: ") + errors.message);
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, memory, memory_size);
  SetJpegParameters(cinfo, shape);
  cinfo.restart_interval = static_cast<unsigned>(mcus);
  jpeg_start_compress(&cinfo, TRUE);
  jpeg_write_scanlines(&cinfo, rows, static_cast<JDIMENSION>(shape.height));
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
}

// The whole image encoded, with a restart marker every `mcus` blocks.
std::vector<std::byte> EncodeNoise(ImageShape shape, int mcus, std::span<std::byte> pixels) {
  std::vector<JSAMPROW> rows(static_cast<std::size_t>(shape.height));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r] = reinterpret_cast<JSAMPROW>(pixels.data() + r * static_cast<std::size_t>(shape.width));
  }
  unsigned char* memory = nullptr;
  unsigned long memory_size = 0;  // NOLINT(google-runtime-int): jpeg_mem_dest's type
  const std::unique_ptr<unsigned char*, void (*)(unsigned char**)> owner(
      &memory, [](unsigned char** m) { std::free(*m); });  // NOLINT(cppcoreguidelines-no-malloc)
  CompressToMemory(shape, mcus, rows.data(), &memory, &memory_size);
  std::vector<std::byte> encoded(memory_size);
  std::memcpy(encoded.data(), memory, memory_size);
  return encoded;
}

unsigned Byte(std::span<const std::byte> bytes, std::size_t i) {
  return std::to_integer<unsigned>(bytes[i]);
}

[[noreturn]] void Malformed(const std::string& what) {
  throw Error(ExitCode::kInternal, "jpeg segment pool: libjpeg's encoding " + what);
}

}  // namespace

JpegSegmentPool::JpegSegmentPool(const dataset::ContentGenerator& content, std::uint64_t pool_file,
                                 int mcus, int segments)
    : mcus_(mcus) {
  if (mcus < 1 || segments < 1) Malformed("needs at least one block and one segment");
  const ImageShape shape{8 * static_cast<std::int64_t>(segments),
                         8 * static_cast<std::int64_t>(mcus)};
  std::vector<std::byte> pixels(static_cast<std::size_t>(shape.height * shape.width));
  content.fill(pool_file, 0, pixels);
  bytes_ = EncodeNoise(shape, mcus, pixels);

  // The header: marker segments (FF xx, two-byte length) from after SOI to the end of SOS.
  const std::span<const std::byte> b(bytes_);
  if (b.size() < 4 || Byte(b, 0) != 0xFF || Byte(b, 1) != 0xD8) Malformed("has no SOI");
  std::size_t at = 2;
  bool have_frame = false;
  for (;;) {
    if (at + 4 > b.size() || Byte(b, at) != 0xFF) Malformed("has a malformed header");
    const unsigned marker = Byte(b, at + 1);
    const std::size_t length = Byte(b, at + 2) << 8 | Byte(b, at + 3);
    if (marker == 0xC0) {  // SOF0: length, precision, height, width
      dimensions_offset_ = at + 5;
      have_frame = true;
    } else if (marker >= 0xC1 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 &&
               marker != 0xCC) {
      Malformed("is not baseline");
    }
    at += 2 + length;
    if (marker == 0xDA) break;  // SOS: the entropy-coded data follows
  }
  if (!have_frame) Malformed("has no SOF0");
  header_end_ = at;

  // Entropy-coded data: 0xFF is stuffed as FF 00, so FF D0..D7 is a restart marker and FF D9 the
  // end of the image.
  std::size_t start = at;
  for (;;) {
    if (at + 1 >= b.size()) Malformed("has no EOI");
    if (Byte(b, at) != 0xFF || Byte(b, at + 1) == 0x00) {
      at += Byte(b, at) == 0xFF ? 2 : 1;
      continue;
    }
    const unsigned marker = Byte(b, at + 1);
    if (marker != 0xD9 && (marker < 0xD0 || marker > 0xD7)) Malformed("has a stray marker");
    starts_.push_back(start);
    ends_.push_back(at);
    segment_bytes_ += at - start;
    at += 2;
    start = at;
    if (marker == 0xD9) break;
  }
  if (starts_.size() != static_cast<std::size_t>(segments)) {
    Malformed("has " + std::to_string(starts_.size()) + " restart intervals, expected " +
              std::to_string(segments));
  }
}

}  // namespace dlbench::formats
