//===- IR.h - pyk's typed kernel IR ---------------------------------------===//
//
// The IR is the machine: a small tree of typed, located operations with
// structured control flow, from which every backend (CUDA C++, LLVM/PTX,
// the CPU device) generates code. It differs from the AST in that every
// implicit conversion is an explicit Cast, every builtin is an explicit op
// (SpecialReg, ArrayDim), tuples are gone, and operands of an operation
// have exactly the type the operation works in. The verifier checks these
// invariants (IRVerifier.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IR_H
#define PYK_IR_IR_H

#include "SourceFile.h"
#include "ScalarTypes.h"

#include "llvm/Support/Casting.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pyk::ir {

/// A value type: void, a scalar, or an array (data pointer plus extents,
/// and for a strided array one stride per axis).
struct Type {
  enum class Kind : uint8_t { Void, Scalar, Array };
  Kind kind = Kind::Void;
  ScalarKind scalar = ScalarKind::Bool;
  unsigned rank = 0;
  /// Arrays: element (i, j, k) is at offset (i * n1 + j) * n2 + k from the
  /// data pointer (C order); a strided array's is i * s0 + j * s1 + k * s2,
  /// its strides counted in elements.
  bool contiguous = true;

  static Type voidType() { return {}; }
  static Type scalarType(ScalarKind k) { return {Kind::Scalar, k, 0}; }
  static Type arrayType(ScalarKind element, unsigned rank, bool contiguous = true) {
    return {Kind::Array, element, rank, contiguous};
  }
  bool isVoid() const { return kind == Kind::Void; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isArray() const { return kind == Kind::Array; }
  bool isBool() const { return isScalar() && scalar == ScalarKind::Bool; }
  bool isScalarOf(ScalarKind k) const { return isScalar() && scalar == k; }
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
  /// the thread's, with a constant shape.
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
enum class UnaryOp { Neg, Not, BitNot, Abs, Round, Popc, Brev, Clz, Ffs };
const char *unaryOpName(UnaryOp op);

class Unary : public Expr {
public:
  Unary(SourceRange loc, UnaryOp op, ExprPtr operand)
      : Expr(NodeKind::Unary, loc, operand->type()), op(op), operand(std::move(operand)) {}
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
/// divisor's (what Python's // and % then make of it is theirs).
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

class ArrayLoad : public Expr {
public:
  ArrayLoad(SourceRange loc, const Variable *array, std::vector<ExprPtr> indices)
      : Expr(NodeKind::ArrayLoad, loc, Type::scalarType(array->type.scalar)), array(array),
        indices(std::move(indices)) {}
  PYK_IR_CLASSOF(ArrayLoad)
  const Variable *array;
  std::vector<ExprPtr> indices;
  /// Checked mode: one site per axis (NoCheck where the index is proven in
  /// bounds); empty when unchecked. A failed check yields 0.
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
/// the call's own float type.
class MathCall : public Expr {
public:
  MathCall(SourceRange loc, Type type, std::string name, std::vector<ExprPtr> args)
      : Expr(NodeKind::MathCall, loc, type), name(std::move(name)), args(std::move(args)) {}
  PYK_IR_CLASSOF(MathCall)
  std::string name;
  std::vector<ExprPtr> args;
};

/// A copy of `e` when evaluating it again gives the same value within one
/// statement (a constant, a variable, an extent, a thread register); null
/// otherwise.
ExprPtr copyOfStable(const Expr &e);

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
/// device, or the system.
///
/// Warp operations take a uint32 mask first. Shfl*: (mask, value, lane or
/// delta or lane mask as int32) -> the value of the source lane (the
/// caller's own when the source lies outside the warp); Vote*: (mask, bool)
/// -> bool, Ballot -> uint32; MatchAny: (mask, value) -> uint32;
/// ActiveMask and LaneMaskLt: () -> uint32; SyncWarp: (mask).
enum class GpuOpKind {
  SyncThreads,
  SyncThreadsCount,
  SyncThreadsAnd,
  SyncThreadsOr,
  ThreadFenceBlock,
  ThreadFence,
  ThreadFenceSystem,
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
enum class AtomicOp { Add, Sub, And, Or, Xor, Max, Min, Exch, Inc, Dec, Cas };
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
  /// As ArrayLoad's: a failed check skips the operation and yields 0.
  std::vector<CheckSiteId> boundsChecks;
  /// As ArrayLoad's.
  bool narrowOffset = false;
};

class Declare : public Stmt {
public:
  Declare(SourceRange loc, const Variable *var, ExprPtr init)
      : Stmt(NodeKind::Declare, loc), var(var), init(std::move(init)) {}
  PYK_IR_CLASSOF(Declare)
  const Variable *var;
  ExprPtr init; // may be null
};

class Assign : public Stmt {
public:
  Assign(SourceRange loc, const Variable *var, ExprPtr value)
      : Stmt(NodeKind::Assign, loc), var(var), value(std::move(value)) {}
  PYK_IR_CLASSOF(Assign)
  const Variable *var;
  ExprPtr value;
};

class ArrayStore : public Stmt {
public:
  ArrayStore(SourceRange loc, const Variable *array, std::vector<ExprPtr> indices, ExprPtr value)
      : Stmt(NodeKind::ArrayStore, loc), array(array), indices(std::move(indices)), value(std::move(value)) {}
  PYK_IR_CLASSOF(ArrayStore)
  const Variable *array;
  std::vector<ExprPtr> indices;
  ExprPtr value;
  /// As ArrayLoad's: a failed check drops the store (the value is still
  /// evaluated).
  std::vector<CheckSiteId> boundsChecks;
  /// As ArrayLoad's.
  bool narrowOffset = false;
};

class If : public Stmt {
public:
  If(SourceRange loc, ExprPtr condition, StmtList thenBody, StmtList elseBody)
      : Stmt(NodeKind::If, loc), condition(std::move(condition)), thenBody(std::move(thenBody)),
        elseBody(std::move(elseBody)) {}
  PYK_IR_CLASSOF(If)
  /// The If that is the whole else body (an `elif`), or null: printers
  /// follow these in a loop, so a long elif chain prints flat.
  const If *elseIf() const {
    return elseBody.size() == 1 ? llvm::dyn_cast<If>(elseBody.front().get()) : nullptr;
  }
  ExprPtr condition;
  StmtList thenBody;
  StmtList elseBody;
};

class While : public Stmt {
public:
  While(SourceRange loc, ExprPtr condition, StmtList body)
      : Stmt(NodeKind::While, loc), condition(std::move(condition)), body(std::move(body)) {}
  PYK_IR_CLASSOF(While)
  ExprPtr condition;
  StmtList body;
};

/// for (var = start; step > 0 ? var < stop : step < 0 && var > stop; var += step)
///   body
/// (a zero step runs no iteration, where Python raises ValueError).
///
/// `var` is declared by the loop and lives in its body. `stop` and `step`
/// are evaluated once, before the first iteration, so lowering makes them
/// constants or variables the body does not assign. All four share var's
/// integer type.
class ForRange : public Stmt {
public:
  /// The sign of `step` when it is a constant; 0 when it is known only at
  /// run time.
  ForRange(SourceRange loc, const Variable *var, ExprPtr start, ExprPtr stop, ExprPtr step, int stepSign,
           StmtList body)
      : Stmt(NodeKind::ForRange, loc), var(var), start(std::move(start)), stop(std::move(stop)),
        step(std::move(step)), stepSign(stepSign), body(std::move(body)) {}
  PYK_IR_CLASSOF(ForRange)

  /// A constant step of 1 (or -1 on a signed counter): `v < stop; ++v`
  /// then never carries v past stop. Any other step can overshoot stop by
  /// up to step - 1 and wrap around the type's end, so the loop counts its
  /// iterations instead (tripCount).
  bool hasUnitStep() const {
    auto *constant = llvm::dyn_cast<Constant>(step.get());
    return constant && (constant->intValue == 1 || (constant->intValue == -1 && isSignedInteger(var->type.scalar)));
  }

  const Variable *var;
  ExprPtr start;
  ExprPtr stop;
  ExprPtr step;
  int stepSign;
  StmtList body;
  /// Where the step is not a unit one, lowerPythonOps sets this to Python's
  /// len(range(start, stop, step)), in the unsigned type of the counter's
  /// width, evaluated once after the counter takes `start` (it may read the
  /// counter): the loop then runs that many times, the counter being
  /// start + k * step (wrapping) on iteration k, and tests nothing else.
  ExprPtr tripCount;
};

class Break : public Stmt {
public:
  explicit Break(SourceRange loc) : Stmt(NodeKind::Break, loc) {}
  PYK_IR_CLASSOF(Break)
};

class Continue : public Stmt {
public:
  explicit Continue(SourceRange loc) : Stmt(NodeKind::Continue, loc) {}
  PYK_IR_CLASSOF(Continue)
};

/// print(...): the parts in order, each a piece of text or a scalar value
/// (Python's separators and line end are already text parts).
class Print : public Stmt {
public:
  struct Part {
    std::string text; // used when value is null
    ExprPtr value;
  };
  Print(SourceRange loc, std::vector<Part> parts) : Stmt(NodeKind::Print, loc), parts(std::move(parts)) {}
  PYK_IR_CLASSOF(Print)
  std::vector<Part> parts;

  /// The printf format and, in order, the values it formats: bools as
  /// "%s" (True/False), signed integers "%lld", unsigned "%llu", floats "%g";
  /// '%' in text is escaped.
  std::string format() const;
};

/// A call, GPU operation or atomic whose value, if any, is unused.
class Evaluate : public Stmt {
public:
  Evaluate(SourceRange loc, ExprPtr call) : Stmt(NodeKind::Evaluate, loc), call(std::move(call)) {}
  PYK_IR_CLASSOF(Evaluate)
  ExprPtr call;
};

/// `assert condition`: in checked functions a false condition is reported
/// (execution goes on); elsewhere it is not evaluated at all, as Numba
/// compiles asserts out.
class Assert : public Stmt {
public:
  Assert(SourceRange loc, ExprPtr condition, std::string message)
      : Stmt(NodeKind::Assert, loc), condition(std::move(condition)), message(std::move(message)) {}
  PYK_IR_CLASSOF(Assert)
  ExprPtr condition;
  /// The assert's message, or its condition as the source spells it.
  std::string message;
  CheckSiteId check = NoCheck;
};

class Return : public Stmt {
public:
  /// `value` is null in a function that returns nothing.
  Return(SourceRange loc, ExprPtr value) : Stmt(NodeKind::Return, loc), value(std::move(value)) {}
  PYK_IR_CLASSOF(Return)
  ExprPtr value;
};

#undef PYK_IR_CLASSOF

/// One check of checked mode, as the runtime's message describes it.
struct CheckSite {
  enum class Kind : uint8_t { Bounds, DivisionByZero, ModuloByZero, Assertion };
  Kind kind;
  SourceRange loc;
  /// Bounds: the array (as the .pyk source names it) and the axis.
  std::string array;
  unsigned axis = 0;
  /// Assertion: the assert's message, or its condition's source text.
  std::string message;
  /// Bounds: the index counts from the end where negative (WrapIndex), so
  /// a failing value below 0 is reported as written: itself minus the
  /// extent.
  bool wraps = false;
};

/// A kernel, or a device function that kernels call.
class Function {
public:
  enum class Kind { Kernel, Device };

  Function(Kind kind, std::string name, SourceRange loc) : kind(kind), name(std::move(name)), loc(loc) {}

  Variable *addParam(std::string paramName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Param, std::move(paramName), type, range));
    params.push_back(vars_.back().get());
    return vars_.back().get();
  }
  /// A result of a device function that returns several values (Python's
  /// `return a, b`): written by the function, read by its caller, which
  /// passes one of its locals for it (by reference).
  Variable *addResult(std::string uniqueName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Param, std::move(uniqueName), type, range));
    vars_.back()->hidden = true;
    results.push_back(vars_.back().get());
    return vars_.back().get();
  }
  Variable *addLocal(std::string localName, Type type, SourceRange range) {
    vars_.push_back(std::make_unique<Variable>(Variable::Kind::Local, std::move(localName), type, range));
    return vars_.back().get();
  }
  /// A compiler-made local; `uniqueName` must start with pyk_.
  Variable *addHiddenLocal(std::string uniqueName, Type type, SourceRange range) {
    Variable *var = addLocal(std::move(uniqueName), type, range);
    var->hidden = true;
    return var;
  }

  /// Parameters first, then locals, in order of creation.
  std::vector<Variable *> mutableVariables() {
    std::vector<Variable *> all;
    for (auto &var : vars_)
      all.push_back(var.get());
    return all;
  }
  std::vector<const Variable *> variables() const {
    std::vector<const Variable *> all;
    for (const auto &var : vars_)
      all.push_back(var.get());
    return all;
  }

  Kind kind;
  std::string name;
  /// The kernel's exported name, or the device function's name in the
  /// generated code (SymbolNames.h: kernelSymbol).
  std::string symbol;
  SourceRange loc;
  std::string docstring;
  /// `@cuda.jit(lineinfo=True)`: the PTX carries .pyk line information.
  bool lineInfo = false;
  /// Device functions: `@cuda.jit(device=True, inline=True)`.
  bool inlineAlways = false;
  /// Made by the compiler (PythonOpFunctions) with arithmetic that never
  /// overflows as written: unsigned where it wraps, signed only where a
  /// guard keeps it in range. markOverflowingArithmetic leaves it alone.
  bool arithmeticNeverOverflows = false;
  /// `fastmath=True`: float arithmetic may be contracted and reassociated,
  /// and uses approximate division, square root and math functions (and,
  /// on the GPU, flushes float32 denormals to zero). NaN and infinity keep
  /// their meaning, so isnan and isinf still work.
  bool fastMath = false;
  /// Waits at block barriers, itself or through a callee (the CPU device
  /// then runs each thread on a fiber).
  bool synchronises = false;
  /// The most bytes of local arrays one thread may hold while running this
  /// function, its callees' included (boundLocalMemory): on the CPU device
  /// they are on the thread's stack.
  uint64_t localMemoryBytes = 0;
  /// Kernels: launch_bounds and max_registers (0 where not given).
  unsigned maxThreadsPerBlock = 0;
  unsigned minBlocksPerMultiprocessor = 0;
  unsigned maxRegisters = 0;
  /// Checked mode: kernels compiled with `debug=True` or `pykc --checked`,
  /// and the device functions they call. A checked function takes two
  /// more parameters after its own: the device's check record
  /// (pyk/CheckRecord.h) and an opaque word identifying the launch, which
  /// a failed check stores in the record.
  bool checked = false;
  std::vector<Variable *> params;
  /// The parameters' types as the .pyk file writes them ("float32[:, :]",
  /// "(int64, int64)"), one per parameter of the source (a tuple is one),
  /// for what the generated code says about the function.
  std::vector<std::string> pykParameterTypes;
  /// Device functions that return a tuple: one scalar result per element,
  /// after the parameters (addResult); their returnType is void.
  std::vector<Variable *> results;
  Type returnType;
  StmtList body;

private:
  std::vector<std::unique_ptr<Variable>> vars_;
};

/// The IR of one .pyk file: its kernels and the device functions they
/// call, each function after the functions it calls.
struct Module {
  /// The .pyk file's name as given on the command line, for `#line` and
  /// `.file` directives.
  std::string sourceName;
  /// The files it imports (SourceLoc::file 1, 2, ...), whose device
  /// functions are spliced into it: for `#line` in their code.
  std::vector<std::string> importedSourceNames;
  std::vector<std::unique_ptr<Function>> functions;
  /// Checked mode: what each check reports, indexed by CheckSiteId.
  std::vector<CheckSite> checkSites;
  /// pykc --index-bits=32: element offsets into the kernels' array
  /// parameters are computed in 32-bit arithmetic, and each launch checks
  /// that every array argument has fewer than 2^31 elements. (Offsets into
  /// shared and local arrays, small by construction, are 32-bit always.)
  bool narrowIndices = false;
  /// A tag that tells this compilation of this file from every other one
  /// linked into the same program (pykc: a hash of the file's absolute path
  /// and the options that change its code). The symbols of the host code
  /// carry it, so that two files with a kernel of the same name each keep
  /// their own (SymbolNames.h). Empty: untagged (single-file tools).
  std::string unitId;

  /// The kernels alone, in module order.
  std::vector<const Function *> kernels() const {
    std::vector<const Function *> result;
    for (const auto &function : functions)
      if (function->kind == Function::Kind::Kernel)
        result.push_back(function.get());
    return result;
  }
};

} // namespace pyk::ir

#endif // PYK_IR_IR_H
