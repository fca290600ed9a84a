//===- RecordTypes.cpp - Records' layouts, and the built-in ones ----------===//
#include "RecordTypes.h"

#include <algorithm>

namespace pyk {

int RecordType::fieldIndex(std::string_view fieldName) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == fieldName)
      return static_cast<int>(i);
  return -1;
}

std::string RecordType::fieldList() const {
  std::string text;
  for (size_t i = 0; i < fields.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == fields.size() ? " and " : ", ") + "'" + fields[i].name + "'";
  return text;
}

bool RecordType::hasCLayout() const {
  std::vector<RecordField> natural = fields;
  if (layOutRecordFields(natural, /*align=*/true) != size)
    return false;
  for (size_t i = 0; i < fields.size(); ++i)
    if (natural[i].offset != fields[i].offset)
      return false;
  return true;
}

unsigned RecordType::fieldAlignment(size_t field) const {
  return hasCLayout() ? byteWidth(fields[field].kind) : 1;
}

unsigned RecordType::alignment() const {
  unsigned widest = 1;
  for (const RecordField &field : fields)
    widest = std::max(widest, byteWidth(field.kind));
  return hasCLayout() ? widest : 1;
}

std::string RecordType::describe() const {
  std::string text = "[";
  for (size_t i = 0; i < fields.size(); ++i) {
    const ScalarKind kind = fields[i].kind;
    const char code = kind == ScalarKind::Bool ? 'b' : isFloat(kind) ? 'f' : isUnsignedInteger(kind) ? 'u' : 'i';
    // NumPy writes one-byte types without a byte order ('|').
    text += std::string(i ? ", " : "") + "('" + fields[i].name + "', '" + (byteWidth(kind) == 1 ? "|" : "<") + code +
            std::to_string(byteWidth(kind)) + "')";
  }
  return text + "], " + std::to_string(size) + " bytes";
}

uint32_t layOutRecordFields(std::vector<RecordField> &fields, bool align) {
  uint32_t offset = 0;
  uint32_t widest = 1;
  for (RecordField &field : fields) {
    const uint32_t width = byteWidth(field.kind);
    if (align)
      offset = (offset + width - 1) / width * width;
    field.offset = offset;
    offset += width;
    widest = std::max(widest, width);
  }
  return align ? (offset + widest - 1) / widest * widest : offset;
}

const RecordType &xoroshiro128pRecord() {
  static const RecordType record{"xoroshiro128p_type",
                                 "pyk::random::xoroshiro128p_state",
                                 {{"s0", ScalarKind::UInt64, 0}, {"s1", ScalarKind::UInt64, 8}},
                                 16};
  return record;
}

const RecordType *builtinRecordTypeNamed(std::string_view name) {
  // numba.cuda.random names the type xoroshiro128p_type and its NumPy
  // dtype xoroshiro128p_dtype; a signature may use either.
  if (name == "xoroshiro128p_type" || name == "xoroshiro128p_dtype")
    return &xoroshiro128pRecord();
  return nullptr;
}

} // namespace pyk
