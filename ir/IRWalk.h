//===- IRWalk.h - Visit the operands and sub-statements of IR nodes -------===//
//
// The one place that knows which children each IR node has, so that
// analyses (read-only arrays, variable reads, ...) need no switch of their
// own over every node kind.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IRWALK_H
#define PYK_IR_IRWALK_H

#include "IR.h"

#include "llvm/Support/Casting.h"

#include <set>

namespace pyk::ir {

/// Calls `f` on each direct operand of `e`, left to right.
template <typename F> void forEachOperand(const Expr &e, F &&f) {
  switch (e.kind()) {
  case NodeKind::Constant:
  case NodeKind::VarRef:
  case NodeKind::SpecialReg:
  case NodeKind::ArrayDim:
  case NodeKind::ArrayStride:
    return;
  case NodeKind::ArrayView: {
    auto &view = llvm::cast<ArrayView>(e);
    f(*view.offset);
    for (const ExprPtr &extent : view.extents)
      f(*extent);
    for (const ExprPtr &stride : view.strides)
      f(*stride);
    return;
  }
  case NodeKind::Cast:
    return f(*llvm::cast<Cast>(e).operand);
  case NodeKind::Unary:
    return f(*llvm::cast<Unary>(e).operand);
  case NodeKind::Binary:
    f(*llvm::cast<Binary>(e).lhs);
    return f(*llvm::cast<Binary>(e).rhs);
  case NodeKind::DivisorCheck:
    return f(*llvm::cast<DivisorCheck>(e).divisor);
  case NodeKind::Compare:
    f(*llvm::cast<Compare>(e).lhs);
    return f(*llvm::cast<Compare>(e).rhs);
  case NodeKind::Logical:
    f(*llvm::cast<Logical>(e).lhs);
    return f(*llvm::cast<Logical>(e).rhs);
  case NodeKind::Select:
    f(*llvm::cast<Select>(e).condition);
    f(*llvm::cast<Select>(e).thenValue);
    return f(*llvm::cast<Select>(e).elseValue);
  case NodeKind::ArrayLoad:
    for (const ExprPtr &index : llvm::cast<ArrayLoad>(e).indices)
      f(*index);
    return;
  case NodeKind::WrapIndex:
    f(*llvm::cast<WrapIndex>(e).index);
    return f(*llvm::cast<WrapIndex>(e).extent);
  case NodeKind::MathCall:
    for (const ExprPtr &arg : llvm::cast<MathCall>(e).args)
      f(*arg);
    return;
  case NodeKind::LibdeviceCall:
    for (const ExprPtr &arg : llvm::cast<LibdeviceCall>(e).args)
      f(*arg);
    return;
  case NodeKind::ComplexMake:
    f(*llvm::cast<ComplexMake>(e).real);
    return f(*llvm::cast<ComplexMake>(e).imag);
  case NodeKind::ComplexPart:
    return f(*llvm::cast<ComplexPart>(e).operand);
  case NodeKind::Call:
    for (const ExprPtr &arg : llvm::cast<Call>(e).args)
      f(*arg);
    return;
  case NodeKind::ForeignCall:
    for (const ExprPtr &arg : llvm::cast<ForeignCall>(e).args)
      f(*arg);
    return;
  case NodeKind::GpuOp:
    for (const ExprPtr &arg : llvm::cast<GpuOp>(e).args)
      f(*arg);
    return;
  case NodeKind::Atomic: {
    auto &atomic = llvm::cast<Atomic>(e);
    for (const ExprPtr &index : atomic.indices)
      f(*index);
    if (atomic.compare)
      f(*atomic.compare);
    return f(*atomic.value);
  }
  case NodeKind::CheckFailed: {
    auto &failed = llvm::cast<CheckFailed>(e);
    if (failed.index)
      f(*failed.index);
    if (failed.extent)
      f(*failed.extent);
    return;
  }
  case NodeKind::Let:
    f(*llvm::cast<Let>(e).value);
    return f(*llvm::cast<Let>(e).body);
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
    return;
  }
}

/// Calls `f` on each expression directly held by statement `s` (not those
/// nested in them), then recurses into nested statements.
template <typename F> void forEachStmt(const StmtList &body, F &&f);
template <typename F> void forEachExpr(const Stmt &s, F &&f) {
  switch (s.kind()) {
  case NodeKind::Declare:
    if (const ExprPtr &init = llvm::cast<Declare>(s).init)
      f(*init);
    return;
  case NodeKind::Assign:
    return f(*llvm::cast<Assign>(s).value);
  case NodeKind::ArrayStore: {
    auto &store = llvm::cast<ArrayStore>(s);
    for (const ExprPtr &index : store.indices)
      f(*index);
    return f(*store.value);
  }
  case NodeKind::If: {
    auto &branch = llvm::cast<If>(s);
    f(*branch.condition);
    for (const StmtPtr &inner : branch.thenBody)
      forEachExpr(*inner, f);
    for (const StmtPtr &inner : branch.elseBody)
      forEachExpr(*inner, f);
    return;
  }
  case NodeKind::While: {
    auto &loop = llvm::cast<While>(s);
    f(*loop.condition);
    for (const StmtPtr &inner : loop.body)
      forEachExpr(*inner, f);
    return;
  }
  case NodeKind::ForRange: {
    auto &loop = llvm::cast<ForRange>(s);
    f(*loop.start);
    f(*loop.stop);
    f(*loop.step);
    if (loop.tripCount)
      f(*loop.tripCount);
    for (const StmtPtr &inner : loop.body)
      forEachExpr(*inner, f);
    return;
  }
  case NodeKind::Print:
    for (const Print::Part &part : llvm::cast<Print>(s).parts)
      if (part.value)
        f(*part.value);
    return;
  case NodeKind::Evaluate:
    return f(*llvm::cast<Evaluate>(s).call);
  case NodeKind::Assert:
    return f(*llvm::cast<Assert>(s).condition);
  case NodeKind::Return:
    if (const ExprPtr &value = llvm::cast<Return>(s).value)
      f(*value);
    return;
  case NodeKind::Break:
  case NodeKind::Continue:
    return;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
    return;
  }
}

/// Calls `f` on the expressions held directly by every statement of
/// `body`, nested statements included, each once (not their operands:
/// forEachOperand). Linear in the body, where forEachStmt with forEachExpr
/// in it would visit a statement's expressions once per enclosing
/// statement (quadratic in a chain of 10000 elifs).
template <typename F> void forEachExprIn(const StmtList &body, F &&f) {
  for (const StmtPtr &s : body)
    forEachExpr(*s, f);
}

/// Calls `f` on every statement of `body`, nested ones included, outer
/// ones first.
template <typename F> void forEachStmt(const StmtList &body, F &&f) {
  for (const StmtPtr &s : body) {
    f(*s);
    if (auto *branch = llvm::dyn_cast<If>(s.get())) {
      forEachStmt(branch->thenBody, f);
      forEachStmt(branch->elseBody, f);
    } else if (auto *loop = llvm::dyn_cast<While>(s.get())) {
      forEachStmt(loop->body, f);
    } else if (auto *range = llvm::dyn_cast<ForRange>(s.get())) {
      forEachStmt(range->body, f);
    }
  }
}

/// The variables that `body` assigns or declares, the counters of its
/// loops included.
inline std::set<const Variable *> assignedVariables(const StmtList &body) {
  std::set<const Variable *> assigned;
  forEachStmt(body, [&](const Stmt &s) {
    if (auto *assign = llvm::dyn_cast<Assign>(&s))
      assigned.insert(assign->var);
    else if (auto *declare = llvm::dyn_cast<Declare>(&s))
      assigned.insert(declare->var);
    else if (auto *range = llvm::dyn_cast<ForRange>(&s))
      assigned.insert(range->var);
  });
  return assigned;
}

/// Whether evaluating `e` when its value is not needed changes nothing a
/// program can see: it has no effect, cannot fail, and costs little (at most
/// `budget` nodes; reading memory is not free, and a math function is a
/// call). A Select or Logical whose unneeded side is such may evaluate it
/// anyway, without a branch. An integer division may fail (by zero); a
/// shift past the width has no defined value, which is harmless where the
/// value is not used.
inline bool isCheapAndHarmless(const Expr &e, unsigned &budget) {
  if (budget == 0)
    return false;
  --budget;
  switch (e.kind()) {
  case NodeKind::Constant:
  case NodeKind::VarRef:
  case NodeKind::Cast:
  case NodeKind::Unary:
  case NodeKind::Compare:
  case NodeKind::Logical:
  case NodeKind::Select:
  case NodeKind::SpecialReg:
  case NodeKind::ArrayDim:
  case NodeKind::ArrayStride:
  case NodeKind::ComplexMake:
  case NodeKind::ComplexPart:
    break;
  case NodeKind::Binary: {
    const BinaryOp op = llvm::cast<Binary>(e).op;
    if (op == BinaryOp::CDiv || op == BinaryOp::CRem || op == BinaryOp::FloorDiv || op == BinaryOp::Mod ||
        op == BinaryOp::Pow)
      return false;
    break;
  }
  case NodeKind::ArrayView:
  case NodeKind::ArrayLoad:
  case NodeKind::WrapIndex:
  case NodeKind::MathCall:
  case NodeKind::LibdeviceCall:
  case NodeKind::Call:
  case NodeKind::ForeignCall:
  case NodeKind::GpuOp:
  case NodeKind::Atomic:
  case NodeKind::DivisorCheck:
  case NodeKind::CheckFailed:
  case NodeKind::Let:
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
    return false;
  }
  bool harmless = true;
  forEachOperand(e, [&](const Expr &operand) { harmless = harmless && isCheapAndHarmless(operand, budget); });
  return harmless;
}

/// Whether `e`, or an expression within it, reads one of `variables`.
inline bool readsAnyOf(const Expr &e, const std::set<const Variable *> &variables) {
  if (auto *ref = llvm::dyn_cast<VarRef>(&e); ref && variables.count(ref->var))
    return true;
  // A view local's data pointer, extents and strides are read through it.
  const Variable *array = nullptr;
  if (auto *view = llvm::dyn_cast<ArrayView>(&e))
    array = view->base;
  else if (auto *dim = llvm::dyn_cast<ArrayDim>(&e))
    array = dim->array;
  else if (auto *stride = llvm::dyn_cast<ArrayStride>(&e))
    array = stride->array;
  else if (auto *load = llvm::dyn_cast<ArrayLoad>(&e))
    array = load->array;
  if (array && variables.count(array))
    return true;
  bool reads = false;
  forEachOperand(e, [&](const Expr &operand) { reads = reads || readsAnyOf(operand, variables); });
  return reads;
}

} // namespace pyk::ir

#endif // PYK_IR_IRWALK_H
