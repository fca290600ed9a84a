//===- Lower.h - The IR pipeline, from checked AST to verified IR ---------===//
#ifndef PYK_IR_LOWER_H
#define PYK_IR_LOWER_H

#include "IR.h"
#include "Sema.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace pyk::ir {

/// Lowers a module Sema checked without errors and runs the IR passes in
/// order, verifying the IR after each. A kernel past a GPU limit is
/// reported into `diags` (the module is still returned: check
/// diags.hasErrors()); an llvm::Error means a compiler bug.
/// `checkEveryKernel` (pykc --checked) compiles every kernel in checked
/// mode; with `remarks`, `diags` also receives the guard analysis's remarks.
llvm::Expected<std::unique_ptr<Module>> lowerAndOptimize(const ModuleInfo &info, const SourceFile &file,
                                                         DiagnosticEngine &diags, bool checkEveryKernel = false,
                                                         bool remarks = false);

} // namespace pyk::ir

#endif // PYK_IR_LOWER_H
