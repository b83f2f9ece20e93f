// Reads TFRecord files of tf.train.Example records, one sample per record: the `image` bytes
// feature is copied into the caller's buffer. Records are streamed through a buffer of
// `transfer_size` bytes like TensorFlow's reader; the Example is parsed by tag (any field order,
// unknown fields skipped), and both CRCs are checked when verify_checksums is set.
//
// Read unit: one record. Sample k needs the offset of record k, learnt by reading records in
// order; a jump ahead reads the 12-byte headers of the records in between.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class TfrecordReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const ReadOptions& options) const override;
};

}  // namespace dlbench::formats
