// Reads TFRecord files of tf.train.Example records, one sample per record: the `image` bytes
// feature is copied into the caller's buffer. Records are streamed through a buffer of
// `transfer_size` bytes like TensorFlow's reader; the Example is parsed by tag (any field order,
// unknown fields skipped). Like TensorFlow's reader, it checks the masked CRC32C of every record's
// length and (unless verify_checksums is off) of its data, and fails naming the record's offset.
//
// Read unit: one record. Sample k needs the offset of record k, learnt by reading records in
// order; a jump ahead reads the 12-byte headers of the records in between.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

class TfrecordReader final : public FormatReader {
 public:
  std::unique_ptr<FileReader> open(storage::Env& env, const FileSpec& spec,
                                   const FileReadOptions& options) const override;
};

}  // namespace dlbench::formats
