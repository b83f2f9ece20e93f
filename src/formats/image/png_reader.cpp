#include "formats/image/png_reader.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "formats/image/image_writing.h"
#include "formats/image/png_errors.h"
#include "formats/image/png_writer.h"
#include "formats/io/whole_file_reader.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

struct Input {
  PngErrors errors;
  std::span<const std::byte> bytes;
  std::size_t position = 0;
};

void ReadBytes(png_structp png, png_bytep data, png_size_t length) {
  auto* input = static_cast<Input*>(png_get_io_ptr(png));
  if (input->bytes.size() - input->position < length) {
    // No std::string here: png_error longjmps past its destructor.
    char message[96];
    std::snprintf(message, sizeof message,
                  "truncated: the image data goes past the end (%zu bytes)", input->bytes.size());
    png_error(png, message);
  }
  std::memcpy(data, input->bytes.data() + input->position, length);
  input->position += length;
}

class PngDecoder final : public SampleDecoder {
 public:
  explicit PngDecoder(ImageShape shape) : shape_(shape) {}

  void decode(std::span<const std::byte> encoded, std::int64_t /*k*/, std::span<std::byte> out,
              const std::string& path) const override {
    Input input;  // built before setjmp (png_errors.h)
    input.bytes = encoded;
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, &input.errors, PngError, PngWarning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (info == nullptr) {
      png_destroy_read_struct(&png, nullptr, nullptr);
      throw InternalError("read " + path + ": libpng could not allocate its state");
    }
    if (setjmp(png_jmpbuf(png))) {
      png_destroy_read_struct(&png, &info, nullptr);
      throw CorruptDataError(path, "png", input.errors.message);
    }
    png_set_read_fn(png, &input, ReadBytes);
    png_set_user_limits(png, kPngMaxSide, kPngMaxSide);
    png_read_info(png, info);
    const ImageShape found{png_get_image_height(png, info), png_get_image_width(png, info)};
    const int depth = png_get_bit_depth(png, info);
    const int color = png_get_color_type(png, info);
    if (found.height != shape_.height || found.width != shape_.width || depth != 8 ||
        color != PNG_COLOR_TYPE_GRAY) {
      png_destroy_read_struct(&png, &info, nullptr);
      mismatch(path, found, depth, color);
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    for (int pass = 0; pass < passes; ++pass) {
      for (std::int64_t r = 0; r < shape_.height; ++r) {
        png_read_row(png, reinterpret_cast<png_bytep>(out.data() + r * shape_.width), nullptr);
      }
    }
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
  }

 private:
  [[noreturn]] void mismatch(const std::string& path, ImageShape found, int depth,
                             int color) const {
    throw CorruptDataError(path, "png",
                           "the image is " + std::to_string(found.height) + " x " +
                               std::to_string(found.width) + ", bit depth " +
                               std::to_string(depth) + ", color type " + std::to_string(color) +
                               "; expected " + std::to_string(shape_.height) + " x " +
                               std::to_string(shape_.width) + " 8-bit grayscale (color type 0)");
  }

  ImageShape shape_;
};

}  // namespace

std::unique_ptr<FileReader> PngReader::open(storage::Env& env, const FileSpec& spec,
                                            const FileReadOptions& options) const {
  return OpenWholeFileReader(env, spec, options,
                             std::make_unique<PngDecoder>(ImageShapeOf(spec, kPngMaxSide, "png")));
}

}  // namespace dlbench::formats
