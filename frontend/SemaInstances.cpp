//===- SemaInstances.cpp - One definition, several compiled versions ------===//
//
// Numba compiles a function once per type signature: each signature in a
// kernel's list, and each distinct tuple of argument types a lazily typed
// device function is called with. pyk does the same. Every version is an
// ordinary FunctionInfo on its own copy of the definition (ASTClone.h):
//  - a kernel's versions are made with its signatures, before any body is
//    checked, and checked as every function is;
//  - a generic device function's instances are made at the calls that need
//    them, while the caller is being checked: the caller's state is set
//    aside, the instance is checked to the end (its return type is the
//    call's type), and the caller resumes. Calls cannot cycle: recursion
//    is rejected by name before any body is checked.
// A caller's body is checked several times while its locals' types settle,
// so an early pass may ask for an instance no final pass uses; its
// diagnostics are therefore kept aside and reported only through a call in
// a final pass, and only instances such calls reach are compiled.
//
//===----------------------------------------------------------------------===//
#include "ASTClone.h"
#include "SemaImpl.h"

#include <algorithm>

namespace pyk::sema {

using namespace ast;

FunctionInfo &Sema::addVersion(const FunctionInfo &original) {
  info_.instanceDefs.push_back(cloneFunction(*original.def));
  FunctionInfo &version = info_.functions.emplace_back();
  version.def = info_.instanceDefs.back().get();
  version.kind = original.kind;
  version.options = original.options;
  version.instanceOf = &original;
  return version;
}

Sema::FunctionState Sema::saveFunctionState() {
  return FunctionState{std::exchange(function_, nullptr),
                       std::exchange(functionScope_, {}),
                       std::exchange(localTypesChanged_, false),
                       std::exchange(flow_, {}),
                       std::exchange(loopDepth_, 0),
                       std::exchange(statementValue_, nullptr),
                       std::exchange(arrayDefinitionValue_, nullptr),
                       std::exchange(recordValue_, nullptr),
                       std::exchange(pendingArray_, std::nullopt),
                       std::exchange(inferredReturnType_, nullptr),
                       std::exchange(firstValueReturn_, nullptr),
                       std::exchange(firstBareReturn_, nullptr),
                       std::exchange(returnTypeDeclared_, false),
                       std::exchange(guarded_, {}),
                       std::exchange(warnedGridIndices_, {}),
                       std::exchange(hasFloat64Data_, false),
                       std::exchange(sawRejectedStatement_, false),
                       std::exchange(float64Warnings_, {}),
                       std::exchange(floatWidenings_, {}),
                       std::exchange(firstValues_, {}),
                       std::exchange(assignedByTrueDivision_, false),
                       std::exchange(nestedEffectfulCalls_, {}),
                       diags_,
                       realDiags_};
}

void Sema::restoreFunctionState(FunctionState &&state) {
  function_ = state.function;
  functionScope_ = std::move(state.scope);
  localTypesChanged_ = state.localTypesChanged;
  flow_ = std::move(state.flow);
  loopDepth_ = state.loopDepth;
  statementValue_ = state.statementValue;
  arrayDefinitionValue_ = state.arrayDefinitionValue;
  recordValue_ = state.recordValue;
  pendingArray_ = std::move(state.pendingArray);
  inferredReturnType_ = state.inferredReturnType;
  firstValueReturn_ = state.firstValueReturn;
  firstBareReturn_ = state.firstBareReturn;
  returnTypeDeclared_ = state.returnTypeDeclared;
  guarded_ = std::move(state.guarded);
  warnedGridIndices_ = std::move(state.warnedGridIndices);
  hasFloat64Data_ = state.hasFloat64Data;
  sawRejectedStatement_ = state.sawRejectedStatement;
  float64Warnings_ = std::move(state.float64Warnings);
  floatWidenings_ = std::move(state.floatWidenings);
  firstValues_ = std::move(state.firstValues);
  assignedByTrueDivision_ = state.assignedByTrueDivision;
  nestedEffectfulCalls_ = std::move(state.nestedEffectfulCalls);
  diags_ = state.diags;
  realDiags_ = state.realDiags;
}

FunctionInfo *Sema::instantiate(const FunctionInfo &generic, const std::vector<const Type *> &paramTypes) {
  auto key = std::make_pair(&generic, paramTypes);
  if (auto it = instances_.find(key); it != instances_.end())
    return it->second;
  FunctionInfo &instance = addVersion(generic);
  instances_[key] = &instance;
  Signature signature;
  signature.params = paramTypes;
  signature.range = generic.def->nameRange;
  for (const Parameter &param : generic.def->params)
    if (param.kind == Parameter::Kind::Normal)
      signature.paramRanges.push_back(param.range);

  FunctionState caller = saveFunctionState();
  auto diagnostics = std::make_unique<DiagnosticEngine>(caller.realDiags->file());
  diagnostics->addFilesOf(*caller.realDiags);
  realDiags_ = diags_ = diagnostics.get();
  function_ = &instance;
  const unsigned errorsBefore = realDiags_->errorCount();
  checkTypes(instance, signature);
  if (realDiags_->errorCount() != errorsBefore)
    signatureErrors_.insert(&instance);
  checkFunction(instance);
  instanceDiagnostics_[&instance] = std::move(diagnostics);
  restoreFunctionState(std::move(caller));
  return &instance;
}

void Sema::useInstance(const FunctionInfo &instance, SourceRange callRange) {
  auto found = instanceDiagnostics_.find(&instance);
  if (found == instanceDiagnostics_.end() || !instanceDiagnosticsUsed_.insert({diags_, &instance}).second)
    return;
  const DiagnosticEngine &reported = *found->second;
  for (const Diagnostic &diagnostic : reported.diagnostics())
    diags_->report(diagnostic);
  const bool warned = std::any_of(reported.diagnostics().begin(), reported.diagnostics().end(),
                                  [](const Diagnostic &d) { return d.severity == Severity::Warning; });
  if (reported.hasErrors() || warned) {
    std::string types;
    for (const Symbol *param : instance.params)
      types += (types.empty() ? "" : ", ") + param->type->str();
    note(callRange) << "in the version of '" << instance.def->name << "' for (" << types << "), called here";
  }
}

} // namespace pyk::sema
