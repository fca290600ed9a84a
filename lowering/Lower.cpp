//===- Lower.cpp - The IR pipeline, from checked AST to verified IR -------===//
//
// The passes run in the order of one table, and the IR is verified after
// each so that a broken pass is caught where it broke the IR. After the last
// pass the backends see primitive operations only (IRStage::Lowered).
//
//===----------------------------------------------------------------------===//
#include "Lower.h"

#include "ASTToIR.h"
#include "IRVerifier.h"
#include "SymbolNames.h"
#include "passes/BoundLocalMemory.h"
#include "passes/CheckKernelLimits.h"
#include "passes/InsertChecks.h"
#include "passes/LowerComplex.h"
#include "passes/LowerFloat16.h"
#include "passes/LowerPythonOps.h"
#include "passes/MarkNarrowOffsets.h"
#include "passes/MarkOverflowingArithmetic.h"
#include "passes/MarkReadOnlyArrays.h"
#include "passes/PlanChecks.h"
#include "passes/WrapNegativeIndices.h"

#include <iterator>

namespace pyk::ir {
namespace {

/// What a pass may read besides the module.
struct PassContext {
  DiagnosticEngine &diags;
  const LowerOptions &options;
  /// Where remarks go: null unless asked for.
  DiagnosticEngine *remarks() const { return options.remarks ? &diags : nullptr; }
};

struct Pass {
  /// Its name in pykc --print-ir-after.
  const char *name;
  void (*run)(Module &, const PassContext &);
};

const Pass passes[] = {
    {"mark-read-only-arrays", [](Module &m, const PassContext &) { markReadOnlyArrays(m); }},
    {"wrap-negative-indices", [](Module &m, const PassContext &c) { wrapNegativeIndices(m, c.remarks()); }},
    {"plan-checks", [](Module &m, const PassContext &c) { planChecks(m, c.options.checkEveryKernel, c.remarks()); }},
    {"bound-local-memory", [](Module &m, const PassContext &) { boundLocalMemory(m); }},
    {"check-kernel-limits", [](Module &m, const PassContext &c) { checkKernelLimits(m, c.diags); }},
    {"mark-narrow-offsets", [](Module &m, const PassContext &) { markNarrowOffsets(m); }},
    // The backends see primitive operations only. Complex numbers first:
    // their ** is not lowerPythonOps' (which writes the rest of Python's).
    {"lower-complex", [](Module &m, const PassContext &) { lowerComplex(m); }},
    {"lower-python-ops", [](Module &m, const PassContext &) { lowerPythonOps(m); }},
    // After lowerPythonOps, whose floor divisions and powers are math calls.
    {"lower-float16", [](Module &m, const PassContext &) { lowerFloat16(m); }},
    // After lowering, so that the compiler-made functions are marked too.
    {"mark-overflowing-arithmetic", [](Module &m, const PassContext &) { markOverflowingArithmetic(m); }},
    // Last, so that the passes before see planChecks' decisions on the
    // accesses themselves, and none sees the control flow that spells them.
    {"insert-checks", [](Module &m, const PassContext &) { insertChecks(m); }},
};

} // namespace

std::vector<std::string> passNames() {
  std::vector<std::string> names = {"ast-to-ir"};
  for (const Pass &pass : passes)
    names.emplace_back(pass.name);
  return names;
}

llvm::Expected<std::unique_ptr<Module>> lowerAndOptimize(const ModuleInfo &info, const SourceFile &file,
                                                         DiagnosticEngine &diags, const LowerOptions &options) {
  // A declared CUDA C++ function's C name is a symbol of the linked
  // program: one the generated code declares for itself (a C library or
  // CUDA function, a pyk_ helper) would be two functions' (SymbolNames.h).
  for (const pyk::ForeignFunction &function : info.foreignFunctions)
    if (isReservedInCxx(function.name))
      diags.error(function.declaration) << "'" << function.name << "' is a name that C++, the C library or CUDA's "
                                        << "headers have, which the generated code uses; give the CUDA C++ function "
                                        << "another name";
  std::unique_ptr<Module> module = lowerToIR(info, file);
  module->narrowIndices = options.narrowIndices;
  if (llvm::Error error = verifyModule(*module))
    return error;
  if (options.afterPass)
    options.afterPass("ast-to-ir", *module);

  const PassContext context{diags, options};
  for (const Pass &pass : passes) {
    pass.run(*module, context);
    const bool last = &pass == std::prev(std::end(passes));
    if (llvm::Error error = verifyModule(*module, last ? IRStage::Lowered : IRStage::Lowering))
      return error;
    if (options.afterPass)
      options.afterPass(pass.name, *module);
  }
  return module;
}

} // namespace pyk::ir
