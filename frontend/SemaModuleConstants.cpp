//===- SemaModuleConstants.cpp - Module constants as files write them -----===//
//
// A module constant is `NAME = value`. Real kernel files also unpack a
// tuple into several constants, as Python does:
//
//   bpg, tpb = 50, 32
//   TPB, (ROWS, COLS) = 16, (4, 8)
//
// Each name becomes a constant of its own, exactly as if it had been
// written `bpg = 50` and `tpb = 32`, so that its uses (kernel bodies,
// shapes of shared and local arrays) need nothing new. The value is a tuple
// written out, or a tuple constant defined earlier (`ROWS, COLS = SHAPE`).
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "llvm/Support/Casting.h"

#include <functional>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

void Sema::declareConstants(AssignStmt &stmt) {
  if (stmt.targets.size() != 1) {
    error(stmt.range()) << "a module constant is assigned to one name, as in 'TPB = 16'";
    return;
  }
  if (auto *name = dyn_cast<NameExpr>(stmt.targets[0].get()))
    return declareConstant(*name, *stmt.value);
  if (auto *targets = dyn_cast<TupleExpr>(stmt.targets[0].get()))
    return declareUnpackedConstants(*targets, *stmt.value);
  error(stmt.targets[0]->range()) << "a module constant is assigned to a name, as in 'TPB = 16', or to names "
                                     "that unpack a tuple, as in 'BPG, TPB = 50, 32'";
}

namespace {

/// Every name in `targets`, however deep.
void forEachTargetName(TupleExpr &targets, const std::function<void(NameExpr &)> &f) {
  for (ExprPtr &target : targets.elements) {
    if (auto *name = dyn_cast<NameExpr>(target.get()))
      f(*name);
    else if (auto *inner = dyn_cast<TupleExpr>(target.get()))
      forEachTargetName(*inner, f);
  }
}

} // namespace

void Sema::declareUnpackedConstants(TupleExpr &targets, Expr &value) {
  // After an error the names are declared with the error type, so that
  // their uses give no second error.
  auto reject = [&] {
    forEachTargetName(targets, [&](NameExpr &name) {
      if (!moduleScope_.count(name.name))
        addSymbol(moduleScope_, Symbol{SymbolKind::Constant, name.name, name.range(), types_.errorType(),
                                       std::nullopt, ScalarKind::Bool, Builtin::None, nullptr, 0});
    });
  };
  for (const ExprPtr &target : targets.elements)
    if (!isa<NameExpr>(*target) && !isa<TupleExpr>(*target)) {
      error(target->range()) << "a module constant unpacks a tuple into names, as in 'BPG, TPB = 50, 32'";
      return reject();
    }
  auto *values = dyn_cast<TupleExpr>(&value);
  if (!values) {
    // A tuple constant defined earlier: its elements are scalars (a tuple
    // constant holds no tuples), so every target is a name.
    checkValue(value);
    auto *name = dyn_cast<NameExpr>(&value);
    const Symbol *symbol = name ? name->symbol : nullptr;
    if (value.type->isError())
      return reject();
    if (!symbol || symbol->kind != SymbolKind::Constant || !value.type->isTuple()) {
      error(value.range()) << "the value unpacked into module constants must be a tuple, as in 'BPG, TPB = 50, 32'";
      return reject();
    }
    if (symbol->tupleConstant.size() != targets.elements.size()) {
      error(value.range()) << "cannot unpack " << symbol->tupleConstant.size() << " values into "
                           << targets.elements.size() << " names";
      return reject();
    }
    for (size_t i = 0; i < targets.elements.size(); ++i) {
      auto *target = dyn_cast<NameExpr>(targets.elements[i].get());
      if (!target) {
        error(targets.elements[i]->range()) << "cannot unpack a number into several names";
        forEachTargetName(llvm::cast<TupleExpr>(*targets.elements[i]), [&](NameExpr &inner) {
          if (!moduleScope_.count(inner.name))
            addSymbol(moduleScope_, Symbol{SymbolKind::Constant, inner.name, inner.range(), types_.errorType(),
                                           std::nullopt, ScalarKind::Bool, Builtin::None, nullptr, 0});
        });
        continue;
      }
      if (auto it = moduleScope_.find(target->name); it != moduleScope_.end()) {
        error(target->range()) << "'" << target->name << "' is already defined at module level";
        note(it->second->definition) << "previous definition is here";
        continue;
      }
      const Type *type = value.type->elements()[i];
      Symbol element{SymbolKind::Constant, target->name, target->range(), type, symbol->tupleConstant[i],
                     ScalarKind::Bool, Builtin::None, nullptr, 0};
      target->type = type;
      target->isWeak = true;
      target->constant = symbol->tupleConstant[i];
      addSymbol(moduleScope_, std::move(element));
    }
    return;
  }
  if (values->elements.size() != targets.elements.size()) {
    error(value.range()) << "cannot unpack " << values->elements.size() << " values into "
                         << targets.elements.size() << " names";
    return reject();
  }
  for (size_t i = 0; i < targets.elements.size(); ++i) {
    if (auto *name = dyn_cast<NameExpr>(targets.elements[i].get()))
      declareConstant(*name, *values->elements[i]);
    else
      declareUnpackedConstants(llvm::cast<TupleExpr>(*targets.elements[i]), *values->elements[i]);
  }
}

} // namespace pyk::sema
