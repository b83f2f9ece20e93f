#include "formats/image/png_writer.h"

#include <zlib.h>

#include <string>

#include "formats/image/image_writing.h"
#include "formats/image/png_errors.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

struct PngOutput {
  PngErrors errors;
  BufferedAppender* out = nullptr;
};

void WriteBytes(png_structp png, png_bytep data, png_size_t length) {
  auto* output = static_cast<PngOutput*>(png_get_io_ptr(png));
  bool failed = false;
  try {
    output->out->append(data, length);
  } catch (...) {
    output->errors.error = std::current_exception();
    failed = true;
  }
  if (failed) png_error(png, "write failed");
}

void Flush(png_structp /*png*/) {}

void EncodePng(const std::string& path, ImageShape shape, RowBlocks& rows, BufferedAppender& out) {
  PngOutput output;  // built before setjmp (png_errors.h)
  output.out = &out;
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &output.errors, PngError, PngWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    throw InternalError("write " + path + ": libpng could not allocate its state");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    if (output.errors.error) std::rethrow_exception(output.errors.error);
    throw InternalError("write " + path + ": libpng: " + output.errors.message);
  }
  png_set_write_fn(png, &output, WriteBytes, Flush);
  png_set_IHDR(png, info, static_cast<png_uint_32>(shape.width),
               static_cast<png_uint_32>(shape.height), 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // PIL's encoder (Pillow's ZipEncode.c): per row the filter of None, Sub, Up and Paeth whose
  // output has the least sum of absolute values (libpng's default also tries Average, which PIL
  // leaves to optimize=True), then zlib level 6, memLevel 9, Z_FILTERED.
  png_set_filter(png, PNG_FILTER_TYPE_BASE,
                 PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_PAETH);
  png_set_compression_level(png, kPngZlibLevel);
  png_set_compression_mem_level(png, 9);
  png_set_compression_strategy(png, Z_FILTERED);
  png_write_info(png, info);
  for (std::span<std::byte> block = rows.next(); !block.empty(); block = rows.next()) {
    const std::int64_t n = rows.rows_in(block);
    for (std::int64_t r = 0; r < n; ++r) {
      png_write_row(png, reinterpret_cast<png_const_bytep>(block.data() + r * shape.width));
    }
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

}  // namespace

Bytes PngWriter::file_size(const FileSpec& spec) const {
  throw UsageError(spec.path + ": the size of a png file depends on its pixels");
}

WriteResult PngWriter::write(storage::Env& env, const FileSpec& spec,
                             const dataset::ContentGenerator& content,
                             std::span<std::byte> buffer) const {
  const ImageShape shape = ImageShapeOf(spec, kPngMaxSide, "png");
  if (spec.encoding == config::ContentEncoding::kAssembled) {
    return WriteAssembledPng(env, spec, shape, content, pools_, buffer);
  }
  return WriteImage(env, spec, shape, content, buffer, EncodePng);
}

}  // namespace dlbench::formats
