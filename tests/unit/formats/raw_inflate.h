// The formats tests' check of a raw deflate stream that must stand alone: inflated by itself (no
// reference to earlier bytes) and ending byte-aligned with nothing left over; fails the test
// otherwise. Out: std::string or std::vector<std::byte>.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstddef>
#include <span>
#include <vector>

namespace dlbench::formats::test {

template <typename Out = std::vector<std::byte>>
Out InflateRaw(std::span<const std::byte> bytes, std::size_t most) {
  Out out(most + 16, typename Out::value_type{});
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, -15), Z_OK);
  z.next_in = const_cast<Bytef*>(reinterpret_cast<const Bytef*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_SYNC_FLUSH), Z_OK);
  EXPECT_EQ(z.avail_in, 0u);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

}  // namespace dlbench::formats::test
