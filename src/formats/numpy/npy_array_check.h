// Checks a parsed NPY header against what the dataset expects of a file.
#pragma once

#include <string>

#include "formats/format.h"
#include "formats/numpy/npy_header.h"

namespace dlbench::formats {

// Throws Error(kIo) naming `where` when dtype, order or shape differ from `spec`.
void CheckArrayHeader(const npy::Header& header, const FileSpec& spec, const std::string& where);

// The header numpy (and dlbench's writers) put before `spec`'s array, byte for byte. A file whose
// header is exactly these bytes matches the spec without parsing, and readers fetch this many
// bytes first, so that the usual file's header takes one read. Every file of a dataset usually
// has the same header, so the last one computed is kept per thread; the reference is valid until
// the thread's next call.
const std::string& ExpectedArrayHeader(const FileSpec& spec);

// That header with the spec's element and sample sizes (FileSpec::itemsize, sample_bytes), kept
// with it: a reader opening a file per sample needs all three, and each costs a dtype lookup.
struct ExpectedArray {
  std::string header;
  int itemsize = 0;
  Bytes sample_bytes = 0;
};
const ExpectedArray& ExpectedArrayOf(const FileSpec& spec);

}  // namespace dlbench::formats
