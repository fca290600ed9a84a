//===- RecordTypes.h - Structured dtypes: records of named scalar fields --===//
//
// A record is one element of an array with a NumPy structured dtype, such
// as numba.cuda.random's xoroshiro128p_dtype (`[('s0', u8), ('s1', u8)]`,
// aligned). Kernels read and write its fields (`states[i]['s0']`,
// `states[i].s0`); C++ passes an array of a struct with the same layout.
// The records pyk knows are built in; each is described once, here.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_RECORDTYPES_H
#define PYK_FRONTEND_RECORDTYPES_H

#include "ScalarTypes.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pyk {

struct RecordField {
  std::string name;
  ScalarKind kind;
  /// Bytes from the start of the record, as NumPy lays out the dtype.
  uint32_t offset;
};

struct RecordType {
  /// As kernels and signatures name it: `xoroshiro128p_type`.
  std::string name;
  /// The C++ struct a launch function takes for it, with the same layout
  /// (the runtime's header static_asserts it).
  std::string cxxType;
  std::vector<RecordField> fields;
  uint32_t size;

  /// Index of the field `name` in `fields`, or -1.
  int fieldIndex(std::string_view fieldName) const;
  /// "'s0' and 's1'", for messages.
  std::string fieldList() const;
  /// Whether every field has the first one's scalar type and the fields
  /// follow each other without gaps: then an array of n records is, in
  /// memory, an n x fields array of that scalar type.
  bool isUniform() const;
};

/// numba.cuda.random's generator state: `xoroshiro128p_type`, NumPy's
/// `xoroshiro128p_dtype`, C++'s pyk::random::xoroshiro128p_state.
const RecordType &xoroshiro128pRecord();

/// The built-in record type a signature or annotation names, or null.
const RecordType *recordTypeNamed(std::string_view name);

} // namespace pyk

#endif // PYK_FRONTEND_RECORDTYPES_H
