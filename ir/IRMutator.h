//===- IRMutator.h - Rewrite the expressions of IR statements in place ----===//
//
// IRWalk.h visits; this rewrites. A pass that replaces one kind of
// expression by others (a high-level operation by primitive ones) gives a
// function of the owning pointer, which may reset it; the function sees
// each expression after its operands, so a replacement's operands are
// already rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_IR_IRMUTATOR_H
#define PYK_IR_IRMUTATOR_H

#include "IR.h"

#include "llvm/Support/Casting.h"

namespace pyk::ir {

/// Calls `f(slot)` on every expression slot within `slot`, operands first.
template <typename F> void rewriteExpr(ExprPtr &slot, F &&f) {
  Expr &e = *slot;
  auto each = [&](std::vector<ExprPtr> &list) {
    for (ExprPtr &item : list)
      rewriteExpr(item, f);
  };
  switch (e.kind()) {
  case NodeKind::Constant:
  case NodeKind::VarRef:
  case NodeKind::SpecialReg:
  case NodeKind::ArrayDim:
  case NodeKind::ArrayStride:
    break;
  case NodeKind::Cast:
    rewriteExpr(llvm::cast<Cast>(e).operand, f);
    break;
  case NodeKind::Unary:
    rewriteExpr(llvm::cast<Unary>(e).operand, f);
    break;
  case NodeKind::Binary:
    rewriteExpr(llvm::cast<Binary>(e).lhs, f);
    rewriteExpr(llvm::cast<Binary>(e).rhs, f);
    break;
  case NodeKind::DivisorCheck:
    rewriteExpr(llvm::cast<DivisorCheck>(e).divisor, f);
    break;
  case NodeKind::Compare:
    rewriteExpr(llvm::cast<Compare>(e).lhs, f);
    rewriteExpr(llvm::cast<Compare>(e).rhs, f);
    break;
  case NodeKind::Logical:
    rewriteExpr(llvm::cast<Logical>(e).lhs, f);
    rewriteExpr(llvm::cast<Logical>(e).rhs, f);
    break;
  case NodeKind::Select:
    rewriteExpr(llvm::cast<Select>(e).condition, f);
    rewriteExpr(llvm::cast<Select>(e).thenValue, f);
    rewriteExpr(llvm::cast<Select>(e).elseValue, f);
    break;
  case NodeKind::ArrayView: {
    auto &view = llvm::cast<ArrayView>(e);
    rewriteExpr(view.offset, f);
    each(view.extents);
    each(view.strides);
    break;
  }
  case NodeKind::ArrayLoad:
    each(llvm::cast<ArrayLoad>(e).indices);
    break;
  case NodeKind::WrapIndex:
    rewriteExpr(llvm::cast<WrapIndex>(e).index, f);
    rewriteExpr(llvm::cast<WrapIndex>(e).extent, f);
    break;
  case NodeKind::MathCall:
    each(llvm::cast<MathCall>(e).args);
    break;
  case NodeKind::LibdeviceCall:
    each(llvm::cast<LibdeviceCall>(e).args);
    break;
  case NodeKind::ComplexMake:
    rewriteExpr(llvm::cast<ComplexMake>(e).real, f);
    rewriteExpr(llvm::cast<ComplexMake>(e).imag, f);
    break;
  case NodeKind::ComplexPart:
    rewriteExpr(llvm::cast<ComplexPart>(e).operand, f);
    break;
  case NodeKind::Call:
    each(llvm::cast<Call>(e).args);
    break;
  case NodeKind::ForeignCall:
    each(llvm::cast<ForeignCall>(e).args);
    break;
  case NodeKind::GpuOp:
    each(llvm::cast<GpuOp>(e).args);
    break;
  case NodeKind::Atomic: {
    auto &atomic = llvm::cast<Atomic>(e);
    each(atomic.indices);
    if (atomic.compare)
      rewriteExpr(atomic.compare, f);
    rewriteExpr(atomic.value, f);
    break;
  }
  case NodeKind::CheckFailed: {
    auto &failed = llvm::cast<CheckFailed>(e);
    if (failed.index)
      rewriteExpr(failed.index, f);
    if (failed.extent)
      rewriteExpr(failed.extent, f);
    break;
  }
  case NodeKind::Let:
    rewriteExpr(llvm::cast<Let>(e).value, f);
    rewriteExpr(llvm::cast<Let>(e).body, f);
    break;
#define PYK_IR_STMT(Name) case NodeKind::Name:
#include "IRNodes.def"
    break;
  }
  f(slot);
}

/// Calls `f(slot)` on every expression slot of `s` itself, each
/// expression's operands first: not those of the statements it holds (an
/// If's condition, a loop's condition or bounds, but not their bodies).
template <typename F> void rewriteOwnExprs(Stmt &s, F &&f) {
  auto one = [&](ExprPtr &slot) {
    if (slot)
      rewriteExpr(slot, f);
  };
  switch (s.kind()) {
  case NodeKind::Declare:
    one(llvm::cast<Declare>(s).init);
    break;
  case NodeKind::Assign:
    one(llvm::cast<Assign>(s).value);
    break;
  case NodeKind::ArrayStore: {
    auto &store = llvm::cast<ArrayStore>(s);
    for (ExprPtr &index : store.indices)
      one(index);
    one(store.value);
    break;
  }
  case NodeKind::If:
    one(llvm::cast<If>(s).condition);
    break;
  case NodeKind::While:
    one(llvm::cast<While>(s).condition);
    break;
  case NodeKind::ForRange: {
    auto &loop = llvm::cast<ForRange>(s);
    one(loop.start);
    one(loop.stop);
    one(loop.step);
    one(loop.tripCount);
    break;
  }
  case NodeKind::Print:
    for (Print::Part &part : llvm::cast<Print>(s).parts)
      one(part.value);
    break;
  case NodeKind::Evaluate:
    one(llvm::cast<Evaluate>(s).call);
    break;
  case NodeKind::Assert:
    one(llvm::cast<Assert>(s).condition);
    break;
  case NodeKind::Return:
    one(llvm::cast<Return>(s).value);
    break;
  case NodeKind::Break:
  case NodeKind::Continue:
    break;
#define PYK_IR_EXPR(Name) case NodeKind::Name:
#include "IRNodes.def"
    break;
  }
}

/// Calls `f(slot)` on every expression slot of `body`, nested statements
/// included, each expression's operands first.
template <typename F> void rewriteExprs(StmtList &body, F &&f) {
  for (StmtPtr &s : body) {
    rewriteOwnExprs(*s, f);
    if (auto *branch = llvm::dyn_cast<If>(s.get())) {
      rewriteExprs(branch->thenBody, f);
      rewriteExprs(branch->elseBody, f);
    } else if (auto *loop = llvm::dyn_cast<While>(s.get())) {
      rewriteExprs(loop->body, f);
    } else if (auto *range = llvm::dyn_cast<ForRange>(s.get())) {
      rewriteExprs(range->body, f);
    }
  }
}

} // namespace pyk::ir

#endif // PYK_IR_IRMUTATOR_H
