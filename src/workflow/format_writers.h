// The writer of each dataset format, for generation. Stands in for formats/registry.h until it
// lands; formats without a writer in this build are refused with the key and value named.
#pragma once

#include "config/enums.h"
#include "formats/format.h"

namespace dlbench::workflow {

// Throws Error(kUsage) naming dataset.format when the format has no writer.
const formats::FormatWriter& WriterFor(config::Format format);

}  // namespace dlbench::workflow
