//===- InlineSingleCalls.cpp - Move once-called functions into their caller ===//
//
// LLVM's inliner works bottom-up, callees first, and after each inlining
// optimises the grown caller again. It inlines the only call of an internal
// function almost whatever its size (a bonus of 15,000 on the cost), so on
// a chain `f1` calls `f0`, `f2` calls `f1`, ... each `fi` grows to i links
// and is optimised at that size: time quadratic in the chain's length (a
// chain of 5,000 device functions took 35 s at -O3, on the GPU and the CPU
// device alike).
//
// Done first and top-down, the same inlining copies each body once, into
// a caller that has not grown yet, and LLVM then optimises each function
// once. Inlining a function's only call duplicates no code, so this never
// makes the program bigger; it is what LLVM's inliner would do anyway,
// except for the rare callee too big even for the bonus.
//
//===----------------------------------------------------------------------===//
#include "InlineSingleCalls.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <vector>

namespace pyk::llvmgen {

/// The module's functions, each after every function that calls it
/// (recursion, which pyk rejects, aside).
static std::vector<llvm::Function *> callersFirst(llvm::Module &module) {
  llvm::CallGraph graph(module);
  std::vector<llvm::Function *> order;
  for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc)
    for (llvm::CallGraphNode *node : *scc)
      if (llvm::Function *function = node->getFunction())
        order.push_back(function);
  return {order.rbegin(), order.rend()};
}

/// The one call of `callee`, when it is internal, called from one place
/// other than itself, and can be inlined; otherwise null.
static llvm::CallBase *singleCall(llvm::Function &callee) {
  if (!callee.hasLocalLinkage() || callee.isDeclaration() || !callee.hasOneUse() ||
      callee.hasFnAttribute(llvm::Attribute::NoInline))
    return nullptr;
  auto *call = llvm::dyn_cast<llvm::CallBase>(callee.user_back());
  if (!call || call->getCalledFunction() != &callee || call->getFunction() == &callee)
    return nullptr;
  return llvm::isInlineViable(callee).isSuccess() ? call : nullptr;
}

void inlineSingleCalls(llvm::Module &module) {
  for (llvm::Function *callee : callersFirst(module)) {
    llvm::CallBase *call = singleCall(*callee);
    if (!call)
      continue;
    llvm::InlineFunctionInfo info;
    if (llvm::InlineFunction(*call, info).isSuccess() && callee->use_empty())
      callee->eraseFromParent();
  }
}

} // namespace pyk::llvmgen
