//===- IRExpressions.h - pyk IR: types, variables and expressions ------===//
//
// The IR's values: types, a function's variables, the node base classes,
// and every expression. Statements are in IRStatements.h, functions and
// the module in IR.h, which is what passes and backends include.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IREXPRESSIONS_H
#define PYK_IR_IREXPRESSIONS_H

#include "LibdeviceFunctions.h"
#include "RecordTypes.h"
#include "SourceFile.h"
#include "ScalarTypes.h"

#include "llvm/Support/Casting.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pyk::ir {

/// A value type: void, a scalar, or an array (data pointer plus extents,
/// and for a strided array one stride per axis). An array of records is a
/// 1-D contiguous array whose elements are records; its loads and stores
/// name a field (ArrayLoad::field), which has the field's scalar type.
struct Type {
  enum class Kind : uint8_t { Void, Scalar, Array };
  Kind kind = Kind::Void;
  ScalarKind scalar = ScalarKind::Bool;
  unsigned rank = 0;
  /// Arrays: element (i, j, k) is at offset (i * n1 + j) * n2 + k from the
  /// data pointer (C order); a strided array's is i * s0 + j * s1 + k * s2,
  /// its strides counted in elements.
  bool contiguous = true;
  /// Arrays of records: the record (`scalar` is then meaningless).
  const RecordType *record = nullptr;

  static Type voidType() { return {}; }
  static Type scalarType(ScalarKind k) { return {Kind::Scalar, k, 0}; }
  static Type arrayType(ScalarKind element, unsigned rank, bool contiguous = true) {
    return {Kind::Array, element, rank, contiguous};
  }
  static Type recordArrayType(const RecordType &record) { return {Kind::Array, ScalarKind::UInt8, 1, true, &record}; }
  bool isVoid() const { return kind == Kind::Void; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isArray() const { return kind == Kind::Array; }
  bool isBool() const { return isScalar() && scalar == ScalarKind::Bool; }
  bool isScalarOf(ScalarKind k) const { return isScalar() && scalar == k; }
  bool isRecordArray() const { return record != nullptr; }
  friend bool operator==(const Type &, const Type &) = default;
  /// "f32", "i64", "bool", "f32[1d]".
  std::string str() const;
};

/// A parameter or local variable of a function.
class Variable {
public:
  enum class Kind { Param, Local };
  /// Where an array's elements live: a parameter's in global memory; an
  /// array local (cuda.shared.array, cuda.local.array) is the block's or
  /// the thread's, with a constant shape. A device function's shared array
  /// is one per block for every call of the function (CUDA's static
  /// __shared__): its values outlive the call.
  /// DynamicShared: cuda.shared.array(0, T), the launch's dynamic shared
  /// memory (every such array of a kernel starts at the same address, as
  /// in CUDA and Numba), one extent of shared bytes / sizeof(T).
  /// Constant: a NumPy array constant of the module, computed by pykc,
  /// read-only, one copy in the program's constant memory.
  /// View: a local that names (part of) another array, in any memory: its
  /// data pointer, extents and strides are values that Declare and Assign
  /// give it from an ArrayView.
  enum class Memory { Global, Shared, Local, DynamicShared, Constant, View };
  Variable(Kind kind, std::string name, Type type, SourceRange range)
      : kind(kind), name(std::move(name)), type(type), range(range) {}

  Kind kind;
  std::string name;
  Type type;
  SourceRange range;
  /// Arrays only: the function never stores to it (see markReadOnlyArrays).
  bool readOnly = false;
  /// Made by the compiler (a loop counter, a value evaluated once), not
  /// written by the user: its name starts with pyk_ and is already unique.
  bool hidden = false;
  /// Parameters holding one element of a tuple parameter (one IR parameter
  /// per element): the .pyk parameter's name, which a kernel's launch
  /// function takes whole, as a std::tuple.
  std::string tupleParam;
  /// Arrays: where the elements live, and for array locals the shape.
  Memory memory = Memory::Global;
  std::vector<int64_t> fixedShape;
  bool isView() const { return memory == Memory::View; }
  /// cuda.shared.array, cuda.local.array, a constant array: storage for
  /// the whole function, with a shape known to the compiler (but dynamic
  /// shared memory's).
  bool isArrayLocal() const {
    return memory == Memory::Shared || memory == Memory::Local || memory == Memory::DynamicShared ||
           memory == Memory::Constant;
  }
  /// Constant arrays: the elements, row-major, as their bits in memory
  /// (float32 or float64 bits, integers in two's complement, bool 0 or 1),
  /// and the name of the program's one copy (variables of several
  /// functions share it).
  std::vector<uint64_t> constantBits;
  std::string constantName;
  /// Bytes of one element times every extent (array locals).
  int64_t fixedBytes() const {
    int64_t bytes = byteWidth(type.scalar);
    for (int64_t extent : fixedShape)
      bytes *= extent;
    return bytes;
  }
};

enum class NodeKind {
#define PYK_IR_EXPR(Name) Name,
#define PYK_IR_STMT(Name) Name,
#include "IRNodes.def"
};
const char *nodeKindName(NodeKind kind);

class Node {
public:
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;
  NodeKind kind() const { return kind_; }
  /// The .pyk source the node came from.
  SourceRange loc() const { return loc_; }

protected:
  Node(NodeKind kind, SourceRange loc) : kind_(kind), loc_(loc) {}

private:
  NodeKind kind_;
  SourceRange loc_;
};

class Expr : public Node {
public:
  static bool classof(const Node *node) { return node->kind() < NodeKind::Declare; }
  const Type &type() const { return type_; }

protected:
  Expr(NodeKind kind, SourceRange loc, Type type) : Node(kind, loc), type_(type) {}

private:
  Type type_;
};

class Stmt : public Node {
public:
  static bool classof(const Node *node) { return node->kind() >= NodeKind::Declare; }

protected:
  using Node::Node;
};

using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// Checked mode: which entry of Module::checkSites a check reports, or
/// NoCheck where no check is made (unchecked code, or a check the guard
/// analysis proved unnecessary).
using CheckSiteId = uint32_t;
inline constexpr CheckSiteId NoCheck = ~CheckSiteId{0};

#define PYK_IR_CLASSOF(Name)                                                                                       \
  static bool classof(const Node *node) { return node->kind() == NodeKind::Name; }

class Constant : public Expr {
public:
  /// Integers and bools use `intValue` (bit pattern, sign-extended), floats
  /// `floatValue`.
  Constant(SourceRange loc, Type type, int64_t intValue, double floatValue)
      : Expr(NodeKind::Constant, loc, type), intValue(intValue), floatValue(floatValue) {}
  PYK_IR_CLASSOF(Constant)
  int64_t intValue;
  double floatValue;
};

class VarRef : public Expr {
public:
  VarRef(SourceRange loc, const Variable *var) : Expr(NodeKind::VarRef, loc, var->type), var(var) {}
  PYK_IR_CLASSOF(VarRef)
  const Variable *var;
};

/// A numeric conversion. Integer to integer wraps to the target width, as
/// C's casts do. Float to integer truncates toward zero and is defined for
/// every value: one past the target's range gives its nearest end, NaN gives
/// 0 (PTX's cvt.rzi, LLVM's fptosi.sat), on every device.
class Cast : public Expr {
public:
  Cast(SourceRange loc, Type to, ExprPtr operand) : Expr(NodeKind::Cast, loc, to), operand(std::move(operand)) {}
  PYK_IR_CLASSOF(Cast)
  ExprPtr operand;
};

/// Not is logical (bools); BitNot flips an integer's bits; Abs of the most
/// negative integer wraps to itself, as in NumPy.
/// Round: to the nearest integer value, halves to even (a float result;
/// lowering casts it to int64 for Python's round()).
/// Popc, Clz, Ffs: CUDA's bit counts, in the operand's type (32 or 64
/// bits); Brev reverses the bits.
/// Conj: a complex value's conjugate. On complex values Neg, Abs (whose
/// result is the parts' float type) and Conj are Python's operations:
/// lowerComplex rewrites them, and no backend sees them.
enum class UnaryOp { Neg, Not, BitNot, Abs, Round, Popc, Brev, Clz, Ffs, Conj };
const char *unaryOpName(UnaryOp op);

class Unary : public Expr {
public:
  Unary(SourceRange loc, UnaryOp op, ExprPtr operand)
      : Expr(NodeKind::Unary, loc, operand->type()), op(op), operand(std::move(operand)) {}
  /// abs(z) of a complex z, whose type is its parts'.
  Unary(SourceRange loc, UnaryOp op, ExprPtr operand, Type type)
      : Expr(NodeKind::Unary, loc, type), op(op), operand(std::move(operand)) {}
  PYK_IR_CLASSOF(Unary)
  UnaryOp op;
  ExprPtr operand;
  /// Neg and Abs of a signed integer that may be its type's minimum: the
  /// result wraps to the minimum (markOverflowingArithmetic).
  bool mayOverflow = false;
};

/// Arithmetic on two operands of the result's type, with Python's meaning
/// where it differs from C's:
///   Div       IEEE division; floats only.
///   FloorDiv  rounds toward minus infinity; an integer division by zero
///             yields 0.
///   Mod       takes the divisor's sign; an integer modulo by zero yields 0.
///   Pow       integer powers by repeated squaring (wrapping); floats pow().
///   And/Or/Xor  bitwise, on integers or bools.
///   Shl/Shr   shifts; a count outside [0, bits) gives 0 (or -1 for Shr of
///             a negative value), as in NumPy, not C's undefined behaviour.
///   Min/Max   Python's min(a, b) / max(a, b): b if b < a (b > a) else a.
/// FloorDiv, Mod, Pow, Shl, Shr, Min and Max are Python's: lowerPythonOps
/// rewrites them (PythonOpFunctions.h), and no backend sees them. What it
/// writes them with are C's operators, each defined only where C defines
/// it, which the lowering ensures:
///   CDiv/CRem integers: C's / and %, truncating; the divisor is never 0,
///             nor -1 with a signed type's minimum.
///   CShl/CShr integers: C's << and >> (arithmetic for a signed type); the
///             count is in [0, bits), and CShl's operands are unsigned.
enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, And, Or, Xor, Shl, Shr, Min, Max, CDiv, CRem, CShl, CShr };
const char *binaryOpName(BinaryOp op);
/// FloorDiv, Mod, Pow, Shl, Shr, Min and Max: the operations lowerPythonOps
/// rewrites, which no backend sees.
bool isPythonOperation(BinaryOp op);

class Binary : public Expr {
public:
  Binary(SourceRange loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(NodeKind::Binary, loc, lhs->type()), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  PYK_IR_CLASSOF(Binary)
  BinaryOp op;
  ExprPtr lhs;
  ExprPtr rhs;
  /// Integer FloorDiv and Mod in checked mode: a zero divisor is reported
  /// and the result is 0 (lowered to a DivisorCheck of the divisor).
  CheckSiteId divisorCheck = NoCheck;
  /// Add, Sub and Mul whose exact result may not fit the operands' type
  /// (after C's promotion to int for narrower ones): it wraps, which C++
  /// leaves undefined for signed arithmetic (markOverflowingArithmetic).
  bool mayOverflow = false;
};

/// Checked mode: reports check `site` when `divisor` is 0; its value is the
/// divisor's (what Python's // and % then make of it is theirs). Made by
/// lowerPythonOps; insertChecks spells it with a CheckFailed.
class DivisorCheck : public Expr {
public:
  DivisorCheck(SourceRange loc, ExprPtr divisor, CheckSiteId site)
      : Expr(NodeKind::DivisorCheck, loc, divisor->type()), divisor(std::move(divisor)), site(site) {}
  PYK_IR_CLASSOF(DivisorCheck)
  ExprPtr divisor;
  CheckSiteId site;
};

enum class CompareOp { Lt, Le, Gt, Ge, Eq, Ne };
const char *compareOpName(CompareOp op);

class Compare : public Expr {
public:
  Compare(SourceRange loc, CompareOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(NodeKind::Compare, loc, Type::scalarType(ScalarKind::Bool)), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  PYK_IR_CLASSOF(Compare)
  CompareOp op;
  ExprPtr lhs;
  ExprPtr rhs;
};

enum class LogicalOp { And, Or };

class Logical : public Expr {
public:
  Logical(SourceRange loc, LogicalOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(NodeKind::Logical, loc, Type::scalarType(ScalarKind::Bool)), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  PYK_IR_CLASSOF(Logical)
  LogicalOp op;
  ExprPtr lhs;
  ExprPtr rhs;
};

class Select : public Expr {
public:
  Select(SourceRange loc, ExprPtr condition, ExprPtr thenValue, ExprPtr elseValue)
      : Expr(NodeKind::Select, loc, thenValue->type()), condition(std::move(condition)),
        thenValue(std::move(thenValue)), elseValue(std::move(elseValue)) {}
  PYK_IR_CLASSOF(Select)
  ExprPtr condition;
  ExprPtr thenValue;
  ExprPtr elseValue;
};

/// LaneId: the thread's index in its warp of 32 (axis 0 only).
enum class SpecialRegKind { ThreadIdx, BlockIdx, BlockDim, GridDim, LaneId };
const char *specialRegName(SpecialRegKind reg);

class SpecialReg : public Expr {
public:
  SpecialReg(SourceRange loc, SpecialRegKind reg, unsigned axis)
      : Expr(NodeKind::SpecialReg, loc, Type::scalarType(ScalarKind::Int32)), reg(reg), axis(axis) {}
  PYK_IR_CLASSOF(SpecialReg)
  SpecialRegKind reg;
  unsigned axis; // 0 = x, 1 = y, 2 = z
};

class ArrayDim : public Expr {
public:
  ArrayDim(SourceRange loc, const Variable *array, unsigned axis)
      : Expr(NodeKind::ArrayDim, loc, Type::scalarType(ScalarKind::Int64)), array(array), axis(axis) {}
  PYK_IR_CLASSOF(ArrayDim)
  const Variable *array;
  unsigned axis;
};

/// The scalar type of an element of `array`, or of field `field` of one
/// (arrays of records).
Type elementType(const Type &array, int field);

class ArrayLoad : public Expr {
public:
  ArrayLoad(SourceRange loc, const Variable *array, std::vector<ExprPtr> indices, int field = -1)
      : Expr(NodeKind::ArrayLoad, loc, elementType(array->type, field)), array(array), indices(std::move(indices)),
        field(field) {}
  PYK_IR_CLASSOF(ArrayLoad)
  const Variable *array;
  std::vector<ExprPtr> indices;
  /// Arrays of records: the index of the field read (RecordType::fields);
  /// -1 for other arrays.
  int field;
  /// Checked mode, planChecks' decision: one site per axis (NoCheck where
  /// the index is proven in bounds); empty when unchecked. insertChecks
  /// writes the checks out as IR (a failed one yields 0, the load skipped)
  /// and empties this.
  std::vector<CheckSiteId> boundsChecks;
  /// pykc --index-bits=32: the element offset is computed in 32 bits
  /// (markNarrowOffsets decides where).
  bool narrowOffset = false;
};

/// The stride of `axis` of a strided array, in elements (int64).
class ArrayStride : public Expr {
public:
  ArrayStride(SourceRange loc, const Variable *array, unsigned axis)
      : Expr(NodeKind::ArrayStride, loc, Type::scalarType(ScalarKind::Int64)), array(array), axis(axis) {}
  PYK_IR_CLASSOF(ArrayStride)
  const Variable *array;
  unsigned axis;
};

/// An array that shares the elements of `base`: its data starts `offset`
/// elements after base's, and it has the given extents and (when its type
/// is strided) strides, all int64. Only the value of a Declare or Assign
/// of a View variable: lowering has already applied Python's rules for
/// negative indices and slices, so the backends only compute the pointer.
class ArrayView : public Expr {
public:
  ArrayView(SourceRange loc, Type type, const Variable *base, ExprPtr offset, std::vector<ExprPtr> extents,
            std::vector<ExprPtr> strides)
      : Expr(NodeKind::ArrayView, loc, type), base(base), offset(std::move(offset)), extents(std::move(extents)),
        strides(std::move(strides)) {}
  PYK_IR_CLASSOF(ArrayView)
  const Variable *base;
  ExprPtr offset;
  std::vector<ExprPtr> extents;
  std::vector<ExprPtr> strides; // empty for a contiguous view
};

/// Python's negative index: `index < 0 ? index + extent : index`, the
/// index evaluated once (int64, as are `extent` and the result). Made by
/// WrapNegativeIndices where the index may be negative; an index that
/// stays outside [-extent, extent) is as undefined as any out of bounds.
class WrapIndex : public Expr {
public:
  WrapIndex(SourceRange loc, ExprPtr index, ExprPtr extent)
      : Expr(NodeKind::WrapIndex, loc, index->type()), index(std::move(index)), extent(std::move(extent)) {}
  PYK_IR_CLASSOF(WrapIndex)
  ExprPtr index;
  ExprPtr extent;
  /// The guard analysis showed the index is at least 0 (WrapNegativeIndices):
  /// it is the index itself, and lowerPythonOps drops the wrap.
  bool nonNegative = false;
};

/// sqrt(x), atan2(y, x), ...: the C library's function `name` (its double
/// version's name; backends add the `f` of the float32 one), on arguments of
/// the call's own float type, but for ldexp's exponent, an int32.
class MathCall : public Expr {
public:
  MathCall(SourceRange loc, Type type, std::string name, std::vector<ExprPtr> args)
      : Expr(NodeKind::MathCall, loc, type), name(std::move(name)), args(std::move(args)) {}
  PYK_IR_CLASSOF(MathCall)
  std::string name;
  std::vector<ExprPtr> args;
};

/// libdevice.NAME(...): libdevice's function __nv_NAME (basic/LibdeviceFunctions.h)
/// on arguments of its parameters' kernel types. `output` says which of its
/// values this is: -1 what it returns, k the value its k-th pointer
/// parameter points to; a function with several values is called once per
/// value (they are pure). On a GPU it is libdevice's own function, on the
/// CPU device the runtime's of the same name.
class LibdeviceCall : public Expr {
public:
  LibdeviceCall(SourceRange loc, Type type, const LibdeviceFunction *function, std::vector<ExprPtr> args,
                int output)
      : Expr(NodeKind::LibdeviceCall, loc, type), function(function), args(std::move(args)), output(output) {}
  PYK_IR_CLASSOF(LibdeviceCall)
  const LibdeviceFunction *function;
  std::vector<ExprPtr> args;
  int output;
};

/// A CUDA C++ device function that the .pyk file declares and that a linked
/// file defines (cuda.declare_device), with Numba's ABI: `extern "C"
/// __device__ int NAME(result *, params...)`, which stores its value through
/// the pointer. Its code is the user's: like a Call, it may have effects,
/// so lowering never duplicates one.
struct ForeignFunction {
  std::string name; ///< the C symbol
  Type result;
  std::vector<Type> params;
  SourceRange loc; ///< the declaration
};

/// function(args): each argument has its parameter's type exactly; the
/// call has the function's result type.
class ForeignCall : public Expr {
public:
  ForeignCall(SourceRange loc, const ForeignFunction *function, std::vector<ExprPtr> args)
      : Expr(NodeKind::ForeignCall, loc, function->result), function(function), args(std::move(args)) {}
  PYK_IR_CLASSOF(ForeignCall)
  const ForeignFunction *function;
  std::vector<ExprPtr> args;
};

/// A copy of `e` when evaluating it again gives the same value within one
/// statement (a constant, a variable, an extent, a thread register); null
/// otherwise.
ExprPtr copyOfStable(const Expr &e);

/// A copy of `e` when it is made of operations that neither read memory nor
/// have effects (those of copyOfStable, strides, casts, arithmetic, compares,
/// logic, selects), so that evaluating the copy within the same statement
/// gives the same value; null otherwise.
ExprPtr copyOfPure(const Expr &e);

class Function;

/// callee(args): each argument has its parameter's type exactly (an array
/// argument is a VarRef of an array variable); the call has the callee's
/// return type. Unlike every other expression, a call may have effects,
/// so lowering never duplicates one.
class Call : public Expr {
public:
  Call(SourceRange loc, const Function *callee, Type returnType, std::vector<ExprPtr> args)
      : Expr(NodeKind::Call, loc, returnType), callee(callee), args(std::move(args)) {}
  PYK_IR_CLASSOF(Call)
  const Function *callee;
  std::vector<ExprPtr> args;
  /// A callee with results (Function::results): the caller's locals they
  /// are written to, one per result; the call is then a void Evaluate.
  std::vector<const Variable *> results;
};

/// Barriers and memory fences: SyncThreads* wait for every thread of the
/// block (the counting forms take an int32 predicate and return an int32);
/// fences order this thread's memory accesses as seen by the block, the
/// device, or the system. GridSync waits for every thread of the grid, and
/// what any thread wrote before it is visible to every thread after it; its
/// one argument is the function's gridBarrier (a uint64 address: two uint32
/// words, the blocks arrived and the barrier's generation), which the GPU
/// targets use and the CPU device, whose runtime keeps the grid's blocks
/// itself, ignores. Nanosleep suspends the thread for about its uint32
/// operand's nanoseconds (a GPU sleeps at most about a millisecond).
///
/// Warp operations take a uint32 mask first. Shfl*: (mask, value, lane or
/// delta or lane mask as int32) -> the value of the source lane (the
/// caller's own when the source lies outside the warp); Vote*: (mask, bool)
/// -> bool, Ballot -> uint32; MatchAny: (mask, value) -> uint32; MatchAll:
/// (mask, value) -> the mask when every lane of it has the same value, else
/// 0 (CUDA's __match_all_sync, its predicate that result != 0);
/// ActiveMask and LaneMaskLt: () -> uint32; SyncWarp: (mask).
enum class GpuOpKind {
  SyncThreads,
  SyncThreadsCount,
  SyncThreadsAnd,
  SyncThreadsOr,
  ThreadFenceBlock,
  ThreadFence,
  ThreadFenceSystem,
  GridSync,
  Nanosleep,
  SyncWarp,
  ShflIdx,
  ShflUp,
  ShflDown,
  ShflXor,
  VoteAll,
  VoteAny,
  VoteEq,
  Ballot,
  MatchAny,
  MatchAll,
  ActiveMask,
  LaneMaskLt,
};
const char *gpuOpName(GpuOpKind op);

class GpuOp : public Expr {
public:
  GpuOp(SourceRange loc, GpuOpKind op, Type type, std::vector<ExprPtr> args)
      : Expr(NodeKind::GpuOp, loc, type), op(op), args(std::move(args)) {}
  PYK_IR_CLASSOF(GpuOp)
  GpuOpKind op;
  std::vector<ExprPtr> args;
};

/// cuda.atomic.*: reads the element, stores `op(old, value)` (Cas: `value`
/// where old == compare; Inc: old >= value ? 0 : old + 1; Dec: old == 0 ||
/// old > value ? value : old - 1, as CUDA's atomicInc/atomicDec), and
/// yields the old value, as one indivisible step with relaxed ordering.
/// Max and Min of floats are Numba's: `old < value ? value : old` (`>` for
/// Min), so a NaN on either side leaves the element as it is; NanMax and
/// NanMin are C's fmax and fmin, where a NaN on either side loses (NumPy's
/// nanmax). On integers NanMax and NanMin are Max and Min.
enum class AtomicOp { Add, Sub, And, Or, Xor, Max, Min, Exch, Inc, Dec, Cas, NanMax, NanMin };
const char *atomicOpName(AtomicOp op);

class Atomic : public Expr {
public:
  Atomic(SourceRange loc, AtomicOp op, const Variable *array, std::vector<ExprPtr> indices, ExprPtr value,
         ExprPtr compare)
      : Expr(NodeKind::Atomic, loc, Type::scalarType(array->type.scalar)), op(op), array(array),
        indices(std::move(indices)), value(std::move(value)), compare(std::move(compare)) {}
  PYK_IR_CLASSOF(Atomic)
  AtomicOp op;
  const Variable *array;
  std::vector<ExprPtr> indices;
  ExprPtr value;
  ExprPtr compare; // Cas only
  /// As ArrayLoad's: a failed check skips the operation and yields 0 (the
  /// operands are still evaluated).
  std::vector<CheckSiteId> boundsChecks;
  /// As ArrayLoad's.
  bool narrowOffset = false;
};

/// Checked mode: records that check `site` failed, and yields its type's
/// zero (or nothing, as an Evaluate). The first failure of a launch claims
/// the check record (pyk/CheckRecord.h) with the failing `index` and
/// `extent` (int64; null for a check that has none) and the thread's and
/// block's indices; later ones change nothing. Execution goes on: what the
/// failed check guarded is skipped by the control flow around this node,
/// which insertChecks writes.
class CheckFailed : public Expr {
public:
  CheckFailed(SourceRange loc, Type type, CheckSiteId site, ExprPtr index, ExprPtr extent)
      : Expr(NodeKind::CheckFailed, loc, type), site(site), index(std::move(index)), extent(std::move(extent)) {}
  PYK_IR_CLASSOF(CheckFailed)
  CheckSiteId site;
  ExprPtr index;  // may be null
  ExprPtr extent; // null where index is
};

/// `var = value`, then `body`'s value: evaluates `value` exactly once, where
/// `body` reads it more than once (a checked index) or may not read it at
/// all (a side of a select, for cuda.selp). `var` is a hidden local that no
/// statement declares or assigns; it is in scope in `body` only.
class Let : public Expr {
public:
  Let(SourceRange loc, const Variable *var, ExprPtr value, ExprPtr body)
      : Expr(NodeKind::Let, loc, body->type()), var(var), value(std::move(value)), body(std::move(body)) {}
  PYK_IR_CLASSOF(Let)
  const Variable *var;
  ExprPtr value;
  ExprPtr body;
};

/// A complex value (complex64 or complex128) from its parts, both of the
/// type complexPart gives. With ComplexPart, loads, stores, variables and
/// calls, the one thing a backend does with complex values: lowerComplex
/// writes their arithmetic with these (LowerComplex.h).
class ComplexMake : public Expr {
public:
  ComplexMake(SourceRange loc, Type type, ExprPtr real, ExprPtr imag)
      : Expr(NodeKind::ComplexMake, loc, type), real(std::move(real)), imag(std::move(imag)) {}
  PYK_IR_CLASSOF(ComplexMake)
  ExprPtr real;
  ExprPtr imag;
};

/// `z.real` or `z.imag`: a part of a complex value, in its part's type.
class ComplexPart : public Expr {
public:
  ComplexPart(SourceRange loc, ExprPtr operand, bool imag)
      : Expr(NodeKind::ComplexPart, loc, Type::scalarType(complexPart(operand->type().scalar))),
        operand(std::move(operand)), imag(imag) {}
  PYK_IR_CLASSOF(ComplexPart)
  ExprPtr operand;
  bool imag;
};

#undef PYK_IR_CLASSOF

} // namespace pyk::ir

#endif // PYK_IR_IREXPRESSIONS_H
