//===- Lower.h - The IR pipeline, from checked AST to verified IR ---------===//
#ifndef PYK_IR_LOWER_H
#define PYK_IR_LOWER_H

#include "IR.h"
#include "Sema.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace pyk::ir {

/// Lowers a module Sema checked without errors and runs the IR passes in
/// order, verifying the IR after each. An error means a compiler bug.
/// `checkEveryKernel` (pykc --checked) compiles every kernel in checked
/// mode; `remarks`, when not null, receives the guard analysis's remarks.
llvm::Expected<std::unique_ptr<Module>> lowerAndOptimize(const ModuleInfo &info, const SourceFile &file,
                                                         bool checkEveryKernel = false,
                                                         DiagnosticEngine *remarks = nullptr);

} // namespace pyk::ir

#endif // PYK_IR_LOWER_H
