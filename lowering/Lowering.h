//===- Lowering.h - One checked function to IR (private to ir/) -----------===//
//
// The lowering of ASTToIR.cpp, declared here because its work is split:
// ASTToIR.cpp lowers functions and statements, ASTToIRExpr.cpp
// expressions (builtins, tuples, the GPU's operations, conversions).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_LOWERING_LOWERING_H
#define PYK_LOWERING_LOWERING_H

#include "IR.h"
#include "Sema.h"

#include <complex>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pyk::ir::lowering {

inline Type toIRType(const pyk::Type *type) {
  assert(type && !type->isError() && "lowering an expression Sema did not type");
  if (type->isScalar())
    return Type::scalarType(type->scalarKind());
  if (type->isArray())
    return Type::arrayType(type->scalarKind(), type->rank(), type->isContiguous());
  if (type->isRecordArray())
    return Type::recordArrayType(*type->record());
  assert(type->isVoid() && "tuples and records do not survive lowering");
  return Type::voidType();
}

/// A slice of one axis of an array: where it starts, how many elements it
/// takes, and the step between them (int64).
struct AxisSlice {
  ExprPtr start;
  ExprPtr length;
  ExprPtr step;
};

/// The Function of each definition lowered so far.
using FunctionMap = std::map<const ast::FunctionDef *, const Function *>;
/// The IR's declaration of each CUDA C++ function the file declares.
using ForeignMap = std::map<const pyk::ForeignFunction *, const ForeignFunction *>;

class Lowering {
public:
  /// `functions`: the Function of each definition lowered before this one.
  Lowering(const FunctionInfo &info, Function &function, const FunctionMap &functions, const ForeignMap &foreign,
           const SourceFile &source)
      : info_(info), function_(function), functions_(functions), foreign_(foreign), source_(source) {}

  void run();

private:
  /// A local holding a tuple is one hidden local per element.
  void declareTupleLocal(const Symbol &local, bool declaredInline, StmtList &hoisted);
  Variable *constantArrayVariable(const Symbol &symbol);

  /// t = (a, b): each element to its local, through temporaries when a
  /// value reads an element the assignment changes (t = (t[1], t[0])).
  void storeTuple(const Symbol &symbol, const ast::Expr &value, SourceRange loc, StmtList &out);

  // --- Statements -----------------------------------------------------------
  void block(const ast::StmtList &stmts, StmtList &out);

  void stmt(const ast::Stmt &s, StmtList &out);

  /// A loop with `else` and a `break`: a hidden flag, true until a `break`
  /// of this loop clears it, runs the else block after the loop. Null for
  /// a loop without them (an else without a break always runs). Pushes the
  /// loop's entry on breakFlags_.
  Variable *beginLoop(const ast::StmtList &body, const ast::StmtList &elseBody, SourceRange loc, StmtList &out);

  /// Whether `body` has a `break` that leaves the loop it is the body of
  /// (not one of a nested loop; a nested loop's else belongs to this one).
  static bool breaksOut(const ast::StmtList &body);

  void endLoop(Variable *noBreak, const ast::StmtList &elseBody, StmtList &out);

  /// print(a, b, sep=' ', end='\n'): text and values, separators and line
  /// end as text.
  void print(const ast::CallExpr &call, StmtList &out);

  /// a, b = x, y and i, j = cuda.grid(2). Python computes every value
  /// before it assigns any target: when a value reads a target (a, b = b,
  /// a), the values go through hidden locals first.
  void unpack(const ast::TupleExpr &targets, const ast::Expr &value, SourceRange loc, StmtList &out);

  /// The elements of a tuple-typed value, as tupleElements, or the results
  /// of a call of a device function that returns a tuple: the call, its
  /// results written to hidden locals, goes to `out` first.
  std::vector<ExprPtr> tupleValues(const ast::Expr &value, SourceRange loc, StmtList &out);
  /// math.modf(x), math.frexp(x): their two values, from x held in a local
  /// declared in `out`.
  std::vector<ExprPtr> mathTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out);
  std::vector<ExprPtr> libdeviceTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out);
  std::vector<ExprPtr> matchAllTuple(const ast::CallExpr &call, SourceRange loc, StmtList &out);

  /// The elements of a tuple-typed value: a tuple display, a tuple local or
  /// module constant, cuda.grid(n), cuda.gridsize(n), an array's shape.
  std::vector<ExprPtr> tupleElements(const ast::Expr &e);

  /// One axis of cuda.grid (blockIdx * blockDim + threadIdx) or of
  /// cuda.gridsize (blockDim * gridDim), in int64.
  ExprPtr gridValue(Builtin which, unsigned axis, SourceRange loc);

  /// for v in range(start, stop, step). Python evaluates the range once and
  /// gives v each value in turn, whatever the body does to v: a loop
  /// variable the body assigns, or one that exists before the loop, is
  /// copied from a hidden counter at the start of each iteration.
  void forRange(const ast::ForStmt &f, StmtList &out);

  /// `value` itself when evaluating it again gives the same result
  /// (constants, parameters, extents), else a hidden local holding it.
  ExprPtr evaluatedOnce(ExprPtr value, const std::string &name, StmtList &out);

  std::string uniqueName(const std::string &base);

  /// Whether `e` is known to be at least 0: a constant, or the variable of
  /// an enclosing `for` that counts up from a constant at least 0.
  bool isNonNegative(const ast::Expr &e) const;

  /// Whether any statement in `body` assigns to `symbol`.
  static bool assignsTo(const ast::StmtList &body, const Symbol *symbol);

  void store(const ast::Expr &target, ExprPtr value, SourceRange loc, StmtList &out);

  // --- Expressions ----------------------------------------------------------
  ExprPtr expr(const ast::Expr &e);

  /// Python's truth of a condition, a bool: a bool as it is, a number
  /// `n != 0` in its own type (NaN is true, -0.0 false); `a and b`, `a or b`
  /// the short-circuit Logical of each operand's own truth.
  ExprPtr truthOf(const ast::Expr &e);

  /// The truth of a lowered value (see truthOf); a constant's is folded.
  ExprPtr truthOfValue(ExprPtr value);

  /// `a or b`, `a and b` with a number among the operands, from operand
  /// `first` on: Python's value, the first operand that decides (by its own
  /// truth) converted to the type Sema unified the operands to, as Selects.
  /// Each operand is evaluated once where it can be computed first (the
  /// first operand, into a hidden local of the prelude); an operand that
  /// runs only when needed and is not a plain value is evaluated again
  /// for its value, which is the same one: Sema allows no effects in it.
  ExprPtr boolOpValue(const ast::BoolOpExpr &e, size_t first);

  ExprPtr attribute(const ast::AttributeExpr &e);
  /// Field `field` of the element of an array of records that `record`
  /// names (`states[i]`): the array, the element's index, the field's.
  struct FieldAccess {
    const Variable *array;
    std::vector<ExprPtr> at;
    int field;
  };
  FieldAccess recordField(const ast::Expr &record, const std::string &field);
  /// The array and the index of the element that `record` names (`ps[i]`,
  /// or a record local): the index evaluated into `out` once.
  std::pair<const Variable *, ExprPtr> recordElement(const ast::Expr &record, StmtList &out);
  /// `r = ps[i]` (r names the element) and `ps[i] = qs[j]` (a copy, field
  /// by field).
  void assignRecord(const ast::Expr &target, const ast::Expr &value, SourceRange loc, StmtList &out);
  /// The field a record's field access (`r['s0']`, `r.s0`) names.
  static const std::string &fieldName(const ast::Expr &access);

  ExprPtr subscript(const ast::SubscriptExpr &e);
  ExprPtr chooseByIndex(const ast::Expr &index, std::vector<ExprPtr> candidates, Type type, SourceRange loc);
  std::vector<ExprPtr> rowOf(const ast::SubscriptExpr &e);

  /// f(args): scalars converted to the parameters' types, arrays passed as
  /// themselves.
  ExprPtr deviceCall(const ast::CallExpr &e);
  ExprPtr foreignCall(const ast::CallExpr &e);

  /// The GPU builtins that are operations with effects.
  static bool isEffect(Builtin builtin) { return gpuOpOf(builtin).has_value() || atomicOpOf(builtin).has_value(); }

  static std::optional<GpuOpKind> gpuOpOf(Builtin builtin);

  static std::optional<AtomicOp> atomicOpOf(Builtin builtin);

  /// A predicate as `type` (bool or int32): non-zero is true.
  ExprPtr predicate(const ast::Expr &arg, Type type);

  /// A barrier, fence or warp operation. The counting barriers take their
  /// predicate as an int32, the votes as a bool; masks are uint32 and
  /// lanes int32 (GpuOpKind).
  ExprPtr gpuOp(const ast::CallExpr &e, GpuOpKind op);

  /// cuda.atomic.OP(array, index, [expected,] value): the index as one
  /// int64 per axis, the operands in the element type.
  ExprPtr atomic(const ast::CallExpr &e, AtomicOp op);

  /// An extent of `array`: a constant for an array local.
  static ExprPtr extent(const Variable *array, unsigned axis, SourceRange loc);

  /// cuda.popc/brev/clz/ffs in the operand's 32 or 64 bits (the counts
  /// then as int32); cuda.fma and cuda.cbrt as math functions.
  ExprPtr intrinsic(const ast::CallExpr &e);
  ExprPtr selp(const ast::CallExpr &e);
  ExprPtr fp16(const ast::CallExpr &e);
  /// `z.real`, `z.imag` of a number (ASTToIRComplex.cpp).
  ExprPtr numberPart(const ast::AttributeExpr &e);
  /// complex(re[, im]) and z.conjugate().
  ExprPtr complexCall(const ast::CallExpr &e);
  /// A complex number known at compile time (`2j`, a module constant), of
  /// complex `type`.
  static ExprPtr complexOf(std::complex<double> value, Type type, SourceRange loc);

  ExprPtr call(const ast::CallExpr &e);

  /// round(x, n) of a float: rint(x * 10**n) / 10**n, or for negative n
  /// rint(x / 10**-n) * 10**-n (NumPy's method). x is pure (Sema allows no
  /// call with effects here), so a run-time n may evaluate it twice.
  ExprPtr roundToDigits(const ast::CallExpr &e);

  /// math.NAME(...): a MathCall in the arguments' float type; floor, ceil
  /// and trunc then become int64; isnan, isinf and isfinite are comparisons.
  ExprPtr math(const ast::CallExpr &e);
  ExprPtr libdevice(const ast::CallExpr &call);
  std::vector<ExprPtr> libdeviceArguments(const ast::CallExpr &call);

  ExprPtr unary(const ast::UnaryExpr &e);

  ExprPtr arithmetic(ast::BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange loc);

  /// a < b < c is (a < b) and (b < c), with b's value shared: IR
  /// expressions are pure, so evaluating b twice gives the same value.
  ExprPtr compare(const ast::CompareExpr &e);

  std::vector<ExprPtr> indices(const ast::SubscriptExpr &e);

  // --- Views (ASTToIRViews.cpp) --------------------------------------------
  /// The array variable `e` names; a view (a[i] passed to a function) is
  /// first made a hidden view local before the statement.
  const Variable *arrayOf(const ast::Expr &e);

  /// The array an access through `object` with `indices` touches, and the
  /// indices into it: a[i][j] and a[:, j][i] index a directly.
  std::pair<const Variable *, std::vector<ExprPtr>> accessThrough(const ast::Expr &object,
                                                                  std::vector<ExprPtr> indices);

  /// The ArrayView of type `type` that array expression `e` denotes (a
  /// name: all of it; a subscript: the part it selects).
  ExprPtr arrayValue(const ast::Expr &e, Type type);

  /// `var = value` for a view local: declared or assigned an ArrayView, or
  /// for `a if c else b` an If with one assignment in each branch.
  void assignView(Variable *var, const ast::Expr &value, SourceRange loc, StmtList &out);

  /// All of `array` as an ArrayView of type `type` (`b = a`).
  ExprPtr wholeView(const Variable *array, Type type, SourceRange loc);

  /// Whether `target` names a view local (`row = a[i]`, `b = a`).
  bool isViewTarget(const ast::Expr &target) const {
    auto *name = llvm::dyn_cast<ast::NameExpr>(&target);
    auto found = name ? vars_.find(name->symbol) : vars_.end();
    return found != vars_.end() && found->second->isView();
  }

  /// The view's index `index` of `axis` of `array`, counted from the end
  /// where negative.
  ExprPtr viewIndex(const ast::Expr &index, const Variable *array, unsigned axis);

  /// A value the view's arithmetic reads more than once: itself when a
  /// constant or a parameter, else a hidden local before the statement.
  ExprPtr viewOperand(ExprPtr value, const char *name);

  AxisSlice sliceAxis(const ast::SliceExpr &slice, const Variable *array, unsigned axis);

  ExprPtr strideOf(const Variable *array, unsigned axis, SourceRange loc);


  // --- Constants and conversions ---------------------------------------------
  static ExprPtr constantOf(const ast::ConstantValue &value, Type type, SourceRange loc);

  /// `value`'s bits cut to `kind`'s width, sign-extended for a signed kind
  /// (a Constant's intValue is the bit pattern, sign-extended).
  static int64_t wrapToWidth(int64_t value, ScalarKind kind);

  /// The zero of `type` (of a complex type, 0 made complex: lowerComplex
  /// writes it as its two parts).
  static ExprPtr zeroOf(Type type, SourceRange loc) {
    if (type.isScalar() && isComplex(type.scalar))
      return std::make_unique<Cast>(
          loc, type, std::make_unique<Constant>(loc, Type::scalarType(complexPart(type.scalar)), 0, 0.0));
    return std::make_unique<Constant>(loc, type, 0, 0.0);
  }

  /// Whether `e` is a constant or a choice among constants.
  static bool isConstantChoice(const Expr &e);

  /// Converts `e` to `type`, folding the conversion of a constant (and of
  /// a choice among constants: WEIGHTS[k]).
  static ExprPtr castTo(ExprPtr e, Type type);

  const FunctionInfo &info_;
  Function &function_;
  const FunctionMap &functions_;
  const ForeignMap &foreign_;
  /// The .pyk text, for an assert's condition as written.
  const SourceFile &source_;
  std::map<const Symbol *, Variable *> vars_;
  /// Tuple locals: one variable per element.
  std::map<const Symbol *, std::vector<Variable *>> tupleVars_;
  /// Record locals (`r = ps[i]`): the array whose element the local names,
  /// and the hidden local that holds the element's index.
  struct RecordLocal {
    const Variable *array;
    Variable *index;
  };
  std::map<const Symbol *, RecordLocal> recordLocals_;
  std::set<const Variable *> declared_;
  /// Loop variables that count up from 0 or more, in the loop being lowered.
  std::set<const Symbol *> nonNegative_;
  /// Parameters the body assigns: their value may change.
  std::set<const Variable *> assignedParams_;
  std::set<const Symbol *> loopScoped_;
  std::map<std::string, int> hiddenNames_;
  /// The enclosing loops, innermost last: each one's no-break flag, or
  /// null when it has no `else`.
  std::vector<Variable *> breakFlags_;
  /// Where the expression being lowered may compute a value first (a
  /// hidden local, see boolOpValue): the list the statement goes to, while
  /// the expression runs exactly once, before the statement; null where
  /// it runs only when needed (a later operand of and/or, a branch of a
  /// conditional expression, a later link of a chained comparison) or
  /// again and again (a while condition), and in asserts.
  StmtList *prelude_ = nullptr;
  /// The list the statement being lowered goes to: views its expressions
  /// need are made there, before it (arrayOf).
  StmtList *statementPrelude_ = nullptr;

  /// Sets prelude_ for a scope, then puts the enclosing one back.
  class PreludeScope {
  public:
    PreludeScope(Lowering &lowering, StmtList *prelude)
        : lowering_(lowering), saved_(std::exchange(lowering.prelude_, prelude)) {}
    ~PreludeScope() { lowering_.prelude_ = saved_; }
    PreludeScope(const PreludeScope &) = delete;
    PreludeScope &operator=(const PreludeScope &) = delete;

  private:
    Lowering &lowering_;
    StmtList *saved_;
  };
};

} // namespace pyk::ir::lowering

#endif // PYK_LOWERING_LOWERING_H
