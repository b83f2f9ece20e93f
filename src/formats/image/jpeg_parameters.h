// The compression parameters of every jpeg file dlbench writes, encoded per file
// (jpeg_writer.cpp) or assembled from a pool of encoded noise (jpeg_segment_pool.cpp): PIL's
// defaults for an 8-bit grayscale image — baseline, quality 75, libjpeg's standard Huffman
// tables, a JFIF header.
#pragma once

#include "formats/image/image_writing.h"
#include "formats/image/jpeg_errors.h"

namespace dlbench::formats {

// Sets `cinfo` (created, its destination set) up for a `shape` grayscale image.
void SetJpegParameters(jpeg_compress_struct& cinfo, ImageShape shape);

}  // namespace dlbench::formats
