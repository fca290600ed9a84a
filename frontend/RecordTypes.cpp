//===- RecordTypes.cpp - The built-in structured dtypes --------------------===//
#include "RecordTypes.h"

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

bool RecordType::isUniform() const {
  const uint32_t width = byteWidth(fields.front().kind);
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].kind != fields.front().kind || fields[i].offset != i * width)
      return false;
  return size == fields.size() * width;
}

const RecordType &xoroshiro128pRecord() {
  static const RecordType record{"xoroshiro128p_type",
                                 "pyk::random::xoroshiro128p_state",
                                 {{"s0", ScalarKind::UInt64, 0}, {"s1", ScalarKind::UInt64, 8}},
                                 16};
  return record;
}

const RecordType *recordTypeNamed(std::string_view name) {
  // numba.cuda.random names the type xoroshiro128p_type and its NumPy
  // dtype xoroshiro128p_dtype; a signature may use either.
  if (name == "xoroshiro128p_type" || name == "xoroshiro128p_dtype")
    return &xoroshiro128pRecord();
  return nullptr;
}

} // namespace pyk
