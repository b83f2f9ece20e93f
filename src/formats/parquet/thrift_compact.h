// The Thrift compact protocol, the encoding of every Parquet metadata structure (footer, page
// headers, offset indexes). Only what Parquet uses: structs, i8/i16/i32/i64 (zigzag varints),
// bools, binary/string and lists. Written from the Thrift compact protocol specification.
//
// Writer: appends one value after another to a string; nested structs keep their own "last field
// id" (field headers carry the id as a delta when it fits in 4 bits).
// Reader: walks a byte range with bounds checks on every read; any malformed input (truncated
// varint, length past the end, unknown type, nesting deeper than kMaxDepth, list longer than the
// bytes left) throws thrift::DecodeError, which callers turn into an error naming their file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dlbench::formats::thrift {

enum class Type : std::uint8_t {
  kStop = 0,
  kTrue = 1,  // a bool field's value lives in its header; in lists 1 = true
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Writer {
 public:
  // Top-level structs need no begin: the writer starts inside one.
  void field_i8(std::int16_t id, std::int8_t value);
  void field_i32(std::int16_t id, std::int32_t value);
  void field_i64(std::int16_t id, std::int64_t value);
  void field_bool(std::int16_t id, bool value);
  void field_binary(std::int16_t id, std::string_view value);
  // Opens a struct-valued field: write its fields, then end_struct().
  void field_struct(std::int16_t id);
  // Opens a list-valued field of `size` elements of `element`: write them with the element
  // functions below (structs: begin_struct() ... end_struct() each).
  void field_list(std::int16_t id, Type element, std::size_t size);
  void element_i32(std::int32_t value) { varint(Zigzag(value)); }
  void element_i64(std::int64_t value) { varint(Zigzag(value)); }
  void element_binary(std::string_view value);
  void begin_struct();
  // Writes the stop byte of the innermost struct (also of the top-level one).
  void end_struct();

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  static std::uint64_t Zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  }
  void header(std::int16_t id, Type type);
  void varint(std::uint64_t value);

  std::string out_;
  std::int16_t last_id_ = 0;
  std::vector<std::int16_t> outer_ids_;
};

class Reader {
 public:
  static constexpr int kMaxDepth = 32;

  struct Field {
    std::int16_t id = 0;
    Type type = Type::kStop;
  };
  struct ListHeader {
    Type element = Type::kStop;
    std::size_t size = 0;
  };

  explicit Reader(std::span<const std::byte> data) : data_(data) {}

  // The next field of the current struct; false at its stop byte (the struct is then left).
  // Call begin_struct() before reading the fields of a nested struct (not for the top level).
  bool next_field(Field* field);
  void begin_struct();

  std::int8_t read_i8();
  std::int32_t read_i32();
  std::int64_t read_i64();
  // A bool field's value (from its header type).
  static bool FieldBool(const Field& field);
  bool read_list_bool();
  std::string_view read_binary();
  ListHeader read_list();
  // Skips one value of `type` (structs and lists recursively).
  void skip(Type type);

  // Bytes consumed so far.
  std::size_t position() const { return pos_; }

 private:
  std::uint64_t varint();
  std::uint8_t byte();
  void check_depth() const;
  // A list or map element: bools there take a byte of their own.
  void skip_element(Type type);

  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
  std::int16_t last_id_ = 0;
  std::vector<std::int16_t> outer_ids_;
};

}  // namespace dlbench::formats::thrift
