// The explicit list of formats dlbench can write and read (no static self-registration, so the
// set is visible here and in one switch).
#pragma once

#include <memory>

#include "config/enums.h"
#include "formats/format.h"

namespace dlbench::formats {

// Throw Error(kUsage) "format X is not supported by dlbench yet" for a format without a writer
// or reader (none at present: IsSupported is true for every format of the schema).
std::unique_ptr<FormatWriter> MakeWriter(config::Format format);
std::unique_ptr<FormatReader> MakeReader(config::Format format);
bool IsSupported(config::Format format);

}  // namespace dlbench::formats
