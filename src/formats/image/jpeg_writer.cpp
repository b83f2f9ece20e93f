#include "formats/image/jpeg_writer.h"

#include <exception>
#include <string>
#include <vector>

#include "formats/image/image_writing.h"
#include "formats/image/jpeg_assembly.h"
#include "formats/image/jpeg_errors.h"
#include "formats/image/jpeg_parameters.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// libjpeg's output goes straight into the appender's free space; a full buffer is flushed to the
// file. A write error cannot be thrown through libjpeg's C frames: it is kept here and libjpeg
// is left through error_exit (a longjmp), after which EncodeJpeg rethrows it.
struct Destination {
  jpeg_destination_mgr manager;  // first: libjpeg hands back a pointer to it
  BufferedAppender* out = nullptr;
  std::span<std::byte> space;
  std::exception_ptr error;
};

Destination& DestinationOf(j_compress_ptr cinfo) {
  return *reinterpret_cast<Destination*>(cinfo->dest);
}

void Expose(Destination& d) {
  d.manager.next_output_byte = reinterpret_cast<JOCTET*>(d.space.data());
  d.manager.free_in_buffer = d.space.size();
}

void InitDestination(j_compress_ptr cinfo) {
  Destination& d = DestinationOf(cinfo);
  d.space = d.out->free_space();
  Expose(d);
}

boolean EmptyOutput(j_compress_ptr cinfo) {
  Destination& d = DestinationOf(cinfo);
  d.out->commit(d.space.size());  // libjpeg filled all of it
  bool failed = false;
  try {
    d.space = d.out->free_space();  // flushes
  } catch (...) {
    d.error = std::current_exception();
    failed = true;
  }
  if (failed) (*cinfo->err->error_exit)(reinterpret_cast<j_common_ptr>(cinfo));
  Expose(d);
  return TRUE;
}

void TermDestination(j_compress_ptr cinfo) {
  Destination& d = DestinationOf(cinfo);
  d.out->commit(d.space.size() - d.manager.free_in_buffer);
}

void EncodeJpeg(const std::string& path, ImageShape shape, RowBlocks& rows, BufferedAppender& out) {
  // Everything with a destructor is built before setjmp (jpeg_errors.h).
  std::vector<JSAMPROW> pointers(static_cast<std::size_t>(rows.max_rows()));
  Destination destination;
  destination.out = &out;
  destination.manager.init_destination = InitDestination;
  destination.manager.empty_output_buffer = EmptyOutput;
  destination.manager.term_destination = TermDestination;
  JpegErrors errors;
  jpeg_compress_struct cinfo{};
  cinfo.err = InstallJpegErrors(errors, /*warnings_are_errors=*/false);
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&cinfo);
    if (destination.error) std::rethrow_exception(destination.error);
    throw InternalError("write " + path + ": libjpeg: " + errors.message);
  }
  jpeg_create_compress(&cinfo);
  cinfo.dest = &destination.manager;
  SetJpegParameters(cinfo, shape);
  jpeg_start_compress(&cinfo, TRUE);
  for (std::span<std::byte> block = rows.next(); !block.empty(); block = rows.next()) {
    const std::int64_t n = rows.rows_in(block);
    for (std::int64_t r = 0; r < n; ++r) {
      pointers[static_cast<std::size_t>(r)] =
          reinterpret_cast<JSAMPROW>(block.data() + r * shape.width);
    }
    jpeg_write_scanlines(&cinfo, pointers.data(), static_cast<JDIMENSION>(n));
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
}

}  // namespace

Bytes JpegWriter::file_size(const FileSpec& spec) const {
  throw UsageError(spec.path + ": the size of a jpeg file depends on its pixels");
}

WriteResult JpegWriter::write(storage::Env& env, const FileSpec& spec,
                              const dataset::ContentGenerator& content,
                              std::span<std::byte> buffer) const {
  const ImageShape shape = ImageShapeOf(spec, JPEG_MAX_DIMENSION, "jpeg");
  if (spec.encoding == config::ContentEncoding::kAssembled) {
    return WriteAssembledJpeg(env, spec, shape, *pools_.get(content), buffer);
  }
  return WriteImage(env, spec, shape, content, buffer, EncodeJpeg);
}

}  // namespace dlbench::formats
