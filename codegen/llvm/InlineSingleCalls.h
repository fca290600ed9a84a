//===- InlineSingleCalls.h - Move once-called functions into their caller -===//
//
// A step before LLVM's optimisation pipeline, so that its time grows with
// the program, not with the square of a call chain's length (see the .cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_LLVM_INLINESINGLECALLS_H
#define PYK_CODEGEN_LLVM_INLINESINGLECALLS_H

#include "llvm/IR/Module.h"

namespace pyk::llvmgen {

/// Inlines every internal function that has exactly one call, callers
/// before callees, and deletes it.
void inlineSingleCalls(llvm::Module &module);

} // namespace pyk::llvmgen

#endif // PYK_CODEGEN_LLVM_INLINESINGLECALLS_H
