//===- LLVMEmitterDeclarations.cpp - Functions, parameters, debug info ----===//
//
// How each IR function becomes an LLVM function: a kernel's PTX entry (its
// arrays noalias, its launch bounds annotated), a device function's
// internal definition, their parameters (checked mode's two included), and
// the debug information that points back at the .pyk file.
//
//===----------------------------------------------------------------------===//
#include "FunctionEmitter.h"

namespace pyk::llvmgen::emit {

// --- Declaration ----------------------------------------------------------
/// Checked functions: the check record's pointer and the launch's word.
void FunctionEmitter::addCheckParameterTypes(std::vector<llvm::Type *> &types) {
  if (!function_.checked)
    return;
  types.push_back(llvm::PointerType::get(context_, 0));
  types.push_back(llvm::Type::getInt64Ty(context_));
}

/// Names the arguments addCheckParameterTypes added, from `index` on.
/// Returns the next argument's index.
unsigned FunctionEmitter::bindCheckParameters(unsigned index) {
  if (!function_.checked)
    return index;
  checkRecord_ = llvmFunction_->getArg(index);
  checkRecord_->setName("pyk_check_record");
  checkLaunch_ = llvmFunction_->getArg(index + 1);
  checkLaunch_->setName("pyk_check_launch");
  return index + 2;
}

/// An array as a pointer in `space` and one int64 per extent, a scalar as
/// its register type.
std::vector<llvm::Type *> FunctionEmitter::parameterTypes(unsigned space) {
  std::vector<llvm::Type *> types;
  for (const Variable *param : function_.params) {
    if (param->type.isArray()) {
      types.push_back(llvm::PointerType::get(context_, space));
      types.insert(types.end(), param->type.rank, llvm::Type::getInt64Ty(context_));
      if (!param->type.contiguous) // a strided view's strides
        types.insert(types.end(), param->type.rank, llvm::Type::getInt64Ty(context_));
    } else {
      types.push_back(registerType(param->type.scalar, context_));
    }
  }
  return types;
}

/// Names the arguments of parameterTypes() and records them as the
/// parameters' values; arrays get their alignment, and readonly when never
/// written, and then noalias when asked. Never noalias on an array the
/// function writes: LLVM takes a call or fence that is given no pointer to
/// a noalias argument to leave its memory alone, so it would reuse a load
/// from before a barrier after it, where another thread has written the
/// element in between (what barriers are for). Returns the next argument's
/// index.
unsigned FunctionEmitter::bindParameters(bool noAlias) {
  unsigned index = 0;
  for (const Variable *param : function_.params) {
    llvm::Argument *arg = llvmFunction_->getArg(index++);
    arg->setName(param->name);
    if (!param->type.isArray()) {
      scalars_[param] = arg;
      continue;
    }
    if (noAlias && param->readOnly)
      arg->addAttr(llvm::Attribute::NoAlias);
    if (param->readOnly)
      arg->addAttr(llvm::Attribute::ReadOnly);
    const unsigned alignment =
        param->type.record ? param->type.record->alignment() : byteWidth(param->type.scalar);
    arg->addAttr(llvm::Attribute::getWithAlignment(context_, llvm::Align(alignment)));
    ArrayValue array;
    array.data = arg;
    for (unsigned axis = 0; axis < param->type.rank; ++axis) {
      llvm::Argument *extent = llvmFunction_->getArg(index++);
      extent->setName(param->name + ".shape" + std::to_string(axis));
      array.extents.push_back(extent);
    }
    for (unsigned axis = 0; !param->type.contiguous && axis < param->type.rank; ++axis) {
      llvm::Argument *stride = llvmFunction_->getArg(index++);
      stride->setName(param->name + ".stride" + std::to_string(axis));
      array.strides.push_back(stride);
    }
    arrays_[param] = array;
  }
  return index;
}

/// An internal function: arrays as generic pointers (global, shared or
/// local memory: after inlining, NVPTX infers which) and not noalias (a
/// device function may be passed the same array twice), and their
/// extents; then what the target adds (addContextParameterTypes).
void FunctionEmitter::declareDeviceFunction() {
  std::vector<llvm::Type *> paramTypes = parameterTypes(AddressSpace::Generic);
  // `return a, b`: a pointer per result, to the caller's local.
  paramTypes.insert(paramTypes.end(), function_.results.size(), llvm::PointerType::get(context_, AddressSpace::Generic));
  addCheckParameterTypes(paramTypes);
  addContextParameterTypes(paramTypes);
  llvm::Type *returnType = function_.returnType.isVoid() ? llvm::Type::getVoidTy(context_)
                                                         : registerType(function_.returnType.scalar, context_);
  auto *type = llvm::FunctionType::get(returnType, paramTypes, false);
  llvmFunction_ = llvm::Function::Create(type, llvm::Function::InternalLinkage, function_.symbol, module_);
  llvmFunction_->addFnAttr(llvm::Attribute::NoUnwind);
  if (function_.inlineAlways)
    llvmFunction_->addFnAttr(llvm::Attribute::AlwaysInline);
  unsigned next = bindParameters(/*noAlias=*/false);
  for (const Variable *result : function_.results) {
    llvm::Argument *arg = llvmFunction_->getArg(next++);
    arg->setName(result->name);
    arg->addAttr(llvm::Attribute::NoAlias);
    arg->addAttr(llvm::Attribute::NoCapture);
    locals_[result] = arg;
  }
  nameContextParameters(bindCheckParameters(next));
}

/// Stores the values of the parameters the body assigns into their
/// memory.
void FunctionEmitter::initAssignedParams() {
  for (const Variable *param : function_.params)
    if (auto it = locals_.find(param); it != locals_.end())
      builder_.CreateStore(toMemory(scalars_.at(param), param->type.scalar), it->second);
}

void FunctionEmitter::attachDebugInfo() {
  if (debug_) {
    llvm::DISubprogram *subprogram = debug_->createFunction(
        file_, function_.name, function_.name, file_, function_.loc.begin.line,
        debug_->createSubroutineType(debug_->getOrCreateTypeArray({})), function_.loc.begin.line,
        llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
    llvmFunction_->setSubprogram(subprogram);
    scope_ = subprogram;
    // A compiler-made function (pyk_complex_powi_c64) has no line of the
    // .pyk file; its calls still need a location in its scope: line 0,
    // LLVM's "no source line".
    if (!function_.loc.isValid())
      builder_.SetCurrentDebugLocation(llvm::DILocation::get(context_, 0, 0, scope_));
  }
}

void FunctionEmitter::at(SourceRange loc) {
  if (scope_ && loc.isValid())
    builder_.SetCurrentDebugLocation(llvm::DILocation::get(context_, loc.begin.line, loc.begin.column, scope_));
}

} // namespace pyk::llvmgen::emit
