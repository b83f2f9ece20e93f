#include "formats/image/jpeg_errors.h"

namespace dlbench::formats {
namespace {

JpegErrors& ErrorsOf(j_common_ptr cinfo) { return *reinterpret_cast<JpegErrors*>(cinfo->err); }

[[noreturn]] void Fail(j_common_ptr cinfo) {
  JpegErrors& errors = ErrorsOf(cinfo);
  (*cinfo->err->format_message)(cinfo, errors.message);
  std::longjmp(errors.jump, 1);
}

void IgnoreMessage(j_common_ptr /*cinfo*/, int /*level*/) {}

void WarningIsError(j_common_ptr cinfo, int level) {
  if (level < 0) Fail(cinfo);  // level -1: a warning (corrupt or truncated data); >= 0: traces
}

void PrintNothing(j_common_ptr /*cinfo*/) {}

}  // namespace

jpeg_error_mgr* InstallJpegErrors(JpegErrors& errors, bool warnings_are_errors) {
  jpeg_error_mgr* manager = jpeg_std_error(&errors.manager);
  manager->error_exit = Fail;
  manager->emit_message = warnings_are_errors ? WarningIsError : IgnoreMessage;
  manager->output_message = PrintNothing;
  return manager;
}

}  // namespace dlbench::formats
