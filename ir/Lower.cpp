//===- Lower.cpp - The IR pipeline, from checked AST to verified IR -------===//
//
// Read top to bottom: each step is one pass, and the IR is verified after
// each so that a broken pass is caught where it broke the IR.
//
//===----------------------------------------------------------------------===//
#include "Lower.h"

#include "ASTToIR.h"
#include "IRVerifier.h"
#include "passes/BoundLocalMemory.h"
#include "passes/CheckKernelLimits.h"
#include "passes/LowerPythonOps.h"
#include "passes/MarkReadOnlyArrays.h"
#include "passes/PlanChecks.h"
#include "passes/WrapNegativeIndices.h"

namespace pyk::ir {

llvm::Expected<std::unique_ptr<Module>> lowerAndOptimize(const ModuleInfo &info, const SourceFile &file,
                                                         DiagnosticEngine &diags, bool checkEveryKernel, bool remarks) {
  std::unique_ptr<Module> module = lowerToIR(info, file);
  if (llvm::Error error = verifyModule(*module))
    return error;

  markReadOnlyArrays(*module);
  if (llvm::Error error = verifyModule(*module))
    return error;
  wrapNegativeIndices(*module, remarks ? &diags : nullptr);
  if (llvm::Error error = verifyModule(*module))
    return error;
  planChecks(*module, checkEveryKernel, remarks ? &diags : nullptr);
  if (llvm::Error error = verifyModule(*module))
    return error;
  boundLocalMemory(*module);
  if (llvm::Error error = verifyModule(*module))
    return error;
  checkKernelLimits(*module, diags);
  // The backends see primitive operations only.
  lowerPythonOps(*module);
  if (llvm::Error error = verifyModule(*module, IRStage::Lowered))
    return error;

  return module;
}

} // namespace pyk::ir
