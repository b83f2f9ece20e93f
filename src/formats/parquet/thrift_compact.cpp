#include "formats/parquet/thrift_compact.h"

namespace dlbench::formats::thrift {

void Writer::varint(std::uint64_t value) {
  while (value >= 0x80) {
    out_ += static_cast<char>((value & 0x7F) | 0x80);
    value >>= 7;
  }
  out_ += static_cast<char>(value);
}

void Writer::header(std::int16_t id, Type type) {
  const int delta = id - last_id_;
  if (delta > 0 && delta <= 15) {
    out_ += static_cast<char>((delta << 4) | static_cast<int>(type));
  } else {
    out_ += static_cast<char>(type);
    varint(Zigzag(id));
  }
  last_id_ = id;
}

void Writer::field_i8(std::int16_t id, std::int8_t value) {
  header(id, Type::kByte);
  out_ += static_cast<char>(value);
}

void Writer::field_i32(std::int16_t id, std::int32_t value) {
  header(id, Type::kI32);
  varint(Zigzag(value));
}

void Writer::field_i64(std::int16_t id, std::int64_t value) {
  header(id, Type::kI64);
  varint(Zigzag(value));
}

void Writer::field_bool(std::int16_t id, bool value) {
  header(id, value ? Type::kTrue : Type::kFalse);
}

void Writer::field_binary(std::int16_t id, std::string_view value) {
  header(id, Type::kBinary);
  element_binary(value);
}

void Writer::element_binary(std::string_view value) {
  varint(value.size());
  out_.append(value);
}

void Writer::field_struct(std::int16_t id) {
  header(id, Type::kStruct);
  begin_struct();
}

void Writer::field_list(std::int16_t id, Type element, std::size_t size) {
  header(id, Type::kList);
  if (size < 15) {
    out_ += static_cast<char>((size << 4) | static_cast<std::size_t>(element));
  } else {
    out_ += static_cast<char>(0xF0 | static_cast<int>(element));
    varint(size);
  }
}

void Writer::begin_struct() {
  outer_ids_.push_back(last_id_);
  last_id_ = 0;
}

void Writer::end_struct() {
  out_ += static_cast<char>(Type::kStop);
  if (!outer_ids_.empty()) {
    last_id_ = outer_ids_.back();
    outer_ids_.pop_back();
  }
}

std::uint8_t Reader::byte() {
  if (pos_ >= data_.size()) {
    throw DecodeError("truncated at byte " + std::to_string(pos_) + " of " +
                      std::to_string(data_.size()));
  }
  return static_cast<std::uint8_t>(data_[pos_++]);
}

std::uint64_t Reader::varint() {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const std::uint8_t b = byte();
    value |= static_cast<std::uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return value;
  }
  throw DecodeError("varint longer than 10 bytes at byte " + std::to_string(pos_));
}

namespace {

std::int64_t Unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

}  // namespace

void Reader::check_depth() const {
  if (outer_ids_.size() >= kMaxDepth) {
    throw DecodeError("structs nested deeper than " + std::to_string(kMaxDepth));
  }
}

void Reader::begin_struct() {
  check_depth();
  outer_ids_.push_back(last_id_);
  last_id_ = 0;
}

bool Reader::next_field(Field* field) {
  const std::uint8_t b = byte();
  const auto type = static_cast<Type>(b & 0x0F);
  if (type == Type::kStop) {
    if (b != 0) throw DecodeError("bad field header " + std::to_string(b));
    if (!outer_ids_.empty()) {
      last_id_ = outer_ids_.back();
      outer_ids_.pop_back();
    }
    return false;
  }
  if (type > Type::kStruct) {
    throw DecodeError("unknown field type " + std::to_string(b & 0x0F) + " at byte " +
                      std::to_string(pos_ - 1));
  }
  const int delta = b >> 4;
  const std::int64_t id = delta != 0 ? last_id_ + delta : Unzigzag(varint());
  if (id <= 0 || id > INT16_MAX) throw DecodeError("bad field id " + std::to_string(id));
  last_id_ = static_cast<std::int16_t>(id);
  field->id = last_id_;
  field->type = type;
  return true;
}

std::int8_t Reader::read_i8() { return static_cast<std::int8_t>(byte()); }

std::int32_t Reader::read_i32() {
  const std::int64_t v = Unzigzag(varint());
  if (v < INT32_MIN || v > INT32_MAX) throw DecodeError("i32 out of range");
  return static_cast<std::int32_t>(v);
}

std::int64_t Reader::read_i64() { return Unzigzag(varint()); }

bool Reader::FieldBool(const Field& field) { return field.type == Type::kTrue; }

bool Reader::read_list_bool() {
  const std::uint8_t b = byte();
  if (b > 2) throw DecodeError("bad bool " + std::to_string(b));
  return b == 1;
}

std::string_view Reader::read_binary() {
  const std::uint64_t length = varint();
  if (length > data_.size() - pos_) {
    throw DecodeError("a " + std::to_string(length) + "-byte string at byte " +
                      std::to_string(pos_) + " runs past the end (" + std::to_string(data_.size()) +
                      " bytes)");
  }
  const std::string_view text(reinterpret_cast<const char*>(data_.data()) + pos_,
                              static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return text;
}

Reader::ListHeader Reader::read_list() {
  const std::uint8_t b = byte();
  ListHeader list;
  list.element = static_cast<Type>(b & 0x0F);
  list.size = b >> 4;
  if (list.size == 15) list.size = static_cast<std::size_t>(varint());
  if (list.element == Type::kStop || list.element > Type::kStruct) {
    throw DecodeError("bad list element type " + std::to_string(b & 0x0F));
  }
  // Every element takes at least one byte: a longer list cannot fit.
  if (list.size > data_.size() - pos_) {
    throw DecodeError("a list of " + std::to_string(list.size) + " elements at byte " +
                      std::to_string(pos_) + " runs past the end");
  }
  return list;
}

void Reader::skip_element(Type type) {
  if (type == Type::kTrue || type == Type::kFalse) {
    read_list_bool();
  } else {
    skip(type);
  }
}

void Reader::skip(Type type) {
  switch (type) {
    case Type::kTrue:
    case Type::kFalse:
      return;  // a field bool: the value was in the header
    case Type::kByte:
      byte();
      return;
    case Type::kI16:
    case Type::kI32:
    case Type::kI64:
      varint();
      return;
    case Type::kDouble:
      for (int i = 0; i < 8; ++i) byte();
      return;
    case Type::kBinary:
      read_binary();
      return;
    case Type::kList:
    case Type::kSet: {
      check_depth();
      const ListHeader list = read_list();
      outer_ids_.push_back(last_id_);
      for (std::size_t i = 0; i < list.size; ++i) skip_element(list.element);
      last_id_ = outer_ids_.back();
      outer_ids_.pop_back();
      return;
    }
    case Type::kMap: {
      check_depth();
      const std::uint64_t size = varint();
      if (size == 0) return;
      const std::uint8_t types = byte();
      if (size > data_.size() - pos_) throw DecodeError("a map runs past the end");
      outer_ids_.push_back(last_id_);
      for (std::uint64_t i = 0; i < size; ++i) {
        skip_element(static_cast<Type>(types >> 4));
        skip_element(static_cast<Type>(types & 0x0F));
      }
      last_id_ = outer_ids_.back();
      outer_ids_.pop_back();
      return;
    }
    case Type::kStruct: {
      begin_struct();
      Field field;
      while (next_field(&field)) skip(field.type);
      return;
    }
    case Type::kStop:
      break;
  }
  throw DecodeError("cannot skip a value of type " + std::to_string(static_cast<int>(type)));
}

}  // namespace dlbench::formats::thrift
