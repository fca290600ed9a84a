//===- Types.h - The types of pyk values and NumPy 2 promotion ------------===//
//
// Every expression gets exactly one of these types from Sema; later stages
// read it and never re-derive it. Types are interned in a TypeContext, so two
// types are equal exactly when their pointers are.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_TYPES_H
#define PYK_FRONTEND_TYPES_H

#include "RecordTypes.h"
#include "ScalarTypes.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace pyk {

class Type {
public:
  /// RecordArray: a 1-D array of records (a structured dtype, such as
  /// `xoroshiro128p_type[:]`); Record: one element of one, which only has
  /// its fields read or written (`states[i]['s0']`, `states[i].s0`). Both
  /// are neither arrays nor scalars, so what does not know them rejects them.
  /// GridGroup: what `cuda.cg.this_grid()` gives, which has one use, its
  /// sync() method; it has no value to store or pass.
  enum class Kind : uint8_t { Error, Void, Scalar, Array, Tuple, RecordArray, Record, GridGroup };

  Kind kind() const { return kind_; }
  bool isError() const { return kind_ == Kind::Error; }
  bool isVoid() const { return kind_ == Kind::Void; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isTuple() const { return kind_ == Kind::Tuple; }
  bool isRecordArray() const { return kind_ == Kind::RecordArray; }
  bool isRecord() const { return kind_ == Kind::Record; }
  bool isGridGroup() const { return kind_ == Kind::GridGroup; }
  /// RecordArray and Record: the record type.
  const RecordType *record() const { return record_; }
  /// For scalars the scalar kind, for arrays the element kind.
  ScalarKind scalarKind() const { return scalar_; }
  bool isScalarOf(ScalarKind kind) const { return isScalar() && scalar_ == kind; }
  /// Rank of an array type (1-4); 1 for an array of records.
  unsigned rank() const { return rank_; }
  /// Arrays: the elements are in C order with no gaps (kernel parameters,
  /// shared and local arrays, rows and leading ranges of them). A strided
  /// array is a view with a step between elements (`a[:, j]`,
  /// `a[::2]`): Numba's layout 'A', which carries one stride per axis.
  bool isContiguous() const { return contiguous_; }
  const std::vector<const Type *> &elements() const { return elements_; }

  /// How the user writes this type: "float32", "float32[:]", "(int64, int64)".
  std::string str() const;
  /// Tuples: whether an element is itself a tuple (`((0, 1), (1, 2))`).
  bool isNestedTuple() const;

private:
  friend class TypeContext;
  Type(Kind kind, ScalarKind scalar, unsigned rank, std::vector<const Type *> elements, bool contiguous = true,
       const RecordType *record = nullptr)
      : kind_(kind), scalar_(scalar), rank_(rank), contiguous_(contiguous), elements_(std::move(elements)),
        record_(record) {}

  Kind kind_;
  ScalarKind scalar_;
  unsigned rank_;
  bool contiguous_;
  std::vector<const Type *> elements_;
  const RecordType *record_;
};

/// The scalars of `type` in order, nested tuples flattened: a tuple value
/// is one scalar per leaf after lowering. A scalar is its own leaf.
std::vector<const Type *> tupleLeaves(const Type &type);
/// Where element `position` of tuple type `tuple` starts among its leaves.
size_t tupleLeafOffset(const Type &tuple, size_t position);

/// Owns and interns all types of one compilation.
class TypeContext {
public:
  TypeContext();
  TypeContext(const TypeContext &) = delete;
  TypeContext &operator=(const TypeContext &) = delete;

  /// The type of an expression that already produced an error; it
  /// silences follow-on errors.
  const Type *errorType() const { return error_; }
  const Type *voidType() const { return void_; }
  const Type *gridGroupType() const { return gridGroup_; }
  const Type *scalar(ScalarKind kind) const { return scalars_[static_cast<size_t>(kind)]; }
  const Type *boolType() const { return scalar(ScalarKind::Bool); }
  const Type *int32Type() const { return scalar(ScalarKind::Int32); }
  const Type *int64Type() const { return scalar(ScalarKind::Int64); }
  const Type *float64Type() const { return scalar(ScalarKind::Float64); }
  const Type *array(ScalarKind element, unsigned rank, bool contiguous = true);
  const Type *tuple(const std::vector<const Type *> &elements);
  /// `xoroshiro128p_type[:]`, and one element of it.
  const Type *recordArray(const RecordType &record);
  const Type *record(const RecordType &record);

private:
  const Type *recordType(const RecordType &record, bool array);

  std::vector<std::unique_ptr<Type>> owned_;
  const Type *error_;
  const Type *void_;
  const Type *gridGroup_;
  std::vector<const Type *> scalars_;
  std::map<std::tuple<ScalarKind, unsigned, bool>, const Type *> arrays_;
  std::map<std::vector<const Type *>, const Type *> tuples_;
  std::map<std::pair<const RecordType *, bool>, const Type *> records_;
};

//===----------------------------------------------------------------------===//
// NumPy 2 (NEP 50) promotion
//===----------------------------------------------------------------------===//

/// The kind of a Python scalar (a literal or a module constant) that takes
/// part in an operation. Such "weak" operands adopt the other operand's type
/// where NEP 50 says so.
enum class WeakKind : uint8_t { Bool, Int, Float, Complex };

/// An operand of a promoting operation: a typed scalar, or a weak Python
/// scalar.
struct PromotionOperand {
  ScalarKind kind;
  bool weak = false;

  static PromotionOperand typed(ScalarKind k) { return {k, false}; }
  /// The weak operand's Python kind. Weak operands carry the default NumPy
  /// type of their Python kind (bool, int64, float64) as `kind`.
  WeakKind weakKind() const;
};

/// The common type of two typed scalars: numpy.result_type(a, b).
/// uint64 with a signed integer gives float64, as in NumPy.
ScalarKind promoteTyped(ScalarKind a, ScalarKind b);

/// The common type of two operands under NEP 50. The result is weak only
/// when both operands are weak (then Python's own rules apply).
PromotionOperand promote(PromotionOperand a, PromotionOperand b);

/// The type of an arithmetic result whose operands promoted to `promoted`:
/// bool becomes int64, as in Python and Numba (True + True == 2).
PromotionOperand arithmeticResult(PromotionOperand promoted);

} // namespace pyk

#endif // PYK_FRONTEND_TYPES_H
