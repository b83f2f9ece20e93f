// What checkpoint files contain: a pure function of (key, byte offset), so that any chunk of any
// file can be produced by any thread into a reused buffer, and checked again on restore without
// keeping anything. The key mixes the checkpoint folder and file name, so no two files (and no
// two checkpoints) hold the same bytes for deduplicating storage to collapse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "util/units.h"

namespace dlbench::checkpoint {

// The content key of `file_name` inside checkpoint folder `checkpoint_name`.
std::uint64_t ContentKey(std::uint64_t seed, std::string_view checkpoint_name,
                         std::string_view file_name);

// Fills `out` with the bytes at `offset` of the file with `key`: counter-based pseudo-random bytes
// (checkpoint.randomize_tensor: true) or bytes of value 1 (false, DLIO's ones-filled tensors).
// Calls for adjacent ranges produce the same bytes as one call for the union.
void FillContent(std::uint64_t key, bool randomize, Bytes offset, std::span<std::byte> out);

}  // namespace dlbench::checkpoint
