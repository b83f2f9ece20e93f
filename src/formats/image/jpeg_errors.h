// libjpeg's error handling for dlbench's jpeg writer and reader. libjpeg's default error_exit
// prints and calls exit(), and its warnings go to stderr: here an error (and, for reading, a
// warning such as "Premature end of JPEG file" from a truncated file) formats its message and
// longjmps to `jump`, which the caller has set with setjmp. Nothing is printed.
//
// Between the setjmp and the longjmp only C-like objects (no destructors to run) may be created
// in the frame that calls setjmp; C++ objects it needs live before the setjmp.
#pragma once

#include <csetjmp>
#include <cstdio>  // jpeglib.h needs FILE and size_t first
// clang-format off: after <cstdio>
#include <jpeglib.h>
// clang-format on

namespace dlbench::formats {

struct JpegErrors {
  jpeg_error_mgr manager;  // first: libjpeg hands back a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {};
};

// Fills `errors.manager` with dlbench's handlers and returns it for `cinfo.err`.
jpeg_error_mgr* InstallJpegErrors(JpegErrors& errors, bool warnings_are_errors);

}  // namespace dlbench::formats
