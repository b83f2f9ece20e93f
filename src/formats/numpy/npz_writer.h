// .npz archives as np.savez writes them: members x.npy (the samples, shape (*sample_dims, n))
// and y.npy (int64 zero labels, shape (n,)), stored, or deflated with `compression: zip`
// (np.savez_compressed). The CRC-32 is computed while streaming and the local header is
// rewritten in place afterwards, as Python's zipfile does; on storage without random writes
// (storage::Capabilities) each member is encoded twice instead, first only to measure it, so
// that its header goes out complete before its data: the same bytes, written in order.
#pragma once

#include "formats/format.h"

namespace dlbench::formats {

// Sizes of the two regions of a stored archive of `spec` that a reader parses: x.npy's local
// header and npy header at the start, the central directory and end records at the end. The npz
// reader fetches each in one read.
struct NpzRegions {
  Bytes head = 0;
  Bytes tail = 0;
};
NpzRegions StoredNpzRegions(const FileSpec& spec);

class NpzWriter final : public FormatWriter {
 public:
  // Exact for stored archives; throws Error(kUsage) for deflated ones.
  Bytes file_size(const FileSpec& spec) const override;
  WriteResult write(storage::Env& env, const FileSpec& spec,
                    const dataset::ContentGenerator& content,
                    std::span<std::byte> buffer) const override;
};

}  // namespace dlbench::formats
