//===- MarkReadOnlyArrays.cpp - Find the arrays a function never writes ---===//
#include "passes/MarkReadOnlyArrays.h"

#include "llvm/Support/Casting.h"

#include <set>

namespace pyk::ir {
namespace {

void collectStores(const StmtList &body, std::set<const Variable *> &written) {
  for (const StmtPtr &stmt : body) {
    if (auto *store = llvm::dyn_cast<ArrayStore>(stmt.get()))
      written.insert(store->array);
    else if (auto *branch = llvm::dyn_cast<If>(stmt.get())) {
      collectStores(branch->thenBody, written);
      collectStores(branch->elseBody, written);
    }
  }
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
