//===- RecordTypes.h - Structured dtypes: records of named scalar fields --===//
//
// A record is one element of an array with a NumPy structured dtype:
// numba.cuda.random's xoroshiro128p_dtype (`[('s0', u8), ('s1', u8)]`), or
// one a file defines, `Point = np.dtype([('x', np.float32), ...])`. Kernels
// read and write its fields (`a[i].x`, `a[i]['x']`); C++ passes an array of
// a struct with the same layout. Every stage reads a record's layout from
// here: its fields' offsets and its size are NumPy's.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_RECORDTYPES_H
#define PYK_BASIC_RECORDTYPES_H

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
  /// As kernels and signatures name it: `xoroshiro128p_type`, `Point`.
  std::string name;
  /// The built-in records' C++ struct, which the runtime's headers define
  /// (pyk::random::xoroshiro128p_state); empty for a file's own records,
  /// whose struct the launch header defines (pyk::records::NAME).
  std::string cxxType;
  std::vector<RecordField> fields;
  uint32_t size;

  /// Index of the field `name` in `fields`, or -1.
  int fieldIndex(std::string_view fieldName) const;
  /// "'s0' and 's1'", for messages.
  std::string fieldList() const;
  /// Whether a C struct of the fields in order has NumPy's layout: each
  /// field at the next multiple of its width, the size a multiple of the
  /// widest field's. NumPy's aligned dtypes (`align=True`) always do, and
  /// so does a packed one whose fields happen to fall there (`f4, f4, i4`).
  /// Otherwise the C++ struct is packed, and its fields are read byte by
  /// byte where they may be misaligned.
  bool hasCLayout() const;
  /// The alignment an access of field `field` may assume, in bytes: its
  /// width in a record with C's layout (arrays of it are allocated aligned
  /// to its widest field), else 1.
  unsigned fieldAlignment(size_t field) const;
  /// The alignment of an array of records: its widest field's with C's
  /// layout, else 1.
  unsigned alignment() const;
  /// NumPy's spelling of the dtype, for comments in generated code:
  /// "[('x', '<f4'), ('y', '<f4')], 8 bytes".
  std::string describe() const;
};

/// numba.cuda.random's generator state: `xoroshiro128p_type`, NumPy's
/// `xoroshiro128p_dtype`, C++'s pyk::random::xoroshiro128p_state.
const RecordType &xoroshiro128pRecord();

/// The built-in record type a signature or annotation names, or null.
const RecordType *builtinRecordTypeNamed(std::string_view name);

/// NumPy's layout of `fields` (their offsets are written): packed, or, with
/// `align`, each field at a multiple of its width and the size a multiple
/// of the widest's. Returns the record's size.
uint32_t layOutRecordFields(std::vector<RecordField> &fields, bool align);

} // namespace pyk

#endif // PYK_BASIC_RECORDTYPES_H
