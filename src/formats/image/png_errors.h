// libpng's error handling for dlbench's png writer and reader: libpng reports errors through a
// callback that must not return; here it keeps the message and longjmps to png_jmpbuf, where the
// caller (which set it with setjmp) throws. Warnings are ignored, nothing is printed. Exceptions
// of dlbench's own callbacks (the file writes) cannot cross libpng's C frames: they are kept in
// `error` and libpng is left through png_error.
#pragma once

#include <png.h>

#include <exception>
#include <string>

namespace dlbench::formats {

struct PngErrors {
  char message[256] = {};
  std::exception_ptr error;  // thrown by a callback of ours
};

// For png_create_{read,write}_struct with `errors` as the error pointer.
void PngError(png_structp png, png_const_charp message);
void PngWarning(png_structp png, png_const_charp message);

}  // namespace dlbench::formats
