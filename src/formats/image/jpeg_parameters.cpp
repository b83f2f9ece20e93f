#include "formats/image/jpeg_parameters.h"

#include "formats/image/jpeg_writer.h"

namespace dlbench::formats {

void SetJpegParameters(jpeg_compress_struct& cinfo, ImageShape shape) {
  cinfo.image_width = static_cast<JDIMENSION>(shape.width);
  cinfo.image_height = static_cast<JDIMENSION>(shape.height);
  cinfo.input_components = 1;
  cinfo.in_color_space = JCS_GRAYSCALE;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, kJpegQuality, TRUE);
}

}  // namespace dlbench::formats
