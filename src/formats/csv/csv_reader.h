// Reads .csv files as DLIO's pandas reader does (pd.read_csv(f, compression="infer")): for every
// sample the whole file is read (whole_file_reader.h), inflated when it is gzip (by its magic
// bytes, whatever the name), and every line parsed — pandas' per-sample CPU cost — keeping line
// k's values in the sample's dtype (csv_text.h). The file must hold exactly num_samples_per_file
// lines of prod(sample_dims) numbers of the dtype, each ending with a newline ("\n" or "\r\n"), as
// pandas' to_csv and dlbench write them; anything else (a short or corrupt file, a last line
// without its newline — a file cut inside its last number would otherwise read as a smaller
// number —, a bad number, a header line) is an Error(kIo) naming the file and the line, which
// reader.on_error: skip counts as a skipped sample. O_DIRECT reads the 4 KiB blocks covering the
// file.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class CsvReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
