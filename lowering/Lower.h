//===- Lower.h - The IR pipeline, from checked AST to verified IR ---------===//
#ifndef PYK_LOWERING_LOWER_H
#define PYK_LOWERING_LOWER_H

#include "IR.h"
#include "Sema.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pyk::ir {

struct LowerOptions {
  /// Compile every kernel in checked mode (pykc --checked).
  bool checkEveryKernel = false;
  /// Report the guard analysis's remarks into the diagnostics.
  bool remarks = false;
  /// pykc --index-bits=32 (Module::narrowIndices).
  bool narrowIndices = false;
  /// Called with each pass's name and the verified IR after it, the first
  /// time after the AST's lowering ("ast-to-ir"): pykc --print-ir-after.
  std::function<void(std::string_view pass, const Module &)> afterPass;
};

/// The passes' names, in the order they run ("ast-to-ir" first).
std::vector<std::string> passNames();

/// Lowers a module Sema checked without errors and runs the IR passes in
/// order, verifying the IR after each. A kernel past a GPU limit is
/// reported into `diags` (the module is still returned: check
/// diags.hasErrors()); an llvm::Error means a compiler bug.
llvm::Expected<std::unique_ptr<Module>> lowerAndOptimize(const ModuleInfo &info, const SourceFile &file,
                                                         DiagnosticEngine &diags, const LowerOptions &options = {});

} // namespace pyk::ir

#endif // PYK_LOWERING_LOWER_H
