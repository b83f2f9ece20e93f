// Parquet's RLE / bit-packed hybrid encoding (the specification's Encodings page), which holds the
// repetition and definition levels of data pages and the indices of dictionary-encoded values.
//
// A run starts with a ULEB128 header. Low bit 0: an RLE run of (header >> 1) copies of one value,
// stored little-endian in ceil(bit_width / 8) bytes. Low bit 1: a bit-packed run of (header >> 1)
// groups of 8 values of bit_width bits each, least significant bit first; the last group is
// padded, so a run may hold more values than the page needs.
//
// Every read is bounds-checked. Malformed input (bit width > 32, truncated or empty run, an RLE
// value wider than the bit width, levels that are not what a DLIO row needs, a dictionary index
// out of range) throws thrift::DecodeError, the Parquet code's one error type for bad bytes; the
// reader turns it into Error(kIo) naming the file, the column and the page's offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace dlbench::formats::parquet {

inline constexpr int kMaxBitWidth = 32;

// Bits of a level whose maximum is `max_level`: 0 for 0, 1 for 1, 2 for 2 and 3, ...
int LevelBitWidth(int max_level);

// The runs of one hybrid-encoded sequence, one after the other.
class HybridRuns {
 public:
  struct Run {
    bool packed = false;
    std::uint32_t value = 0;          // RLE run: the value repeated
    const std::byte* bits = nullptr;  // bit-packed run: its groups (count · bit_width / 8 bytes)
    std::uint64_t count = 0;          // values in the run (bit-packed: 8 per group)
  };

  // Throws thrift::DecodeError when bit_width is outside 0..32. `what` names the sequence in
  // error messages ("definition levels", "dictionary indices"); it must outlive the object.
  HybridRuns(std::span<const std::byte> data, int bit_width, const char* what);

  bool done() const { return pos_ == data_.size(); }
  // The next run; throws thrift::DecodeError when none is left or it is malformed.
  Run next();
  // Value i of a bit-packed run.
  std::uint32_t unpack(const Run& run, std::uint64_t i) const;
  int bit_width() const { return bit_width_; }
  [[noreturn]] void fail(const char* why) const;

 private:
  std::uint64_t varint();

  std::span<const std::byte> data_;
  int bit_width_;
  const char* what_;
  std::size_t pos_ = 0;
};

// The levels of `count` values of a column chunk whose first is the chunk's value `first`, for
// DLIO's rows of `size` values: repetition level 0 where a row starts (position % size == 0) and
// 1 elsewhere. `data` holds exactly these levels (bytes after the last run are an error).
void CheckRepetitionLevels(std::span<const std::byte> data, std::int64_t first, std::int64_t count,
                           std::int64_t size);

// Definition levels of the same values: every one `max_definition` (no null, no empty list).
// A lower level is reported as a null at its row (position / size).
void CheckDefinitionLevels(std::span<const std::byte> data, std::int64_t first, std::int64_t count,
                           int max_definition, std::int64_t size);

// Indices [from, from + out.size()) of a dictionary-encoded values section (`data`: a bit-width
// byte, then the hybrid runs), each checked to be below `dictionary_size`.
void DecodeDictionaryIndices(std::span<const std::byte> data, std::int64_t from,
                             std::span<std::uint32_t> out, std::uint64_t dictionary_size);

}  // namespace dlbench::formats::parquet
