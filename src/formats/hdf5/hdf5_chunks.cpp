#include "formats/hdf5/hdf5_chunks.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "util/error.h"

namespace dlbench::formats::hdf5 {
namespace {

std::string OffsetText(const std::vector<hsize_t>& offset) {
  std::string text;
  for (const hsize_t o : offset) text += (text.empty() ? "(" : ", ") + std::to_string(o);
  return text + ")";
}

// Visits every point of the box [lo, hi) over dims [0, dims) (odometer order, last dim fastest).
template <typename F>
void ForEachPoint(const std::vector<hsize_t>& lo, const std::vector<hsize_t>& hi, std::size_t dims,
                  F&& visit) {
  std::vector<hsize_t> at(lo.begin(), lo.begin() + static_cast<std::ptrdiff_t>(dims));
  for (std::size_t i = 0; i < dims; ++i) {
    if (lo[i] >= hi[i]) return;
  }
  for (;;) {
    visit(at);
    std::size_t i = dims;
    while (i > 0) {
      --i;
      if (++at[i] < hi[i]) break;
      at[i] = lo[i];
      if (i == 0) return;
    }
    if (dims == 0) return;
  }
}

std::string FilterName(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_SZIP:
      return "szip (id 4)";
    case H5Z_FILTER_NBIT:
      return "nbit (id 5)";
    case H5Z_FILTER_SCALEOFFSET:
      return "scaleoffset (id 6)";
    default:  // a plugin: 32000 is h5py's lzf, 32001 blosc, 32004 lz4, 32015 zstd, ...
      return "with id " + std::to_string(id) + " (a plugin)";
  }
}

// HDF5's Fletcher-32 of a chunk (H5checksum.c: 16-bit big-endian words, an odd last byte as the
// high byte of a word).
std::uint32_t Fletcher32(const unsigned char* data, std::size_t bytes) {
  std::uint32_t sum1 = 0, sum2 = 0;
  for (std::size_t words = bytes / 2; words > 0;) {
    const std::size_t run = std::min<std::size_t>(words, 360);
    words -= run;
    for (std::size_t i = 0; i < run; ++i, data += 2) {
      sum1 += static_cast<std::uint32_t>(data[0]) << 8 | data[1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (bytes % 2 != 0) {
    sum1 += static_cast<std::uint32_t>(data[0]) << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return sum2 << 16 | sum1;
}

}  // namespace

ChunkInfo DatasetChunk(const Lock& lock, hid_t dset, std::uint64_t element_bytes,
                       std::uint64_t dataset_bytes, const std::string& name,
                       const std::string& path) {
  ChunkInfo info;
  const Handle dcpl =
      Open(lock, H5Dget_create_plist(dset), H5Pclose, "get creation properties", path);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  if (layout < 0) Check(lock, -1, "get layout", path);
  if (layout != H5D_CHUNKED) {
    // HDF5 puts filters only on chunked datasets (H5Pset_filter needs chunks); a compact one with
    // a shuffle + fletcher32 pipeline made H5Dread copy from a null pointer (a segfault the
    // fuzzer found).
    if (Check(lock, H5Pget_nfilters(dcpl.get()), "get filters", path) > 0) {
      throw CorruptDataError(
          path, "hdf5", "dataset '" + name + "' has filters but is not chunked (a damaged file)");
    }
    return info;
  }
  info.dims.resize(H5S_MAX_RANK);
  const int rank =
      Check(lock, H5Pget_chunk(dcpl.get(), H5S_MAX_RANK, info.dims.data()), "get chunk", path);
  info.dims.resize(static_cast<std::size_t>(std::max(rank, 0)));
  std::uint64_t bytes = element_bytes;
  for (const hsize_t d : info.dims) {
    if (__builtin_mul_overflow(bytes, std::uint64_t{d}, &bytes)) {
      bytes = std::numeric_limits<std::uint64_t>::max();
    }
  }
  info.bytes = bytes;
  const int filters = Check(lock, H5Pget_nfilters(dcpl.get()), "get filters", path);
  info.filtered = filters > 0;
  int deflates = 0;
  std::string unsupported;  // the first filter ChunkReader cannot decode with a bound
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0, config = 0, values[4] = {};
    std::size_t count = 4;
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &count,
                                           values, 0, nullptr, &config);
    if (id < 0) Check(lock, -1, "get filter", path);
    info.filters.push_back(id);
    if (id == H5Z_FILTER_DEFLATE) {
      if (++deflates > 1 && unsupported.empty()) unsupported = "deflate twice";
    } else if (id == H5Z_FILTER_SHUFFLE) {
      info.shuffle_bytes = count > 0 ? values[0] : static_cast<std::size_t>(element_bytes);
    } else if (id != H5Z_FILTER_FLETCHER32 && unsupported.empty()) {
      unsupported = FilterName(id);
    }
  }
  if (!unsupported.empty()) {
    throw CorruptDataError(
        path, "hdf5",
        "dataset '" + name + "' is filtered with " + unsupported +
            ", which dlbench does not read (it reads chunks filtered with deflate, shuffle "
            "and fletcher32, decoded with a bound on their size; HDF5's other decoders "
            "allocate what the file says)");
  }
  // (A chunk dim of 0, which HDF5 itself refuses, is left to H5Dread to report.)
  info.read_directly = info.filtered && info.bytes > 0;
  if (info.filtered && bytes > std::max(dataset_bytes, kMaxFilteredChunkFloor)) {
    std::string dims;
    for (const hsize_t d : info.dims) dims += (dims.empty() ? "" : " x ") + std::to_string(d);
    throw CorruptDataError(path, "hdf5",
                           "dataset '" + name + "' has filtered chunks of " + dims + " elements (" +
                               std::to_string(bytes) + " bytes), more than the dataset (" +
                               std::to_string(dataset_bytes) + " bytes) and " +
                               std::to_string(kMaxFilteredChunkFloor >> 20) +
                               " MiB: every sample read would inflate a whole chunk");
  }
  // HDF5 itself refuses chunks of 4 GiB or more; zlib's counts are 32 bits.
  if (info.read_directly && bytes + 4u * info.filters.size() >= std::numeric_limits<uInt>::max()) {
    throw CorruptDataError(path, "hdf5",
                           "dataset '" + name + "' has filtered chunks of " +
                               std::to_string(bytes) + " bytes, 4 GiB or more");
  }
  return info;
}

ChunkReader::ChunkReader(ChunkInfo info, std::vector<hsize_t> shape, std::uint64_t element_bytes,
                         std::string name, std::string path)
    : info_(std::move(info)),
      shape_(std::move(shape)),
      element_bytes_(element_bytes),
      name_(std::move(name)),
      path_(std::move(path)) {
  if (info_.dims.size() != shape_.size() || shape_.empty()) {
    throw CorruptDataError(path_, "hdf5",
                           "dataset '" + name_ + "' has chunks of rank " +
                               std::to_string(info_.dims.size()) + ", the dataset rank " +
                               std::to_string(shape_.size()));
  }
}

void ChunkReader::read(const Lock& lock, hid_t dset, std::int64_t k, std::span<std::byte> out) {
  const std::size_t rank = shape_.size();
  std::vector<hsize_t> start(rank, 0), end = shape_;
  start[0] = static_cast<hsize_t>(k);
  end[0] = start[0] + 1;
  // Element strides of the sample in `out` and of a chunk.
  std::vector<std::uint64_t> sample_stride(rank, 1), chunk_stride(rank, 1);
  for (std::size_t i = rank - 1; i > 0; --i) {
    sample_stride[i - 1] = sample_stride[i] * (end[i] - start[i]);
    chunk_stride[i - 1] = chunk_stride[i] * info_.dims[i];
  }
  std::vector<hsize_t> first_tile(rank), last_tile(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    first_tile[i] = start[i] / info_.dims[i];
    last_tile[i] = (end[i] - 1) / info_.dims[i] + 1;
  }
  ForEachPoint(first_tile, last_tile, rank, [&](const std::vector<hsize_t>& tile) {
    std::vector<hsize_t> offset(rank), lo(rank), hi(rank);
    for (std::size_t i = 0; i < rank; ++i) {
      offset[i] = tile[i] * info_.dims[i];
      lo[i] = std::max(start[i], offset[i]);
      hi[i] = std::min(end[i], offset[i] + info_.dims[i]);
    }
    load(lock, dset, offset, k);
    const std::uint64_t run = (hi[rank - 1] - lo[rank - 1]) * element_bytes_;
    ForEachPoint(lo, hi, rank - 1, [&](const std::vector<hsize_t>& row) {
      std::uint64_t from = lo[rank - 1] - offset[rank - 1];
      std::uint64_t to = lo[rank - 1] - start[rank - 1];
      for (std::size_t i = 0; i + 1 < rank; ++i) {
        from += (row[i] - offset[i]) * chunk_stride[i];
        to += (row[i] - start[i]) * sample_stride[i];
      }
      std::memcpy(out.data() + to * element_bytes_, chunk_.data() + from * element_bytes_, run);
    });
  });
}

void ChunkReader::Buffer::resize(std::size_t n) {
  if (n > capacity) {
    bytes = std::make_unique_for_overwrite<unsigned char[]>(n);
    capacity = n;
  }
  size = n;
}

void ChunkReader::load(const Lock& lock, hid_t dset, const std::vector<hsize_t>& offset,
                       std::int64_t k) {
  if (held_ == offset) return;
  held_.clear();
  // For messages only: formatted when a call fails, not for every chunk read. Check() still runs
  // after every call: it also takes the error the Env driver may have kept.
  const auto where = [&] { return path_ + " sample " + std::to_string(k); };
  const auto check = [&](herr_t status, const char* operation) {
    if (status < 0) Check(lock, status, operation, where());
    Check(lock, status, operation, path_);
  };
  const auto bad = [&](const std::string& what) {
    throw CorruptDataError(where(), "hdf5",
                           "dataset '" + name_ + "', chunk at " + OffsetText(offset) + ": " + what);
  };
  hsize_t stored = 0;
  check(H5Dget_chunk_storage_size(dset, offset.data(), &stored), "get chunk size");
  if (stored == 0) bad("not stored in the file");
  if (stored >= std::numeric_limits<uInt>::max()) bad(std::to_string(stored) + " bytes stored");
  raw_.resize(stored);
  std::uint32_t skipped = 0;  // bit i: filter i was not applied to this chunk
  check(H5Dread_chunk(dset, H5P_DEFAULT, offset.data(), &skipped, raw_.data()), "read chunk");
  // in[i]: the size of what entered writing filter i, for this chunk (0: not known, after a
  // deflate). Each decoding step must give back exactly that, so nothing grows unbounded.
  std::array<std::uint64_t, H5Z_MAX_NFILTERS + 1> in{};
  const std::size_t filters = std::min<std::size_t>(info_.filters.size(), H5Z_MAX_NFILTERS);
  in[0] = info_.bytes;
  const auto skipped_filter = [&](std::size_t i) { return i < 32 && (skipped >> i & 1u) != 0; };
  for (std::size_t i = 0; i < filters; ++i) {
    const H5Z_filter_t id = info_.filters[i];
    in[i + 1] = skipped_filter(i) || id == H5Z_FILTER_SHUFFLE ? in[i]
                : id == H5Z_FILTER_FLETCHER32 && in[i] > 0    ? in[i] + 4
                                                              : 0;
  }
  Buffer* data = &raw_;
  // A buffer other than `data` for a step's output.
  const auto other = [&]() -> Buffer& { return data == &chunk_ ? unshuffled_ : chunk_; };
  for (std::size_t i = filters; i-- > 0;) {
    if (skipped_filter(i)) continue;
    const H5Z_filter_t id = info_.filters[i];
    if (id == H5Z_FILTER_FLETCHER32) {
      // Checked (HDF5 also takes the checksum of older versions, with bytes swapped in each
      // 16-bit half) and dropped.
      if (data->size < 4) {
        bad("holds " + std::to_string(data->size) + " bytes, less than its checksum");
      }
      const std::size_t body = data->size - 4;
      const unsigned char* sum_bytes = data->data() + body;
      const std::uint32_t expected = static_cast<std::uint32_t>(sum_bytes[0]) |
                                     static_cast<std::uint32_t>(sum_bytes[1]) << 8 |
                                     static_cast<std::uint32_t>(sum_bytes[2]) << 16 |
                                     static_cast<std::uint32_t>(sum_bytes[3]) << 24;
      const std::uint32_t sum = Fletcher32(data->data(), body);
      const std::uint32_t swapped = (sum & 0x00ff00ffu) << 8 | (sum >> 8 & 0x00ff00ffu);
      if (expected != sum && expected != swapped) {
        bad("fails its Fletcher-32 checksum (a damaged chunk)");
      }
      data->size = body;
      if (in[i] > 0 && body != in[i]) {
        bad("holds " + std::to_string(body) + " bytes, not its " + std::to_string(in[i]));
      }
    } else if (id == H5Z_FILTER_DEFLATE) {
      // DatasetChunk allows one deflate: what entered it is known (and < 4 GiB).
      const std::uint64_t size = in[i];
      Buffer& out = other();
      out.resize(size);
      z_stream z{};
      z.next_in = data->data();
      z.avail_in =
          static_cast<uInt>(std::min<std::size_t>(data->size, std::numeric_limits<uInt>::max()));
      z.next_out = out.data();
      z.avail_out = static_cast<uInt>(size);
      if (inflateInit(&z) != Z_OK) throw InternalError("zlib inflateInit");
      // Exactly the chunk's size: once it is full, one spare byte tells the stream's end from
      // more data.
      unsigned char spare = 0;
      std::string error;
      for (bool full = false;;) {
        full = full || z.avail_out == 0;
        if (full) {
          z.next_out = &spare;
          z.avail_out = 1;
        }
        const int status = inflate(&z, Z_NO_FLUSH);
        if (full && z.avail_out == 0) {
          error = "inflates to more than its " + std::to_string(size) +
                  " bytes (a damaged or hostile chunk)";
          break;
        }
        if (status == Z_STREAM_END) break;
        if (status == Z_OK) continue;
        error = status == Z_BUF_ERROR && z.avail_in == 0
                    ? "its deflate stream ends early (cut short after " +
                          std::to_string(z.total_out) + " bytes)"
                    : std::string("corrupt deflate stream, inflate says: ") +
                          (z.msg != nullptr ? z.msg : "error " + std::to_string(status));
        break;
      }
      const std::uint64_t produced = z.total_out;
      inflateEnd(&z);
      if (!error.empty()) bad(error);
      if (produced != size) {
        bad("inflates to " + std::to_string(produced) + " bytes, not its " + std::to_string(size) +
            " (a damaged chunk)");
      }
      data = &out;
    } else {  // shuffle: element byte b of every element together (H5Zshuffle.c)
      if (in[i] > 0 && data->size != in[i]) {
        bad("holds " + std::to_string(data->size) + " bytes to unshuffle, not its " +
            std::to_string(in[i]));
      }
      const std::size_t width = info_.shuffle_bytes;
      if (width <= 1) continue;
      const std::size_t n = data->size / width;
      Buffer& out = other();
      out.resize(data->size);
      const unsigned char* from = data->data();
      unsigned char* to = out.data();
      for (std::size_t b = 0; b < width; ++b) {
        for (std::size_t e = 0; e < n; ++e) to[e * width + b] = from[b * n + e];
      }
      std::memcpy(to + n * width, from + n * width, data->size - n * width);
      data = &out;
    }
  }
  if (data->size != info_.bytes) {
    bad("holds " + std::to_string(data->size) + " bytes, not its " + std::to_string(info_.bytes));
  }
  if (data != &chunk_) std::swap(chunk_, *data);
  held_ = offset;
}

}  // namespace dlbench::formats::hdf5
