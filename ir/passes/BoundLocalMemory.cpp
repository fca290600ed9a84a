//===- BoundLocalMemory.cpp - The local-array bytes a thread may hold -----===//
#include "passes/BoundLocalMemory.h"

#include "IRWalk.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/MathExtras.h"

namespace pyk::ir {
namespace {

/// The bounds of the functions `body` calls, one per call site (their
/// bounds are set already: callees come first in a module). Saturating: a
/// chain of functions each calling the next twice doubles at every link.
uint64_t calleesBytes(const StmtList &body) {
  uint64_t bytes = 0;
  auto addCalls = [&](const Expr &e, auto &self) -> void {
    if (auto *call = llvm::dyn_cast<Call>(&e))
      bytes = llvm::SaturatingAdd(bytes, call->callee->localMemoryBytes);
    forEachOperand(e, [&](const Expr &operand) { self(operand, self); });
  };
  forEachExprIn(body, [&](const Expr &e) { addCalls(e, addCalls); });
  return bytes;
}

} // namespace

void boundLocalMemory(Module &module) {
  for (const auto &function : module.functions) {
    uint64_t own = 0;
    for (const Variable *var : function->variables())
      if (var->memory == Variable::Memory::Local)
        own += static_cast<uint64_t>(var->fixedBytes());
    function->localMemoryBytes = llvm::SaturatingAdd(own, calleesBytes(function->body));
  }
}

} // namespace pyk::ir
