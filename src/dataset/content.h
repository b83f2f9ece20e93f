// What generated files contain: a pure function of (seed, file, byte offset), so that any part
// of any file can be produced independently by any rank or thread, reproducibly, and differently
// for every file (DLIO writes identical or unseeded content depending on format, defect D18).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "config/config.h"
#include "util/units.h"

namespace dlbench::dataset {

class ContentGenerator {
 public:
  // `kind` and `compress_ratio` from dataset.content; `seed` already resolved.
  ContentGenerator(config::ContentKind kind, double compress_ratio, std::uint64_t seed);

  // Fills `out` with the bytes of `file` starting at byte `offset` of its sample payload.
  // Calls for adjacent ranges produce the same bytes as one call for the union.
  void fill(std::uint64_t file, Bytes offset, std::span<std::byte> out) const;

  config::ContentKind kind() const { return kind_; }
  // Same kind, ratio and seed: the same bytes for every (file, offset).
  bool operator==(const ContentGenerator&) const = default;

 private:
  config::ContentKind kind_;
  double compress_ratio_;
  std::uint64_t seed_;
};

}  // namespace dlbench::dataset
