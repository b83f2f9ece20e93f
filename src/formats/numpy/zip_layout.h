// The ZIP records of an .npz archive exactly as Python's zipfile writes them for np.savez:
// local headers always carry a ZIP64 extra (numpy forces it), and
// 32-bit fields switch to 0xFFFFFFFF above zipfile's ZIP64_LIMIT of 2 GiB − 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/units.h"

namespace dlbench::formats::zip {

inline constexpr std::uint32_t kLocalSignature = 0x04034b50;
inline constexpr std::uint32_t kCentralSignature = 0x02014b50;
inline constexpr std::uint32_t kEndSignature = 0x06054b50;
inline constexpr std::uint32_t kEnd64Signature = 0x06064b50;
inline constexpr std::uint32_t kEnd64LocatorSignature = 0x07064b50;
inline constexpr Bytes kLocalHeaderBytes = 30;
inline constexpr Bytes kCentralHeaderBytes = 46;
inline constexpr Bytes kEndBytes = 22;
inline constexpr Bytes kEnd64Bytes = 56;
inline constexpr Bytes kEnd64LocatorBytes = 20;
inline constexpr Bytes kZip64Limit = (Bytes{1} << 31) - 1;  // Python zipfile.ZIP64_LIMIT
inline constexpr std::uint16_t kMethodStored = 0;
inline constexpr std::uint16_t kMethodDeflated = 8;

struct Member {
  std::string name;
  std::uint16_t method = kMethodStored;
  std::uint32_t crc = 0;
  Bytes compressed = 0;
  Bytes uncompressed = 0;
  Bytes local_offset = 0;
};

// 30 + name + 20 bytes.
std::string LocalHeader(const Member& m);
Bytes LocalHeaderBytes(const Member& m);
std::string CentralHeader(const Member& m);
// Central directory of `members` at `cd_offset`, followed by the end records.
std::string CentralDirectoryAndEnd(const std::vector<Member>& members, Bytes cd_offset);

}  // namespace dlbench::formats::zip
