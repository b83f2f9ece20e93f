// Checks a parsed NPY header against what the dataset expects of a file.
#pragma once

#include <string>

#include "formats/format.h"
#include "formats/npy_header.h"

namespace dlbench::formats {

// Throws Error(kIo) naming `where` when dtype, order or shape differ from `spec`.
void CheckArrayHeader(const npy::Header& header, const FileSpec& spec, const std::string& where);

}  // namespace dlbench::formats
