#include "formats/parquet/parquet_schema.h"

#include "formats/parquet/thrift_compact.h"
#include "util/error.h"

namespace dlbench::formats::parquet {
namespace {

[[noreturn]] void Differs(const Column& c, const std::string& why) {
  throw thrift::DecodeError("schema: column '" + c.name + "' " + why +
                            " (dataset.parquet.columns, dataset.record_element_type)");
}

bool IsLeaf(const SchemaElement& e) { return e.type.has_value() && !e.num_children; }

// Required or optional (adds a definition level); repeated is the caller's business.
int OptionalLevels(const Column& c, const SchemaElement& e, const char* what) {
  const std::int32_t repetition = e.repetition.value_or(-1);
  if (repetition == kRequired) return 0;
  if (repetition == kOptional) return 1;
  Differs(c, std::string(what) + " '" + FileText(e.name) + "' has repetition " +
                 std::to_string(repetition) + " (required or optional expected)");
}

std::string Annotation(const SchemaElement& e) {
  switch (e.logical.kind) {
    case LogicalType::kInteger:
      return std::string("INT(") + std::to_string(e.logical.bit_width) + ", " +
             (e.logical.is_signed ? "signed" : "unsigned") + ")";
    case LogicalType::kFloat16:
      return "FLOAT16";
    case LogicalType::kList:
      return "LIST";
    case LogicalType::kOther:
      return "another logical type";
    case LogicalType::kNone:
      break;
  }
  if (e.converted_type) return "converted type " + std::to_string(*e.converted_type);
  return "no annotation";
}

// The leaf's type and annotation against the dtype's: the logical type when the file has one,
// else the converted type, else none at all. int32 and int64, which dlbench leaves unannotated,
// may carry their signed INT(32 / 64) annotation.
void MatchLeaf(const Column& c, const SchemaElement& leaf) {
  SchemaElement want = c.schema().back();
  const bool natural_int = want.logical.kind == LogicalType::kNone && !want.converted_type &&
                           (want.type == kInt32 || want.type == kInt64);
  if (natural_int && (leaf.logical.kind != LogicalType::kNone || leaf.converted_type)) {
    want.logical = {LogicalType::kInteger, static_cast<std::int8_t>(want.type == kInt32 ? 32 : 64),
                    true};
    want.converted_type = want.type == kInt32 ? kConvertedInt32 : kConvertedInt64;
  }
  bool same = leaf.type == want.type;
  if (want.type == kFixedLenByteArray) same = same && leaf.type_length == want.type_length;
  if (leaf.logical.kind != LogicalType::kNone) {
    same = same && leaf.logical == want.logical;
  } else if (leaf.converted_type) {
    same = same && leaf.converted_type == want.converted_type;
  } else {
    same = same && want.logical.kind == LogicalType::kNone && !want.converted_type;
  }
  if (!same) {
    Differs(c, "holds physical type " + std::to_string(leaf.type.value_or(-1)) + " with " +
                   Annotation(leaf) + ", expected " + std::to_string(*want.type) + " with " +
                   Annotation(want) + " for dtype " + c.dtype);
  }
}

FileColumn MatchColumn(const std::vector<SchemaElement>& schema, std::size_t* pos,
                       const Column& c) {
  if (*pos >= schema.size()) Differs(c, "is missing");
  const SchemaElement& top = schema[(*pos)++];
  if (top.name != c.name)
    Differs(c, "is not there: the file has '" + FileText(top.name) + "' in its place");
  FileColumn f;
  if (IsLeaf(top)) {
    f.max_definition = OptionalLevels(c, top, "the column");
    if (c.size != 1) {
      Differs(c, "holds one value per row, the configuration " + std::to_string(c.size));
    }
    MatchLeaf(c, top);
    f.path = {top.name};
    return f;
  }
  const bool list =
      top.logical.kind == LogicalType::kList ||
      (top.logical.kind == LogicalType::kNone && top.converted_type == kConvertedList);
  if (!list || top.num_children != 1 || top.type) {
    Differs(c, "is a group of " + std::to_string(top.num_children.value_or(0)) + " children with " +
                   Annotation(top) + ", not a LIST of one element");
  }
  f.max_definition = OptionalLevels(c, top, "the list");
  if (*pos + 2 > schema.size()) Differs(c, "is a LIST without its element");
  const SchemaElement& middle = schema[(*pos)++];
  const SchemaElement& leaf = schema[(*pos)++];
  if (middle.repetition != kRepeated || middle.num_children != 1 || middle.type) {
    Differs(c, "is a LIST whose '" + FileText(middle.name) +
                   "' is not a repeated group of one element");
  }
  if (!IsLeaf(leaf)) Differs(c, "is a LIST of groups, not of values");
  f.max_repetition = 1;
  f.max_definition += 1 + OptionalLevels(c, leaf, "the list's element");
  MatchLeaf(c, leaf);
  f.path = {top.name, middle.name, leaf.name};
  return f;
}

}  // namespace

std::vector<FileColumn> MatchSchema(const std::vector<SchemaElement>& schema,
                                    const Layout& layout) {
  if (schema.empty() ||
      schema[0].num_children != static_cast<std::int32_t>(layout.columns.size())) {
    throw thrift::DecodeError(
        "schema: the file has " +
        std::to_string(schema.empty() ? 0 : schema[0].num_children.value_or(0)) +
        " columns, the configuration " + std::to_string(layout.columns.size()) +
        " (dataset.parquet.columns)");
  }
  std::vector<FileColumn> columns;
  std::size_t pos = 1;
  for (const Column& c : layout.columns) columns.push_back(MatchColumn(schema, &pos, c));
  if (pos != schema.size()) {
    throw thrift::DecodeError("schema: " + std::to_string(schema.size() - pos) +
                              " elements after the last column");
  }
  return columns;
}

}  // namespace dlbench::formats::parquet
