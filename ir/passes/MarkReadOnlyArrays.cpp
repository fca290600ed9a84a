//===- MarkReadOnlyArrays.cpp - Find the arrays a function never writes ---===//
#include "passes/MarkReadOnlyArrays.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace pyk::ir {
namespace {

/// The arrays `body` stores to, itself (a store or an atomic) or through
/// the device functions it passes them to (already marked: callees come
/// first in a module).
std::set<const Variable *> writtenArrays(const StmtList &body) {
  std::set<const Variable *> written;
  auto noteCalls = [&](const Expr &e, auto &self) -> void {
    if (auto *atomic = llvm::dyn_cast<Atomic>(&e))
      written.insert(atomic->array);
    if (auto *call = llvm::dyn_cast<Call>(&e)) {
      for (size_t i = 0; i < call->args.size(); ++i) {
        auto *ref = llvm::dyn_cast<VarRef>(call->args[i].get());
        if (ref && ref->var->type.isArray() && !call->callee->params[i]->readOnly)
          written.insert(ref->var);
      }
    }
    forEachOperand(e, [&](const Expr &operand) { self(operand, self); });
  };
  forEachStmt(body, [&](const Stmt &stmt) {
    if (auto *store = llvm::dyn_cast<ArrayStore>(&stmt))
      written.insert(store->array);
  });
  forEachExprIn(body, [&](const Expr &e) { noteCalls(e, noteCalls); });
  // A store through a view writes the array it views (row = a[i]; row[j]
  // = v writes a), and so on down a chain of views.
  std::vector<std::pair<const Variable *, const Variable *>> viewOf;
  forEachStmt(body, [&](const Stmt &stmt) {
    const Variable *var = nullptr;
    const Expr *value = nullptr;
    if (auto *declare = llvm::dyn_cast<Declare>(&stmt))
      std::tie(var, value) = std::pair{declare->var, declare->init.get()};
    else if (auto *assign = llvm::dyn_cast<Assign>(&stmt))
      std::tie(var, value) = std::pair{assign->var, assign->value.get()};
    if (auto *view = llvm::dyn_cast_or_null<ArrayView>(value))
      viewOf.emplace_back(var, view->base);
  });
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &[view, base] : viewOf)
      if (written.count(view))
        grew |= written.insert(base).second;
  }
  return written;
}

} // namespace

void markReadOnlyArrays(Module &module) {
  for (auto &function : module.functions) {
    const std::set<const Variable *> written = writtenArrays(function->body);
    for (Variable *param : function->params)
      param->readOnly = param->type.isArray() && !written.count(param);
    for (Variable *var : function->mutableVariables())
      if (var->isView())
        var->readOnly = !written.count(var);
  }
}

} // namespace pyk::ir
