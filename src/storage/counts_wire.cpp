#include "storage/counts_wire.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "util/error.h"

namespace dlbench::storage {
namespace {

// Counters per record (VisitCounters' walk), at most 128: one two-word mask says which follow.
constexpr int kMaskWords = 2;

template <class T>
void Put(std::string& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  std::string_view text(std::size_t length) { return {take(length), length}; }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const char* take(std::size_t length) {
    if (length > bytes_.size() - at_) {
      throw InternalError("counter records: " + std::to_string(bytes_.size()) +
                          " bytes end inside a record");
    }
    const char* p = bytes_.data() + at_;
    at_ += length;
    return p;
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

void PutCounts(std::string& out, const IoCounts& counts) {
  static const IoCounts kDefaults;
  std::uint64_t mask[kMaskWords] = {};
  int index = 0;
  VisitCounters(
      [&](const char*, const auto& value, const auto& default_value) {
        static_assert(sizeof value == 8, "every counter travels as 8 bytes");
        if (std::memcmp(&value, &default_value, 8) != 0) mask[index / 64] |= 1ULL << (index % 64);
        ++index;
      },
      counts, kDefaults);
  if (index > 64 * kMaskWords) throw InternalError("counter records: more counters than mask bits");
  for (const std::uint64_t word : mask) Put(out, word);
  index = 0;
  VisitCounters(
      [&](const char*, const auto& value) {
        if ((mask[index / 64] >> (index % 64)) & 1) Put(out, value);
        ++index;
      },
      counts);
}

IoCounts GetCounts(WireReader& in) {
  std::uint64_t mask[kMaskWords];
  for (std::uint64_t& word : mask) word = in.get<std::uint64_t>();
  IoCounts counts;
  int index = 0;
  VisitCounters(
      [&](const char*, auto& value) {
        if ((mask[index / 64] >> (index % 64)) & 1) {
          value = in.get<std::remove_reference_t<decltype(value)>>();
        }
        ++index;
      },
      counts);
  return counts;
}

}  // namespace

std::string EncodeCounts(const CountsOfRank& counts) {
  std::string out;
  PutCounts(out, counts.totals);
  Put(out, static_cast<std::uint64_t>(counts.files.size()));
  for (const FileCounts& file : counts.files) {
    Put(out, static_cast<std::uint64_t>(file.path.size()));
    out += file.path;
    Put(out, file.rank);
    Put(out, file.folded_files);
    PutCounts(out, file.counts);
  }
  return out;
}

CountsOfRank DecodeCounts(std::string_view bytes) {
  WireReader in(bytes);
  CountsOfRank counts;
  counts.totals = GetCounts(in);
  const auto files = in.get<std::uint64_t>();
  // Each record takes more than 24 bytes: a corrupt count cannot become a huge allocation.
  if (files > bytes.size() / 24) throw InternalError("counter records: corrupt record count");
  counts.files.reserve(files);
  for (std::uint64_t f = 0; f < files; ++f) {
    FileCounts& file = counts.files.emplace_back();
    file.path = in.text(in.get<std::uint64_t>());
    file.rank = in.get<std::int64_t>();
    file.folded_files = in.get<std::uint64_t>();
    file.counts = GetCounts(in);
  }
  if (!in.done()) throw InternalError("counter records: bytes after the last record");
  return counts;
}

}  // namespace dlbench::storage
