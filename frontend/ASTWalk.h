//===- ASTWalk.h - Visit the children of AST nodes -------------------------===//
//
// The one place outside the dumper that knows which sub-expressions and
// sub-statements each AST node has, so that syntactic analyses (the call
// graph, first uses of locals) need no switch over every node kind.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_ASTWALK_H
#define PYK_FRONTEND_ASTWALK_H

#include "AST.h"

#include "llvm/Support/Casting.h"

namespace pyk::ast {

/// Calls `f` on each direct sub-expression of `e`, in evaluation order.
template <typename F> void forEachChild(const Expr &e, F &&f) {
  using llvm::cast;
  switch (e.kind()) {
  case NodeKind::AttributeExpr:
    return f(*cast<AttributeExpr>(e).object);
  case NodeKind::SubscriptExpr:
    f(*cast<SubscriptExpr>(e).object);
    for (const ExprPtr &index : cast<SubscriptExpr>(e).indices)
      f(*index);
    return;
  case NodeKind::CallExpr: {
    auto &call = cast<CallExpr>(e);
    f(*call.callee);
    for (const ExprPtr &arg : call.args)
      f(*arg);
    for (const KeywordArgument &keyword : call.keywords)
      f(*keyword.value);
    return;
  }
  case NodeKind::UnaryExpr:
    return f(*cast<UnaryExpr>(e).operand);
  case NodeKind::BinaryExpr:
    f(*cast<BinaryExpr>(e).lhs);
    return f(*cast<BinaryExpr>(e).rhs);
  case NodeKind::BoolOpExpr:
    for (const ExprPtr &operand : cast<BoolOpExpr>(e).operands)
      f(*operand);
    return;
  case NodeKind::CompareExpr:
    f(*cast<CompareExpr>(e).first);
    for (const ExprPtr &operand : cast<CompareExpr>(e).comparators)
      f(*operand);
    return;
  case NodeKind::TupleExpr:
    for (const ExprPtr &element : cast<TupleExpr>(e).elements)
      f(*element);
    return;
  case NodeKind::ConditionalExpr:
    f(*cast<ConditionalExpr>(e).condition);
    f(*cast<ConditionalExpr>(e).thenValue);
    return f(*cast<ConditionalExpr>(e).elseValue);
  default:
    return; // Leaves: names, literals, slices and unsupported syntax.
  }
}

/// Calls `f` on every expression of `e`'s tree, `e` first.
template <typename F> void forEachExprIn(const Expr &e, F &&f) {
  f(e);
  forEachChild(e, [&](const Expr &child) { forEachExprIn(child, f); });
}

/// Calls `onExpr` on each expression `s` holds directly (assignment targets
/// included) and `onBody` on each block nested in it.
template <typename E, typename B> void forEachPart(const Stmt &s, E &&onExpr, B &&onBody) {
  using llvm::cast;
  switch (s.kind()) {
  case NodeKind::ExprStmt:
    return onExpr(*cast<ExprStmt>(s).expr);
  case NodeKind::AssignStmt:
    onExpr(*cast<AssignStmt>(s).value);
    for (const ExprPtr &target : cast<AssignStmt>(s).targets)
      onExpr(*target);
    return;
  case NodeKind::AugAssignStmt:
    onExpr(*cast<AugAssignStmt>(s).target);
    return onExpr(*cast<AugAssignStmt>(s).value);
  case NodeKind::AnnAssignStmt: {
    auto &a = cast<AnnAssignStmt>(s);
    if (a.value)
      onExpr(*a.value);
    return onExpr(*a.target);
  }
  case NodeKind::IfStmt:
    onExpr(*cast<IfStmt>(s).condition);
    onBody(cast<IfStmt>(s).thenBody);
    return onBody(cast<IfStmt>(s).elseBody);
  case NodeKind::WhileStmt:
    onExpr(*cast<WhileStmt>(s).condition);
    onBody(cast<WhileStmt>(s).body);
    return onBody(cast<WhileStmt>(s).elseBody);
  case NodeKind::ForStmt:
    onExpr(*cast<ForStmt>(s).iterable);
    onExpr(*cast<ForStmt>(s).target);
    onBody(cast<ForStmt>(s).body);
    return onBody(cast<ForStmt>(s).elseBody);
  case NodeKind::ReturnStmt:
    if (const ExprPtr &value = cast<ReturnStmt>(s).value)
      onExpr(*value);
    return;
  case NodeKind::AssertStmt:
    onExpr(*cast<AssertStmt>(s).condition);
    if (const ExprPtr &message = cast<AssertStmt>(s).message)
      onExpr(*message);
    return;
  default:
    return; // No expressions: pass, break, imports, nested defs, ...
  }
}

/// Calls `f` on every statement of `body`, nested ones included, outer
/// ones first.
template <typename F> void forEachStmtIn(const StmtList &body, F &&f) {
  for (const StmtPtr &s : body) {
    f(*s);
    forEachPart(*s, [](const Expr &) {}, [&](const StmtList &inner) { forEachStmtIn(inner, f); });
  }
}

} // namespace pyk::ast

#endif // PYK_FRONTEND_ASTWALK_H
