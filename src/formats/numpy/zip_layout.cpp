#include "formats/numpy/zip_layout.h"

#include "formats/io/little_endian.h"

namespace dlbench::formats::zip {
namespace {

constexpr std::uint16_t kVersionDefault = 20;
constexpr std::uint16_t kVersionZip64 = 45;
constexpr std::uint16_t kHostUnix = 3;
constexpr std::uint16_t kDosDate1980 = 0x0021;  // numpy stamps members 1980-01-01 00:00
constexpr std::uint32_t kExternalAttributes = 0600u << 16;
constexpr std::uint32_t kMax32 = 0xFFFFFFFFu;

bool LargeSizes(const Member& m) {
  return m.uncompressed > kZip64Limit || m.compressed > kZip64Limit;
}

}  // namespace

Bytes LocalHeaderBytes(const Member& m) { return kLocalHeaderBytes + m.name.size() + 20; }

std::string LocalHeader(const Member& m) {
  const bool large = LargeSizes(m);
  std::string h;
  PutLe(h, kLocalSignature, 4);
  PutLe(h, large ? kVersionZip64 : kVersionDefault, 2);
  PutLe(h, 0, 2);  // flags
  PutLe(h, m.method, 2);
  PutLe(h, 0, 2);  // time
  PutLe(h, kDosDate1980, 2);
  PutLe(h, m.crc, 4);
  PutLe(h, large ? kMax32 : m.compressed, 4);
  PutLe(h, large ? kMax32 : m.uncompressed, 4);
  PutLe(h, m.name.size(), 2);
  PutLe(h, 20, 2);
  h += m.name;
  PutLe(h, 1, 2);  // ZIP64 extended information
  PutLe(h, 16, 2);
  PutLe(h, m.uncompressed, 8);
  PutLe(h, m.compressed, 8);
  return h;
}

std::string CentralHeader(const Member& m) {
  std::vector<std::uint64_t> extra;
  const bool large = LargeSizes(m);
  if (large) {
    extra.push_back(m.uncompressed);
    extra.push_back(m.compressed);
  }
  const bool far = m.local_offset > kZip64Limit;
  if (far) extra.push_back(m.local_offset);
  const std::uint16_t version = extra.empty() ? kVersionDefault : kVersionZip64;
  std::string h;
  PutLe(h, kCentralSignature, 4);
  PutLe(h, static_cast<std::uint64_t>(kHostUnix << 8 | version), 2);
  PutLe(h, version, 2);
  PutLe(h, 0, 2);  // flags
  PutLe(h, m.method, 2);
  PutLe(h, 0, 2);
  PutLe(h, kDosDate1980, 2);
  PutLe(h, m.crc, 4);
  PutLe(h, large ? kMax32 : m.compressed, 4);
  PutLe(h, large ? kMax32 : m.uncompressed, 4);
  PutLe(h, m.name.size(), 2);
  PutLe(h, extra.empty() ? 0 : 4 + 8 * extra.size(), 2);
  PutLe(h, 0, 2);  // comment
  PutLe(h, 0, 2);  // disk
  PutLe(h, 0, 2);  // internal attributes
  PutLe(h, kExternalAttributes, 4);
  PutLe(h, far ? kMax32 : m.local_offset, 4);
  h += m.name;
  if (!extra.empty()) {
    PutLe(h, 1, 2);
    PutLe(h, 8 * extra.size(), 2);
    for (const std::uint64_t v : extra) PutLe(h, v, 8);
  }
  return h;
}

std::string CentralDirectoryAndEnd(const std::vector<Member>& members, Bytes cd_offset) {
  std::string out;
  for (const Member& m : members) out += CentralHeader(m);
  const Bytes cd_size = out.size();
  const Bytes count = members.size();
  if (cd_offset > kZip64Limit || cd_size > kZip64Limit || count > 0xFFFF) {
    const Bytes end64_offset = cd_offset + cd_size;
    PutLe(out, kEnd64Signature, 4);
    PutLe(out, 44, 8);
    PutLe(out, kVersionZip64, 2);
    PutLe(out, kVersionZip64, 2);
    PutLe(out, 0, 4);
    PutLe(out, 0, 4);
    PutLe(out, count, 8);
    PutLe(out, count, 8);
    PutLe(out, cd_size, 8);
    PutLe(out, cd_offset, 8);
    PutLe(out, kEnd64LocatorSignature, 4);
    PutLe(out, 0, 4);
    PutLe(out, end64_offset, 8);
    PutLe(out, 1, 4);
  }
  PutLe(out, kEndSignature, 4);
  PutLe(out, 0, 2);
  PutLe(out, 0, 2);
  PutLe(out, count > 0xFFFF ? 0xFFFF : count, 2);
  PutLe(out, count > 0xFFFF ? 0xFFFF : count, 2);
  PutLe(out, cd_size > kMax32 ? kMax32 : cd_size, 4);
  PutLe(out, cd_offset > kMax32 ? kMax32 : cd_offset, 4);
  PutLe(out, 0, 2);  // comment length
  return out;
}

}  // namespace dlbench::formats::zip
