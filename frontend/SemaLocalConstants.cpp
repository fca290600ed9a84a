//===- SemaLocalConstants.cpp - Locals that are compile-time constants ----===//
//
// Numba types a local assigned exactly once to a literal as that literal,
// so a kernel may give a shared or local array's shape by a local:
//
//   N = 100
//   tile = cuda.shared.array(N, float32)
//   pairs = cuda.local.array((N, 2), int32)
//
// pyk reads such a shape the same way: an extent that names a local takes
// the local's value where the function assigns the local exactly once
// (counting every assignment, augmented assignment and loop target), with
// an integer constant. A local assigned more than once has no one value at
// compile time; that is an error that says so.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;

namespace {

/// The assignments of `name` in `body`, and the value of the last plain
/// `name = value` (or `name: T = value`) among them.
struct Assignments {
  unsigned count = 0;
  const Expr *value = nullptr;
};

Assignments assignmentsOf(const std::string &name, const StmtList &body) {
  Assignments found;
  auto countTargets = [&](const Expr &target) {
    unsigned before = found.count;
    forEachExprIn(target, [&](const Expr &e) {
      if (auto *named = dyn_cast<NameExpr>(&e); named && named->name == name)
        ++found.count;
    });
    return found.count != before;
  };
  forEachStmtIn(body, [&](const Stmt &s) {
    if (auto *assign = dyn_cast<AssignStmt>(&s)) {
      for (const ExprPtr &target : assign->targets)
        if (countTargets(*target) && dyn_cast<NameExpr>(target.get()))
          found.value = assign->value.get();
    } else if (auto *annotated = dyn_cast<AnnAssignStmt>(&s)) {
      if (countTargets(*annotated->target) && dyn_cast<NameExpr>(annotated->target.get()))
        found.value = annotated->value.get();
    } else if (auto *aug = dyn_cast<AugAssignStmt>(&s)) {
      countTargets(*aug->target);
    } else if (auto *loop = dyn_cast<ForStmt>(&s)) {
      countTargets(*loop->target);
    }
  });
  return found;
}

} // namespace

std::optional<ConstantValue> Sema::extentConstant(const Expr &extent, bool &reported) {
  if (extent.constant)
    return extent.constant;
  auto *name = dyn_cast<NameExpr>(&extent);
  if (!name || !name->symbol || name->symbol->kind != SymbolKind::Local || !function_)
    return std::nullopt;
  const Assignments assignments = assignmentsOf(name->name, function_->def->body);
  if (assignments.count > 1) {
    error(extent.range()) << "'" << name->name << "' gives a shape, so it must be a compile-time constant, but it is "
                          << "assigned " << assignments.count
                          << " times; assign it once, to an integer constant, or use a module constant";
    note(name->symbol->definition) << "'" << name->name << "' is first assigned here";
    reported = true;
    return std::nullopt;
  }
  if (!assignments.value || !assignments.value->constant)
    return std::nullopt;
  return assignments.value->constant;
}

} // namespace pyk::sema
