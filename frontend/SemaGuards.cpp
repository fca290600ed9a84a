//===- SemaGuards.cpp - Accesses by thread position that no test bounds ---===//
//
// A grid has more threads than elements whenever the element count is not
// a multiple of the block size, so an access indexed by cuda.grid without
// a test such as `if i < x.shape[0]` reads or writes past the array. This
// warns at such an access, with a note where the index comes from.
//
//  - A local assigned a value that mentions cuda.grid(...), or another such
//    local, comes from the thread's position (`i = cuda.grid(1)`,
//    `i, j = cuda.grid(2)`, `k = i + 1`). A `for` loop's variable does not:
//    range() bounds it.
//  - Such a local is guarded inside an `if` or `while` whose condition
//    compares it, and after `if <comparison of it>: return` for the rest
//    of the block.
//  - An index into an array parameter (global memory) that mentions an
//    unguarded one is reported, once per local. Shared and local arrays,
//    indexed by thread indices sized to the block, are not.
//
//===----------------------------------------------------------------------===//
#include "ASTWalk.h"
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// The locals from the thread's position that `e` compares (in a
/// comparison anywhere in it).
std::set<const Symbol *> comparedPositions(const Expr &e) {
  std::set<const Symbol *> compared;
  forEachExprIn(e, [&](const Expr &inner) {
    if (!isa<CompareExpr>(inner))
      return;
    forEachExprIn(inner, [&](const Expr &operand) {
      if (auto *name = dyn_cast<NameExpr>(&operand); name && name->symbol && name->symbol->fromGridPosition)
        compared.insert(name->symbol);
    });
  });
  return compared;
}

bool endsInReturn(const StmtList &body) { return !body.empty() && isa<ReturnStmt>(*body.back()); }

} // namespace

bool Sema::mentionsGridPosition(const Expr &e) const {
  bool found = false;
  forEachExprIn(e, [&](const Expr &inner) {
    if (auto *call = dyn_cast<CallExpr>(&inner); call && call->function == Builtin::Grid)
      found = true;
    if (auto *name = dyn_cast<NameExpr>(&inner); name && name->symbol && name->symbol->fromGridPosition)
      found = true;
  });
  return found;
}

void Sema::noteGridPositions(Expr &target, const Expr &value) {
  if (!mentionsGridPosition(value))
    return;
  forEachExprIn(target, [&](const Expr &inner) {
    if (auto *name = dyn_cast<NameExpr>(&inner); name && name->symbol && name->symbol->kind == SymbolKind::Local)
      const_cast<Symbol *>(name->symbol)->fromGridPosition = true;
  });
}

std::set<const Symbol *> Sema::guardsOf(const Expr &condition) const { return comparedPositions(condition); }

void Sema::guardAfterEarlyReturn(const IfStmt &stmt) {
  if (endsInReturn(stmt.thenBody) && stmt.elseBody.empty())
    for (const Symbol *symbol : comparedPositions(*stmt.condition))
      guarded_.insert(symbol);
}

void Sema::checkGridIndex(const SubscriptExpr &expr) {
  auto *array = dyn_cast<NameExpr>(expr.object.get());
  if (!array || !array->symbol || array->symbol->kind != SymbolKind::Parameter || !function_)
    return;
  for (const ExprPtr &index : expr.indices) {
    const Symbol *unguarded = nullptr;
    bool direct = false;
    forEachExprIn(*index, [&](const Expr &inner) {
      if (auto *call = dyn_cast<CallExpr>(&inner); call && call->function == Builtin::Grid)
        direct = true;
      if (auto *name = dyn_cast<NameExpr>(&inner); name && name->symbol && name->symbol->fromGridPosition &&
                                                     !guarded_.count(name->symbol) && !unguarded)
        unguarded = name->symbol;
    });
    if (direct && warnedGridIndices_.insert(nullptr).second) {
      warning(index->range()) << "this index is the thread's position and no test bounds it: a grid larger than '"
                              << array->name << "' accesses past its end; test it first, e.g. 'i = cuda.grid(1)' "
                                                "then 'if i < "
                              << array->name << ".shape[0]:'";
      return;
    }
    if (unguarded && warnedGridIndices_.insert(unguarded).second) {
      warning(index->range()) << "'" << unguarded->name
                              << "' is the thread's position and no test bounds it here: a grid larger than '"
                              << array->name << "' accesses past its end; guard the access, e.g. 'if "
                              << unguarded->name << " < " << array->name << ".shape[0]:'";
      note(unguarded->definition) << "'" << unguarded->name << "' comes from cuda.grid here";
      return;
    }
  }
}

} // namespace pyk::sema
