#include "formats/image/png_errors.h"

#include <cstring>

namespace dlbench::formats {

void PngError(png_structp png, png_const_charp message) {
  auto* errors = static_cast<PngErrors*>(png_get_error_ptr(png));
  std::strncpy(errors->message, message, sizeof(errors->message) - 1);
  png_longjmp(png, 1);
}

void PngWarning(png_structp /*png*/, png_const_charp /*message*/) {}

}  // namespace dlbench::formats
