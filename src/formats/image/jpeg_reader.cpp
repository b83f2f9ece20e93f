#include "formats/image/jpeg_reader.h"

#include <string>

#include "formats/image/image_writing.h"
#include "formats/image/jpeg_errors.h"
#include "formats/io/whole_file_reader.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class JpegDecoder final : public SampleDecoder {
 public:
  explicit JpegDecoder(ImageShape shape) : shape_(shape) {}

  void decode(std::span<const std::byte> encoded, std::int64_t /*k*/, std::span<std::byte> out,
              const std::string& path) const override {
    JpegErrors errors;
    jpeg_decompress_struct cinfo{};
    cinfo.err = InstallJpegErrors(errors, /*warnings_are_errors=*/true);
    if (setjmp(errors.jump)) {
      jpeg_destroy_decompress(&cinfo);
      throw CorruptDataError(path, "jpeg", errors.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(encoded.data()),
                 static_cast<unsigned long>(encoded.size()));
    jpeg_read_header(&cinfo, TRUE);
    const ImageShape found{cinfo.image_height, cinfo.image_width};
    const int components = cinfo.num_components;
    if (found.height != shape_.height || found.width != shape_.width || components != 1) {
      jpeg_destroy_decompress(&cinfo);
      mismatch(path, found, components);
    }
    cinfo.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
      JSAMPROW row = reinterpret_cast<JSAMPROW>(out.data() + cinfo.output_scanline * shape_.width);
      jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
  }

 private:
  [[noreturn]] void mismatch(const std::string& path, ImageShape found, int components) const {
    throw CorruptDataError(path, "jpeg",
                           "the image is " + std::to_string(found.height) + " x " +
                               std::to_string(found.width) + " with " + std::to_string(components) +
                               " component(s), expected " + std::to_string(shape_.height) + " x " +
                               std::to_string(shape_.width) + " grayscale (1 component)");
  }

  ImageShape shape_;
};

}  // namespace

std::unique_ptr<FileReader> JpegReader::open(storage::Env& env, const FileSpec& spec,
                                             const FileReadOptions& options) const {
  return OpenWholeFileReader(
      env, spec, options,
      std::make_unique<JpegDecoder>(ImageShapeOf(spec, JPEG_MAX_DIMENSION, "jpeg")));
}

}  // namespace dlbench::formats
