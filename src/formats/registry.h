// The explicit list of formats dlbench can write and read (no static self-registration, so the
// set is visible here and in one switch, registry.cpp's EntryOf: the only switch over
// config::Format).
#pragma once

#include <memory>

#include "config/enums.h"
#include "formats/format.h"
#include "formats/io/shared_writer.h"

namespace dlbench::formats {

// The companion files a format's data file has (dataset layout names their paths).
enum class Companions {
  kNone,
  kDaliIndex,   // tfrecord: <data_folder>/index/<split>/<name>.idx
  kIndexFiles,  // indexed binary: <file>.off.idx and <file>.sz.idx
};

// Throw Error(kUsage) "format X is not supported by dlbench yet" for a format without a writer
// or reader (none at present: IsSupported is true for every format of the schema).
std::unique_ptr<FormatWriter> MakeWriter(config::Format format);
std::unique_ptr<FormatReader> MakeReader(config::Format format);
// The writer of one file shared by every rank (shared_writer.h), or nullptr for a format that
// cannot be written so (its bytes depend on the content, or its library has no parallel writer).
std::unique_ptr<SharedWriter> MakeSharedWriter(config::Format format);
Companions CompanionsOf(config::Format format);
bool IsSupported(config::Format format);

}  // namespace dlbench::formats
