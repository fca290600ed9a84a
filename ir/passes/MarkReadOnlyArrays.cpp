//===- MarkReadOnlyArrays.cpp - Find the arrays a function never writes ---===//
#include "passes/MarkReadOnlyArrays.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"

#include <set>

namespace pyk::ir {
namespace {

void collectStores(const StmtList &body, std::set<const Variable *> &written) {
  forEachStmt(body, [&](const Stmt &stmt) {
    if (auto *store = llvm::dyn_cast<ArrayStore>(&stmt))
      written.insert(store->array);
  });
}

} // namespace

void markReadOnlyArrays(Module &module) {
  for (auto &function : module.functions) {
    std::set<const Variable *> written;
    collectStores(function->body, written);
    for (Variable *param : function->params)
      param->readOnly = param->type.isArray() && !written.count(param);
  }
}

} // namespace pyk::ir
